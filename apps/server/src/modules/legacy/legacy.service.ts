import { basename } from 'node:path';
import {
  type CreatedSheet,
  type FlowDocumentType,
  FlowIoSchema,
  type ProcessFolderInput,
  type ProcessUrlInput,
} from '@bahi/contracts';
import { outputSinkFor } from '../../adapters/sinks/index.ts';
import { listFolderRoots } from '../../adapters/sources/folder-roots.ts';
import { sourceFor } from '../../adapters/sources/index.ts';
import { resolveLocalPath } from '../../adapters/sources/local-folder.ts';
import type { SourceKind } from '../../adapters/sources/source.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../jobs/registry.ts';
import type { TaskExecutor } from '../../jobs/worker-pool.ts';
import { AppError, createValidationError } from '../../lib/app-error.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { type FlowRow, listFlowRows, updateFlowRow } from '../flows/flows.repo.ts';
import { createWorkflow, requireFlow } from '../flows/flows.service.ts';
import { startRun } from '../runs/runs.service.ts';

// The original product's action routes (`/api/workflow/*`, `/api/process-url`), kept with their JSON. Their
// fields name the source kinds themselves (`folderUrl` and an http(s) `url` are Google Drive links,
// `folderPath` and any other `url` local paths), so these routes pick those two kinds by the field given and
// check them through the kinds' adapters; a single local file is resolved here and read by `openLocalFile`.

/** Finds the organisation's flow reading `url` with `type`, or creates one; ad-hoc runs stay incremental. */
async function findOrCreateAdHocFlow(
  db: Db,
  {
    env,
    user,
    membership,
    input,
  }: {
    env: Env;
    user: SessionUser;
    membership: Membership;
    input: { kind: SourceKind; url: string; type: FlowDocumentType; sheetId?: string | undefined };
  },
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
  const folderName = sourceFor(input.kind).folderName(input.url);
  const created = await createWorkflow(db, {
    env,
    user,
    membership,
    input: {
      name: `${folderName} (${input.type})`,
      types: [input.type],
      io: {
        input: { kind: input.kind, url: input.url, folderName },
        output: { kind: 'xlsx', sheetId: input.sheetId ?? '', sheetName: folderName },
      },
    },
  });
  return requireFlow(db, membership, created.id);
}

/** A legacy request that starts a run: who asks, its body, and what the run needs. */
interface RunRequest<Input> {
  env: Env;
  jobs: JobSender | undefined;
  user: SessionUser;
  membership: Membership;
  input: Input;
}

/** `POST /api/workflow/process-folder`: run a saved flow, or an ad-hoc folder + type. */
export async function processFolder(
  db: Db,
  { env, jobs, user, membership, input }: RunRequest<ProcessFolderInput>,
): Promise<{ runId: string }> {
  let flow: FlowRow;
  if (input.workflowId) {
    flow = await requireFlow(db, membership, input.workflowId);
  } else {
    const url = input.folderUrl ?? input.folderPath;
    if (!url)
      throw createValidationError({ workflowId: 'Give a workflowId, or a folderUrl/folderPath with a type' });
    if (!input.type) throw createValidationError({ type: 'Choose one document type' });
    const kind: SourceKind = input.folderUrl ? 'drive' : 'local';
    // Checked before a flow is made for it: a folder no run could read gets no flow.
    await sourceFor(kind).checkRunnable(
      { db, env },
      { organizationId: membership.organizationId, input: { kind, url: url.trim(), folderName: '' } },
    );
    flow = await findOrCreateAdHocFlow(db, {
      env,
      user,
      membership,
      input: {
        kind,
        url,
        type: input.type,
        sheetId: input.sheetId,
      },
    });
  }
  const run = await startRun(db, { env, jobs, user, flow });
  return { runId: run.id };
}

/** `POST /api/process-url`: process one file (a Drive file link, or a path under the allowed folders). */
export async function processUrl(
  db: Db,
  { env, jobs, user, membership, input }: RunRequest<ProcessUrlInput>,
): Promise<{ runId: string }> {
  const url = input.url.trim();
  if (/^https?:\/\//i.test(url)) {
    // A Drive file link: the flow reads just that file from Drive.
    await sourceFor('drive').checkRunnable(
      { db, env },
      { organizationId: membership.organizationId, input: { kind: 'drive', url, folderName: '' } },
    );
    if (!input.workflowId && !input.type) throw createValidationError({ type: 'Choose one document type' });
    const flow = input.workflowId
      ? await requireFlow(db, membership, input.workflowId)
      : await findOrCreateAdHocFlow(db, {
          env,
          user,
          membership,
          input: { kind: 'drive', url, type: input.type! },
        });
    const run = await startRun(db, { env, jobs, user, flow });
    return { runId: run.id };
  }
  const real = await resolveLocalPath(await listFolderRoots(db, env, membership.organizationId), url, 'file');
  let flow: FlowRow;
  if (input.workflowId) flow = await requireFlow(db, membership, input.workflowId);
  else {
    if (!input.type) throw createValidationError({ type: 'Choose one document type' });
    const dir = real.slice(0, real.length - basename(real).length).replace(/\/$/, '') || '/';
    flow = await findOrCreateAdHocFlow(db, {
      env,
      user,
      membership,
      input: {
        kind: 'local',
        url: dir,
        type: input.type,
      },
    });
  }
  const run = await startRun(db, {
    env,
    jobs,
    user,
    flow,
    source: { kind: 'file', path: real, name: basename(real) },
  });
  return { runId: run.id };
}

/**
 * `POST /api/workflow/sheets/create`: makes the flow's output through its sink — the .xlsx workbook (one per
 * flow, named by the flow's sheet id, opened by the in-app sheet view) or a new Google spreadsheet — and
 * returns the link that opens it.
 */
export async function createSheet(
  db: Db,
  {
    env,
    executor,
    membership,
    input,
  }: {
    env: Env;
    executor: TaskExecutor | undefined;
    membership: Membership;
    input: { workflowId?: string | undefined; sheetName?: string | undefined };
  },
): Promise<CreatedSheet> {
  if (!input.workflowId) throw createValidationError({ workflowId: 'Create the flow first, then its sheet' });
  if (!executor) throw new AppError('internal', 'The worker pool is not available');
  const flow = await requireFlow(db, membership, input.workflowId);
  const sheetName = input.sheetName || flow.io.output.sheetName || flow.name;
  const created = await outputSinkFor(flow).create(
    { db, env, executor },
    {
      flow,
      sheetName,
      saveOutput: async (output) => {
        await updateFlowRow(db, {
          organizationId: membership.organizationId,
          flowId: flow.id,
          values: { io: { input: flow.io.input, output } },
        });
      },
    },
  );
  return { sheetId: created.sheetId, sheetName, url: created.url };
}
