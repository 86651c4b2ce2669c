import { useQueryClient } from '@tanstack/react-query';
import { ExternalLinkIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { flowKeys, useRemoveDocument } from '@/shared/flows/queries.ts';
import { isGoogleAuthRequired } from '@/shared/integrations/google-oauth.ts';
import { DocumentRow, UploadRow } from './document-row.tsx';
import type { Flow, FlowDocument } from './flows-api.ts';
import { type InboxEntry, mergeInbox } from './inbox.ts';
import { useFlowDocuments, useFlowUploads, useRedoDocument } from './queries.ts';
import { UploadDropZone } from './upload-drop-zone.tsx';

/** Remove and Retry / Re-process of one document, with their toasts; a retry Google refuses asks for it. */
function useDocumentActions(
  flowId: string,
  {
    onRunStarted,
    onAuthRequired,
    onOpenChange,
  }: {
    onRunStarted: (runId: string) => void;
    onAuthRequired: (() => void) | undefined;
    onOpenChange: (open: boolean) => void;
  },
) {
  const redo = useRedoDocument(flowId);
  const remove = useRemoveDocument(flowId);

  async function handleRemove(doc: FlowDocument) {
    try {
      await remove.mutateAsync(doc.id);
      toast.success(`Removed ${doc.fileName}: its rows left the sheet`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not remove that document');
    }
  }

  async function handleRedo(doc: FlowDocument, action: 'retry' | 'reprocess') {
    try {
      const runId = await redo.mutateAsync({ documentId: doc.id, action });
      toast.success(action === 'retry' ? `Retrying ${doc.fileName}` : `Re-processing ${doc.fileName}`);
      if (runId) onRunStarted(runId);
    } catch (error) {
      if (isGoogleAuthRequired(error) && onAuthRequired) {
        // The card's alert has the button that authorises; the panel closes so it is seen.
        onAuthRequired();
        onOpenChange(false);
        return;
      }
      toast.error(error instanceof Error ? error.message : 'Could not start that');
    }
  }

  return { busy: redo.isPending, handleRemove, handleRedo };
}

/** The inbox's list: skeletons while loading, the error, "no documents yet", or the rows. */
function InboxList({
  flow,
  loading,
  error,
  entries,
  actions,
}: {
  flow: Flow;
  loading: boolean;
  error: Error | null;
  entries: InboxEntry[];
  actions: ReturnType<typeof useDocumentActions>;
}) {
  if (loading) {
    return (
      <div className="flex flex-col gap-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-14 w-full" />
        ))}
      </div>
    );
  }
  if (error) {
    return (
      <p role="alert" className="text-destructive text-sm">
        Couldn't load the documents: {error.message}
      </p>
    );
  }
  if (entries.length === 0) {
    return (
      <p className="py-6 text-center text-muted-foreground text-sm">
        No documents yet.
        {flow.io.input.kind === 'upload'
          ? ' Upload some above, then run the flow.'
          : ' Run the flow to read the folder.'}
      </p>
    );
  }
  return (
    <ul className="divide-y rounded-lg border" aria-label="Inbox">
      {entries.map((entry) =>
        entry.kind === 'upload' ? (
          <UploadRow key={`u-${entry.upload.id}`} upload={entry.upload} />
        ) : (
          <DocumentRow
            key={entry.document.id}
            doc={entry.document}
            busy={actions.busy}
            onRedo={(action) => void actions.handleRedo(entry.document, action)}
            onRemove={() => void actions.handleRemove(entry.document)}
          />
        ),
      )}
    </ul>
  );
}

/**
 * Side sheet with a flow's inbox: the upload drop zone (upload flows) and every document with its
 * status, error or failed checks, plus Retry / Re-process.
 */
export function DocumentsPanel({
  flow,
  open,
  onOpenChange,
  onRunStarted,
  onAuthRequired,
  running = false,
}: {
  flow: Flow;
  running?: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRunStarted: (runId: string) => void;
  /** A retry refused because Google is not authorised: the flow card offers the authorisation dialog. */
  onAuthRequired?: () => void;
}) {
  const queryClient = useQueryClient();
  const documents = useFlowDocuments(flow.id, open, running);
  const isUpload = flow.io.input.kind === 'upload';
  const uploads = useFlowUploads(flow.id, open && isUpload);
  const actions = useDocumentActions(flow.id, { onRunStarted, onAuthRequired, onOpenChange });
  const docs = documents.data ?? [];
  const entries = mergeInbox(uploads.data ?? [], docs);
  const newCount = entries.length - docs.length;
  const counts = {
    total: entries.length,
    failed: docs.filter((d) => d.status === 'failed').length,
    review: docs.filter((d) => d.status === 'needs_review').length,
  };

  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent side="right" className="w-full overflow-y-auto sm:max-w-xl">
        <SheetHeader className="border-b px-6 py-5">
          <SheetTitle className="text-lg">{flow.name} — documents</SheetTitle>
          <SheetDescription>
            {counts.total} {counts.total === 1 ? 'document' : 'documents'}
            {newCount > 0 && ` · ${newCount} new`}
            {counts.review > 0 && ` · ${counts.review} need review`}
            {counts.failed > 0 && ` · ${counts.failed} failed`}
          </SheetDescription>
        </SheetHeader>
        <div className="flex flex-col gap-5 px-6 pb-6">
          {flow.io.input.kind === 'upload' && (
            <UploadDropZone
              flowId={flow.id}
              onUploaded={() => void queryClient.invalidateQueries({ queryKey: flowKeys.uploads(flow.id) })}
            />
          )}
          {flow.io.input.kind !== 'upload' && (
            <p className="flex items-center gap-2 rounded-md bg-muted/60 px-3 py-2 text-muted-foreground text-xs">
              <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
              Documents are read from {flow.io.input.url} each time the flow runs.
            </p>
          )}
          <InboxList
            flow={flow}
            loading={documents.isPending || (isUpload && uploads.isPending)}
            error={documents.isError ? documents.error : null}
            entries={entries}
            actions={actions}
          />
        </div>
      </SheetContent>
    </Sheet>
  );
}
