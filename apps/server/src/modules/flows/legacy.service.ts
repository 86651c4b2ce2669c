import { basename } from 'node:path';
import {
  appPaths,
  type CreatedSheet,
  type FlowDocumentType,
  FlowIoSchema,
  type ProcessFolderInput,
  type ProcessUrlInput,
} from '@bahi/contracts';
import { parseDriveLink } from '../../adapters/sources/google-drive-link.ts';
import { resolveLocalPath } from '../../adapters/sources/local-folder.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { Membership, SessionUser } from '../../http/context.ts';
import type { JobSender } from '../../jobs/registry.ts';
import type { TaskExecutor } from '../../jobs/worker-pool.ts';
import { AppError, createValidationError } from '../../lib/app-error.ts';
import { requireGoogleConnected } from '../google/google.service.ts';
import { createFlowSpreadsheet } from '../google/google-flows.ts';
import { startRun } from '../runs/runs.service.ts';
import { writeFlowWorkbook } from '../sheets/sheets.service.ts';
import { type FlowRow, listFlowRows, updateFlowRow } from './flows.repo.ts';
import { createWorkflow, getFlowType, requireFlow } from './flows.service.ts';
import { listFolderRoots } from './folder-roots.ts';

// The original product's action routes (`/api/workflow/*`, `/api/process-url`), kept with their JSON.

/** Finds the organisation's flow reading `url` with `type`, or creates one; ad-hoc runs stay incremental. */
async function findOrCreateAdHocFlow(
  db: Db,
  env: Env,
  user: SessionUser,
  membership: Membership,
  input: { kind: 'local' | 'drive'; url: string; type: FlowDocumentType; sheetId?: string | undefined },
): Promise<FlowRow> {
  for (const row of await listFlowRows(db, membership.organizationId)) {
    const io = FlowIoSchema.safeParse(row.io);
    if (
      io.success &&
      io.data.input.kind === input.kind &&
      io.data.input.url === input.url &&
      row.types[0] === input.type
    )
      return row;
  }
  const folderName = input.kind === 'local' ? basename(input.url) : 'Google Drive folder';
  const created = await createWorkflow(db, env, user, membership, {
    name: `${folderName} (${input.type})`,
    types: [input.type],
    io: {
      input: { kind: input.kind, url: input.url, folderName },
      output: { kind: 'xlsx', sheetId: input.sheetId ?? '', sheetName: folderName },
    },
  });
  return requireFlow(db, membership, created.id);
}

/** `POST /api/workflow/process-folder`: run a saved flow, or an ad-hoc folder + type. */
export async function processFolder(
  db: Db,
  env: Env,
  jobs: JobSender | undefined,
  user: SessionUser,
  membership: Membership,
  input: ProcessFolderInput,
): Promise<{ runId: string }> {
  let flow: FlowRow;
  if (input.workflowId) {
    flow = await requireFlow(db, membership, input.workflowId);
  } else {
    const url = input.folderUrl ?? input.folderPath;
    if (!url)
      throw createValidationError({ workflowId: 'Give a workflowId, or a folderUrl/folderPath with a type' });
    if (!input.type) throw createValidationError({ type: 'Choose one document type' });
    const kind = input.folderUrl ? 'drive' : 'local';
    if (kind === 'drive') {
      parseDriveLink(url);
      await requireGoogleConnected(db, env, membership.organizationId);
    }
    flow = await findOrCreateAdHocFlow(db, env, user, membership, {
      kind,
      url,
      type: input.type,
      sheetId: input.sheetId,
    });
  }
  const run = await startRun(db, env, jobs, user, flow);
  return { runId: run.id };
}

/** `POST /api/process-url`: process one file (a Drive file link, or a path under the allowed folders). */
export async function processUrl(
  db: Db,
  env: Env,
  jobs: JobSender | undefined,
  user: SessionUser,
  membership: Membership,
  input: ProcessUrlInput,
): Promise<{ runId: string }> {
  const url = input.url.trim();
  if (/^https?:\/\//i.test(url)) {
    // A Drive file link: the flow reads just that file from Drive.
    parseDriveLink(url);
    await requireGoogleConnected(db, env, membership.organizationId);
    if (!input.workflowId && !input.type) throw createValidationError({ type: 'Choose one document type' });
    const flow = input.workflowId
      ? await requireFlow(db, membership, input.workflowId)
      : await findOrCreateAdHocFlow(db, env, user, membership, { kind: 'drive', url, type: input.type! });
    const run = await startRun(db, env, jobs, user, flow);
    return { runId: run.id };
  }
  const real = await resolveLocalPath(await listFolderRoots(db, env, membership.organizationId), url, 'file');
  let flow: FlowRow;
  if (input.workflowId) flow = await requireFlow(db, membership, input.workflowId);
  else {
    if (!input.type) throw createValidationError({ type: 'Choose one document type' });
    const dir = real.slice(0, real.length - basename(real).length).replace(/\/$/, '') || '/';
    flow = await findOrCreateAdHocFlow(db, env, user, membership, {
      kind: 'local',
      url: dir,
      type: input.type,
    });
  }
  const run = await startRun(db, env, jobs, user, flow, { kind: 'file', path: real, name: basename(real) });
  return { runId: run.id };
}

/**
 * `POST /api/workflow/sheets/create`: makes the .xlsx workbook for a flow (one per flow, named by the flow's
 * sheet id) and returns the in-app link that opens its sheet view.
 */
export async function createSheet(
  db: Db,
  env: Env,
  executor: TaskExecutor | undefined,
  membership: Membership,
  input: { workflowId?: string | undefined; sheetName?: string | undefined },
): Promise<CreatedSheet> {
  if (!input.workflowId) throw createValidationError({ workflowId: 'Create the flow first, then its sheet' });
  if (!executor) throw new AppError('internal', 'The worker pool is not available');
  const flow = await requireFlow(db, membership, input.workflowId);
  const io = FlowIoSchema.parse(flow.io);
  const sheetName = input.sheetName || io.output.sheetName || flow.name;
  if (io.output.kind === 'sheets') {
    const created = await createFlowSpreadsheet(db, env, membership.organizationId, {
      title: sheetName,
      type: getFlowType(flow),
    });
    const output = { kind: 'sheets' as const, sheetId: created.spreadsheetId, sheetName };
    await updateFlowRow(db, membership.organizationId, flow.id, { io: { input: io.input, output } });
    return { sheetId: created.spreadsheetId, sheetName, url: created.url };
  }
  const output = { kind: 'xlsx' as const, sheetId: flow.id, sheetName };
  await updateFlowRow(db, membership.organizationId, flow.id, { io: { input: io.input, output } });
  await writeFlowWorkbook(db, env, executor, flow.id);
  return { sheetId: flow.id, sheetName, url: appPaths.flowSheet(flow.id) };
}
