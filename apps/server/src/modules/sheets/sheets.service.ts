import { stat } from 'node:fs/promises';
import {
  appPaths,
  type FlowDocumentType,
  listDocumentSheetColumns,
  listLineSheetColumns,
  type SheetColumn,
  type SheetView,
  TDS_SHEET_COLUMNS,
} from '@bahi/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type {
  SheetContent,
  SheetRow,
  SheetValue,
  SinkAdapter,
  WorkbookTab,
} from '../../adapters/sinks/sink.ts';
import type { Env } from '../../config/env.ts';
import { type Db, queryRows } from '../../db/client.ts';
import { COUNTED } from '../../db/document-trust.ts';
import type { TaskExecutor } from '../../jobs/worker-pool.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Membership } from '../auth/identity.ts';
import { type FlowRow, findFlowById, setWorkbookWrittenAt } from '../flows/flows.repo.ts';
import { getFlowType, getWorkbookPath, requireFlow } from '../flows/flows.service.ts';
import { loadTdsSheetCells } from '../gst/tds-sheet.ts';
import { getReconciliation } from '../reconcile/reconcile.service.ts';
import { buildReconciliationTabs } from '../reconcile/reconcile-export.ts';

/** Rows per page of the in-app sheet view. */
export const SHEET_PAGE_SIZE = 50;
/** Rows fetched per query when exporting a whole tab. */
const EXPORT_BATCH = 500;

/** A sheet tab. */
export type SheetTab = 'documents' | 'lines';

interface DocumentSqlRow {
  id: string;
  file_name: string;
  /** Only the header fields of the extraction: provenance and lines stay in the database. */
  fields: Record<string, SheetValue> | null;
  failed_checks: string[];
  review_flag: string | null;
  processed_at: string | Date | null;
}

interface LineSqlRow {
  id: string;
  document_id: string;
  file_name: string;
  line_no: number;
  data: Record<string, SheetValue>;
  document_number: SheetValue;
}

function toIso(value: string | Date | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** In-app URL that serves a document's stored file (the sheet's "link back"). */
export function getDocumentFileUrl(env: Env, documentId: string): string {
  return `${env.publicUrl}/api/documents/${documentId}/file`;
}

/** Cells a row takes from outside its extraction (an invoice's TDS), by document id; null for none. */
type ExtraCells = ReadonlyMap<string, SheetRow> | null;

function toDocumentRow(env: Env, columns: SheetColumn[], row: DocumentSqlRow, extra: ExtraCells): SheetRow {
  const fields = row.fields ?? {};
  const out: SheetRow = {};
  for (const c of columns) out[c.key] = fields[c.key] ?? null;
  // The TDS columns are worked out over the organisation's whole purchase register, never read.
  if (extra) for (const c of TDS_SHEET_COLUMNS) out[c.key] = extra.get(row.id)?.[c.key] ?? null;
  out.fileName = row.file_name;
  // The row's identity (never a column): sinks key rows by it, the sheet view links to the review screen.
  out.documentId = row.id;
  out.link = getDocumentFileUrl(env, row.id);
  out.checksFailed = row.failed_checks.join(', ');
  out.reviewFlag = row.review_flag;
  out.processedAt = toIso(row.processed_at);
  return out;
}

function toLineRow(columns: SheetColumn[], row: LineSqlRow): SheetRow {
  const out: SheetRow = {};
  for (const c of columns) out[c.key] = row.data[c.key] ?? null;
  out.documentNumber = row.document_number ?? null;
  out.fileName = row.file_name;
  out.lineNo = row.line_no;
  out.documentId = row.document_id;
  return out;
}

