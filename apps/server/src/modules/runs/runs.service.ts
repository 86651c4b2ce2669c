import {
  flowMessages,
  type Run,
  type RunCounts,
  RunErrorCodeSchema,
  type RunProgress,
  type RunStatus,
} from '@bahi/contracts';
import { sinksFor } from '../../adapters/sinks/index.ts';
import { sourceFor } from '../../adapters/sources/index.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../jobs/registry.ts';
import { AppError } from '../../lib/app-error.ts';
import { UUID_RE } from '../../lib/ids.ts';
import { recordActivity } from '../activity/activity.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import {
  countRunDocuments,
  type InFlightDocument,
  listInFlightDocuments,
} from '../documents/documents.repo.ts';
import type { FlowRow } from '../flows/flows.repo.ts';
import { requireFlow } from '../flows/flows.service.ts';
import {
  findRun,
  insertRun,
  isUniqueViolation,
  listRunRows,
  type RunRow,
  type RunSource,
} from './runs.repo.ts';

/** Empty counters. */
export function emptyCounts(): RunCounts {
  return { total: 0, done: 0, needsReview: 0, failed: 0, skipped: 0, alreadyProcessed: 0 };
}

/** Shapes a run row for the API. */
export function toRun(row: RunRow): Run {
  const counts = { ...emptyCounts(), ...row.counts };
  return {
    id: row.id,
    flowId: row.flowId,
    status: row.status as RunStatus,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
    durationMs: row.finishedAt ? row.finishedAt.getTime() - row.startedAt.getTime() : null,
    counts,
    currentFile: row.currentFile,
    partialDone: 0,
    skipped: row.skipped ?? [],
    // A code written by an older version and since retired reads as `internal`; its message stays.
    error: row.errorCode
      ? { code: RunErrorCodeSchema.catch('internal').parse(row.errorCode), message: row.errorMessage ?? '' }
      : null,
  };
}

/**
 * Checks that a run of this flow could reach its source and sinks now, so the user hears about it at once
 * (e.g. Drive and Google Sheets need the Google connection, local folders must sit inside the configured
 * roots). A run of given documents or of one file checks no source: those were checked when named.
 */
async function checkRunnable(ctx: { db: Db; env: Env }, flow: FlowRow, source: RunSource): Promise<void> {
  const { input } = flow.io;
  if (source.kind === 'flow')
    await sourceFor(input.kind).checkRunnable(ctx, {
      organizationId: flow.organizationId,
      flowId: flow.id,
      input,
    });
  for (const sink of sinksFor(flow)) await sink.checkRunnable(ctx, flow);
}

/**
 * Starts a run of a flow: inserts it as queued and enqueues its job. A second start while one is queued or
 * running is refused with `run_in_progress` — the partial unique index decides, so two requests at the same
 * instant cannot both win. `user` null: the flow started itself (its trigger), said in `automatic`.
 */
