import { getJson, postJson, putJson, requestApi } from '../../lib/api.ts';
import type { FlowFormValues, SourceKind } from './flow-form.ts';
import type { FlowType } from './flow-format.ts';

/** A processing flow as the API returns it (times in epoch milliseconds). */
export interface Flow {
  id: string;
  uid?: string | null;
  name: string;
  types: FlowType[];
  io: {
    input: { kind: SourceKind; url: string; folderName: string };
    output: { kind: 'xlsx' | 'sheets'; sheetId: string; sheetName: string };
  };
  status: string;
  createdAt: number;
  updatedAt: number;
  lastRunAt: number | null;
}

/** Counts of one run. */
export interface RunCounts {
  total: number;
  done: number;
  processed: number;
  failed: number;
  needsReview: number;
  skipped: number;
}

/** One run of a flow (history row and polling answer). */
export interface Run {
  id: string;
  flowId: string;
  status: string;
  startedAt: number | string;
  finishedAt: number | string | null;
  durationMs: number | null;
  counts: RunCounts;
  currentFile: string | null;
  error: string | null;
}

/** One document in a flow's inbox. */
export interface FlowDocument {
  id: string;
  fileName: string;
  size: number | null;
  status: string;
  errorCode: string | null;
  errorMessage: string | null;
  failedChecks: Array<{ code: string; message: string }>;
  processedAt: number | string | null;
  fileUrl: string | null;
}

/** One column of the sheet view. */
export interface SheetColumn {
  key: string;
  label: string;
  kind: 'text' | 'money' | 'number' | 'date' | 'link' | 'status';
}

/** A page of sheet rows. */
export interface SheetPage {
  tab: 'documents' | 'lines';
  columns: SheetColumn[];
  rows: Array<Record<string, unknown>>;
  page: number;
  pageSize: number;
  total: number;
}

/** Field names in camelCase whatever the server sends (snake_case or camelCase). */
function pick<T>(source: Record<string, unknown>, ...keys: string[]): T | undefined {
  for (const key of keys) if (source[key] !== undefined) return source[key] as T;
  return undefined;
}

/** Epoch ms from a number or an ISO string; null when missing. */
function toMillis(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}

/** Normalises the counts object of a run, whatever subset the server filled in. */
export function readRunCounts(raw: unknown): RunCounts {
  const c = (raw ?? {}) as Record<string, unknown>;
  const num = (...keys: string[]) => {
    const value = pick<unknown>(c, ...keys);
    return typeof value === 'number' && Number.isFinite(value) ? value : 0;
  };
  const failed = num('failed');
  const needsReview = num('needsReview', 'needs_review', 'review');
  const processed = num('processed', 'succeeded', 'ok');
  const done = num('done', 'completed') || processed + needsReview + failed;
  return { total: num('total'), done, processed, failed, needsReview, skipped: num('skipped') };
}

/** Normalises a run answer (`GET /api/runs/:id`, history rows, SSE end events). */
export function readRun(raw: unknown): Run {
  const r = (raw ?? {}) as Record<string, unknown>;
  const run = (pick<Record<string, unknown>>(r, 'run') ?? r) as Record<string, unknown>;
  const startedAt = pick<number | string>(run, 'startedAt', 'started_at') ?? Date.now();
  const finishedAt = pick<number | string | null>(run, 'finishedAt', 'finished_at') ?? null;
  const startMs = toMillis(startedAt);
  const endMs = toMillis(finishedAt);
  const countsSource = pick<unknown>(run, 'counts', 'progress') ?? run;
  const error = pick<unknown>(run, 'error', 'errorMessage', 'message');
  return {
    id: String(pick(run, 'id', 'runId') ?? ''),
    flowId: String(pick(run, 'flowId', 'flow_id', 'workflowId') ?? ''),
    status: String(pick(run, 'status') ?? 'queued'),
    startedAt,
    finishedAt,
    durationMs:
      pick<number>(run, 'durationMs', 'duration_ms') ??
      (startMs !== null && endMs !== null ? endMs - startMs : null),
    counts: readRunCounts(countsSource),
    currentFile: pick<string | null>(run, 'currentFile', 'current_file') ?? null,
    error:
      typeof error === 'string'
        ? error
        : error && typeof error === 'object' && 'message' in error
          ? String((error as { message: unknown }).message)
          : null,
  };
}