/** SQL expression to sort a tab by a column key; keys are checked against the tab's columns first. */
function sortExpression(tab: SheetTab, column: SheetColumn | undefined): SQL {
  // TDS columns are computed, not stored: they keep the sheet's order.
  if (!column || TDS_KEYS.has(column.key))
    return tab === 'documents' ? sql`d.sheet_row, d.id` : sql`d.sheet_row, l.line_no`;
  const numeric = column.kind === 'money' || column.kind === 'number';
  if (tab === 'documents') {
    switch (column.key) {
      case 'fileName':
        return sql`d.file_name`;
      case 'link':
        return sql`d.sheet_row`;
      case 'checksFailed':
        return sql`array_to_string(d.failed_checks, ',')`;
      case 'reviewFlag':
        return sql`d.review_flag`;
      case 'processedAt':
        return sql`d.processed_at`;
    }
    const value = sql`d.extraction->'fields'->${column.key}`;
    return numeric
      ? sql`case when jsonb_typeof(${value}) = 'number' then (${value})::text::numeric end`
      : sql`d.extraction->'fields'->>${column.key}`;
  }
  switch (column.key) {
    case 'documentNumber':
      return sql`d.extraction->'fields'->>'documentNumber'`;
    case 'fileName':
      return sql`d.file_name`;
    case 'lineNo':
      return sql`d.sheet_row, l.line_no`;
  }
  const value = sql`l.data->${column.key}`;
  return numeric
    ? sql`case when jsonb_typeof(${value}) = 'number' then (${value})::text::numeric end`
    : sql`l.data->>${column.key}`;
}

/**
 * The documents (alias `d`) whose rows are in a flow's sheets: read ones, except a possible duplicate no
 * person has decided is not one (it waits in review, out of the sheet, so nothing is booked twice).
 */
export const IN_SHEET = COUNTED;
const processed = IN_SHEET;

async function selectDocumentRows(
  db: Db,
  { flowId, order, limit, offset }: { flowId: string; order: SQL; limit: number; offset: number },
) {
  return queryRows<DocumentSqlRow>(
    db,
    sql`select d.id, d.file_name, d.extraction->'fields' as fields, d.failed_checks, d.review_flag, d.processed_at
        from documents d where d.flow_id = ${flowId} and ${processed}
        order by ${order}, d.id limit ${limit} offset ${offset}`,
  );
}

async function selectLineRows(
  db: Db,
  { flowId, order, limit, offset }: { flowId: string; order: SQL; limit: number; offset: number },
) {
  return queryRows<LineSqlRow>(
    db,
    sql`select l.id, l.document_id, d.file_name, l.line_no, l.data, d.extraction->'fields'->'documentNumber' as document_number
        from document_lines l join documents d on d.id = l.document_id
        where l.flow_id = ${flowId} and ${processed}
        order by ${order}, l.id limit ${limit} offset ${offset}`,
  );
}

async function countTab(db: Db, flowId: string, tab: SheetTab): Promise<number> {
  const rows =
    tab === 'documents'
      ? await queryRows<{ n: number | string }>(
          db,
          sql`select count(*) as n from documents d where d.flow_id = ${flowId} and ${processed}`,
        )
      : await queryRows<{ n: number | string }>(
          db,
          sql`select count(*) as n from document_lines l join documents d on d.id = l.document_id
              where l.flow_id = ${flowId} and ${processed}`,
        );
  return Number(rows[0]?.n ?? 0);
}

const TDS_KEYS = new Set(TDS_SHEET_COLUMNS.map((c) => c.key));

/** The TDS cells of an invoice flow's Documents tab (null for other tabs and types). */
async function loadExtraCells(db: Db, flow: FlowRow, tab: SheetTab): Promise<ExtraCells> {
  if (tab !== 'documents' || getFlowType(flow) !== 'INVOICE') return null;
  return loadTdsSheetCells(db, flow.organizationId);
}

/** Columns of a tab for a flow type. */
export function listTabColumns(type: FlowDocumentType, tab: SheetTab): SheetColumn[] {
  return tab === 'documents' ? listDocumentSheetColumns(type) : listLineSheetColumns(type);
}

