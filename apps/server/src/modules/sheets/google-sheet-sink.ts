import { listDocumentSheetColumns, listLineSheetColumns } from '@bahi/contracts';
import { sql } from 'drizzle-orm';
import {
  type CreatedSpreadsheet,
  createGoogleSheetsSink,
  createOutputSpreadsheet,
  type SheetsWriteResult,
} from '../../adapters/sinks/google-sheets.ts';
import type { SheetContent, SinkAdapter } from '../../adapters/sinks/sink.ts';
import type { Env } from '../../config/env.ts';
import { type Db, queryRows } from '../../db/client.ts';
import { AppError, isAppError } from '../../lib/app-error.ts';
import type { FlowRow } from '../flows/flows.repo.ts';
import { getFlowType } from '../flows/flows.service.ts';
import { openGoogleSession, requireGoogleConnected } from '../google/google.service.ts';
import { IN_SHEET, loadSheetContent } from './sheets.service.ts';

// What flows write to Google: the output spreadsheet, and a flow's rows in it — the `sheets` sink kind
// (`googleSheetsSink`), which the composition root (src/io-wiring.ts) installs in the sink registry. It sits with
// the workbook sink, over the Google connection (modules/google, which knows no flows); the Drive source
// kind is in modules/google/drive-source.ts.

/**
 * `POST /api/workflow/sheets/create` for a Google output: a new spreadsheet with the flow type's
 * "Documents" and "Line Items" tabs. Returns its id (the flow's `io.output.sheetId`) and link.
 */
export async function createFlowSpreadsheet(
  db: Db,
  {
    env,
    organizationId,
    input,
  }: { env: Env; organizationId: string; input: { title: string; type: FlowRow['types'][number] } },
): Promise<CreatedSpreadsheet> {
  const session = await openGoogleSession(db, env, organizationId);
  const type = input.type as Parameters<typeof listDocumentSheetColumns>[0];
  return createOutputSpreadsheet(
    session.sheets,
    {
      title: input.title,
      documentColumns: listDocumentSheetColumns(type),
      lineColumns: listLineSheetColumns(type),
    },
    (fn) => session.call(fn),
  );
}

/**
 * Brings the flow's Google sheet in line with its processed rows (keys: document id; document id + line
 * number; versions: a hash of the document's rows): new documents appended, re-processed ones replaced,
 * documents that failed on re-processing removed. Safe to call after every run and again after a crash:
 * the sheet's hidden key column is what decides, so nothing is appended twice or left stale.
 */
export async function writeFlowToGoogleSheet(
  db: Db,
  env: Env,
  flow: FlowRow,
  content?: SheetContent,
): Promise<SheetsWriteResult> {
  const { io } = flow;
  if (!io.output.sheetId) throw new Error('This flow has no Google sheet to write to');
  content ??= await loadSheetContent(db, env, flow);
  // Documents that have no rows any more (a re-process that failed, a document a person removed, one held
  // back as a possible duplicate): their old rows leave the sheet. Pending ones keep theirs until their
  // outcome is stored.
  const failed = await queryRows<{ id: string }>(
    db,
    sql`select d.id from documents d where d.flow_id = ${flow.id} and d.organization_id = ${flow.organizationId}
        and d.status not in ('pending', 'processing') and not (${IN_SHEET})`,
  );
  const session = await openGoogleSession(db, env, flow.organizationId);
  const sink = createGoogleSheetsSink({
    sheets: session.sheets,
    spreadsheetId: io.output.sheetId,
    call: (fn) => session.call(fn),
    callOnce: (fn) => session.call(fn, { retryServerErrors: false }),
    // Each row carries its document's id (and a line its number), so keys never depend on row order.
    keyOf: (tab, row) =>
      tab === 'documents' ? String(row.documentId) : `${String(row.documentId)}#${Number(row.lineNo)}`,
  });
  return sink.writeRows(content, { removeGroups: failed.map((r) => r.id) });
}

/**
 * The `sheets` sink kind: the flow's rows appended to its Google sheet (after the workbook). A run needs the
 * organisation's Google connection and a chosen sheet; a failed write fails the run (the rows are safe in
 * the database, and the next run repairs the sheet).
 */
export const googleSheetsSink: SinkAdapter = {
  async checkRunnable(ctx, flow) {
    await requireGoogleConnected(ctx.db, ctx.env, flow.organizationId);
    if (!flow.io.output.sheetId)
      throw new AppError('validation', 'Create or choose the Google sheet for this flow first', {
        sheetId: 'Required',
      });
  },
  async create(ctx, { flow, sheetName, saveOutput }) {
    const created = await createFlowSpreadsheet(ctx.db, {
      env: ctx.env,
      organizationId: flow.organizationId,
      input: {
        title: sheetName,
        type: getFlowType(flow),
      },
    });
    await saveOutput({ kind: 'sheets', sheetId: created.spreadsheetId, sheetName });
    return { sheetId: created.spreadsheetId, url: created.url };
  },
  async write(ctx, flow, content) {
    await writeFlowToGoogleSheet(ctx.db, ctx.env, flow, content);
  },
  toRunError(error) {
    const code = isAppError(error) ? error.code : 'sheet_write_failed';
    // An authorisation failure is shown as it is: the page offers to re-authorise on exactly that message.
    const message =
      code === 'google_auth_required'
        ? (error as Error).message
        : `The rows could not be written to the Google sheet: ${(error as Error).message}`;
    return { code, message };
  },
  failureLogs: { run: 'google sheet write failed', catchUp: 'the Google sheet catches up at the next run' },
};
