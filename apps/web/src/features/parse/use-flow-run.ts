import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { ApiError } from '@/lib/api.ts';
import { isGoogleAuthRequired } from '@/shared/integrations/google-oauth.ts';
import { type Flow, type Run, toProgressView } from './flows-api.ts';
import { isRunAuthFailure } from './google-output.ts';
import { useFlowRuns, useRefreshAfterRun, useStartRun } from './queries.ts';
import { describeRunOutcome, isRunActive, type RunProgressView } from './run-progress.ts';
import { useRunWatch } from './use-run-watch.ts';

/** Says how a finished run went, in a toast of its tone. */
function toastRunOutcome(flowName: string, run: Run) {
  const outcome = describeRunOutcome({
    status: run.status,
    // "Processed" = documents that produced rows, clean or needing review.
    processed: run.counts.done + run.counts.needsReview,
    needsReview: run.counts.needsReview,
    failed: run.counts.failed,
    error: run.error?.message,
  });
  const show =
    outcome.kind === 'error' ? toast.error : outcome.kind === 'warning' ? toast.warning : toast.success;
  show(`${flowName}: ${outcome.message}`);
}

/**
 * A flow's runs as its card shows them: the run going now (started here, or found in the history when
 * started elsewhere — another tab, before a reload) with its live progress, the finished bar for a
 * moment after, and whether Google authorisation stopped a run. `handleRun` starts one.
 */
export function useFlowRun(flow: Flow) {
  const runs = useFlowRuns(flow.id);
  const startRun = useStartRun();
  const refresh = useRefreshAfterRun();
  const [startedRunId, setStartedRunId] = useState<string | null>(null);
  const [endedRunIds, setEndedRunIds] = useState<string[]>([]);
  // The finished bar stays a moment at its final count so the end of a run is seen, not just a blink.
  const [finished, setFinished] = useState<RunProgressView | null>(null);
  // Set when a run could not start or failed because Google is not (or no longer) authorised.
  const [authRequired, setAuthRequired] = useState(false);
  useEffect(() => {
    if (!finished) return;
    const timer = setTimeout(() => setFinished(null), 4000);
    return () => clearTimeout(timer);
  }, [finished]);
  const historyRunId = runs.data?.find((run) => isRunActive(run.status))?.id ?? null;
  const candidate = startedRunId ?? historyRunId;
  const activeRunId = candidate && !endedRunIds.includes(candidate) ? candidate : null;

  const progress = useRunWatch(activeRunId, (run: Run) => {
    setEndedRunIds((ids) => [...ids, run.id]);
    const authFailed = run.status === 'failed' && isRunAuthFailure(run.error);
    // A run stopped by Google authorisation read nothing: a "finished" bar would mislead; the alert says it.
    setFinished(authFailed ? null : { ...toProgressView(run), currentFile: null });
    setStartedRunId(null);
    setAuthRequired(authFailed);
    toastRunOutcome(flow.name, run);
    refresh(flow.id);
  });

  async function handleRun() {
    try {
      const runId = await startRun.mutateAsync(flow.id);
      setAuthRequired(false);
      setStartedRunId(runId);
    } catch (error) {
      if (isGoogleAuthRequired(error)) {
        setAuthRequired(true);
        return;
      }
      if (error instanceof ApiError && error.code === 'run_in_progress') {
        toast.info('This flow is already running.');
        void runs.refetch();
        return;
      }
      toast.error(error instanceof Error ? error.message : 'Could not start the run');
    }
  }

  const running = activeRunId !== null;
  return {
    progress: running ? progress : finished,
    running,
    starting: startRun.isPending,
    // Newest first: the badge tells how the latest run went, counted by the server.
    latestRun: runs.data ? (runs.data[0] ?? null) : undefined,
    authRequired,
    setAuthRequired,
    setStartedRunId,
    handleRun,
  };
}
