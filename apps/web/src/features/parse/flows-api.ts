import type {
  CreatedSheet,
  CreateWorkflowInput,
  FlowDocument,
  FlowIntake,
  Run,
  RunProgress,
  SheetColumn,
  SheetView,
  UploadResult,
  Workflow,
} from '@bahi/contracts';
import { buildApiPath, callEndpoint } from '../../lib/endpoint.ts';
import { api, apiLinks } from '../../lib/endpoints.ts';
import { automationFromFlow, toMailInput, toTrigger } from './flow-automation.ts';
import { type FlowFormValues, offersSubfolders } from './flow-form.ts';
import type { UploadedFile } from './inbox.ts';
import type { RunProgressView } from './run-progress.ts';

/** A processing flow as `/api/workflows` returns it (times in epoch ms). */
export type Flow = Workflow;
export type { FlowDocument, FlowIntake, Run, RunProgress, SheetColumn, SheetView, UploadResult };

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

/** The request body of `POST /api/workflows` and `PUT /api/workflows/:id` for the form's values. */
export function toFlowBody(values: FlowFormValues, existing?: Flow): CreateWorkflowInput {
  const location =
    values.sourceKind === 'upload' || values.sourceKind === 'email' ? '' : values.sourceLocation.trim();
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
        ...(values.sourceKind === 'email' ? { mail: toMailInput(values) } : {}),
      },
      output: {
        kind: values.outputKind,
        // A sheet id belongs to its kind: switching between workbook and Google Sheets starts afresh.
        sheetId: existing?.io.output.kind === values.outputKind ? existing.io.output.sheetId : '',
        sheetName: values.sheetName.trim(),
      },
    },
    trigger: toTrigger(values),
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
    ...automationFromFlow(flow),
  };
}

/** `POST /api/workflows`. */
export function createFlow(values: FlowFormValues): Promise<Flow> {
  return callEndpoint(api.createFlow, { body: toFlowBody(values) });
}

/** `PUT /api/workflows/:id`. */
export function updateFlow(flow: Flow, values: FlowFormValues): Promise<Flow> {
  return callEndpoint(api.updateFlow, { params: { id: flow.id }, body: toFlowBody(values, flow) });
}

/**
 * `POST /api/workflow/sheets/create { workflowId, sheetName }`: creates the flow's output (a Google
 * spreadsheet for a Google Sheets flow) and stores its id on the flow. Answers 401 `google_auth_required`
 * when Google is not (or no longer) authorised.
 */
export function createFlowSheet(flowId: string, sheetName: string): Promise<CreatedSheet> {
  return callEndpoint(api.createFlowSheet, { body: { workflowId: flowId, sheetName } });
}

/** `DELETE /api/workflows/:id`. */
export async function deleteFlow(id: string): Promise<void> {
  await callEndpoint(api.deleteFlow, { params: { id } });
}

/** `POST /api/flows/:id/runs` → the new run's id (202; `run_in_progress` when one is going). */
export async function startRun(flowId: string): Promise<string> {
  const run = await callEndpoint(api.startRun, { params: { id: flowId } });
  return run.id;
}

/** `GET /api/runs/:id`. */
export function getRun(runId: string, signal?: AbortSignal): Promise<Run> {
  return callEndpoint(api.getRun, { params: { id: runId }, signal });
}

/** `GET /api/flows/:id/runs` → run history, newest first. */
export async function listFlowRuns(flowId: string, signal?: AbortSignal): Promise<Run[]> {
  const body = await callEndpoint(api.listFlowRuns, { params: { id: flowId }, signal });
  return body.items;
}

/** `GET /api/flows/:id/intake` → the flow's next run, source error and intake log. */
export function getFlowIntake(flowId: string, signal?: AbortSignal): Promise<FlowIntake> {
  return callEndpoint(api.flowIntake, { params: { id: flowId }, signal });
}

/** `GET /api/flows/:id/documents` → the flow's inbox (first page, newest first). */
export async function listFlowDocuments(flowId: string, signal?: AbortSignal): Promise<FlowDocument[]> {
  const body = await callEndpoint(api.listFlowDocuments, { params: { id: flowId }, signal });
  return body.items;
}

/** `POST /api/documents/:id/retry` (failed) or `/reprocess` (done): answers with the run that redoes it. */
export async function redoDocument(
  documentId: string,
  action: 'retry' | 'reprocess',
): Promise<string | null> {
  const endpoint = action === 'retry' ? api.retryDocument : api.reprocessDocument;
  const { runId } = await callEndpoint(endpoint, { params: { id: documentId } });
  return runId;
}

/** `GET /api/flows/:id/uploads` → the flow's stored uploads, newest first. */
export async function listFlowUploads(flowId: string, signal?: AbortSignal): Promise<UploadedFile[]> {
  const body = await callEndpoint(api.listFlowUploads, { params: { id: flowId }, signal });
  return body.items;
}

/** URL of the flow's uploads endpoint (multipart `files`). */
export function getUploadUrl(flowId: string): string {
  return buildApiPath(api.uploadFiles.path, { id: flowId });
}

/** `GET /api/flows/:id/sheet?tab=&sort=&dir=&page=`: one page of a tab, sorted by the server. */
export function getSheetPage(
  flowId: string,
  params: { tab: 'documents' | 'lines'; sort?: string | null; dir?: 'asc' | 'desc'; page?: number },
  signal?: AbortSignal,
): Promise<SheetView> {
  const query = {
    tab: params.tab,
    sort: params.sort,
    // The server's defaults (ascending, page 1) are left out, so the request reads as before.
    dir: params.sort ? params.dir : undefined,
    page: params.page && params.page > 1 ? params.page : undefined,
  };
  return callEndpoint(api.sheetPage, { params: { id: flowId }, query, signal });
}

/** Download links of the flow's workbook (.csv is per tab). */
export function getSheetDownloadUrl(
  flowId: string,
  format: 'xlsx' | 'csv',
  tab?: 'documents' | 'lines',
): string {
  if (format === 'xlsx') return buildApiPath(apiLinks.sheetXlsx, { id: flowId });
  return buildApiPath(apiLinks.sheetCsv, { id: flowId }, { tab });
}

/** URL of the run's live progress stream. */
export function getRunEventsUrl(runId: string): string {
  return buildApiPath(apiLinks.runEvents, { id: runId });
}