/** `GET /api/workflows` → the organisation's flows, newest first. */
export async function listFlows(signal?: AbortSignal): Promise<Flow[]> {
  const body = await getJson<unknown>('/api/workflows', signal);
  const list = Array.isArray(body)
    ? body
    : ((body as { workflows?: unknown[]; flows?: unknown[] }).workflows ??
      (body as { flows?: unknown[] }).flows ??
      []);
  return (list as Flow[]).map((flow) => ({ ...flow, lastRunAt: flow.lastRunAt ?? null }));
}

/** The request body of `POST /api/workflows` and `PUT /api/workflows/:id` for the form's values. */
export function toFlowBody(values: FlowFormValues, existing?: Flow) {
  const location = values.sourceKind === 'upload' ? '' : values.sourceLocation.trim();
  return {
    name: values.name.trim(),
    types: values.types,
    io: {
      input: {
        kind: values.sourceKind,
        url: location,
        folderName: existing?.io.input.kind === values.sourceKind ? existing.io.input.folderName : '',
      },
      output: {
        kind: existing?.io.output.kind ?? 'xlsx',
        sheetId: existing?.io.output.sheetId ?? '',
        sheetName: values.sheetName.trim(),
      },
    },
  };
}

/** Form values for editing an existing flow. */
export function toFormValues(flow: Flow): FlowFormValues {
  return {
    name: flow.name,
    types: flow.types.slice(0, 1),
    sourceKind: flow.io.input.kind,
    sourceLocation: flow.io.input.kind === 'upload' ? '' : flow.io.input.url,
    sheetName: flow.io.output.sheetName,
  };
}

/** Unwraps `{ workflow }` / `{ flow }` envelopes. */
function readFlow(body: unknown): Flow {
  const b = body as { workflow?: Flow; flow?: Flow };
  return b.workflow ?? b.flow ?? (body as Flow);
}

/** `POST /api/workflows`. */
export async function createFlow(values: FlowFormValues): Promise<Flow> {
  return readFlow(await postJson<unknown>('/api/workflows', toFlowBody(values)));
}

/** `PUT /api/workflows/:id`. */
export async function updateFlow(flow: Flow, values: FlowFormValues): Promise<Flow> {
  return readFlow(
    await putJson<unknown>(`/api/workflows/${encodeURIComponent(flow.id)}`, toFlowBody(values, flow)),
  );
}

