import type { DocumentReview } from '@bahi/contracts';
import { ArrowLeftIcon, CheckIcon, ChevronLeftIcon, ChevronRightIcon, ExternalLinkIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { formatPageRange } from '@/lib/format.ts';
import { getSheetViewPath } from '@/lib/sheet-path.ts';
import { cn } from '@/lib/utils.ts';
import { formatDocumentStatus } from '@/shared/flows/document-status.ts';
import { SheetStatus } from './sheet-status.tsx';

/** The badge's colours: approved and read are green, a look amber, a failure red. */
function badgeTone(approved: boolean, tone: ReturnType<typeof formatDocumentStatus>['tone']): string {
  if (approved) return 'bg-success/12 text-success';
  if (tone === 'review') return 'bg-warning/15 text-warning-foreground';
  if (tone === 'failed') return 'bg-destructive/10 text-destructive';
  return 'bg-success/12 text-success';
}

/** The actions bar: previous and next document, the original file, and Approve (with their keys). */
function ReviewActions({
  review,
  editable,
  approving,
  approveBlocked,
  onGo,
  onApprove,
}: {
  review: DocumentReview;
  editable: boolean;
  approving: boolean;
  approveBlocked: string | null;
  onGo: (documentId: string | null) => void;
  onApprove: () => void;
}) {
  const approved = Boolean(review.approvedAt);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        variant="outline"
        size="sm"
        disabled={!review.previousId}
        onClick={() => onGo(review.previousId)}
        aria-keyshortcuts="k"
      >
        <ChevronLeftIcon aria-hidden="true" />
        Previous
      </Button>
      <Button
        variant="outline"
        size="sm"
        disabled={!review.nextId}
        onClick={() => onGo(review.nextId)}
        aria-keyshortcuts="j"
      >
        Next
        <ChevronRightIcon aria-hidden="true" />
      </Button>
      <Button asChild variant="ghost" size="sm">
        <a href={review.document.fileUrl} target="_blank" rel="noreferrer">
          <ExternalLinkIcon aria-hidden="true" />
          Original
        </a>
      </Button>
      {editable && (
        <Button
          size="sm"
          data-testid="approve"
          onClick={onApprove}
          disabled={approving || approved || Boolean(approveBlocked)}
          aria-keyshortcuts="a Control+Enter"
        >
          <CheckIcon aria-hidden="true" />
          {approved ? 'Approved' : review.duplicateOf ? 'Not a duplicate — approve' : 'Approve'}
        </Button>
      )}
    </div>
  );
}

/**
 * The review screen's top: the way back to the flow and whether its sheet is up to date, the document's
 * name and state, and the actions bar (previous / next, the original, approve), with the keys that do them.
 */
export function ReviewHeader({
  review,
  editable,
  approving,
  approveBlocked,
  correctBlocked,
  onGo,
  onApprove,
}: {
  review: DocumentReview;
  editable: boolean;
  approving: boolean;
  /** Why the caller's role may not approve this document, if it may not. */
  approveBlocked: string | null;
  /** Why the caller's role may not correct values, if it may not. */
  correctBlocked: string | null | undefined;
  onGo: (documentId: string | null) => void;
  onApprove: () => void;
}) {
  const doc = review.document;
  const approved = Boolean(review.approvedAt);
  const status = formatDocumentStatus(doc.status);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <Link
          to={getSheetViewPath(doc.flowId)}
          className="inline-flex w-fit items-center gap-1.5 text-muted-foreground text-sm hover:text-foreground"
        >
          <ArrowLeftIcon className="size-4" aria-hidden="true" />
          {review.flowName || 'Flow'}
        </Link>
        <SheetStatus flowId={doc.flowId} />
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 items-center gap-2">
          <div className="flex min-w-0 flex-col">
            <h1 className="truncate font-semibold text-xl tracking-tight sm:text-2xl" title={doc.fileName}>
              {doc.fileName}
            </h1>
            {doc.pageRange && (
              <p className="text-muted-foreground text-sm" data-testid="review-document-pages">
                {formatPageRange(doc.pageRange, doc.fileName)}
              </p>
            )}
          </div>
          <Badge className={cn('shrink-0 border-transparent', badgeTone(approved, status.tone))}>
            {approved ? 'Approved' : status.label}
          </Badge>
        </div>
        <ReviewActions
          review={review}
          editable={editable}
          approving={approving}
          approveBlocked={approveBlocked}
          onGo={onGo}
          onApprove={onApprove}
        />
      </div>
      {editable && !approved && (approveBlocked || correctBlocked) && (
        <p
          className="rounded-md bg-warning/15 px-3 py-2 text-sm text-warning-foreground"
          data-testid="role-note"
        >
          {approveBlocked ?? correctBlocked}
        </p>
      )}
      <p className="hidden text-muted-foreground text-xs md:block">
        Keys: <kbd className="rounded border px-1">Enter</kbd> save and go to the next value to check ·{' '}
        <kbd className="rounded border px-1">N</kbd> next value to check ·{' '}
        <kbd className="rounded border px-1">A</kbd> approve · <kbd className="rounded border px-1">J</kbd>/
        <kbd className="rounded border px-1">K</kbd> next / previous document ·{' '}
        <kbd className="rounded border px-1">Esc</kbd> undo a typed value, then leave the field
      </p>
    </div>
  );
}
