import type {
  CreatedSheet,
  CreateWorkflowInput,
  FlowDocument,
  Run,
  RunProgress,
  SheetColumn,
  SheetView,
  UploadResult,
  Workflow,
} from '@bahi/contracts';
import { getJson, postJson, putJson, requestApi } from '../../lib/api.ts';
import { type FlowFormValues, offersSubfolders } from './flow-form.ts';
import type { UploadedFile } from './inbox.ts';
import type { RunProgressView } from './run-progress.ts';

/** A processing flow as `/api/workflows` returns it (times in epoch ms). */
export type Flow = Workflow;
export type { FlowDocument, Run, RunProgress, SheetColumn, SheetView, UploadResult };

/**
 * The progress-bar view of a run. The stored counters split finished documents by outcome
 * (`done` = clean ones); the bar counts all finished documents, as the SSE progress event does.
 */
export function toProgressView(run: Run): RunProgressView {
  const c = run.counts;
  return {
    done: c.done + c.needsReview + c.failed,
    total: c.total,
    failed: c.failed,
    needsReview: c.needsReview,
    currentFile: run.currentFile,
    partialDone: run.partialDone,
  };
}

/** `GET /api/workflows` → the organisation's flows, newest first. */
export function listFlows(signal?: AbortSignal): Promise<Flow[]> {
  return getJson<Flow[]>('/api/workflows', signal);
}

/** The request body of `POST /api/workflows` and `PUT /api/workflows/:id` for the form's values. */
export function toFlowBody(values: FlowFormValues, existing?: Flow): CreateWorkflowInput {
  const location = values.sourceKind === 'upload' ? '' : values.sourceLocation.trim();
  const sameInput = existing?.io.input.kind === values.sourceKind && existing.io.input.url === location;
  return {
    name: values.name.trim(),
    types: values.types,
    io: {
      input: {
        kind: values.sourceKind,
        url: location,
        folderName: sameInput ? existing.io.input.folderName : '',
        // Only a Drive folder has sub-folders; sent only when asked for (absent reads as false).
        ...(offersSubfolders(values) && values.includeSubfolders ? { includeSubfolders: true } : {}),
      },
      output: {
        kind: values.outputKind,
        // A sheet id belongs to its kind: switching between workbook and Google Sheets starts afresh.
        sheetId: existing?.io.output.kind === values.outputKind ? existing.io.output.sheetId : '',
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
    outputKind: flow.io.output.kind,
    includeSubfolders: flow.io.input.includeSubfolders ?? false,
  };
}

/** `POST /api/workflows`. */
export function createFlow(values: FlowFormValues): Promise<Flow> {
  return postJson<Flow>('/api/workflows', toFlowBody(values));
}

/** `PUT /api/workflows/:id`. */
export function updateFlow(flow: Flow, values: FlowFormValues): Promise<Flow> {
  return putJson<Flow>(`/api/workflows/${encodeURIComponent(flow.id)}`, toFlowBody(values, flow));
}

/**
 * `POST /api/workflow/sheets/create { workflowId, sheetName }`: creates the flow's output (a Google
 * spreadsheet for a Google Sheets flow) and stores its id on the flow. Answers 401 `google_auth_required`
 * when Google is not (or no longer) authorised.
 */
export function createFlowSheet(flowId: string, sheetName: string): Promise<CreatedSheet> {
  return postJson<CreatedSheet>('/api/workflow/sheets/create', { workflowId: flowId, sheetName });
}

/** `DELETE /api/workflows/:id`. */
export async function deleteFlow(id: string): Promise<void> {
  await requestApi<unknown>(`/api/workflows/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** `POST /api/flows/:id/runs` → the new run's id (202; `run_in_progress` when one is going). */
export async function startRun(flowId: string): Promise<string> {
  const run = await postJson<Run>(`/api/flows/${encodeURIComponent(flowId)}/runs`, {});
  return run.id;
}

/** `GET /api/runs/:id`. */
export function getRun(runId: string, signal?: AbortSignal): Promise<Run> {
  return getJson<Run>(`/api/runs/${encodeURIComponent(runId)}`, signal);
}

/** `GET /api/flows/:id/runs` → run history, newest first. */
export async function listFlowRuns(flowId: string, signal?: AbortSignal): Promise<Run[]> {
  const body = await getJson<{ items: Run[] }>(`/api/flows/${encodeURIComponent(flowId)}/runs`, signal);
  return body.items;
}

/** `GET /api/flows/:id/documents` → the flow's inbox (first page, newest first). */
export async function listFlowDocuments(flowId: string, signal?: AbortSignal): Promise<FlowDocument[]> {
  const body = await getJson<{ items: FlowDocument[] }>(
    `/api/flows/${encodeURIComponent(flowId)}/documents`,
    signal,
  );
  return body.items;
}

/** `DELETE /api/documents/:id`: takes a document out of its flow (its rows leave the sheets). */
export async function removeDocument(documentId: string): Promise<void> {
  await requestApi<unknown>(`/api/documents/${encodeURIComponent(documentId)}`, { method: 'DELETE' });
}

/** `POST /api/documents/:id/retry` (failed) or `/reprocess` (done): answers with the run that redoes it. */
export async function redoDocument(
  documentId: string,
  action: 'retry' | 'reprocess',
): Promise<string | null> {
  const body = await postJson<{ runId?: string } | null>(
    `/api/documents/${encodeURIComponent(documentId)}/${action}`,
  );
  return body?.runId ?? null;
}

/** `GET /api/flows/:id/uploads` → the flow's stored uploads, newest first. */
export async function listFlowUploads(flowId: string, signal?: AbortSignal): Promise<UploadedFile[]> {
  const body = await getJson<{ items: UploadedFile[] }>(
    `/api/flows/${encodeURIComponent(flowId)}/uploads`,
    signal,
  );
  return body.items;
}

/** URL of the flow's uploads endpoint (multipart `files`). */
export function getUploadUrl(flowId: string): string {
  return `/api/flows/${encodeURIComponent(flowId)}/uploads`;
}

/** `GET /api/flows/:id/sheet?tab=&sort=&dir=&page=`: one page of a tab, sorted by the server. */
export function getSheetPage(
  flowId: string,
  params: { tab: 'documents' | 'lines'; sort?: string | null; dir?: 'asc' | 'desc'; page?: number },
  signal?: AbortSignal,
): Promise<SheetView> {
  const query = new URLSearchParams({ tab: params.tab });
  if (params.sort) query.set('sort', params.sort);
  if (params.sort && params.dir) query.set('dir', params.dir);
  if (params.page && params.page > 1) query.set('page', String(params.page));
  return getJson<SheetView>(`/api/flows/${encodeURIComponent(flowId)}/sheet?${query}`, signal);
}

/** Download links of the flow's workbook (.csv is per tab). */
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
