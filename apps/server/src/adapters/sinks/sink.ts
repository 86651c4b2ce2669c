import { describeReviewReason, type FlowOutput, type RunErrorCode, type SheetColumn } from '@bahi/contracts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { flows } from '../../db/schema/index.ts';
import type { TaskExecutor } from '../../jobs/worker-pool.ts';

/** A stored flow, as sinks get it (the flows repository's row, its `io` parsed). */
export type FlowRow = typeof flows.$inferSelect;

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
 * Writes sheet content to one output (the Google Sheets writer, `google-sheets.ts`). Writers rewrite the
 * whole output from the database, which keeps them idempotent: the database is the truth, the sheet a
 * faithful copy. A flow reaches a writer through its `SinkAdapter`.
 */
export interface SheetSink {
  write(content: SheetContent): Promise<void>;
}

/** The kinds of output a flow can name (`io.output.kind`, a closed enum of the contracts). */
export type SinkKind = FlowOutput['kind'];

/** What a sink adapter may use of the server. */
export interface SinkContext {
  db: Db;
  env: Env;
  /** The worker pool that writes workbooks; a process without one leaves the workbook to its next download. */
  executor?: TaskExecutor | undefined;
}

/** A run's error, as the run records it. */
export interface SinkRunError {
  code: RunErrorCode;
  message: string;
}

/**
 * Where a flow's rows go: one adapter per output kind (`io.output.kind`), mapped by the registry
 * (`./index.ts`); every flow also keeps its workbook. Services reach a sink only through the registry and
 * never test a kind themselves.
 */
export interface SinkAdapter {
  /** Checks, before a run is queued, that its rows could be written (so the user hears at once). */
  checkRunnable(ctx: SinkContext, flow: FlowRow): Promise<void>;
  /**
   * Makes the flow's output (`POST /api/workflow/sheets/create`); `saveOutput` stores the flow's new
   * `io.output`. Returns the output's id and the link that opens it.
   */
  create(
    ctx: SinkContext & { executor: TaskExecutor },
    request: { flow: FlowRow; sheetName: string; saveOutput: (output: FlowOutput) => Promise<void> },
  ): Promise<{ sheetId: string; url: string }>;
  /**
   * Brings the output in line with the flow's rows: `content` is read from the database once per write of
   * all the flow's outputs (modules/sheets/flow-outputs-writer.ts), so each sink writes the same rows.
   */
  write(ctx: SinkContext, flow: FlowRow, content: SheetContent): Promise<void>;
  /**
   * What a failed write at a run's end makes of the run: its error (the run fails and the next run repairs
   * the output), or null when the run still succeeds.
   */
  toRunError(error: unknown): SinkRunError | null;
  /** How a failed write is logged: at a run's end, and after a person's change (written again later). */
  readonly failureLogs: { run: string; catchUp: string };
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