/** All rows of a tab in sheet order, fetched in batches (for exports). */
export async function* iterateTabRows(
  db: Db,
  { env, flow, tab }: { env: Env; flow: FlowRow; tab: SheetTab },
): AsyncIterable<SheetRow> {
  const columns = listTabColumns(getFlowType(flow), tab);
  const order = sortExpression(tab, undefined);
  const extra = await loadExtraCells(db, flow, tab);
  for (let offset = 0; ; offset += EXPORT_BATCH) {
    if (tab === 'documents') {
      const rows = await selectDocumentRows(db, { flowId: flow.id, order, limit: EXPORT_BATCH, offset });
      for (const r of rows) yield toDocumentRow(env, columns, r, extra);
      if (rows.length < EXPORT_BATCH) return;
    } else {
      const rows = await selectLineRows(db, { flowId: flow.id, order, limit: EXPORT_BATCH, offset });
      for (const r of rows) yield toLineRow(columns, r);
      if (rows.length < EXPORT_BATCH) return;
    }
  }
}

/** One page of a tab, sorted by a column, as the in-app sheet view shows it (rows straight from the DB). */
export async function getSheetView(
  db: Db,
  {
    env,
    membership,
    flowId,
    query,
  }: {
    env: Env;
    membership: Membership;
    flowId: string;
    query: { tab: SheetTab; sort?: string | undefined; dir: 'asc' | 'desc'; page: number };
  },
): Promise<SheetView> {
  const flow = await requireFlow(db, membership, flowId);
  const columns = listTabColumns(getFlowType(flow), query.tab);
  const column = query.sort ? columns.find((c) => c.key === query.sort) : undefined;
  if (query.sort && !column)
    throw new AppError('validation', `Unknown column "${query.sort}"`, { sort: 'Unknown column' });
  const order = sql`${sortExpression(query.tab, column)} ${sql.raw(query.dir === 'desc' ? 'desc nulls last' : 'asc nulls last')}`;
  const offset = (query.page - 1) * SHEET_PAGE_SIZE;
  const extra = await loadExtraCells(db, flow, query.tab);
  const rows =
    query.tab === 'documents'
      ? (await selectDocumentRows(db, { flowId: flow.id, order, limit: SHEET_PAGE_SIZE, offset })).map((r) =>
          toDocumentRow(env, columns, r, extra),
        )
      : (await selectLineRows(db, { flowId: flow.id, order, limit: SHEET_PAGE_SIZE, offset })).map((r) =>
          toLineRow(columns, r),
        );
  return {
    tab: query.tab,
    columns,
    rows,
    page: query.page,
    pageSize: SHEET_PAGE_SIZE,
    total: await countTab(db, flow.id, query.tab),
  };
}

