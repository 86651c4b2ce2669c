import type { SheetColumn } from '@bahi/contracts';
import type { sheets_v4 } from '@googleapis/sheets';
import type { SheetContent, SheetRow, SheetSink } from './sink.ts';
import { DATE_FORMAT, INDIAN_MONEY_FORMAT } from './xlsx-workbook.ts';

/** Tab names, the same as the workbook's. */
export const SHEET_TABS = { documents: 'Documents', lines: 'Line Items' } as const;
/** Header of the hidden last column holding each row's key (what makes appends idempotent). */
export const KEY_HEADER = 'Bahi key';
/** Rows per append request: Google allows 60 writes a minute per user, so writes are batched. */
export const APPEND_BATCH_ROWS = 100;

type Tab = keyof typeof SHEET_TABS;

/** Runs one Google call (with retries/back-off); the default calls it as is. */
export type GoogleCall = <T>(fn: () => Promise<T>) => Promise<T>;

const callDirectly: GoogleCall = (fn) => fn();

/** Column letters (0 → A, 26 → AA). */
export function toColumnLetters(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** A1 range of a tab, quoted as Sheets wants names with spaces. */
function tabRange(tab: string, cells: string): string {
  return `'${tab.replace(/'/g, "''")}'!${cells}`;
}

/** Days since 1899-12-30, how Sheets stores dates (so the date format applies and sorting works). */
function toSheetsDate(value: string): number | string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return value;
  return Math.round(
    (Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - Date.UTC(1899, 11, 30)) / 86_400_000,
  );
}

/** A row's cells in column order; numbers as numbers (RAW input never turns text into formulas). */
function toCells(columns: SheetColumn[], row: SheetRow, key: string): Array<string | number> {
  const cells = columns.map((c): string | number => {
    const value = row[c.key];
    if (value === null || value === undefined) return '';
    if ((c.kind === 'money' || c.kind === 'number') && typeof value === 'string' && value.trim() !== '') {
      const n = Number(value);
      return Number.isFinite(n) ? n : value;
    }
    if (c.kind === 'date' && typeof value === 'string') return toSheetsDate(value);
    return value;
  });
  cells.push(key);
  return cells;
}

/** Formatting requests for a tab: bold frozen header, Indian money and date formats, hidden key column. */
function buildFormatRequests(sheetId: number, columns: SheetColumn[]): sheets_v4.Schema$Request[] {
  const requests: sheets_v4.Schema$Request[] = [
    {
      updateSheetProperties: {
        properties: { sheetId, gridProperties: { frozenRowCount: 1 } },
        fields: 'gridProperties.frozenRowCount',
      },
    },
    {
      repeatCell: {
        range: { sheetId, startRowIndex: 0, endRowIndex: 1 },
        cell: { userEnteredFormat: { textFormat: { bold: true } } },
        fields: 'userEnteredFormat.textFormat.bold',
      },
    },
    {
      updateDimensionProperties: {
        range: { sheetId, dimension: 'COLUMNS', startIndex: columns.length, endIndex: columns.length + 1 },
        properties: { hiddenByUser: true },
        fields: 'hiddenByUser',
      },
    },
  ];
  columns.forEach((c, index) => {
    const numberFormat =
      c.kind === 'money'
        ? { type: 'NUMBER', pattern: INDIAN_MONEY_FORMAT }
        : c.kind === 'date'
          ? { type: 'DATE', pattern: DATE_FORMAT }
          : null;
    if (!numberFormat) return;
    requests.push({
      repeatCell: {
        range: { sheetId, startRowIndex: 1, startColumnIndex: index, endColumnIndex: index + 1 },
        cell: { userEnteredFormat: { numberFormat } },
        fields: 'userEnteredFormat.numberFormat',
      },
    });
  });
  return requests;
}

/** A created output spreadsheet. */
export interface CreatedSpreadsheet {
  spreadsheetId: string;
  url: string;
}

/**
 * Creates the flow's output spreadsheet with the workbook's "Documents" and "Line Items" tabs and columns
 * (plus the hidden key column), header rows written, frozen and bold, Indian number formats.
 */
