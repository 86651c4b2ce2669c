import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SheetColumn } from '@bahi/contracts';
import ExcelJS from 'exceljs';
import type { SheetContent, SheetRow } from './sink.ts';

/** What a workbook task carries to the worker thread (plain data: it crosses a thread boundary). */
export type WorkbookData = SheetContent;

/** Indian digit grouping (lakh, crore) with two decimals. */
export const INDIAN_MONEY_FORMAT = '#,##,##0.00';
/** Dates as Indian finance teams write them. */
export const DATE_FORMAT = 'dd-mm-yyyy';

const TAB_NAMES = { documents: 'Documents', lines: 'Line Items' } as const;

/** Sensible column widths by kind; addresses and descriptions get more room. */
function widthFor(column: SheetColumn): number {
  if (/address|description/i.test(column.key)) return 42;
  if (column.key === 'irn') return 34;
  switch (column.kind) {
    case 'money':
      return 16;
    case 'number':
      return 12;
    case 'date':
      return 12;
    case 'link':
      return 14;
    default:
      return Math.min(30, Math.max(12, column.label.length + 4));
  }
}

/** Converts an ISO `YYYY-MM-DD` into a UTC Date (how Excel stores dates); other text stays text. */
function toDateCell(value: string): Date | string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : value;
}

function toCell(column: SheetColumn, row: SheetRow): ExcelJS.CellValue {
  const value = row[column.key];
  if (value === null || value === undefined || value === '') return null;
  if (column.kind === 'link') return { text: 'Open', hyperlink: String(value) };
  if (column.kind === 'date' && typeof value === 'string') return toDateCell(value);
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

function addTab(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  name: string,
  columns: SheetColumn[],
  rows: SheetRow[],
) {
  // Frozen header row: the column names stay visible while scrolling.
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({
    header: c.label,
    key: c.key,
    width: widthFor(c),
    style:
      c.kind === 'money' ? { numFmt: INDIAN_MONEY_FORMAT } : c.kind === 'date' ? { numFmt: DATE_FORMAT } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for (const row of rows) {
    const values: Record<string, ExcelJS.CellValue> = {};
    for (const c of columns) values[c.key] = toCell(c, row);
    sheet.addRow(values).commit();
  }
  sheet.commit();
}

/**
 * Writes the flow's workbook: a "Documents" tab (one row per document) and a "Line Items" tab (one row per
 * line), frozen headers, Indian money format. Streamed to a temp file beside `path` and renamed into place,
 * so a download never sees a half-written workbook. Meant to run in a worker thread.
 */
export async function writeWorkbookFile(path: string, data: WorkbookData): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: tmp, useStyles: true });
    workbook.creator = 'Bahi';
    addTab(workbook, TAB_NAMES.documents, data.documentColumns, data.documents);
    addTab(workbook, TAB_NAMES.lines, data.lineColumns, data.lines);
    await workbook.commit();
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** The .xlsx sink: hands the content to `write` (a worker-pool task in the server). */
export function createXlsxSink(path: string, write: (path: string, data: WorkbookData) => Promise<void>) {
  return { write: (content: SheetContent) => write(path, content) };
}
