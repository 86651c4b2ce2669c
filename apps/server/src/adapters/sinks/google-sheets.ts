import { createHash } from 'node:crypto';
import type { SheetColumn } from '@bahi/contracts';
import type { sheets_v4 } from '@googleapis/sheets';
import { isAppError } from '../../lib/app-error.ts';
import {
  type SheetContent,
  type SheetRow,
  type SheetSink,
  toReadableSheetValue,
  toSheetLocalDateTime,
  type WorkbookTab,
} from './sink.ts';
import { DATE_FORMAT, INDIAN_MONEY_FORMAT } from './xlsx-workbook.ts';

/** Tab names, the same as the workbook's. */
export const SHEET_TABS = { documents: 'Documents', lines: 'Line Items' } as const;
/** Header of the hidden last column holding each row's key (what makes appends idempotent). */
export const KEY_HEADER = 'Bahi key';
/** Rows per append request: Google allows 60 writes a minute per user, so writes are batched. */
export const APPEND_BATCH_ROWS = 100;
/** Rounds of "delete, and on failure re-read the sheet" before a write gives up (the next run goes on). */
const DELETE_ATTEMPTS = 3;

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

/** `dd-mm-yyyy hh:mm` of a Date whose UTC fields hold a wall-clock time (`toSheetLocalDateTime`). */
function formatSheetDateTime(local: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(local.getUTCDate())}-${two(local.getUTCMonth() + 1)}-${local.getUTCFullYear()} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}`;
}

/** A row's cells in column order (the key cell is added by the sink); numbers as numbers (RAW input never turns text into formulas). */
function toCells(columns: SheetColumn[], row: SheetRow): Array<string | number> {
  return columns.map((c): string | number => {
    const value = toReadableSheetValue(c.key, row[c.key] ?? null);
    if (value === null || value === undefined) return '';
    if ((c.kind === 'money' || c.kind === 'number') && typeof value === 'string' && value.trim() !== '') {
      const n = Number(value);
      return Number.isFinite(n) ? n : value;
    }
    if (c.kind === 'date' && typeof value === 'string') return toSheetsDate(value);
    if (c.kind === 'datetime' && typeof value === 'string') {
      // Text in the organisation's time zone ("24-11-2026 11:32"): spreadsheets made before this column
      // had a date-time format would otherwise show a bare serial number.
      const local = toSheetLocalDateTime(value);
      return local ? formatSheetDateTime(local) : value;
    }
    return value;
  });
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
  /**
   * The stable key of a row: `<group>` or `<group>#<item>` (document id; document id + line number). Rows
   * of one group (a document) are replaced together when any of them changed. `@` is reserved.
   */
  keyOf: (tab: Tab, row: SheetRow, index: number) => string;
  /** Runs a call that may be repeated (reads, appends guarded by keys, in-place writes): retries 429/5xx. */
  call?: GoogleCall;
  /**
   * Runs a call that must not be repeated blindly: deleting rows by position twice deletes other rows. It
   * should retry only what Google rejected unapplied (429); after any other failure the sink re-reads the
   * sheet and recomputes. Defaults to calling it as is.
   */
  callOnce?: GoogleCall;
  batchRows?: number;
}

/** Row counts per tab. */
export interface TabCounts {
  documents: number;
  lines: number;
}

/** What a write did, per tab. */
export interface SheetsWriteResult {
  /** Rows appended: new documents, and replacements of documents whose row count changed. */
  appended: TabCounts;
  /** Rows overwritten in place (a re-processed document with as many rows as before). */
  updated: TabCounts;
  /** Rows deleted: the old rows of replaced documents and the rows of documents that no longer have any. */
  deleted: TabCounts;
  /** Rows written to each tab rewritten whole (an invoice flow's "Matches"), by tab name. */
  rewritten: Record<string, number>;
  requests: number;
}

/** What to write besides the content. */
export interface SheetsWriteOptions {
  /** Groups (documents) whose rows must leave the sheet: re-processed and now without rows (failed). */
  removeGroups?: Iterable<string>;
}

/** A key cell split up: `<group>[#<item>]@<version>`; cells written before versions have none (''). */
function parseKeyCell(cell: string): { group: string; version: string } {
  const at = cell.lastIndexOf('@');
  const key = at >= 0 ? cell.slice(0, at) : cell;
  const hash = key.indexOf('#');
  return { group: hash >= 0 ? key.slice(0, hash) : key, version: at >= 0 ? cell.slice(at + 1) : '' };
}

