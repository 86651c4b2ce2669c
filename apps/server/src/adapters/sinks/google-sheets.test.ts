import { listDocumentSheetColumns, listLineSheetColumns } from '@bahi/contracts';
import type { sheets_v4 } from '@googleapis/sheets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../../config/env.ts';
import { createOAuthClient, createSheetsClient, withGoogleRetry } from '../../modules/google/google-api.ts';
import {
  authorizeStandIn,
  type GoogleStandIn,
  installLoopbackGuard,
  startGoogleStandIn,
} from '../../test/google-stand-in.ts';
import {
  createGoogleSheetsSink,
  createOutputSpreadsheet,
  type GoogleCall,
  KEY_HEADER,
  SHEET_TABS,
} from './google-sheets.ts';
import type { SheetContent, SheetRow } from './sink.ts';

let google: GoogleStandIn;
let guard: ReturnType<typeof installLoopbackGuard>;
let sheets: sheets_v4.Sheets;
const waits: number[] = [];
const retrying: GoogleCall = (fn) =>
  withGoogleRetry(fn, { sleep: async (ms) => waits.push(ms), random: () => 0.25 });

const documentColumns = listDocumentSheetColumns('INVOICE');
const lineColumns = listLineSheetColumns('INVOICE');

/** `n` documents with two lines each, shaped like the flow's sheet rows. */
function makeContent(n: number): SheetContent {
  const documents: SheetRow[] = [];
  const lines: SheetRow[] = [];
  for (let i = 0; i < n; i++) {
    const row: SheetRow = {};
    for (const c of documentColumns) row[c.key] = null;
    Object.assign(row, {
      documentNumber: `INV-${i}`,
      documentDate: '2026-04-01',
      taxableValue: 118000.5 + i,
      fileName: `inv-${i}.pdf`,
      link: `http://localhost/api/documents/doc-${i}/file`,
    });
    documents.push(row);
    for (let l = 1; l <= 2; l++)
      lines.push({ documentNumber: `INV-${i}`, fileName: `inv-${i}.pdf`, lineNo: l });
  }
  return { documentColumns, lineColumns, documents, lines };
}

const keyOf = (tab: 'documents' | 'lines', row: SheetRow) =>
  tab === 'documents' ? String(row.link) : `${row.fileName}#${row.lineNo}`;

beforeAll(async () => {
  guard = installLoopbackGuard();
  google = await startGoogleStandIn();
  const env = parseEnv({
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_CLIENT_SECRET: google.clientSecret,
    GOOGLE_OAUTH_BASE_URL: google.url,
    GOOGLE_API_BASE_URL: google.url,
  });
  const tokens = await authorizeStandIn(google);
  const auth = createOAuthClient(env);
  auth.setCredentials({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken });
  sheets = createSheetsClient(env, auth);
});

afterAll(async () => {
  await google?.close();
  guard?.restore();
  expect(guard.refused).toEqual([]);
});

const appends = () => google.requests.filter((r) => r.path.endsWith(':append')).length;

describe('Google Sheets sink', () => {
  it('creates the spreadsheet with the workbook tabs and columns, frozen header, Indian formats, hidden key', async () => {
    const created = await createOutputSpreadsheet(sheets, {
      title: 'Invoices',
      documentColumns,
      lineColumns,
    });
    const ss = google.spreadsheets.get(created.spreadsheetId)!;
    expect(ss.sheets.map((s) => s.title)).toEqual(['Documents', 'Line Items']);
    const docs = ss.sheets[0]!;
    expect(docs.rows[0]).toEqual([...documentColumns.map((c) => c.label), KEY_HEADER]);
    expect(ss.sheets[1]!.rows[0]).toEqual([...lineColumns.map((c) => c.label), KEY_HEADER]);
    expect(docs.frozenRowCount).toBe(1);
    expect(docs.hiddenColumns).toEqual([documentColumns.length]);
    const moneyIndex = documentColumns.findIndex((c) => c.kind === 'money');
    expect(docs.numberFormats[moneyIndex]).toBe('#,##,##0.00');
  });

  it('appends in batches of at most 100 rows and never twice, also after a crash mid-write', async () => {
    const { spreadsheetId } = await createOutputSpreadsheet(sheets, {
      title: 'Batches',
      documentColumns,
      lineColumns,
    });
    const content = makeContent(250);

    // The second append fails and nothing retries it: rows 1–100 are in the sheet, the run "crashed".
    google.inject({ kind: 'status', status: 500, method: 'POST', path: /:append$/, skip: 1 });
    const crashing = createGoogleSheetsSink({ sheets, spreadsheetId, keyOf, call: (fn) => fn() });
    await expect(crashing.writeRows(content)).rejects.toThrow();
    const ss = google.spreadsheets.get(spreadsheetId)!;
    expect(ss.sheets[0]!.rows).toHaveLength(1 + 100);

    // The retried job writes the rest, reading the keys the sheet already holds.
    const sink = createGoogleSheetsSink({ sheets, spreadsheetId, keyOf, call: retrying });
    const before = appends();
    const resumed = await sink.writeRows(content);
    expect(resumed.appended).toEqual({ documents: 150, lines: 500 });
    expect(appends() - before).toBe(2 + 5); // ⌈150/100⌉ + ⌈500/100⌉ write requests
    for (const r of google.requests.filter((q) => q.path.endsWith(':append')))
      expect(((r.body as { values: unknown[] }).values ?? []).length).toBeLessThanOrEqual(100);

    const docRows = ss.sheets[0]!.rows.slice(1);
    expect(docRows).toHaveLength(250);
    const keyIndex = documentColumns.length;
    expect(new Set(docRows.map((r) => r[keyIndex])).size).toBe(250);
    expect(ss.sheets[1]!.rows.slice(1)).toHaveLength(500);
    const totalIndex = documentColumns.findIndex((c) => c.key === 'taxableValue');
    expect(docRows.find((r) => r[keyIndex]?.includes('doc-7/'))?.[totalIndex]).toBe('118007.5');

    // A re-run appends nothing.
    const again = await sink.writeRows(content);
    expect(again.appended).toEqual({ documents: 0, lines: 0 });
    expect(ss.sheets[0]!.rows).toHaveLength(251);
  });

  it('backs off on 429 honouring Retry-After with jitter, and finishes the write', async () => {
    const { spreadsheetId } = await createOutputSpreadsheet(sheets, {
      title: 'Quota',
      documentColumns,
      lineColumns,
    });
    waits.length = 0;
    google.inject({ kind: 'status', status: 429, retryAfter: 3, method: 'POST', path: /:append$/, times: 2 });
    const sink = createGoogleSheetsSink({ sheets, spreadsheetId, keyOf, call: retrying });
    const result = await sink.writeRows(makeContent(30));
    expect(result.appended).toEqual({ documents: 30, lines: 60 });
    expect(waits).toEqual([3250, 3250]);
    expect(google.spreadsheets.get(spreadsheetId)!.sheets[0]!.rows).toHaveLength(31);
  });

  it('maps a revoked grant to google_auth_required', async () => {
    const { spreadsheetId } = await createOutputSpreadsheet(sheets, {
      title: 'Revoked',
      documentColumns,
      lineColumns,
    });
    google.inject({ kind: 'status', status: 401, times: 2, path: /^\/v4\/spreadsheets/ });
    const sink = createGoogleSheetsSink({ sheets, spreadsheetId, keyOf, call: retrying });
    await expect(sink.writeRows(makeContent(1))).rejects.toMatchObject({ code: 'google_auth_required' });
    expect(SHEET_TABS.lines).toBe('Line Items');
  });
});