export async function startRun(
  db: Db,
  {
    env,
    jobs,
    user,
    flow,
    source = { kind: 'flow' },
    beforeEnqueue,
    automatic = 'by itself',
  }: {
    env: Env;
    jobs: JobSender | undefined;
    user: SessionUser | null;
    /** Why a run with no user started ("on its schedule", "new files arrived"). */
    automatic?: string;
    flow: FlowRow;
    source?: RunSource;
    beforeEnqueue?: (tx: Db, run: RunRow) => Promise<void>;
  },
): Promise<RunRow> {
  if (!jobs) throw new AppError('internal', 'The job queue is not available');
  await checkRunnable({ db, env }, flow, source);
  let run: RunRow;
  try {
    run = await db.transaction(async (tx) => {
      const inserted = await insertRun(tx, {
        flowId: flow.id,
        organizationId: flow.organizationId,
        startedByUserId: user?.id ?? null,
        source,
      });
      await beforeEnqueue?.(tx, inserted);
      await recordActivity(tx, {
        organizationId: flow.organizationId,
        kind: 'flow.run.started',
        message: user
          ? `${user.name} started a run of "${flow.name}"`
          : `"${flow.name}" started ${automatic}`,
        userId: user?.id ?? null,
      });
      return inserted;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('run_in_progress', flowMessages.runInProgress);
    throw error;
  }
  await jobs.send('flow-run', { runId: run.id });
  return run;
}

/** A run of the caller's organisation, or `not_found`. */
export async function requireRun(db: Db, membership: Membership, runId: string): Promise<RunRow> {
  const row = UUID_RE.test(runId) ? await findRun(db, membership.organizationId, runId) : undefined;
  if (!row) throw new AppError('not_found', 'No such run');
  return row;
}

/** A run with live counters (while running, counted from its documents). */
export async function getRun(db: Db, membership: Membership, runId: string): Promise<Run> {
  const row = await requireRun(db, membership, runId);
  return withLiveCounts(db, row);
}

/** For an unfinished run the stored counters lag; count its documents instead. */
export async function withLiveCounts(db: Db, row: RunRow): Promise<Run> {
  if (!isUnfinished(row)) return toRun(row);
  const [byStatus, inFlight] = await Promise.all([
    countRunDocuments(db, row.id),
    listInFlightDocuments(db, [row.id]),
  ]);
  return applyLiveCounts(row, byStatus, inFlight.get(row.id) ?? []);
}

/** True while a run is queued or running (its stored counters lag its documents). */
export function isUnfinished(row: Pick<RunRow, 'status'>): boolean {
  return row.status === 'queued' || row.status === 'running';
}

/**
 * A run with counters taken from its documents' statuses (`countRunDocuments`), for unfinished runs, and
 * `currentFile` naming what is really being read: every document in flight (several are read at once),
 * nothing between documents, and the scan's own note ("Scanning: …") until the scan is done.
 */
export function applyLiveCounts(
  row: RunRow,
  byStatus: Record<string, number>,
  inFlight: InFlightDocument[] = [],
): Run {
  const run = toRun(row);
  if (!isUnfinished(row)) return run;
  const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
  const scanned = row.counts.scanned === true;
  return {
    ...run,
    currentFile:
      inFlight.length > 0
        ? describeInFlight(inFlight.map((d) => d.fileName))
        : scanned
          ? null
          : run.currentFile,
    // The bar moves with pages: each document in flight counts for the share of its pages read.
    partialDone: inFlight.reduce(
      (sum, d) => sum + (d.pageCount ? Math.min(1, d.pagesRead / d.pageCount) : 0),
      0,
    ),
    counts: {
      ...run.counts,
      total,
      done: byStatus.done ?? 0,
      needsReview: byStatus.needs_review ?? 0,
      failed: byStatus.failed ?? 0,
    },
  };
}

/** "a.pdf", "a.pdf and b.pdf", "a.pdf, b.pdf and 3 more". */
function describeInFlight(names: string[]): string {
  if (names.length === 1) return names[0]!;
  if (names.length === 2) return `${names[0]} and ${names[1]}`;
  return `${names[0]}, ${names[1]} and ${names.length - 2} more`;
}

/** The progress event shape of a run. */
export function toProgress(run: Run): RunProgress {
  return {
    runId: run.id,
    status: run.status,
    done: run.counts.done + run.counts.needsReview + run.counts.failed,
    total: run.counts.total,
    failed: run.counts.failed,
    needsReview: run.counts.needsReview,
    currentFile: run.currentFile,
    partialDone: run.partialDone,
  };
}

/** A flow's run history, newest first. */
export async function listRuns(db: Db, membership: Membership, flowId: string): Promise<Run[]> {
  const flow = await requireFlow(db, membership, flowId);
  const rows = await listRunRows(db, flow.id, 50);
  return Promise.all(rows.map((r) => withLiveCounts(db, r)));
}
