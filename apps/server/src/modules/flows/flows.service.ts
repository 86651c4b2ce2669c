import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type CreateWorkflowInput,
  CreateWorkflowInputSchema,
  type FlowDocumentType,
  type FlowIntake,
  type FlowIo,
  type FlowTrigger,
  type UpdateWorkflowInput,
  UpdateWorkflowInputSchema,
  type Workflow,
} from '@bahi/contracts';
import { getPreviewDir } from '../../adapters/blobs/previews.ts';
import { sourceFor } from '../../adapters/sources/index.ts';
import { getUploadDir } from '../../adapters/sources/upload.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { UUID_RE } from '../../lib/ids.ts';
import { recordActivity } from '../activity/activity.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { listIntakeLines } from '../intake/mail.repo.ts';
import { findOrganization } from '../organizations/organizations.repo.ts';
import {
  type FlowAutomationRow,
  listFlowAutomations,
  parseTrigger,
  upsertFlowTrigger,
} from './flow-automations.repo.ts';
import { nextRunAfter } from './flow-schedule.ts';
import {
  deleteFlowRow,
  type FlowRow,
  findFlow,
  insertFlow,
  listFlowRows,
  updateFlowRow,
} from './flows.repo.ts';

/**
 * Shapes a stored flow into the original product's record (times in epoch ms), with its automation when
 * known (absent: manual).
 */
export function toWorkflow(row: FlowRow, automation?: FlowAutomationRow): Workflow {
  return {
    id: row.id,
    uid: row.ownerUserId,
    name: row.name,
    types: row.types as FlowDocumentType[],
    io: withoutSecrets(row.io),
    status: row.status === 'success' ? 'success' : 'inactive',
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
    lastRunAt: row.lastRunAt ? row.lastRunAt.getTime() : null,
    trigger: parseTrigger(automation),
    nextRunAt: automation?.nextRunAt ? automation.nextRunAt.getTime() : null,
    sourceError: automation?.sourceError ?? null,
  };
}

/** A flow's io as the browser may see it: a mailbox password is never sent, only that one is stored. */
function withoutSecrets(io: FlowIo): FlowIo {
  const { mail } = io.input;
  if (!mail) return io;
  const { password: _password, passwordEnc, ...shown } = mail;
  return { ...io, input: { ...io.input, mail: { ...shown, hasPassword: Boolean(passwordEnc) } } };
}

/** Flow records with their automations (one query for all). */
async function withAutomations(db: Db, organizationId: string, rows: FlowRow[]): Promise<Workflow[]> {
  const automations = await listFlowAutomations(
    db,
    organizationId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toWorkflow(row, automations.get(row.id)));
}

/**
 * Saves a flow's trigger: `on arrival` needs a source that can be watched (a folder, uploads, a mailbox);
 * a schedule's first run is counted from now. A daily time is read on the organisation's clock (its time
 * zone setting), whatever zone the request named.
 */
async function saveTrigger(tx: Db, flow: FlowRow, requested: FlowTrigger, now: Date): Promise<void> {
  if (requested.kind === 'arrival' && !sourceFor(flow.io.input.kind).watch) {
    const message = 'This source cannot be watched; choose a schedule instead';
    throw new AppError('validation', message, { trigger: message });
  }
  const trigger =
    requested.kind === 'daily'
      ? {
          ...requested,
          timeZone: (await findOrganization(tx, flow.organizationId))?.timeZone ?? requested.timeZone,
        }
      : requested;
  await upsertFlowTrigger(tx, {
    organizationId: flow.organizationId,
    flowId: flow.id,
    trigger,
    nextRunAt: nextRunAfter(trigger, now),
  });
}

/** The flow's single document type. */
export function getFlowType(row: FlowRow): FlowDocumentType {
  return (row.types[0] as FlowDocumentType | undefined) ?? 'INVOICE';
}

/** Where the flow's workbook lives: one per flow, named by its sheet id (the flow id by default). */
export function getWorkbookPath(dataDir: string, row: FlowRow): string {
  const { sheetId: named } = row.io.output;
  const sheetId = /^[A-Za-z0-9_-]{1,80}$/.test(named) ? named : row.id;
  return join(dataDir, 'workbooks', row.organizationId, `${sheetId}.xlsx`);
}

/**
 * Checks a flow's input the way a run will use it, through its source kind's adapter (e.g. Drive links by
 * the product's rule, local folders confined to the folders granted to the organisation, so a flow never
 * stores a path it could not read). `previous` is the flow's io before an update.
 */
async function validateIo(
  ctx: { db: Db; env: Env },
  request: { organizationId: string; io: FlowIo; previous?: FlowIo | undefined },
): Promise<FlowIo> {
  const { organizationId, io, previous } = request;
  const input = await sourceFor(io.input.kind).validate(ctx, {
    organizationId,
    input: { ...io.input, url: io.input.url.trim() },
    previous: previous?.input,
  });
  return { input, output: io.output };
}

/** The organisation's flows, newest first. */
export async function listWorkflows(db: Db, membership: Membership): Promise<Workflow[]> {
  const rows = await listFlowRows(db, membership.organizationId);
  return withAutomations(db, membership.organizationId, rows);
}