/** A row to write: its key cell (with version) and its cells in column order, the key last. */
interface PendingRow {
  keyCell: string;
  cells: Array<string | number>;
}

/** Contiguous row ranges [start, end) of the given row indexes, bottom-up (so deleting keeps the others valid). */
function toRangesBottomUp(indexes: number[]): Array<[number, number]> {
  const sorted = [...new Set(indexes)].sort((a, b) => b - a);
  const ranges: Array<[number, number]> = [];
  for (const index of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && last[0] === index + 1) last[0] = index;
    else ranges.push([index, index + 1]);
  }
  return ranges;
}

/** True when both lists hold the same key cells the same number of times. */
function sameKeyCells(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}

/**
 * Writes a flow's rows into its spreadsheet, keyed so that every write converges on the database's
 * rows (see {@link createGoogleSheetsSink}). One instance per spreadsheet; it caches the tab ids.
 */
class SheetsWriter {
  private readonly call: GoogleCall;
  private readonly callOnce: GoogleCall;
  private readonly batchRows: number;
  private readonly sheets: GoogleSheetsSinkOptions['sheets'];
  private readonly spreadsheetId: string;
  private readonly keyOf: GoogleSheetsSinkOptions['keyOf'];
  private sheetIds: Map<string, number> | undefined;

  constructor(options: GoogleSheetsSinkOptions) {
    this.call = options.call ?? callDirectly;
    this.callOnce = options.callOnce ?? callDirectly;
    this.batchRows = Math.min(options.batchRows ?? APPEND_BATCH_ROWS, APPEND_BATCH_ROWS);
    this.sheets = options.sheets;
    this.spreadsheetId = options.spreadsheetId;
    this.keyOf = options.keyOf;
  }

  /** The tab's key column, index = row index (0 is the header). */
  async readKeyCells(title: string, keyColumn: string, result: SheetsWriteResult) {
    const existing = await this.call(() =>
      this.sheets.spreadsheets.values.get({
        spreadsheetId: this.spreadsheetId,
        range: tabRange(title, `${keyColumn}:${keyColumn}`),
        majorDimension: 'COLUMNS',
      }),
    );
    result.requests++;
    return (existing.data.values?.[0] ?? []).map((v) => String(v ?? ''));
  }

  async sheetIdOf(title: string, result: SheetsWriteResult): Promise<number> {
    if (!this.sheetIds) {
      const res = await this.call(() =>
        this.sheets.spreadsheets.get({
          spreadsheetId: this.spreadsheetId,
          fields: 'sheets.properties(sheetId,title)',
        }),
      );
      result.requests++;
      this.sheetIds = new Map(
        (res.data.sheets ?? []).map((s) => [s.properties?.title ?? '', s.properties?.sheetId ?? 0]),
      );
    }
    const id = this.sheetIds.get(title);
    if (id === undefined) throw new Error(`The spreadsheet has no "${title}" tab`);
    return id;
  }

  /**
   * Deletes every row whose key cell is in `doomed`. Rows are deleted by position, which is not safe to
   * repeat: a failed request (possibly applied) is never retried blindly, the key column is read again and
   * the positions recomputed from what the sheet now holds.
   */
  async deleteRows({
    title,
    keyColumn,
    cells,
    doomed,
    result,
  }: {
    title: string;
    keyColumn: string;
    cells: string[];
    doomed: Set<string>;
    result: SheetsWriteResult;
  }): Promise<number> {
    let deleted = 0;
    let current = cells;
    for (let attempt = 1; ; attempt++) {
      const ranges = toRangesBottomUp(
        current.flatMap((cell, index) => (index > 0 && doomed.has(cell) ? [index] : [])),
      );
      if (ranges.length === 0) return deleted;
      const sheetId = await this.sheetIdOf(title, result);
      try {
        // Each request deletes at most `this.batchRows` rows: never more requests than one per 100 rows.
        let batch: Array<[number, number]> = [];
        let rowsInBatch = 0;
        const flush = async () => {
          if (batch.length === 0) return;
          const requests = batch.map(([startIndex, endIndex]) => ({
            deleteDimension: { range: { sheetId, dimension: 'ROWS', startIndex, endIndex } },
          }));
          await this.callOnce(() =>
            this.sheets.spreadsheets.batchUpdate({
              spreadsheetId: this.spreadsheetId,
              requestBody: { requests },
            }),
          );
          result.requests++;
          deleted += rowsInBatch;
          batch = [];
          rowsInBatch = 0;
        };
        for (const [start, end] of ranges) {
          // A range larger than the batch is split, bottom part first.
          for (let hi = end; hi > start; ) {
            const lo = Math.max(start, hi - (this.batchRows - rowsInBatch));
            batch.push([lo, hi]);
            rowsInBatch += hi - lo;
            hi = lo;
            if (rowsInBatch >= this.batchRows) await flush();
          }
        }
        await flush();
        return deleted;
      } catch (error) {
        if (isAppError(error) || attempt >= DELETE_ATTEMPTS) throw error;
        current = await this.readKeyCells(title, keyColumn, result);
      }
    }
  }

