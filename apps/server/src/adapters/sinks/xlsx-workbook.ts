import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SheetColumn } from '@bahi/contracts';
import ExcelJS from 'exceljs';
import {
  type SheetContent,
  type SheetRow,
  toReadableSheetValue,
  toSheetLocalDateTime,
  type WorkbookTab,
} from './sink.ts';

export type { WorkbookTab };

/** What a workbook task carries to the worker thread (plain data: it crosses a thread boundary). */
export type WorkbookData = SheetContent;

/**
 * Indian digit grouping (1,23,45,678.00) with two decimals. Spreadsheet formats group by thousands
 * whatever the pattern says ('#,##,##0.00' shows 12,345,678.00 in Excel and LibreOffice), so the lakh
 * and crore commas are literal, chosen by size: crores, lakhs, then ordinary thousands. (A negative
 * amount of a lakh or more falls to the last section and shows thousands grouping.)
 */
export const INDIAN_MONEY_FORMAT = '[>=10000000]##\\,##\\,##\\,##0.00;[>=100000]##\\,##\\,##0.00;##,##0.00';
/** Dates as Indian finance teams write them. */
export const DATE_FORMAT = 'dd-mm-yyyy';

const TAB_NAMES = { documents: 'Documents', lines: 'Line Items' } as const;

/** Date-times (Processed At) in the organisation's time zone, to the minute. */
export const DATE_TIME_FORMAT = 'dd-mm-yyyy hh:mm';

/** Widths are in characters: at least the header's, at most this, so a long address wraps the view less. */
const MAX_WIDTH = 60;

/** Characters a value takes on screen in its column's format (money with lakh commas and paise). */
function displayLength(column: SheetColumn, value: ExcelJS.CellValue): number {
  if (value === null || value === undefined) return 0;
  if (value instanceof Date) return column.kind === 'datetime' ? 16 : 10;
  if (typeof value === 'number') {
    const digits = Math.trunc(Math.abs(value)).toString().length;
    // Indian grouping: a comma after the first three digits, then every two.
    const commas = digits > 3 ? Math.ceil((digits - 3) / 2) : 0;
    return digits + commas + (column.kind === 'money' ? 3 : 0) + (value < 0 ? 1 : 0);
  }
  if (typeof value === 'object' && 'text' in value) return String(value.text).length;
  return String(value).length;
}

/** Converts an ISO `YYYY-MM-DD` into a UTC Date (how Excel stores dates); other text stays text. */
function toDateCell(value: string): Date | string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : value;
}

function toCell(column: SheetColumn, row: SheetRow): ExcelJS.CellValue {
  const value = toReadableSheetValue(column.key, row[column.key] ?? null);
  if (value === null || value === '') return null;
  if (column.kind === 'link') return { text: 'Open', hyperlink: String(value) };
  if (column.kind === 'date' && typeof value === 'string') return toDateCell(value);
  if (column.kind === 'datetime' && typeof value === 'string') return toSheetLocalDateTime(value) ?? value;
  if (
    (column.kind === 'money' || column.kind === 'number') &&
    typeof value === 'string' &&
    value.trim() !== ''
  ) {
    const n = Number(value);
    return Number.isFinite(n) ? n : value;
  }
  return value;
}

function formatOf(column: SheetColumn): Partial<ExcelJS.Style> {
  if (column.kind === 'money') return { numFmt: INDIAN_MONEY_FORMAT };
  if (column.kind === 'date') return { numFmt: DATE_FORMAT };
  if (column.kind === 'datetime') return { numFmt: DATE_TIME_FORMAT };
  return {};
}

function addTab({
  workbook,
  name,
  columns,
  rows,
}: {
  workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  name: string;
  columns: SheetColumn[];
  rows: SheetRow[];
}) {
  const cells = rows.map((row) => columns.map((c) => toCell(c, row)));
  // Widths from the content itself (the rows are all here before the streamed tab is written).
  const widths = columns.map((c, i) => {
    const longest = cells.reduce((max, row) => Math.max(max, displayLength(c, row[i] ?? null)), 0);
    return Math.min(MAX_WIDTH, Math.max(c.label.length, longest, 8) + 2);
  });
  // Frozen header row and a filter on every column: the names stay visible and every column sorts.
  const sheet = workbook.addWorksheet(name, {
    views: [{ state: 'frozen', ySplit: 1 }],
    ...(columns.length > 0
      ? { autoFilter: { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } } }
      : {}),
  });
  sheet.columns = columns.map((c, i) => ({
    header: c.label,
    key: c.key,
    width: widths[i],
    style: formatOf(c),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for (const row of cells) {
    const values: Record<string, ExcelJS.CellValue> = {};
    columns.forEach((c, i) => {
      values[c.key] = row[i] ?? null;
    });
    sheet.addRow(values).commit();
  }
  sheet.commit();
}

/**
 * The line columns with those the Documents tab also has (file name, document number) first and in the
 * Documents tab's order, so both tabs read alike. Only the workbook, which is rewritten whole, does this:
 * a Google sheet keeps the column order it was created with, since rows are appended by position.
 */
export function alignSharedColumns(
  documentColumns: SheetColumn[],
  lineColumns: SheetColumn[],
): SheetColumn[] {
  const lineKeys = new Set(lineColumns.map((c) => c.key));
  const shared = documentColumns.filter((c) => lineKeys.has(c.key)).map((c) => c.key);
  const byKey = new Map(lineColumns.map((c) => [c.key, c]));
  return [...shared.map((key) => byKey.get(key)!), ...lineColumns.filter((c) => !shared.includes(c.key))];
}

/**
 * Writes the flow's workbook: a "Documents" tab (one row per document) and a "Line Items" tab (one row per
 * line), frozen headers, Indian money format. Streamed to a temp file beside `path` and renamed into place,
 * so a download never sees a half-written workbook. Meant to run in a worker thread.
 */
export async function writeWorkbookFile(path: string, data: WorkbookData): Promise<void> {
  await writeTabsFile(path, [
    { name: TAB_NAMES.documents, columns: data.documentColumns, rows: data.documents },
    {
      name: TAB_NAMES.lines,
      columns: alignSharedColumns(data.documentColumns, data.lineColumns),
      rows: data.lines,
    },
    ...(data.extraTabs ?? []),
  ]);
}

/**
 * Writes tabs to an .xlsx at `path` in the flow workbook's style (frozen header, filter, widths, Indian
 * money and dates), through a temp file renamed into place.
 */
export async function writeTabsFile(path: string, tabs: WorkbookTab[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: tmp, useStyles: true });
    workbook.creator = 'Bahi';
    for (const tab of tabs) addTab({ workbook, name: tab.name, columns: tab.columns, rows: tab.rows });
    await workbook.commit();
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
