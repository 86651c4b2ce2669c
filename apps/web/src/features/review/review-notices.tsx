import {
  appPaths,
  approvalNoteMessage,
  type DocumentReview,
  describeReviewReason,
  isReviewNote,
  listHoldingReasons,
} from '@bahi/contracts';
import { CheckIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { formatAgo } from '@/lib/format.ts';

/* What the review screen says about the document as a whole: its state, a possible duplicate, a note. */

/** A possible copy of a document already read: where the original is, and the two ways out. */
export function DuplicateNotice({
  original,
  onRemove,
  removing,
  onNotDuplicate,
  approving,
}: {
  original: NonNullable<DocumentReview['duplicateOf']>;
  onRemove: () => void;
  removing: boolean;
  onNotDuplicate: () => void;
  approving: boolean;
}) {
  return (
    <div
      role="status"
      className="rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm"
      data-testid="duplicate-notice"
    >
      <p className="font-medium text-warning-foreground">Possible duplicate</p>
      <p className="mt-1">
        It looks like{' '}
        <Link
          className="font-medium text-primary hover:underline"
          to={appPaths.document(original.flowId, original.id)}
        >
          {original.fileName}
        </Link>
        {original.flowName ? ` in “${original.flowName}”` : ''}, already read. Until you decide, this copy is
        held: out of the sheet and every total, and Reconcile will not pay it (the original is paid).
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={onNotDuplicate} disabled={approving}>
          <CheckIcon aria-hidden="true" />
          Not a duplicate — approve
        </Button>
        <Button size="sm" variant="outline" onClick={onRemove} disabled={removing}>
          <Trash2Icon aria-hidden="true" />
          It is a duplicate — remove this copy
        </Button>
      </div>
    </div>
  );
}

/** Approving over a failed check: the note saying why, kept in the trail. */
export function ApprovalNote({
  busy,
  onCancel,
  onApprove,
}: {
  busy: boolean;
  onCancel: () => void;
  onApprove: (note: string) => void;
}) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (note.trim().length < 10) return setError(approvalNoteMessage);
    onApprove(note.trim());
  };
  return (
    <div
      className="flex flex-col gap-2 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm"
      data-testid="approval-note"
    >
      <label htmlFor="approval-note" className="font-medium">
        A check failed. Why do you approve it anyway?
      </label>
      <Textarea
        id="approval-note"
        autoFocus
        rows={2}
        value={note}
        onChange={(e) => {
          setNote(e.target.value);
          setError(null);
        }}
        placeholder="e.g. Total confirmed with the vendor's statement"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'approval-note-error' : undefined}
      />
      {error && (
        <p id="approval-note-error" className="text-destructive text-xs">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <Button size="sm" onClick={submit} disabled={busy}>
          <CheckIcon aria-hidden="true" />
          Approve with this note
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

/** What the document needs, in words: the reasons it was flagged, or who approved it. */
export function ReviewSummary({
  review,
  reasons,
  toReview,
}: {
  review: DocumentReview;
  reasons: string[];
  toReview: number;
}) {
  const doc = review.document;
  if (doc.status === 'failed')
    return (
      <div
        role="alert"
        className="rounded-lg border border-destructive/30 bg-destructive/5 p-3 text-destructive text-sm"
      >
        {doc.error?.message ?? 'Nothing could be read from this document.'}
      </div>
    );
  // Notes (e.g. whom it is billed to was not checked) are said but never ask for a look.
  const holding = listHoldingReasons(reasons);
  const notes = reasons.filter(isReviewNote);
  const noteLine =
    notes.length > 0 ? (
      <p className="mt-1 text-muted-foreground">{notes.map(describeReviewReason).join('; ')}</p>
    ) : null;
  if (review.approvedAt)
    return (
      <div className="rounded-lg border border-success/30 bg-success/5 p-3 text-sm">
        <p className="font-medium text-success">
          Approved by {review.approvedBy ?? 'a reviewer'} {formatAgo(review.approvedAt)}
        </p>
        {holding.length > 0 && (
          <p className="mt-1 text-muted-foreground">
            Approved with: {holding.map(describeReviewReason).join('; ')}
          </p>
        )}
        {noteLine}
      </div>
    );
  if (holding.length === 0)
    return (
      <div className="rounded-lg border bg-muted/40 p-3 text-muted-foreground text-sm">
        <p>Every check passed and every value was read with confidence. Look it over and approve.</p>
        {noteLine}
      </div>
    );
  return (
    <div className="rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm">
      <p className="font-medium text-warning-foreground">
        Needs a look{toReview > 0 ? ` · ${toReview} ${toReview === 1 ? 'value' : 'values'} marked below` : ''}
      </p>
      <ul className="mt-1 list-disc pl-5 text-warning-foreground">
        {holding.map((r) => (
          <li key={r}>{describeReviewReason(r)}</li>
        ))}
      </ul>
      {noteLine}
    </div>
  );
}
