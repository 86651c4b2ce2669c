import { appPaths } from '@bahi/contracts';
import { sourceFor } from '../../adapters/sources/index.ts';
import type { JobContext } from '../../jobs/registry.ts';
import { AppError } from '../../lib/app-error.ts';
import { describeErrorForLog } from '../../lib/log-safe.ts';
import {
  claimOccurrence,
  claimWatchMark,
  clearSourceFailure,
  type FlowAutomationRow,
  listDueAutomations,
  parseTrigger,
  recordSourceFailure,
} from '../flows/flow-automations.repo.ts';
import { nextRunAfter } from '../flows/flow-schedule.ts';
import { type FlowRow, findFlowById } from '../flows/flows.repo.ts';
import { notifyUser } from '../notifications/notifications.service.ts';
import { startRun } from './runs.service.ts';

/** A failing source waits 1, 2, 4 … minutes before it is tried again, never more than an hour. */
export function backOffMs(failures: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, failures - 1), 60 * 60_000);
}

/** What a source failure says to a person (an AppError's message is already in plain words). */
function describeFailure(error: unknown): string {
  if (error instanceof AppError) return error.message;
  return 'The source could not be read; Bahi will try again.';
}

/**
 * Records a failing source: the flow shows the error, waits longer after each failure, and its owner is
 * told once (on the first failure of a streak), with the fix in the message.
 */
async function failSource(ctx: JobContext, flow: FlowRow, now: Date, error: unknown): Promise<void> {
  const message = describeFailure(error);
  if (!(error instanceof AppError))
    ctx.logger.warn({ error: describeErrorForLog(error), flowId: flow.id }, 'source failed');
  const failures = await recordSourceFailure(ctx.db, flow.id, {
    message,
    retryAt: (n) => new Date(now.getTime() + backOffMs(n)),
  });
  if (failures === 1 && flow.ownerUserId) {
    await notifyUser(
      ctx.db,
      { organizationId: flow.organizationId, userId: flow.ownerUserId },
      {
        kind: 'flow.source.failed',
        title: `"${flow.name}" cannot read its source`,
        body: message,
        link: appPaths.flowSheet(flow.id),
      },
    );
  }
}

/** Starts a run the flow's trigger asked for; false when one is already running (nothing started). */
async function startAutomaticRun(ctx: JobContext, flow: FlowRow, why: string): Promise<boolean> {
  try {
    await startRun(ctx.db, { env: ctx.env, jobs: ctx.jobs, user: null, flow, automatic: why });
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === 'run_in_progress') return false;
    throw error;
  }
}

/** A due schedule: the process that moves it to its next occurrence starts this one's run. */
async function fireSchedule(ctx: JobContext, flow: FlowRow, row: FlowAutomationRow, now: Date) {
  const next = nextRunAfter(parseTrigger(row), now);
  if (
    !row.nextRunAt ||
    !(await claimOccurrence(ctx.db, { flowId: row.flowId, nextRunAt: row.nextRunAt }, next))
  )
    return false;
  // A source that can be looked at and holds nothing (an empty folder or inbox, no new mail) starts no run:
  // a schedule does not fail every quarter hour for want of documents.
  const adapter = sourceFor(flow.io.input.kind);
  const source = { organizationId: flow.organizationId, flowId: flow.id, input: flow.io.input };
  if (adapter.watch && (await adapter.watch(ctx, source)) === null) return false;
  // A run still going when the next occurrence comes is that occurrence: it is not queued behind it.
  return startAutomaticRun(ctx, flow, 'on its schedule');
}

/**
 * An on-arrival flow: looks at its source (a folder's listing, new mail taken in) and starts a run when it
 * holds something it did not hold at the last start. The process that records the new fingerprint first
 * starts the run; when a run is still going, the old fingerprint is put back so the next tick tries again.
 */
async function fireArrival(ctx: JobContext, flow: FlowRow, row: FlowAutomationRow) {
  const adapter = sourceFor(flow.io.input.kind);
  if (!adapter.watch) return false;
  const source = { organizationId: flow.organizationId, flowId: flow.id, input: flow.io.input };
  const mark = await adapter.watch(ctx, source);
  await clearSourceFailure(ctx.db, flow.id);
  if (mark === null || mark === row.watchMark) return false;
  if (!(await claimWatchMark(ctx.db, row, mark))) return false;
  if (await startAutomaticRun(ctx, flow, 'because new documents arrived')) return true;
  await claimWatchMark(ctx.db, { flowId: row.flowId, watchMark: mark }, row.watchMark ?? '');
  return false;
}

/**
 * One tick of the flows' clock (the `flow-tick` job, sent once a minute by the queue's schedule): starts
 * the run of every scheduled flow that is due and every on-arrival flow whose source has something new.
 * Safe to run twice or in two processes at once: each start is decided by a compare-and-set. Returns the
 * flows whose runs it started.
 */
export async function fireDueFlows(ctx: JobContext, now: Date): Promise<string[]> {
  const started: string[] = [];
  for (const row of await listDueAutomations(ctx.db, now)) {
    if (ctx.signal?.aborted) break;
    const flow = await findFlowById(ctx.db, row.flowId);
    if (!flow) continue;
    const kind = parseTrigger(row).kind;
    try {
      const fired =
        kind === 'arrival'
          ? await fireArrival(ctx, flow, row)
          : kind !== 'manual' && row.nextRunAt && row.nextRunAt <= now
            ? await fireSchedule(ctx, flow, row, now)
            : false;
      if (fired) started.push(flow.id);
    } catch (error) {
      await failSource(ctx, flow, now, error);
    }
  }
  return started;
}