function escapeCsv(value: SheetValue): string {
  if (value === null) return '';
  const text = String(value);
  // Leading = + - @ would run as a formula in a spreadsheet (CSV injection); a quote mark neutralises it.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A tab as CSV lines (header first), streamed batch by batch. */
export async function* streamCsv(
  db: Db,
  { env, membership, flowId, tab }: { env: Env; membership: Membership; flowId: string; tab: SheetTab },
): AsyncIterable<string> {
  const flow = await requireFlow(db, membership, flowId);
  const columns = listTabColumns(getFlowType(flow), tab);
  yield `\uFEFF${columns.map((c) => escapeCsv(c.label)).join(',')}\r\n`;
  for await (const row of iterateTabRows(db, { env, flow, tab })) {
    yield `${columns.map((c) => escapeCsv(row[c.key] ?? null)).join(',')}\r\n`;
  }
}

/** Both tabs of a flow, in sheet order. */
export async function loadSheetContent(db: Db, env: Env, flow: FlowRow): Promise<SheetContent> {
  const type = getFlowType(flow);
  const documents: SheetRow[] = [];
  const lines: SheetRow[] = [];
  for await (const row of iterateTabRows(db, { env, flow, tab: 'documents' })) documents.push(row);
  for await (const row of iterateTabRows(db, { env, flow, tab: 'lines' })) lines.push(row);
  return {
    documentColumns: listDocumentSheetColumns(type),
    lineColumns: listLineSheetColumns(type),
    documents,
    lines,
    // An invoice flow's workbook also says how each of its invoices matched its PO and goods receipts.
    ...(type === 'INVOICE' ? { extraTabs: [await buildFlowMatchesTab(db, flow)] } : {}),
  };
}

/** The "Matches" tab of an invoice flow: its invoices' lines as the organisation-wide match sees them. */
async function buildFlowMatchesTab(db: Db, flow: FlowRow): Promise<WorkbookTab> {
  const view = await getReconciliation(db, { organizationId: flow.organizationId, role: 'viewer' });
  const own = { ...view, invoices: view.invoices.filter((i) => i.invoice.flowId === flow.id) };
  return buildReconciliationTabs(own)[0]!;
}

/**
 * Rewrites a flow's .xlsx in the task executor (a worker thread in the server, so the API never blocks on
 * it), from `content` when the caller read it already (every output of one write shares it), else from the
 * database; then records when. Idempotent: the same database gives the same workbook.
 */
export async function writeFlowWorkbook(
  db: Db,
  {
    env,
    executor,
    flowId,
    content,
  }: { env: Env; executor: TaskExecutor; flowId: string; content?: SheetContent },
): Promise<string | null> {
  const flow = await findFlowById(db, flowId);
  if (!flow) return null;
  const startedAt = new Date();
  const path = getWorkbookPath(env.dataDir, flow);
  await executor.writeWorkbook({ path, data: content ?? (await loadSheetContent(db, env, flow)) });
  await setWorkbookWrittenAt(db, flow.id, startedAt);
  return path;
}

/**
 * The workbook sink (`io.output.kind = 'xlsx'`, and kept by every flow: the download reads it). A failed
 * write never fails a run: the rows are safe in the database and the download regenerates the file.
 */
export const workbookSink: SinkAdapter = {
  checkRunnable: async () => {},
  async create(ctx, { flow, sheetName, saveOutput }) {
    await saveOutput({ kind: 'xlsx', sheetId: flow.id, sheetName });
    await writeFlowWorkbook(ctx.db, { env: ctx.env, executor: ctx.executor, flowId: flow.id });
    return { sheetId: flow.id, url: appPaths.flowSheet(flow.id) };
  },
  async write(ctx, flow, content) {
    if (ctx.executor)
      await writeFlowWorkbook(ctx.db, { env: ctx.env, executor: ctx.executor, flowId: flow.id, content });
  },
  toRunError: () => null,
  failureLogs: { run: 'workbook write failed', catchUp: 'the workbook is rewritten on its next download' },
};

/** The flow's workbook file, regenerated first when the database changed since it was written. */
export async function getWorkbookFile(
  db: Db,
  {
    env,
    executor,
    membership,
    flowId,
  }: { env: Env; executor: TaskExecutor; membership: Membership; flowId: string },
): Promise<{ path: string; fileName: string }> {
  const flow = await requireFlow(db, membership, flowId);
  const path = getWorkbookPath(env.dataDir, flow);
  const exists = await stat(path).then(
    () => true,
    () => false,
  );
  if (!exists || !flow.workbookWrittenAt) await writeFlowWorkbook(db, { env, executor, flowId: flow.id });
  return { path, fileName: `${toDownloadName(flow.io.output.sheetName || flow.name)}.xlsx` };
}

/**
 * A name as a downloaded file's name: the output sheet's own words ("Invoices — Pune", "बिल"), without
 * the characters file systems refuse (\ / : * ? " < > | and control characters), spaces collapsed.
 */
export function toDownloadName(name: string): string {
  const cleaned = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  return cleaned.slice(0, 120) || 'workbook';
}