/** One flow of the caller's organisation, or `not_found` (also for other organisations' flows). */
export async function requireFlow(db: Db, membership: Membership, flowId: string): Promise<FlowRow> {
  const row = UUID_RE.test(flowId) ? await findFlow(db, membership.organizationId, flowId) : undefined;
  if (!row) throw new AppError('not_found', 'No such flow');
  return row;
}

/** Creates a flow; status starts `inactive`. */
export async function createWorkflow(
  db: Db,
  {
    env,
    user,
    membership,
    input: rawInput,
    now = new Date(),
  }: {
    env: Env;
    user: SessionUser;
    membership: Membership;
    input: CreateWorkflowInput;
    /** When it is saved: a schedule's first run counts from here. */
    now?: Date;
  },
): Promise<Workflow> {
  const input = CreateWorkflowInputSchema.parse(rawInput);
  const io = await validateIo({ db, env }, { organizationId: membership.organizationId, io: input.io });
  const row = await db.transaction(async (tx) => {
    const created = await insertFlow(tx, {
      organizationId: membership.organizationId,
      userId: user.id,
      values: {
        name: input.name,
        types: input.types,
        io,
      },
    });
    if (input.trigger) await saveTrigger(tx, created, input.trigger, now);
    await recordActivity(tx, {
      organizationId: membership.organizationId,
      kind: 'flow.created',
      message: `${user.name} created flow "${created.name}"`,
      userId: user.id,
    });
    return created;
  });
  return (await withAutomations(db, membership.organizationId, [row]))[0]!;
}

/** Updates a flow's name, type or io. */
export async function updateWorkflow(
  db: Db,
  {
    env,
    user,
    membership,
    flowId,
    input: rawInput,
    now = new Date(),
  }: {
    env: Env;
    user: SessionUser;
    membership: Membership;
    flowId: string;
    input: UpdateWorkflowInput;
    now?: Date;
  },
): Promise<Workflow> {
  const input = UpdateWorkflowInputSchema.parse(rawInput);
  const existing = await requireFlow(db, membership, flowId);
  const values: { name?: string; types?: string[]; io?: FlowIo } = {};
  if (input.name !== undefined) values.name = input.name;
  if (input.types !== undefined) values.types = input.types;
  if (input.io !== undefined)
    values.io = await validateIo(
      { db, env },
      { organizationId: membership.organizationId, io: input.io, previous: existing.io },
    );
  const row = await db.transaction(async (tx) => {
    const updated = await updateFlowRow(tx, { organizationId: membership.organizationId, flowId, values });
    if (!updated) throw new AppError('not_found', 'No such flow');
    if (input.trigger) await saveTrigger(tx, updated, input.trigger, now);
    await recordActivity(tx, {
      organizationId: membership.organizationId,
      kind: 'flow.updated',
      message: `${user.name} updated flow "${updated.name}"`,
      userId: user.id,
    });
    return updated;
  });
  return (await withAutomations(db, membership.organizationId, [row]))[0]!;
}

/** Deletes a flow with its runs, documents, uploads and workbook. */
export async function deleteWorkflow(
  db: Db,
  { env, user, membership, flowId }: { env: Env; user: SessionUser; membership: Membership; flowId: string },
): Promise<void> {
  const existing = await requireFlow(db, membership, flowId);
  await db.transaction(async (tx) => {
    const deleted = await deleteFlowRow(tx, membership.organizationId, flowId);
    if (!deleted) throw new AppError('not_found', 'No such flow');
    await recordActivity(tx, {
      organizationId: membership.organizationId,
      kind: 'flow.deleted',
      message: `${user.name} deleted flow "${deleted.name}"`,
      userId: user.id,
    });
  });
  // Files go after the rows: a crash in between leaves orphan files, never rows pointing at nothing.
  await rm(getUploadDir(env.dataDir, membership.organizationId, flowId), { recursive: true, force: true });
  await rm(getWorkbookPath(env.dataDir, existing), { force: true });
  await rm(getPreviewDir(env.dataDir, membership.organizationId, flowId), { recursive: true, force: true });
}

/**
 * A flow's automation as its page shows it: the trigger, the next run, the source's failure and back-off,
 * and the latest intake log lines (each item its source offered: taken, skipped or failed, and why).
 */
export async function getFlowIntake(db: Db, membership: Membership, flowId: string): Promise<FlowIntake> {
  const flow = await requireFlow(db, membership, flowId);
  const automation = (await listFlowAutomations(db, flow.organizationId, [flow.id])).get(flow.id);
  const lines = await listIntakeLines(db, flow.organizationId, flow.id);
  return {
    trigger: parseTrigger(automation),
    nextRunAt: automation?.nextRunAt?.toISOString() ?? null,
    sourceError: automation?.sourceError ?? null,
    retryAt: automation?.retryAt?.toISOString() ?? null,
    items: lines.map((line) => ({
      id: line.id,
      origin: line.origin,
      name: line.name,
      status: line.status as 'taken' | 'skipped' | 'failed',
      reason: line.reason,
      at: line.createdAt.toISOString(),
    })),
  };
}
