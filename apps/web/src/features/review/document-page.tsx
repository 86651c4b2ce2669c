import type { DocumentReview } from '@bahi/contracts';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { ApiError } from '@/lib/api.ts';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { getSheetViewPath } from '@/lib/sheet-path.ts';
import { DocumentTally } from '@/shared/books/document-tally.tsx';
import { FieldGroupSection, FieldRow } from './field-groups.tsx';
import { LineItems } from './line-items.tsx';
import { PageViewer } from './page-viewer.tsx';
import { useDocumentReview } from './queries.ts';
import { buildFieldGroups, buildLineRows, describeFieldKey, getReviewType } from './review-fields.ts';
import { ReviewHeader } from './review-header.tsx';
import { ApprovalNote, DuplicateNotice, ReviewSummary } from './review-notices.tsx';
import { ReviewTrail } from './review-trail.tsx';
import { useReviewApproval } from './use-review-approval.ts';
import { useReviewEditing } from './use-review-editing.ts';

/*
 * The review screen, put together from what it shows: the header and actions bar (review-header), the
 * page viewer, the document's state and notices (review-notices), the header fields panel (field-groups),
 * the line items and the history. The editing and approving logic lives in the two use-review-* hooks.
 */

/** `/flows/:flowId/documents/:documentId`: one document beside its values, to correct and approve. */
export function DocumentPage() {
  const { flowId = '', documentId = '' } = useParams();
  const review = useDocumentReview(documentId);
  useDocumentTitle(review.data ? review.data.document.fileName : 'Document');

  if (review.isPending)
    return (
      <div className="flex flex-col gap-4" aria-busy="true">
        <Skeleton className="h-10 w-2/3" />
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
          <Skeleton className="h-[60vh]" />
          <Skeleton className="h-[60vh]" />
        </div>
      </div>
    );
  if (review.isError)
    return (
      <div className="flex flex-col items-start gap-3">
        <p role="alert" className="text-destructive">
          {review.error instanceof ApiError && review.error.code === 'not_found'
            ? 'This document does not exist or was deleted with its flow.'
            : `Couldn't load this document: ${review.error.message}`}
        </p>
        <Button asChild variant="outline">
          <Link to={getSheetViewPath(flowId)}>Back to the flow</Link>
        </Button>
      </div>
    );
  return <DocumentReviewScreen key={documentId} review={review.data} />;
}

/** One document's screen, laid out: the page beside its values, then the lines and the history. */
function DocumentReviewScreen({ review }: { review: DocumentReview }) {
  const doc = review.document;
  const groups = useMemo(() => buildFieldGroups(review), [review]);
  const lines = useMemo(() => buildLineRows(review), [review]);
  const values = useMemo(() => [...groups.flatMap((g) => g.values), ...lines.rows.flat()], [groups, lines]);
  const editable = doc.status === 'done' || doc.status === 'needs_review';
  const approved = Boolean(review.approvedAt);
  const editing = useReviewEditing(review, values, editable);
  const actions = useReviewApproval(review, values, editable, editing);
  const toReview = values.filter((v) => v.problems.length > 0).length;

  return (
    <div className="flex flex-col gap-5">
      <ReviewHeader
        review={review}
        editable={editable}
        approving={actions.approving}
        approveBlocked={actions.approveBlocked}
        correctBlocked={editing.correctBlocked}
        onGo={actions.goTo}
        onApprove={() => void actions.handleApprove()}
      />

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="lg:sticky lg:top-4 lg:self-start">
          <PageViewer
            pages={review.pages}
            page={editing.page}
            onPageChange={editing.setPage}
            box={editing.activeValue?.box ?? null}
            boxLabel={editing.activeValue?.label ?? null}
            fileUrl={doc.fileUrl}
            error={review.pagesError}
          />
        </div>

        <div className="flex min-w-0 flex-col gap-5">
          {review.duplicateOf && !approved && editable && (
            <DuplicateNotice
              original={review.duplicateOf}
              onRemove={() => void actions.handleRemove()}
              removing={actions.removing}
              onNotDuplicate={() => void actions.handleApprove()}
              approving={actions.approving}
            />
          )}
          <ReviewSummary review={review} reasons={doc.failedChecks} toReview={toReview} />
          <DocumentTally documentId={doc.id} approved={approved} />
          <DocumentTally documentId={doc.id} approved={approved} kind="zoho" />
          {actions.asking && editable && !approved && (
            <ApprovalNote
              busy={actions.approving}
              onCancel={() => actions.setAsking(false)}
              onApprove={(note) => void actions.handleApprove(note)}
            />
          )}
          {doc.status === 'failed'
            ? null
            : groups.map((group) => (
                <FieldGroupSection
                  key={group.title}
                  group={group}
                  holdsActive={group.values.some((v) => v.key === editing.active)}
                >
                  {group.values.map((value) => (
                    <FieldRow key={value.key} {...editing.fieldProps(value)} />
                  ))}
                </FieldGroupSection>
              ))}
        </div>
      </div>

      {doc.status !== 'failed' && (
        <LineItems
          lines={lines}
          editable={editable}
          busy={editing.changingLines}
          fieldProps={editing.fieldProps}
          onChangeLines={(change) => void editing.changeLines(change)}
        />
      )}

      <ReviewTrail events={review.events} describe={(key) => describeFieldKey(getReviewType(review), key)} />
    </div>
  );
}
