import type { SheetColumn } from '@bahi/contracts';

/** A cell value in a sheet row. */
export type SheetValue = string | number | null;

/** One row of a sheet tab, keyed by column key. */
export type SheetRow = Record<string, SheetValue>;

/** Everything a sink needs to (re)write a flow's output: both tabs, in sheet order. */
export interface SheetContent {
  documentColumns: SheetColumn[];
  lineColumns: SheetColumn[];
  documents: SheetRow[];
  lines: SheetRow[];
}

/**
 * Where a flow's rows go. The embedded default is the .xlsx workbook Bahi keeps (`xlsx-workbook.ts`);
 * Google Sheets comes with the Google issue. Sinks rewrite the whole output from the database, which keeps
 * them idempotent: the database is the truth, the sheet a faithful copy.
 */
export interface SheetSink {
  write(content: SheetContent): Promise<void>;
}
