import type { FlowOutputsStatus } from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../jobs/registry.ts';
import type { Membership } from '../auth/identity.ts';
import { type FlowRow, markOutputsStale } from './flows.repo.ts';
import { requireFlow } from './flows.service.ts';

// A person's change (a correction, an approval, a removal, an override, a tolerance or a vendor's terms)
// saves, records its event, marks the flows' outputs stale and returns: the workbook and the Google sheet
// are rewritten by the `flow-workbook` job, one per flow at a time, a moment later.

/**
 * Seconds a `flow-workbook` job waits before it starts: the changes a person makes meanwhile (field after
 * field on the review screen) collapse into that one job (the queue keeps one waiting per flow), which
 * reads them all.
 */
export const OUTPUTS_DEBOUNCE_SECONDS = 2;

/** What sending the outputs' job needs: the queue (absent in tests without one) and a logger. */
export interface OutputsContext {
  db: Db;
  jobs?: JobSender | undefined;
  logger?: { warn: (obj: object, msg: string) => void } | undefined;
}

/**
 * Marks the outputs of `flowId` (and of the organisation's invoice flows, whose "Matches" tab follows every
 * document and override) stale, and sends each of them its `flow-workbook` job. Best effort on the queue:
 * a change is saved even when the queue is down; its workbook is then rewritten on its next download and
 * its Google sheet at the flow's next run.
 */
export async function refreshFlowOutputs(
  ctx: OutputsContext,
  organizationId: string,
  flowId?: string,
): Promise<void> {
  const flowIds = await markOutputsStale(ctx.db, organizationId, flowId);
  await sendOutputsJobs(ctx, flowIds);
}

/** Sends the `flow-workbook` job of each flow: one waiting per flow (the queue drops a second). */
export async function sendOutputsJobs(ctx: Omit<OutputsContext, 'db'>, flowIds: string[]): Promise<void> {
  if (!ctx.jobs) return;
  for (const flowId of flowIds)
    await ctx.jobs
      .send(
        'flow-workbook',
        { flowId },
        { singletonKey: flowId, startAfterSeconds: OUTPUTS_DEBOUNCE_SECONDS },
      )
      .catch((error: unknown) =>
        ctx.logger?.warn({ err: error, flowId }, 'could not enqueue the rewrite of the flow outputs'),
      );
}

/** A flow's outputs as the review screen shows them: written up to date, or being written. */
export function toFlowOutputsStatus(flow: FlowRow): FlowOutputsStatus {
  return {
    upToDate: flow.outputsWrittenVersion >= flow.outputsVersion,
    writtenAt: flow.outputsWrittenAt?.toISOString() ?? null,
    error: flow.outputsError,
  };
}

/** `GET /api/flows/:id/outputs`: whether the flow's workbook and sheet hold its latest rows. */
export async function getFlowOutputsStatus(
  db: Db,
  { membership, flowId }: { membership: Membership; flowId: string },
): Promise<FlowOutputsStatus> {
  return toFlowOutputsStatus(await requireFlow(db, membership, flowId));
}
