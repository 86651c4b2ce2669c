import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { ApiError } from '@/lib/api.ts';
import { GoogleAuthDialog } from '@/shared/integrations/google-auth-dialog.tsx';
import { isGoogleAuthRequired } from '@/shared/integrations/google-oauth.ts';
import { DocumentsPanel } from './documents-panel.tsx';
import { FlowCard } from './flow-card.tsx';
import { type Flow, type Run, toProgressView } from './flows-api.ts';
import { isRunAuthFailure } from './google-output.ts';
import { useFlowRuns, useRefreshAfterRun, useStartRun } from './queries.ts';
import { describeRunOutcome, isRunActive, type RunProgressView } from './run-progress.ts';
import { useRunWatch } from './use-run-watch.ts';

/**
 * One flow with its own run watcher. A run started elsewhere (another tab, before a reload) is
 * picked up from the run history so its progress shows too.
 */
export function FlowItem({
  flow,
  documentsOpen,
  onDocumentsOpenChange,
  onEdit,
  onDelete,
}: {
  flow: Flow;
  documentsOpen: boolean;
  onDocumentsOpenChange: (open: boolean) => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const runs = useFlowRuns(flow.id);
  const startRun = useStartRun();
  const refresh = useRefreshAfterRun();
  const [startedRunId, setStartedRunId] = useState<string | null>(null);
  const [endedRunIds, setEndedRunIds] = useState<string[]>([]);
  // The finished bar stays a moment at its final count so the end of a run is seen, not just a blink.
  const [finished, setFinished] = useState<RunProgressView | null>(null);
  // Set when a run could not start or failed because Google is not (or no longer) authorised.
  const [authRequired, setAuthRequired] = useState(false);
  const [authOpen, setAuthOpen] = useState(false);
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
    show(`${flow.name}: ${outcome.message}`);
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

  return (
    <>
      <FlowCard
        flow={flow}
        progress={activeRunId !== null ? progress : finished}
        running={activeRunId !== null}
        starting={startRun.isPending}
        onRun={() => void handleRun()}
        onEdit={onEdit}
        onDelete={onDelete}
        onOpenDocuments={() => onDocumentsOpenChange(true)}
        authRequired={authRequired}
        onAuthorize={() => setAuthOpen(true)}
        // Newest first: the badge tells how the latest run went, counted by the server.
        latestRun={runs.data ? (runs.data[0] ?? null) : undefined}
      />
      <GoogleAuthDialog
        open={authOpen}
        onOpenChange={setAuthOpen}
        onConnected={() => {
          // The run the user wanted goes ahead once Google is authorised.
          setAuthRequired(false);
          void handleRun();
        }}
      />
      <DocumentsPanel
        flow={flow}
        open={documentsOpen}
        onOpenChange={onDocumentsOpenChange}
        onRunStarted={(runId) => setStartedRunId(runId)}
        onAuthRequired={() => setAuthRequired(true)}
        running={activeRunId !== null}
      />
    </>
  );
}
