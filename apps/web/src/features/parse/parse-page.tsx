import { Loader2Icon, PlusIcon, WorkflowIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { ApiError } from '@/lib/api.ts';
import { getSheetViewPath } from '@/lib/sheet-path.ts';
import { useFlows } from '@/shared/flows/queries.ts';
import { GoogleAuthDialog } from '@/shared/integrations/google-auth-dialog.tsx';
import { isGoogleAuthRequired } from '@/shared/integrations/google-oauth.ts';
import { DocumentsPanel } from './documents-panel.tsx';
import { FlowCard } from './flow-card.tsx';
import { FlowFormSheet } from './flow-form-sheet.tsx';
import { type Flow, type Run, toProgressView } from './flows-api.ts';
import { isRunAuthFailure } from './google-output.ts';
import { useMailOAuthNotice } from './mail-oauth-notice.ts';
import { useDeleteFlow, useFlowRuns, useRefreshAfterRun, useStartRun } from './queries.ts';
import { describeRunOutcome, isRunActive, type RunProgressView } from './run-progress.ts';
import { useRunWatch } from './use-run-watch.ts';

/**
 * One flow with its own run watcher. A run started elsewhere (another tab, before a reload) is
 * picked up from the run history so its progress shows too.
 */
function FlowItem({
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

/** Confirmation before a flow (and its documents and rows) is deleted. */
function DeleteFlowDialog({ flow, onClose }: { flow: Flow | null; onClose: () => void }) {
  const remove = useDeleteFlow();
  async function handleDelete() {
    if (!flow) return;
    try {
      await remove.mutateAsync(flow.id);
      toast.success(`Deleted ${flow.name}`);
      onClose();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not delete the flow');
    }
  }
  return (
    <Dialog open={flow !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete {flow?.name}?</DialogTitle>
          <DialogDescription>
            The flow, its run history, its inbox and its workbook rows are removed. Files in your own folders
            are not touched. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={() => void handleDelete()} disabled={remove.isPending}>
            {remove.isPending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
            Delete flow
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Placeholder cards while the flows load. */
function FlowListSkeleton() {
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      {[0, 1, 2].map((i) => (
        <Card key={i} className="gap-3 px-5 py-5">
          <div className="flex items-center gap-2">
            <Skeleton className="h-5 w-48" />
            <Skeleton className="h-5 w-16" />
            <Skeleton className="h-5 w-14" />
          </div>
          <Skeleton className="h-4 w-72" />
          <Skeleton className="h-3 w-40" />
        </Card>
      ))}
    </div>
  );
}

/** `/flows/<id>/sheet` for `/parse?sheet=<id>`, keeping the tab and a mailbox sign-in's outcome. */
function toSheetRoute(flowId: string, searchParams: URLSearchParams): string {
  const path = getSheetViewPath(flowId, searchParams.get('tab') === 'lines' ? 'lines' : 'documents');
  const rest = new URLSearchParams(searchParams);
  rest.delete('sheet');
  rest.delete('tab');
  if (rest.size === 0) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${rest.toString()}`;
}

/** `/parse` ("Document Processing"): the flows list (`?sheet=<flowId>` opens that flow's sheet route). */
export function ParsePage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const sheetFlowId = searchParams.get('sheet');
  const flows = useFlows();
  // `?create=1` (Home's "Create Parse Flow") opens the create sheet straight away.
  const [formOpen, setFormOpen] = useState(() => searchParams.get('create') === '1');
  useEffect(() => {
    if (searchParams.get('create') === null) return;
    const next = new URLSearchParams(searchParams);
    next.delete('create');
    setSearchParams(next, { replace: true });
  }, [searchParams, setSearchParams]);
  useMailOAuthNotice();
  const [editing, setEditing] = useState<Flow | undefined>(undefined);
  const [deleting, setDeleting] = useState<Flow | null>(null);
  const [documentsFlowId, setDocumentsFlowId] = useState<string | null>(null);

  // The server's links (`appPaths.flowSheet`) name the sheet as `?sheet=<flowId>`: it has its own route now.
  if (sheetFlowId) return <Navigate to={toSheetRoute(sheetFlowId, searchParams)} replace />;

  function openCreate() {
    setEditing(undefined);
    setFormOpen(true);
  }

  const list = flows.data ?? [];
  return (
    <div className="flex flex-col gap-8">
      <PageHeader
        title="Document Processing"
        description="Turn purchase orders, GRNs and GST invoices into checked rows in your spreadsheet."
        actions={
          // Always there, whatever the list shows (loading, empty, an error), so a new flow is one click away.
          <Button onClick={openCreate}>
            <PlusIcon aria-hidden="true" />
            Create New Flow
          </Button>
        }
      />
      {flows.isPending ? (
        <FlowListSkeleton />
      ) : flows.isError ? (
        <div
          role="alert"
          className="flex flex-col items-start gap-3 rounded-md border border-destructive/30 bg-destructive/5 px-4 py-3 text-destructive text-sm"
        >
          Couldn't load your flows: {flows.error.message}
          <Button size="sm" variant="outline" onClick={() => void flows.refetch()}>
            Try again
          </Button>
        </div>
      ) : list.length === 0 ? (
        <EmptyState
          icon={WorkflowIcon}
          title="No processing flows yet"
          description="A flow takes documents from uploads or a folder, extracts every field, checks it against Indian GST rules and writes it to a sheet."
          action={
            <Button onClick={openCreate}>
              <PlusIcon aria-hidden="true" />
              Create First Flow
            </Button>
          }
        />
      ) : (
        <div className="flex flex-col gap-4" data-testid="flow-list">
          {list.map((flow) => (
            <FlowItem
              key={flow.id}
              flow={flow}
              documentsOpen={documentsFlowId === flow.id}
              onDocumentsOpenChange={(open) => setDocumentsFlowId(open ? flow.id : null)}
              onEdit={() => {
                setEditing(flow);
                setFormOpen(true);
              }}
              onDelete={() => setDeleting(flow)}
            />
          ))}
        </div>
      )}
      <FlowFormSheet
        open={formOpen}
        onOpenChange={setFormOpen}
        flow={editing}
        onSaved={(saved, created) => {
          // A new upload flow has nothing to read yet: open its inbox so the user can drop files.
          if (created && saved.io.input.kind === 'upload') setDocumentsFlowId(saved.id);
        }}
      />
      <DeleteFlowDialog flow={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
