import { appPaths, type DocumentReview, listHoldingReasons, listReasonsNeedingNote } from '@bahi/contracts';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { approvalBlock } from '@/lib/permissions.ts';
import { useMe } from '@/lib/session.ts';
import { getSheetViewPath } from '@/lib/sheet-path.ts';
import { useRemoveDocument } from '@/shared/flows/queries.ts';
import { useApproveDocument } from './queries.ts';
import { findNextLook, type ReviewValue } from './review-fields.ts';
import type { ReviewEditing } from './use-review-editing.ts';

/** Whether a key press happened while typing (the screen's one-key shortcuts stay out of the way). */
function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/**
 * Keyboard first: A approves, J / K open the next / previous document, N jumps to the next value that asks
 * for a look, Ctrl+Enter approves from a field. Single keys stay out of the way while typing.
 */
function useReviewKeys({
  approve,
  goTo,
  nextId,
  previousId,
  focusValue,
  values,
  active,
}: {
  approve: () => Promise<void>;
  goTo: (id: string | null) => void;
  nextId: string | null;
  previousId: string | null;
  focusValue: (key: string | null) => void;
  values: ReviewValue[];
  active: string | null;
}) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey) return;
      if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
        event.preventDefault();
        void approve();
        return;
      }
      if (event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      if (event.key === 'a') {
        event.preventDefault();
        void approve();
      } else if (event.key === 'j') goTo(nextId);
      else if (event.key === 'k') goTo(previousId);
      else if (event.key === 'n') {
        event.preventDefault();
        // Nothing asks for a look: the first value, so the keyboard is in the form all the same.
        focusValue(findNextLook(values, active) ?? values[0]?.key ?? null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [approve, goTo, nextId, previousId, focusValue, values, active]);
}

/** Removing this document (a copy of one already read), then on to the next to review or the sheet. */
function useRemoveCopy(review: DocumentReview) {
  const navigate = useNavigate();
  const doc = review.document;
  const remove = useRemoveDocument(doc.flowId);
  const handleRemove = async () => {
    try {
      await remove.mutateAsync(doc.id);
      toast.success(`Removed ${doc.fileName} from this flow`);
      navigate(
        review.nextToReviewId
          ? appPaths.document(doc.flowId, review.nextToReviewId)
          : getSheetViewPath(doc.flowId),
      );
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not remove this document');
    }
  };
  return { handleRemove, removing: remove.isPending };
}

/**
 * The review screen's actions: approve (saving what is typed first, asking for a note over a failed
 * check), remove a duplicate, move to the previous / next document, and the keys that do them.
 */
export function useReviewApproval(
  review: DocumentReview,
  values: ReviewValue[],
  editable: boolean,
  editing: ReviewEditing,
) {
  const navigate = useNavigate();
  const doc = review.document;
  const approve = useApproveDocument(doc.id);
  // What the caller's role allows (the server enforces the same): said beside the buttons, never silent.
  const me = useMe();
  const reading = doc.extraction as { documentType?: unknown; fields?: Record<string, unknown> } | null;
  const approveBlocked = approvalBlock({
    role: me.data?.role,
    limitPaise: me.data?.approvalLimitPaise,
    documentType: reading?.documentType,
    total: reading?.fields?.total,
  });

  const goTo = useCallback(
    (id: string | null) => {
      if (id) navigate(appPaths.document(doc.flowId, id));
    },
    [navigate, doc.flowId],
  );

  const { handleRemove, removing } = useRemoveCopy(review);

  // Approving over a failed check asks why (the server refuses it without a note too).
  const needsNote = listReasonsNeedingNote(listHoldingReasons(doc.failedChecks)).length > 0;
  const [asking, setAsking] = useState(false);
  const { drafts, commit, focusValue, active } = editing;
  const handleApprove = useCallback(
    async (note?: string) => {
      if (!editable || approve.isPending) return;
      if (approveBlocked) {
        toast.error(approveBlocked);
        return;
      }
      const unsaved = values.filter((v) => drafts[v.key] !== undefined);
      for (const v of unsaved) if (!(await commit(v))) return focusValue(v.key);
      if (needsNote && !note) {
        setAsking(true);
        return;
      }
      try {
        await approve.mutateAsync(note);
        setAsking(false);
        toast.success(`Approved ${doc.fileName}`);
        // On to the next document that needs a look, as a review queue does.
        if (review.nextToReviewId) goTo(review.nextToReviewId);
      } catch (error) {
        toast.error(error instanceof Error ? error.message : 'Could not approve this document');
      }
    },
    [
      editable,
      approve,
      approveBlocked,
      values,
      drafts,
      commit,
      focusValue,
      doc.fileName,
      review.nextToReviewId,
      goTo,
      needsNote,
    ],
  );

  useReviewKeys({
    approve: handleApprove,
    goTo,
    nextId: review.nextId,
    previousId: review.previousId,
    focusValue,
    values,
    active,
  });

  return {
    approveBlocked,
    approving: approve.isPending,
    handleApprove,
    asking,
    setAsking,
    goTo,
    handleRemove,
    removing,
  };
}
