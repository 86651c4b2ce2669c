import { appPaths, isReviewNote } from '@bahi/contracts';
import { ExternalLinkIcon, RefreshCwIcon, RotateCcwIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { formatAgo, formatPageRange } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';
import { formatDocumentStatus } from '@/shared/flows/document-status.ts';
import { formatBytes } from './flow-format.ts';
import type { FlowDocument } from './flows-api.ts';
import type { UploadedFile } from './inbox.ts';
import { describeCheck } from './source-link.ts';

export const TONE_CLASSES = {
  new: 'bg-secondary text-secondary-foreground',
  working: 'bg-accent text-accent-foreground',
  done: 'bg-success/12 text-success',
  review: 'bg-warning/15 text-warning-foreground',
  failed: 'bg-destructive/10 text-destructive',
} as const;

/** An upload no run has read yet. */
export function UploadRow({ upload }: { upload: UploadedFile }) {
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

/** A document a run has settled (done, for review or failed): it opens for review and can be redone or removed. */
function isSettled(status: FlowDocument['status']): boolean {
  return status === 'done' || status === 'needs_review' || status === 'failed';
}

/** The file's name (a link to its review once settled), a link to the original file, and the status badge. */
function DocumentTitle({
  doc,
  status,
}: {
  doc: FlowDocument;
  status: { label: string; tone: keyof typeof TONE_CLASSES };
}) {
  return (
    <div className="flex items-center gap-2">
      {isSettled(doc.status) ? (
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
  );
}

/** Remove, asked once more in place: a duplicate is removed in two clicks, never by a slip. */
function RemoveControl({
  fileName,
  busy,
  confirming,
  onConfirmingChange,
  onRemove,
}: {
  fileName: string;
  busy: boolean;
  confirming: boolean;
  onConfirmingChange: (confirming: boolean) => void;
  onRemove: () => void;
}) {
  if (!confirming) {
    return (
      <Button
        size="sm"
        variant="ghost"
        className="h-7 px-2 text-xs"
        disabled={busy}
        aria-label={`Remove ${fileName} from this flow`}
        onClick={() => onConfirmingChange(true)}
      >
        <Trash2Icon aria-hidden="true" />
        Remove
      </Button>
    );
  }
  return (
    <span className="flex items-center gap-1">
      <span className="text-foreground">Remove from this flow?</span>
      <Button
        size="sm"
        variant="destructive"
        className="h-7 px-2 text-xs"
        disabled={busy}
        onClick={() => {
          onConfirmingChange(false);
          onRemove();
        }}
      >
        Remove
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className="h-7 px-2 text-xs"
        onClick={() => onConfirmingChange(false)}
      >
        Keep
      </Button>
    </span>
  );
}

/** The engine's plain-words error of a failed document, and the checks that did not pass. */
function DocumentProblems({ doc, approved }: { doc: FlowDocument; approved: boolean }) {
  return (
    <>
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
    </>
  );
}

/** One inbox row: name, size, status, the engine's plain-words error or failed checks, and actions. */
export function DocumentRow({
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
  const [confirming, setConfirming] = useState(false);
  const failed = doc.status === 'failed';
  return (
    <li className="flex flex-col gap-1.5 px-4 py-3" data-testid="inbox-document" data-status={doc.status}>
      <DocumentTitle doc={doc} status={status} />
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground text-xs">
        {doc.pageRange && (
          <span data-testid="document-pages">{formatPageRange(doc.pageRange, doc.fileName)}</span>
        )}
        {doc.size !== null && !doc.pageRange && <span className="tabular-nums">{formatBytes(doc.size)}</span>}
        {doc.processedAt && <span>Processed {formatAgo(doc.processedAt)}</span>}
        {isSettled(doc.status) && (
          <>
            <Button
              size="sm"
              variant="ghost"
              className="ml-auto h-7 px-2 text-xs"
              disabled={busy}
              onClick={() => onRedo(failed ? 'retry' : 'reprocess')}
            >
              {failed ? <RotateCcwIcon aria-hidden="true" /> : <RefreshCwIcon aria-hidden="true" />}
              {failed ? 'Retry' : 'Re-process'}
            </Button>
            <RemoveControl
              fileName={doc.fileName}
              busy={busy}
              confirming={confirming}
              onConfirmingChange={setConfirming}
              onRemove={onRemove}
            />
          </>
        )}
      </div>
      <DocumentProblems doc={doc} approved={approved} />
    </li>
  );
}
