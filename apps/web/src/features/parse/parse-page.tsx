import { PlusIcon, WorkflowIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { sheetPathFromParseQuery } from '@/lib/sheet-path.ts';
import { useFlows } from '@/shared/flows/queries.ts';
import { DeleteFlowDialog } from './delete-flow-dialog.tsx';
import { FlowFormSheet } from './flow-form-sheet.tsx';
import { FlowItem } from './flow-item.tsx';
import type { Flow } from './flows-api.ts';
import { useMailOAuthNotice } from './mail-oauth-notice.ts';

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

/** `/parse` ("Document Processing"): the flows list (`?sheet=<flowId>` opens that flow's sheet route). */
export function ParsePage() {
  const [searchParams, setSearchParams] = useSearchParams();
  // The server's links (`appPaths.flowSheet`) name a flow's sheet as `?sheet=<flowId>`: it has its own route.
  const sheetPath = sheetPathFromParseQuery(searchParams);
  const flows = useFlows();
  // `?create=1` (Home's "Create Parse Flow") opens the create sheet straight away.
  const [formOpen, setFormOpen] = useState(() => searchParams.get('create') === '1');
  useEffect(() => {
    if (searchParams.get('create') === null) return;
    const next = new URLSearchParams(searchParams);
    next.delete('create');
    setSearchParams(next, { replace: true });
  }, [searchParams, setSearchParams]);
  // On the way to a sheet the sheet's page says how a mailbox sign-in went (its marker goes along).
  useMailOAuthNotice(sheetPath === null);
  const [editing, setEditing] = useState<Flow | undefined>(undefined);
  const [deleting, setDeleting] = useState<Flow | null>(null);
  const [documentsFlowId, setDocumentsFlowId] = useState<string | null>(null);

  if (sheetPath) return <Navigate to={sheetPath} replace />;

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