/** `DELETE /api/workflows/:id`. */
export async function deleteFlow(id: string): Promise<void> {
  await requestApi<unknown>(`/api/workflows/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** `POST /api/workflow/process-folder { workflowId }` → the new run's id. */
export async function startRun(flowId: string): Promise<string> {
  const body = await postJson<{ runId: string }>('/api/workflow/process-folder', { workflowId: flowId });
  return body.runId;
}

/** `GET /api/runs/:id`. */
export async function getRun(runId: string, signal?: AbortSignal): Promise<Run> {
  return readRun(await getJson<unknown>(`/api/runs/${encodeURIComponent(runId)}`, signal));
}

/** `GET /api/flows/:id/runs` → run history, newest first. */
export async function listFlowRuns(flowId: string, signal?: AbortSignal): Promise<Run[]> {
  const body = await getJson<unknown>(`/api/flows/${encodeURIComponent(flowId)}/runs`, signal);
  const list = Array.isArray(body) ? body : ((body as { runs?: unknown[] }).runs ?? []);
  return list.map(readRun);
}

/** Normalises one inbox document. */
export function readDocument(raw: unknown): FlowDocument {
  const d = (raw ?? {}) as Record<string, unknown>;
  const error = pick<unknown>(d, 'error');
  const errorObject = error && typeof error === 'object' ? (error as Record<string, unknown>) : null;
  const checks = pick<unknown>(d, 'failedChecks', 'failed_checks', 'checks');
  const failedChecks = Array.isArray(checks)
    ? checks
        .map((check) =>
          typeof check === 'string'
            ? { code: check, message: '' }
            : {
                code: String((check as Record<string, unknown>).code ?? ''),
                message: String((check as Record<string, unknown>).message ?? ''),
                ok: (check as Record<string, unknown>).ok,
              },
        )
        .filter((check) => !('ok' in check) || check.ok !== true)
        .map(({ code, message }) => ({ code, message }))
    : [];
  return {
    id: String(pick(d, 'id') ?? ''),
    fileName: String(pick(d, 'fileName', 'file_name', 'name') ?? ''),
    size: pick<number>(d, 'size', 'sourceSize', 'source_size') ?? null,
    status: String(pick(d, 'status') ?? 'pending'),
    errorCode:
      (errorObject?.code as string | undefined) ?? pick<string>(d, 'errorCode', 'error_code') ?? null,
    errorMessage:
      (errorObject?.message as string | undefined) ??
      (typeof error === 'string' ? error : null) ??
      pick<string>(d, 'errorMessage', 'error_message') ??
      null,
    failedChecks,
    processedAt: pick<number | string>(d, 'processedAt', 'processed_at') ?? null,
    fileUrl: pick<string>(d, 'fileUrl', 'file_url', 'url', 'link') ?? null,
  };
}

/** `GET /api/flows/:id/documents` → the flow's inbox. */
export async function listFlowDocuments(flowId: string, signal?: AbortSignal): Promise<FlowDocument[]> {
  const body = await getJson<unknown>(`/api/flows/${encodeURIComponent(flowId)}/documents`, signal);
  const list = Array.isArray(body)
    ? body
    : ((body as { documents?: unknown[]; items?: unknown[] }).documents ??
      (body as { items?: unknown[] }).items ??
      []);
  return list.map(readDocument);
}

/** `POST /api/documents/:id/retry` (failed) or `/reprocess` (done): answers with a run id when one starts. */
export async function redoDocument(
  documentId: string,
  action: 'retry' | 'reprocess',
): Promise<string | null> {
  const body = await postJson<{ runId?: string } | null>(
    `/api/documents/${encodeURIComponent(documentId)}/${action}`,
  );
  return body?.runId ?? null;
}

/** URL of the flow's uploads endpoint (multipart `files`). */
export function getUploadUrl(flowId: string): string {
  return `/api/flows/${encodeURIComponent(flowId)}/uploads`;
}

/** `GET /api/flows/:id/sheet?tab=&sort=&dir=&page=`. */
export async function getSheetPage(
  flowId: string,
  params: { tab: 'documents' | 'lines'; sort?: string | null; dir?: 'asc' | 'desc'; page?: number },
  signal?: AbortSignal,
): Promise<SheetPage> {
  const query = new URLSearchParams({ tab: params.tab });
  if (params.sort) query.set('sort', params.sort);
  if (params.sort && params.dir) query.set('dir', params.dir);
  if (params.page && params.page > 1) query.set('page', String(params.page));
  const body = await getJson<Record<string, unknown>>(
    `/api/flows/${encodeURIComponent(flowId)}/sheet?${query}`,
    signal,
  );
  const rows = (pick<Array<Record<string, unknown>>>(body, 'rows', 'items') ?? []) as Array<
    Record<string, unknown>
  >;
  return {
    tab: params.tab,
    columns: (pick<SheetColumn[]>(body, 'columns') ?? []).map((c) =>
      typeof c === 'string' ? { key: c, label: c, kind: 'text' as const } : c,
    ),
    rows,
    page: pick<number>(body, 'page') ?? 1,
    pageSize: pick<number>(body, 'pageSize', 'page_size') ?? rows.length,
    total: pick<number>(body, 'total', 'totalRows') ?? rows.length,
  };
}

/** Download links of the flow's workbook. */
export function getSheetDownloadUrl(
  flowId: string,
  format: 'xlsx' | 'csv',
  tab?: 'documents' | 'lines',
): string {
  const base = `/api/flows/${encodeURIComponent(flowId)}/sheet.${format}`;
  return format === 'csv' && tab ? `${base}?tab=${tab}` : base;
}

/** URL of the run's live progress stream. */
export function getRunEventsUrl(runId: string): string {
  return `/api/runs/${encodeURIComponent(runId)}/events`;
}
