import { describeReviewReason, type SheetColumn } from '@bahi/contracts';

/** A cell value in a sheet row. */
export type SheetValue = string | number | null;

/** One row of a sheet tab, keyed by column key. */
export type SheetRow = Record<string, SheetValue>;

/** One more tab of a workbook: its name, columns and rows. */
export interface WorkbookTab {
  name: string;
  columns: SheetColumn[];
  rows: SheetRow[];
}

/** Everything a sink needs to (re)write a flow's output: both tabs, in sheet order. */
export interface SheetContent {
  documentColumns: SheetColumn[];
  lineColumns: SheetColumn[];
  documents: SheetRow[];
  lines: SheetRow[];
  /** Tabs after those two (an invoice flow's "Matches"); sinks that cannot hold them leave them out. */
  extraTabs?: WorkbookTab[];
}

/**
 * Where a flow's rows go. The embedded default is the .xlsx workbook Bahi keeps (`xlsx-workbook.ts`);
 * Google Sheets comes with the Google issue. Sinks rewrite the whole output from the database, which keeps
 * them idempotent: the database is the truth, the sheet a faithful copy.
 */
export interface SheetSink {
  write(content: SheetContent): Promise<void>;
}

/** The time zone a workbook's date-times are written in (Indian teams; a per-organisation zone would go here). */
export const SHEET_TIME_ZONE = 'Asia/Kolkata';

/**
 * A row's value as a person reads it in a spreadsheet: the review verdict in words ("OK", "Needs
 * review", "Approved") and failed checks as sentences, where the database keeps codes. Other values pass through.
 */
export function toReadableSheetValue(key: string, value: SheetValue): SheetValue {
  if (key === 'reviewFlag' && typeof value === 'string')
    return value === 'ok'
      ? 'OK'
      : value === 'review'
        ? 'Needs review'
        : value === 'approved'
          ? 'Approved'
          : value;
  if (key === 'checksFailed' && typeof value === 'string' && value.trim() !== '')
    return value.split(/,\s*/).filter(Boolean).map(describeReviewReason).join('; ');
  return value;
}

/**
 * An ISO timestamp as the wall-clock time of `SHEET_TIME_ZONE`, as a Date whose UTC fields hold that
 * local time (spreadsheets store a date-time without a zone and show it as stored). Null when unparseable.
 */
export function toSheetLocalDateTime(iso: string, timeZone = SHEET_TIME_ZONE): Date | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return new Date(
    Date.UTC(
      Number(parts.year),
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
      Number(parts.second),
    ),
  );
}
