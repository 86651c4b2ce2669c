import { appPaths, isReviewNote } from '@bahi/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { ExternalLinkIcon, RefreshCwIcon, RotateCcwIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { formatAgo, formatPageRange } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';
import { formatDocumentStatus } from '@/shared/flows/document-status.ts';
import { flowKeys, useRemoveDocument } from '@/shared/flows/queries.ts';
import { isGoogleAuthRequired } from '@/shared/integrations/google-oauth.ts';
import { formatBytes } from './flow-format.ts';
import type { Flow, FlowDocument } from './flows-api.ts';
import { mergeInbox, type UploadedFile } from './inbox.ts';
import { useFlowDocuments, useFlowUploads, useRedoDocument } from './queries.ts';
import { describeCheck } from './source-link.ts';
import { UploadDropZone } from './upload-drop-zone.tsx';

const TONE_CLASSES = {
  new: 'bg-secondary text-secondary-foreground',
  working: 'bg-accent text-accent-foreground',
  done: 'bg-success/12 text-success',
  review: 'bg-warning/15 text-warning-foreground',
  failed: 'bg-destructive/10 text-destructive',
} as const;

/** An upload no run has read yet. */
function UploadRow({ upload }: { upload: UploadedFile }) {
  return (
    <li className="flex flex-col gap-1.5 px-4 py-3" data-testid="inbox-document" data-status="new">
      <div className="flex items-center gap-2">
        <span className="min-w-0 flex-1 truncate font-medium text-sm" title={upload.fileName}>
          {upload.fileName}
        </span>
        <Badge className={cn('border-transparent', TONE_CLASSES.new)}>New</Badge>
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground text-xs">
        <span className="tabular-nums">{formatBytes(upload.size)}</span>
        <span>Uploaded {formatAgo(upload.createdAt)} · read on the next run</span>
      </div>
    </li>
  );
}

/** One inbox row: name, size, status, the engine's plain-words error or failed checks, and actions. */
function DocumentRow({
  doc,
  onRedo,
  onRemove,
  busy,
}: {
  doc: FlowDocument;
  onRedo: (action: 'retry' | 'reprocess') => void;
  onRemove: () => void;
  busy: boolean;
}) {
  const approved = doc.reviewFlag === 'approved';
  const status = approved ? ({ label: 'Approved', tone: 'done' } as const) : formatDocumentStatus(doc.status);
  // Removing asks once more, in place: a duplicate is removed in two clicks, never by a slip.
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="flex flex-col gap-1.5 px-4 py-3" data-testid="inbox-document" data-status={doc.status}>
      <div className="flex items-center gap-2">
        {doc.status === 'done' || doc.status === 'needs_review' || doc.status === 'failed' ? (
          <Link
            to={appPaths.document(doc.flowId, doc.id)}
            className="min-w-0 flex-1 truncate font-medium text-primary text-sm hover:underline"
            title={`Review ${doc.fileName}`}
          >
            {doc.fileName}
          </Link>
        ) : (
          <span className="min-w-0 flex-1 truncate font-medium text-sm" title={doc.fileName}>
            {doc.fileName}
          </span>
        )}
        {doc.fileUrl && (
          <a
            href={doc.fileUrl}
            target="_blank"
            rel="noreferrer"
            className="text-muted-foreground hover:text-foreground"
            aria-label={`Open the original file of ${doc.fileName}`}
            title="Open the original file"
          >
            <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
          </a>
        )}
        <Badge className={cn('border-transparent', TONE_CLASSES[status.tone])}>{status.label}</Badge>
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground text-xs">
        {doc.pageRange && (
          <span data-testid="document-pages">{formatPageRange(doc.pageRange, doc.fileName)}</span>
        )}
        {doc.size !== null && !doc.pageRange && <span className="tabular-nums">{formatBytes(doc.size)}</span>}
        {doc.processedAt && <span>Processed {formatAgo(doc.processedAt)}</span>}
        {(doc.status === 'failed' || doc.status === 'done' || doc.status === 'needs_review') && (
          <Button
            size="sm"
            variant="ghost"
            className="ml-auto h-7 px-2 text-xs"
            disabled={busy}
            onClick={() => onRedo(doc.status === 'failed' ? 'retry' : 'reprocess')}
          >
            {doc.status === 'failed' ? (
              <RotateCcwIcon aria-hidden="true" />
            ) : (
              <RefreshCwIcon aria-hidden="true" />
            )}
            {doc.status === 'failed' ? 'Retry' : 'Re-process'}
          </Button>
        )}
        {(doc.status === 'failed' || doc.status === 'done' || doc.status === 'needs_review') &&
          (confirming ? (
            <span className="flex items-center gap-1">
              <span className="text-foreground">Remove from this flow?</span>
              <Button
                size="sm"
                variant="destructive"
                className="h-7 px-2 text-xs"
                disabled={busy}
                onClick={() => {
                  setConfirming(false);
                  onRemove();
                }}
              >
                Remove
              </Button>
              <Button
                size="sm"
                variant="ghost"
                className="h-7 px-2 text-xs"
                onClick={() => setConfirming(false)}
              >
                Keep
              </Button>
            </span>
          ) : (
            <Button
              size="sm"
              variant="ghost"
              className="h-7 px-2 text-xs"
              disabled={busy}
              aria-label={`Remove ${doc.fileName} from this flow`}
              onClick={() => setConfirming(true)}
            >
              <Trash2Icon aria-hidden="true" />
              Remove
            </Button>
          ))}
      </div>
      {doc.status === 'failed' && doc.error && (
        <p className="text-destructive text-xs">{doc.error.message}</p>
      )}
      {doc.failedChecks.length > 0 && !approved && (
        <ul className="list-disc pl-4 text-warning-foreground text-xs">
          {doc.failedChecks.map((check) => (
            // A note (not a reason for review) is said in a quieter colour.
            <li key={check} className={cn(isReviewNote(check) && 'text-muted-foreground')}>
              {describeCheck(check)}
            </li>
          ))}
        </ul>
      )}
    </li>
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
  const redo = useRedoDocument(flow.id);
  const remove = useRemoveDocument(flow.id);
  const docs = documents.data ?? [];
  const entries = mergeInbox(uploads.data ?? [], docs);
  const newCount = entries.length - docs.length;
  const counts = {
    total: entries.length,
    failed: docs.filter((d) => d.status === 'failed').length,
    review: docs.filter((d) => d.status === 'needs_review').length,
  };

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
          {documents.isPending || (isUpload && uploads.isPending) ? (
            <div className="flex flex-col gap-3">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} className="h-14 w-full" />
              ))}
            </div>
          ) : documents.isError ? (
            <p role="alert" className="text-destructive text-sm">
              Couldn't load the documents: {documents.error.message}
            </p>
          ) : entries.length === 0 ? (
            <p className="py-6 text-center text-muted-foreground text-sm">
              No documents yet.
              {flow.io.input.kind === 'upload'
                ? ' Upload some above, then run the flow.'
                : ' Run the flow to read the folder.'}
            </p>
          ) : (
            <ul className="divide-y rounded-lg border" aria-label="Inbox">
              {entries.map((entry) =>
                entry.kind === 'upload' ? (
                  <UploadRow key={`u-${entry.upload.id}`} upload={entry.upload} />
                ) : (
                  <DocumentRow
                    key={entry.document.id}
                    doc={entry.document}
                    busy={redo.isPending}
                    onRedo={(action) => void handleRedo(entry.document, action)}
                    onRemove={() => void handleRemove(entry.document)}
                  />
                ),
              )}
            </ul>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}