  /** The tab's first row (the header of a sheet Bahi made), as text. */
  async readHeader(title: string, result: SheetsWriteResult): Promise<string[]> {
    const res = await this.call(() =>
      this.sheets.spreadsheets.values.get({
        spreadsheetId: this.spreadsheetId,
        range: tabRange(title, 'A1:ZZZ1'),
      }),
    );
    result.requests++;
    return (res.data.values?.[0] ?? []).map((v) => String(v ?? ''));
  }

  /**
   * A tab written with another column layout (a release added columns to the flow's rows) has its key
   * column elsewhere, so no row of it can be found by key. Its rows leave, the header is rewritten for
   * `columns`, the formats and hidden key column are set again, and the write then appends every row:
   * the sheet converges on the database as after any other change. Each step is safe to repeat (a crash
   * midway leaves either the old header, so this runs again, or the new one over no rows). Returns whether
   * the tab was relaid.
   */
  async relayoutTab(tab: Tab, columns: SheetColumn[], result: SheetsWriteResult) {
    const title = SHEET_TABS[tab];
    const header = await this.readHeader(title, result);
    const oldKey = header.indexOf(KEY_HEADER);
    if (oldKey < 0 || oldKey === columns.length) return false;
    const oldKeyColumn = toColumnLetters(oldKey);
    const oldCells = await this.readKeyCells(title, oldKeyColumn, result);
    const doomed = new Set(oldCells.filter((c, i) => i > 0 && c !== '' && c !== KEY_HEADER));
    result.deleted[tab] += await this.deleteRows({
      title,
      keyColumn: oldKeyColumn,
      cells: oldCells,
      doomed,
      result,
    });
    const width = Math.max(header.length, columns.length + 1);
    const labels = [...columns.map((c) => c.label), KEY_HEADER];
    const headerRow = Array.from({ length: width }, (_, i) => labels[i] ?? '');
    await this.call(() =>
      this.sheets.spreadsheets.values.batchUpdate({
        spreadsheetId: this.spreadsheetId,
        requestBody: {
          valueInputOption: 'RAW',
          data: [{ range: tabRange(title, 'A1'), values: [headerRow] }],
        },
      }),
    );
    result.requests++;
    const sheetId = await this.sheetIdOf(title, result);
    const unhide: sheets_v4.Schema$Request = {
      updateDimensionProperties: {
        range: { sheetId, dimension: 'COLUMNS', startIndex: 0, endIndex: width },
        properties: { hiddenByUser: false },
        fields: 'hiddenByUser',
      },
    };
    await this.call(() =>
      this.sheets.spreadsheets.batchUpdate({
        spreadsheetId: this.spreadsheetId,
        requestBody: { requests: [unhide, ...buildFormatRequests(sheetId, columns)] },
      }),
    );
    result.requests++;
    return true;
  }