export async function createOutputSpreadsheet(
  sheets: sheets_v4.Sheets,
  input: { title: string; documentColumns: SheetColumn[]; lineColumns: SheetColumn[] },
  call: GoogleCall = callDirectly,
): Promise<CreatedSpreadsheet> {
  const created = await call(() =>
    sheets.spreadsheets.create({
      requestBody: {
        properties: { title: input.title, locale: 'en_IN', timeZone: 'Asia/Kolkata' },
        sheets: [
          { properties: { title: SHEET_TABS.documents, gridProperties: { frozenRowCount: 1 } } },
          { properties: { title: SHEET_TABS.lines, gridProperties: { frozenRowCount: 1 } } },
        ],
      },
    }),
  );
  const spreadsheetId = created.data.spreadsheetId ?? '';
  const idOf = (title: string) =>
    created.data.sheets?.find((s) => s.properties?.title === title)?.properties?.sheetId ?? 0;
  for (const [tab, columns] of [
    [SHEET_TABS.documents, input.documentColumns],
    [SHEET_TABS.lines, input.lineColumns],
  ] as const) {
    await call(() =>
      sheets.spreadsheets.values.append({
        spreadsheetId,
        range: tabRange(tab, 'A1'),
        valueInputOption: 'RAW',
        insertDataOption: 'INSERT_ROWS',
        requestBody: { values: [[...columns.map((c) => c.label), KEY_HEADER]] },
      }),
    );
  }
  await call(() =>
    sheets.spreadsheets.batchUpdate({
      spreadsheetId,
      requestBody: {
        requests: [
          ...buildFormatRequests(idOf(SHEET_TABS.documents), input.documentColumns),
          ...buildFormatRequests(idOf(SHEET_TABS.lines), input.lineColumns),
        ],
      },
    }),
  );
  return {
    spreadsheetId,
    url: created.data.spreadsheetUrl ?? `https://docs.google.com/spreadsheets/d/${spreadsheetId}/edit`,
  };
}

/** Options of the Google Sheets sink. */
export interface GoogleSheetsSinkOptions {
  sheets: sheets_v4.Sheets;
  spreadsheetId: string;
  /** The stable key of a row (document id; document id + line number): what is never appended twice. */
  keyOf: (tab: Tab, row: SheetRow, index: number) => string;
  call?: GoogleCall;
  batchRows?: number;
}

/** What a write did, per tab. */
export interface SheetsWriteResult {
  appended: { documents: number; lines: number };
  requests: number;
}

/**
 * Google Sheets as a flow's output. Appends only the rows whose key the sheet does not hold yet: it reads
 * the hidden key column first, so a crash between an append and Bahi's bookkeeping, a retried job or a
 * re-run never duplicates a document's rows — the sheet itself is the record of what was written. Rows go
 * in batches of at most 100 per request; 429s are retried by `call` (back-off honouring Retry-After).
 */
export function createGoogleSheetsSink(
  options: GoogleSheetsSinkOptions,
): SheetSink & { writeRows(content: SheetContent): Promise<SheetsWriteResult> } {
  const call = options.call ?? callDirectly;
  const batchRows = Math.min(options.batchRows ?? APPEND_BATCH_ROWS, APPEND_BATCH_ROWS);

  async function writeTab(tab: Tab, columns: SheetColumn[], rows: SheetRow[], result: SheetsWriteResult) {
    const title = SHEET_TABS[tab];
    const keyColumn = toColumnLetters(columns.length);
    const existing = await call(() =>
      options.sheets.spreadsheets.values.get({
        spreadsheetId: options.spreadsheetId,
        range: tabRange(title, `${keyColumn}:${keyColumn}`),
        majorDimension: 'COLUMNS',
      }),
    );
    result.requests++;
    const keys = new Set((existing.data.values?.[0] ?? []).map(String));
    const pending: Array<Array<string | number>> = [];
    const headerMissing = !keys.has(KEY_HEADER);
    if (headerMissing) pending.push([...columns.map((c) => c.label), KEY_HEADER]);
    rows.forEach((row, index) => {
      const key = options.keyOf(tab, row, index);
      if (keys.has(key)) return;
      keys.add(key);
      pending.push(toCells(columns, row, key));
    });
    for (let start = 0; start < pending.length; start += batchRows) {
      const values = pending.slice(start, start + batchRows);
      await call(() =>
        options.sheets.spreadsheets.values.append({
          spreadsheetId: options.spreadsheetId,
          range: tabRange(title, 'A1'),
          valueInputOption: 'RAW',
          insertDataOption: 'INSERT_ROWS',
          requestBody: { values },
        }),
      );
      result.requests++;
    }
    result.appended[tab] = pending.length - (headerMissing ? 1 : 0);
  }

  async function writeRows(content: SheetContent): Promise<SheetsWriteResult> {
    const result: SheetsWriteResult = { appended: { documents: 0, lines: 0 }, requests: 0 };
    await writeTab('documents', content.documentColumns, content.documents, result);
    await writeTab('lines', content.lineColumns, content.lines, result);
    return result;
  }

  return {
    writeRows,
    async write(content) {
      await writeRows(content);
    },
  };
}
