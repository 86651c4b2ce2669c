import { appPaths, type RunCounts } from '@bahi/contracts';
import type { JobContext } from '../../jobs/registry.ts';
import { recordActivity } from '../activity/activity.service.ts';
import type { FlowRow } from '../flows/flows.repo.ts';
import { notifyUser } from '../notifications/notifications.service.ts';
import type { RunRow } from './runs.repo.ts';

/** How a run ended, as its leader recorded it. */
export interface RunEnd {
  run: RunRow;
  flow: FlowRow;
  counts: RunCounts;
  /** The run succeeded. */
  ok: boolean;
  /** Why a failed run failed (its error message); a generic line when absent. */
  reason?: string;
}

/** Tells the organisation (activity) and the starter (bell) how the run ended. */
export async function announceRunEnd(ctx: JobContext, end: RunEnd): Promise<void> {
  const { run, flow, counts, ok, reason } = end;
  const processed = counts.done + counts.needsReview;
  const summary = ok
    ? `${processed} processed, ${counts.needsReview} to review, ${counts.failed} failed, ${counts.alreadyProcessed} already done`
    : (reason ?? 'The run failed');
  await recordActivity(ctx.db, {
    organizationId: flow.organizationId,
    kind: ok ? 'flow.run.finished' : 'flow.run.failed',
    message: `Run of "${flow.name}" ${ok ? 'finished' : 'failed'}: ${summary}`,
    userId: run.startedByUserId,
  });
  // A run that handled no document (a re-run that found nothing new) rings no bell: nothing happened. A run
  // the flow started by itself tells its owner only when it failed or left documents to review.
  const handled = processed + counts.failed;
  const recipient = run.startedByUserId ?? flow.ownerUserId;
  const worthTelling = run.startedByUserId ? !ok || handled > 0 : !ok || counts.needsReview > 0;
  if (recipient && worthTelling) {
    await notifyUser(
      ctx.db,
      { organizationId: flow.organizationId, userId: recipient },
      {
        kind: ok ? 'flow.run.finished' : 'flow.run.failed',
        title: ok ? `"${flow.name}" finished` : `"${flow.name}" failed`,
        body: summary,
        link: appPaths.flowSheet(flow.id),
      },
    );
  }
}
