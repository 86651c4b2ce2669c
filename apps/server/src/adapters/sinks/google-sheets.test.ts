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
import { INDIAN_MONEY_FORMAT } from './xlsx-workbook.ts';

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

/** Keys as the flow makes them: document id, document id + line number. */
const keyOf = (tab: 'documents' | 'lines', row: SheetRow) => {
  const doc =
    tab === 'documents'
      ? /doc-(\d+)/.exec(String(row.link))?.[1]
      : /inv-(\d+)/.exec(String(row.fileName))?.[1];
  return tab === 'documents' ? `doc-${doc}` : `doc-${doc}#${row.lineNo}`;
};

/** A tab's rows below the header, as the stand-in holds them. */
function tabRows(spreadsheetId: string, tab: 'Documents' | 'Line Items'): string[][] {
  const sheet = google.spreadsheets.get(spreadsheetId)!.sheets.find((s) => s.title === tab)!;
  return sheet.rows.slice(1);
}

/** The rows a first write of `content` puts in a fresh spreadsheet: what a sheet must hold, sorted. */
async function expectedRows(content: SheetContent) {
  const { spreadsheetId } = await createOutputSpreadsheet(sheets, {
    title: 'Fresh',
    documentColumns,
    lineColumns,
  });
  await createGoogleSheetsSink({ sheets, spreadsheetId, keyOf }).writeRows(content);
  return sortedRows(spreadsheetId);
}

function sortedRows(spreadsheetId: string) {
  const sort = (rows: string[][]) => rows.map((r) => JSON.stringify(r)).sort();
  return {
    documents: sort(tabRows(spreadsheetId, 'Documents')),
    lines: sort(tabRows(spreadsheetId, 'Line Items')),
  };
}

/** `content` with document `i` re-processed: another taxable value and `lineCount` lines. */
function reprocess(content: SheetContent, i: number, lineCount: number, taxableValue = 999.25): SheetContent {
  const documents = content.documents.map((d) =>
    d.fileName === `inv-${i}.pdf` ? { ...d, taxableValue } : d,
  );
  const lines = content.lines.filter((l) => l.fileName !== `inv-${i}.pdf`);
  const at = content.lines.findIndex((l) => l.fileName === `inv-${i}.pdf`);
  const fresh = Array.from({ length: lineCount }, (_, l) => ({
    documentNumber: `INV-${i}`,
    fileName: `inv-${i}.pdf`,
    lineNo: l + 1,
    description: `re-read ${l + 1}`,
  }));
  lines.splice(at < 0 ? lines.length : at, 0, ...fresh);
  return { ...content, documents, lines };
}