  async writeTab({
    tab,
    columns,
    wanted,
    removeGroups,
    result,
  }: {
    tab: Tab;
    columns: SheetColumn[];
    wanted: Map<string, PendingRow[]>;
    removeGroups: Set<string>;
    result: SheetsWriteResult;
  }) {
    const title = SHEET_TABS[tab];
    const keyColumn = toColumnLetters(columns.length);
    let cells = await this.readKeyCells(title, keyColumn, result);
    // No header above the key column: either an empty tab or one laid out for other columns.
    if (cells[0] !== KEY_HEADER && (await this.relayoutTab(tab, columns, result))) cells = [KEY_HEADER];
    const held = new Map<string, number[]>();
    cells.forEach((cell, index) => {
      if (index === 0 || cell === '' || cell === KEY_HEADER) return;
      const { group } = parseKeyCell(cell);
      const rows = held.get(group);
      if (rows) rows.push(index);
      else held.set(group, [index]);
    });

    const inPlace: Array<{ index: number; row: PendingRow }> = [];
    const doomed = new Set<string>();
    const toAppend: PendingRow[] = [];
    if (!cells.includes(KEY_HEADER)) toAppend.push({ keyCell: KEY_HEADER, cells: [] });
    for (const [group, rows] of wanted) {
      const indexes = held.get(group) ?? [];
      const heldCells = indexes.map((i) => cells[i] ?? '');
      if (
        sameKeyCells(
          heldCells,
          rows.map((r) => r.keyCell),
        )
      )
        continue;
      if (indexes.length === rows.length && indexes.length > 0) {
        for (const [i, index] of indexes.entries()) inPlace.push({ index, row: rows[i]! });
        continue;
      }
      for (const cell of heldCells) doomed.add(cell);
      toAppend.push(...rows);
    }
    for (const group of removeGroups) {
      if (wanted.has(group)) continue;
      for (const index of held.get(group) ?? []) doomed.add(cells[index] ?? '');
    }

    // 1. Same row count: overwrite in place (repeatable: the same values land in the same cells).
    for (let start = 0; start < inPlace.length; start += this.batchRows) {
      const data = inPlace.slice(start, start + this.batchRows).map(({ index, row }) => ({
        range: tabRange(title, `A${index + 1}`),
        values: [row.cells],
      }));
      await this.call(() =>
        this.sheets.spreadsheets.values.batchUpdate({
          spreadsheetId: this.spreadsheetId,
          requestBody: { valueInputOption: 'RAW', data },
        }),
      );
      result.requests++;
    }
    result.updated[tab] = inPlace.length;
    // 2. Old rows out before the new ones go in: a crash in between leaves the document absent, which the
    // next write appends; the reverse order would leave both versions until then.
    result.deleted[tab] +=
      doomed.size > 0 ? await this.deleteRows({ title, keyColumn, cells, doomed, result }) : 0;
    // 3. Append.
    const values = toAppend.map((r) =>
      r.keyCell === KEY_HEADER ? [...columns.map((c) => c.label), KEY_HEADER] : r.cells,
    );
    for (let start = 0; start < values.length; start += this.batchRows) {
      const batch = values.slice(start, start + this.batchRows);
      await this.call(() =>
        this.sheets.spreadsheets.values.append({
          spreadsheetId: this.spreadsheetId,
          range: tabRange(title, 'A1'),
          valueInputOption: 'RAW',
          insertDataOption: 'INSERT_ROWS',
          requestBody: { values: batch },
        }),
      );
      result.requests++;
    }
    result.appended[tab] = toAppend.filter((r) => r.keyCell !== KEY_HEADER).length;
  }

  /**
   * Rewrites a derived tab whole (an invoice flow's "Matches", which the workbook holds too): made when the
   * spreadsheet lacks it, its header and rows written over the old ones from A1, the rows left below them
   * deleted. Repeatable: the same content lands in the same cells, and the rows past its end are only ever
   * what the last write left over.
   */
  async rewriteTab(tab: WorkbookTab, result: SheetsWriteResult): Promise<void> {
    let sheetId = await this.sheetIdOf(tab.name, result).catch(() => undefined);
    if (sheetId === undefined) {
      await this.call(() =>
        this.sheets.spreadsheets.batchUpdate({
          spreadsheetId: this.spreadsheetId,
          requestBody: { requests: [{ addSheet: { properties: { title: tab.name } } }] },
        }),
      );
      result.requests++;
      this.sheetIds = undefined;
      sheetId = await this.sheetIdOf(tab.name, result);
      await this.call(() =>
        this.sheets.spreadsheets.batchUpdate({
          spreadsheetId: this.spreadsheetId,
          requestBody: { requests: buildFormatRequests(sheetId!, tab.columns).slice(0, 2) },
        }),
      );
      result.requests++;
    }
    const held = (await this.readKeyCells(tab.name, 'A', result)).length;
    const values = [tab.columns.map((c) => c.label), ...tab.rows.map((row) => toCells(tab.columns, row))];
    for (let start = 0; start < values.length; start += this.batchRows) {
      await this.call(() =>
        this.sheets.spreadsheets.values.batchUpdate({
          spreadsheetId: this.spreadsheetId,
          requestBody: {
            valueInputOption: 'RAW',
            data: [
              {
                range: tabRange(tab.name, `A${start + 1}`),
                values: values.slice(start, start + this.batchRows),
              },
            ],
          },
        }),
      );
      result.requests++;
    }
    if (held > values.length) {
      const range = { sheetId, dimension: 'ROWS', startIndex: values.length, endIndex: held };
      await this.callOnce(() =>
        this.sheets.spreadsheets.batchUpdate({
          spreadsheetId: this.spreadsheetId,
          requestBody: { requests: [{ deleteDimension: { range } }] },
        }),
      );
      result.requests++;
    }
    result.rewritten[tab.name] = tab.rows.length;
  }