const deletes = () =>
  google.requests.filter(
    (r) =>
      r.path.endsWith(':batchUpdate') &&
      ((r.body as { requests?: Array<{ deleteDimension?: unknown }> }).requests ?? []).some(
        (q) => q.deleteDimension,
      ),
  );

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
    expect(docs.numberFormats[moneyIndex]).toBe(INDIAN_MONEY_FORMAT);
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
    expect(docRows.find((r) => r[keyIndex]?.startsWith('doc-7@'))?.[totalIndex]).toBe('118007.5');

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

  it('replaces a re-processed document: in place when its row count holds, else deleted and appended', async () => {
    const { spreadsheetId } = await createOutputSpreadsheet(sheets, {
      title: 'Replace',
      documentColumns,
      lineColumns,
    });
    const sink = createGoogleSheetsSink({ sheets, spreadsheetId, keyOf, call: retrying });
    const before = makeContent(6);
    await sink.writeRows(before);

    // doc-1: new values, still two lines (in place); doc-2: three lines now; doc-4: failed on re-processing.
    let after = reprocess(before, 1, 2, 111.5);
    after = reprocess(after, 2, 3, 222.5);
    after = {
      ...after,
      documents: after.documents.filter((d) => d.fileName !== 'inv-4.pdf'),
      lines: after.lines.filter((l) => l.fileName !== 'inv-4.pdf'),
    };
    const result = await sink.writeRows(after, { removeGroups: ['doc-4'] });
    expect(result.updated).toEqual({ documents: 2, lines: 2 });
    expect(result.deleted).toEqual({ documents: 1, lines: 4 });
    expect(result.appended).toEqual({ documents: 0, lines: 3 });
    expect(sortedRows(spreadsheetId)).toEqual(await expectedRows(after));
    // Rows updated in place keep their position (users sort and annotate their sheet).
    expect(tabRows(spreadsheetId, 'Documents')[1]?.[documentColumns.length]).toMatch(/^doc-1@/);

    // The same content again: two reads, nothing written.
    const requestsBefore = google.requests.length;
    const again = await sink.writeRows(after, { removeGroups: ['doc-4'] });
    expect(again).toMatchObject({
      appended: { documents: 0, lines: 0 },
      updated: { documents: 0, lines: 0 },
    });
    expect(again.deleted).toEqual({ documents: 0, lines: 0 });
    expect(google.requests.length - requestsBefore).toBe(2);
  });

  it('deletes bottom-up, at most 100 rows per request, and converges after a crash between delete and append', async () => {
    const { spreadsheetId } = await createOutputSpreadsheet(sheets, {
      title: 'Bulk',
      documentColumns,
      lineColumns,
    });
    const sink = createGoogleSheetsSink({ sheets, spreadsheetId, keyOf, call: retrying });
    const before = makeContent(150);
    await sink.writeRows(before);
    let after = before;
    for (let i = 0; i < 150; i++) after = reprocess(after, i, 3);

    // The first line append fails after the 300 old line rows were deleted: the run "crashed".
    google.inject({ kind: 'status', status: 500, method: 'POST', path: /:append$/ });
    const deletesBefore = deletes().length;
    const crashing = createGoogleSheetsSink({ sheets, spreadsheetId, keyOf, call: (fn) => fn() });
    await expect(crashing.writeRows(after)).rejects.toThrow();
    const sent = deletes().slice(deletesBefore);
    expect(sent).toHaveLength(3); // ⌈300/100⌉
    let lastStart = Number.POSITIVE_INFINITY;
    for (const r of sent) {
      const ranges = (
        r.body as {
          requests: Array<{ deleteDimension: { range: { startIndex: number; endIndex: number } } }>;
        }
      ).requests.map((q) => q.deleteDimension.range);
      expect(ranges.reduce((n, x) => n + x.endIndex - x.startIndex, 0)).toBeLessThanOrEqual(100);
      for (const x of ranges) {
        expect(x.endIndex).toBeLessThanOrEqual(lastStart);
        lastStart = x.startIndex;
      }
    }
    expect(tabRows(spreadsheetId, 'Line Items')).toHaveLength(0);

    const resumed = await sink.writeRows(after);
    expect(resumed.appended.lines).toBe(450);
    expect(sortedRows(spreadsheetId)).toEqual(await expectedRows(after));
  });

  it('never repeats a delete blindly: a delete applied but answered 500 is re-checked, not re-sent', async () => {
    const { spreadsheetId } = await createOutputSpreadsheet(sheets, {
      title: 'Ambiguous',
      documentColumns,
      lineColumns,
    });
    const onceOnly: GoogleCall = (fn) =>
      withGoogleRetry(fn, { sleep: async () => {}, random: () => 0, retryServerErrors: false });
    const sink = createGoogleSheetsSink({ sheets, spreadsheetId, keyOf, call: retrying, callOnce: onceOnly });
    const before = makeContent(8);
    await sink.writeRows(before);
    const after = reprocess(reprocess(before, 2, 1), 6, 4);
    google.inject({
      kind: 'status',
      status: 500,
      afterApply: true,
      method: 'POST',
      path: /^\/v4\/spreadsheets\/[^/]+:batchUpdate$/,
    });
    const deletesBefore = deletes().length;
    const result = await sink.writeRows(after);
    // One delete sent; the re-read showed it applied, so it was not sent again.
    expect(deletes().length - deletesBefore).toBe(1);
    expect(result.deleted.lines).toBe(0); // unconfirmed by Google, so not counted
    expect(sortedRows(spreadsheetId)).toEqual(await expectedRows(after));

    // What the guard prevents: the same fault under a blind retry deletes rows of other documents.
    const { spreadsheetId: blindId } = await createOutputSpreadsheet(sheets, {
      title: 'Blind',
      documentColumns,
      lineColumns,
    });
    const blind = createGoogleSheetsSink({
      sheets,
      spreadsheetId: blindId,
      keyOf,
      call: retrying,
      callOnce: retrying,
    });
    await blind.writeRows(before);
    google.inject({
      kind: 'status',
      status: 500,
      afterApply: true,
      method: 'POST',
      path: /^\/v4\/spreadsheets\/[^/]+:batchUpdate$/,
    });
    await blind.writeRows(after);
    expect(sortedRows(blindId).lines.length).toBeLessThan((await expectedRows(after)).lines.length);
  });

  it('rewrites rows written before versioned keys once, then leaves them', async () => {
    const { spreadsheetId } = await createOutputSpreadsheet(sheets, {
      title: 'Legacy',
      documentColumns,
      lineColumns,
    });
    const content = makeContent(3);
    const sink = createGoogleSheetsSink({ sheets, spreadsheetId, keyOf, call: retrying });
    await sink.writeRows(content);
    // Strip the versions, as the first release wrote the keys.
    for (const tab of ['Documents', 'Line Items'] as const)
      for (const row of tabRows(spreadsheetId, tab))
        row[row.length - 1] = row[row.length - 1]!.replace(/@.*$/, '');
    const upgraded = await sink.writeRows(content);
    expect(upgraded.updated).toEqual({ documents: 3, lines: 6 });
    expect(sortedRows(spreadsheetId)).toEqual(await expectedRows(content));
    expect((await sink.writeRows(content)).updated).toEqual({ documents: 0, lines: 0 });
  });

  it('relays a tab written before columns were added: old rows out, new header, every row once, key hidden', async () => {
    // The layout before the TDS columns: the key column sat five columns further left.
    const tdsKeys = new Set(['tdsSection', 'tdsRate', 'tdsAmount', 'netPayable', 'tdsReason']);
    const oldColumns = documentColumns.filter((c) => !tdsKeys.has(c.key));
    const { spreadsheetId } = await createOutputSpreadsheet(sheets, {
      title: 'Before TDS',
      documentColumns: oldColumns,
      lineColumns,
    });
    const content = makeContent(120);
    const sink = createGoogleSheetsSink({ sheets, spreadsheetId, keyOf, call: retrying });
    await sink.writeRows({ ...content, documentColumns: oldColumns });
    const withTds: SheetContent = {
      ...content,
      documents: content.documents.map((d) => ({
        ...d,
        tdsSection: '194C',
        tdsAmount: 2360,
        netPayable: 1000,
      })),
    };
    const relaid = await sink.writeRows(withTds);
    expect(relaid.deleted.documents).toBe(120);
    expect(relaid.appended.documents).toBe(120);
    const docs = google.spreadsheets.get(spreadsheetId)!.sheets[0]!;
    expect(docs.rows[0]).toEqual([...documentColumns.map((c) => c.label), KEY_HEADER]);
    expect(docs.hiddenColumns).toEqual([documentColumns.length]);
    expect(docs.numberFormats[documentColumns.findIndex((c) => c.key === 'tdsAmount')]).toBe(
      INDIAN_MONEY_FORMAT,
    );
    expect(sortedRows(spreadsheetId)).toEqual(await expectedRows(withTds));
    // The Line Items tab kept its layout: nothing of it moved.
    expect(relaid.appended.lines).toBe(0);
    const again = await sink.writeRows(withTds);
    expect([again.appended.documents, again.deleted.documents, again.updated.documents]).toEqual([0, 0, 0]);
  });

  it('writes the Matches tab as the workbook does: made when missing, rewritten whole, shorter leaves no rows behind', async () => {
    const { spreadsheetId } = await createOutputSpreadsheet(sheets, {
      title: 'With matches',
      documentColumns,
      lineColumns,
    });
    const columns = [
      { key: 'invoice', label: 'Invoice', kind: 'text' as const },
      { key: 'status', label: 'Match', kind: 'text' as const },
      { key: 'amount', label: 'Amount', kind: 'money' as const },
    ];
    const matches = (rows: Array<[string, string, number]>) => ({
      name: 'Matches',
      columns,
      rows: rows.map(([invoice, status, amount]) => ({ invoice, status, amount })),
    });
    const sink = createGoogleSheetsSink({ sheets, spreadsheetId, keyOf, call: retrying });
    const content = makeContent(2);
    const first = await sink.writeRows({
      ...content,
      extraTabs: [
        matches([
          ['INV-0', 'Matched', 1770],
          ['INV-1', 'Exception', 2500.5],
          ['=HYPERLINK("x")', 'Matched', 10],
        ]),
      ],
    });
    expect(first.rewritten).toEqual({ Matches: 3 });
    const tab = () => google.spreadsheets.get(spreadsheetId)!.sheets.find((s) => s.title === 'Matches')!;
    expect(tab().rows).toEqual([
      ['Invoice', 'Match', 'Amount'],
      ['INV-0', 'Matched', '1770'],
      ['INV-1', 'Exception', '2500.5'],
      // Written RAW: a formula a document carried stays text.
      ['=HYPERLINK("x")', 'Matched', '10'],
    ]);
    expect(tab().frozenRowCount).toBe(1);
    // The same write again changes nothing; a shorter one leaves no old row below it.
    await sink.writeRows({ ...content, extraTabs: [matches([['INV-0', 'Matched', 1770]])] });
    await sink.writeRows({ ...content, extraTabs: [matches([['INV-0', 'Matched', 1770]])] });
    expect(tab().rows).toEqual([
      ['Invoice', 'Match', 'Amount'],
      ['INV-0', 'Matched', '1770'],
    ]);
    expect(google.spreadsheets.get(spreadsheetId)!.sheets.filter((s) => s.title === 'Matches')).toHaveLength(
      1,
    );
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