  async writeRows(content: SheetContent, writeOptions: SheetsWriteOptions = {}): Promise<SheetsWriteResult> {
    const result: SheetsWriteResult = {
      appended: { documents: 0, lines: 0 },
      updated: { documents: 0, lines: 0 },
      deleted: { documents: 0, lines: 0 },
      rewritten: {},
      requests: 0,
    };
    // Rows by group, and each group's version: a hash of all its cells in both tabs.
    const keyed = (tab: Tab, columns: SheetColumn[], rows: SheetRow[]) =>
      rows.map((row, index) => {
        const key = this.keyOf(tab, row, index);
        if (key.includes('@')) throw new Error(`A sheet row key cannot contain "@": ${key}`);
        return { key, group: parseKeyCell(key).group, cells: toCells(columns, row) };
      });
    const docs = keyed('documents', content.documentColumns, content.documents);
    const lines = keyed('lines', content.lineColumns, content.lines);
    const hashes = new Map<string, ReturnType<typeof createHash>>();
    for (const r of [...docs, ...lines]) {
      const hash = hashes.get(r.group) ?? createHash('sha256');
      hashes.set(r.group, hash);
      hash.update(JSON.stringify([r.key, r.cells]));
    }
    const versions = new Map([...hashes].map(([group, hash]) => [group, hash.digest('hex').slice(0, 12)]));
    const byGroup = (rows: typeof docs) => {
      const out = new Map<string, PendingRow[]>();
      const seen = new Set<string>();
      for (const r of rows) {
        // The same key twice would be one row in the sheet's eyes: the first wins, as before versions.
        if (seen.has(r.key)) continue;
        seen.add(r.key);
        const keyCell = `${r.key}@${versions.get(r.group)}`;
        const row: PendingRow = { keyCell, cells: [...r.cells, keyCell] };
        const list = out.get(r.group);
        if (list) list.push(row);
        else out.set(r.group, [row]);
      }
      return out;
    };
    const removeGroups = new Set(writeOptions.removeGroups ?? []);
    await this.writeTab({
      tab: 'documents',
      columns: content.documentColumns,
      wanted: byGroup(docs),
      removeGroups,
      result,
    });
    await this.writeTab({
      tab: 'lines',
      columns: content.lineColumns,
      wanted: byGroup(lines),
      removeGroups,
      result,
    });
    for (const tab of content.extraTabs ?? []) await this.rewriteTab(tab, result);
    return result;
  }
}

/**
 * Google Sheets as a flow's output. The sheet itself is the record of what was written: each row carries a
 * hidden key `<document>[#<line>]@<version>`, the version being a hash of the document's rows. A write reads
 * the key column of each tab first, then
 * - appends the documents the sheet does not hold yet;
 * - replaces the rows of a document whose version changed (re-processed, reviewed): in place when it has
 *   as many rows as before, else its old rows are deleted (bottom-up, by position, after re-checking the
 *   sheet whenever a delete failed) and the new ones appended;
 * - deletes the rows of documents listed in `removeGroups`.
 * So a crash between a write and Bahi's bookkeeping, a retried job or a re-run never duplicates or leaves
 * stale a document's rows: the next write converges on exactly the database's rows. Writes go in batches
 * of at most 100 rows per request; 429s are retried by `call` (back-off honouring Retry-After).
 */
export function createGoogleSheetsSink(options: GoogleSheetsSinkOptions): SheetSink & {
  writeRows(content: SheetContent, writeOptions?: SheetsWriteOptions): Promise<SheetsWriteResult>;
} {
  const writer = new SheetsWriter(options);
  return {
    writeRows: (content, writeOptions) => writer.writeRows(content, writeOptions),
    async write(content) {
      await writer.writeRows(content);
    },
  };
}
