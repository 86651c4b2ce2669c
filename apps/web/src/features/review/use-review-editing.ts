import { type DocumentReview, readFieldInput } from '@bahi/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { ApiError } from '@/lib/api.ts';
import { usePermission } from '@/lib/permissions.ts';
import { type FieldProps, inputId } from './field-input.tsx';
import { useCorrectDocument, useForgetLearnedField } from './queries.ts';
import { findNextLook, formatInputValue, type ReviewValue } from './review-fields.ts';

/**
 * What is typed and not yet saved, value by value, and saving it: a draft is saved once it reads as its
 * kind and differs from the value; the server's refusal stays beside the value until it is fixed.
 */
function useValueDrafts(correct: ReturnType<typeof useCorrectDocument>) {
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const saving = useRef(new Set<string>());
  /** Save a value's draft if it changed and reads; true when nothing is left unsaved. */
  const commit = useCallback(
    async (value: ReviewValue): Promise<boolean> => {
      const draft = drafts[value.key];
      if (draft === undefined || draft === formatInputValue(value.kind, value.value)) return true;
      const reading = readFieldInput(value.kind, draft);
      if (!reading.ok) return false;
      if (saving.current.has(value.key)) return true;
      saving.current.add(value.key);
      const cell = /^lineItems\.(\d+)\.(\w+)$/.exec(value.key);
      try {
        await correct.mutateAsync(
          cell
            ? { lines: [{ line: Number(cell[1]), field: cell[2]!, value: draft }] }
            : { fields: { [value.key]: draft } },
        );
        // Only the text that was saved: a person may already have typed on while it was saving.
        setDrafts((current) => {
          if (current[value.key] !== draft) return current;
          const { [value.key]: _saved, ...rest } = current;
          return rest;
        });
        setServerErrors(({ [value.key]: _gone, ...rest }) => rest);
        return true;
      } catch (error) {
        const message =
          error instanceof ApiError
            ? (Object.values(error.fields)[0] ?? error.message)
            : 'Could not save that value';
        setServerErrors((e) => ({ ...e, [value.key]: message }));
        return false;
      } finally {
        saving.current.delete(value.key);
      }
    },
    [drafts, correct],
  );
  return { drafts, setDrafts, serverErrors, commit };
}

/**
 * The review screen's editing state: which value is looked at (and the page it is on), what is typed
 * and not yet saved, and saving it. `fieldProps` gives each value's input what it needs.
 */
export function useReviewEditing(review: DocumentReview, values: ReviewValue[], editable: boolean) {
  const doc = review.document;
  const correct = useCorrectDocument(doc.id);
  const canCorrect = usePermission('documents.correct');
  const [active, setActive] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const { drafts, setDrafts, serverErrors, commit } = useValueDrafts(correct);
  const activeValue = values.find((v) => v.key === active) ?? null;

  // Looking at a value on another page turns to it (boxes name the file's page; the viewer counts its own).
  useEffect(() => {
    if (!activeValue?.box) return;
    const at = review.pages.findIndex((p) => p.number === activeValue.box?.page) + 1;
    if (at > 0 && at !== page) setPage(at);
  }, [activeValue, page, review.pages]);

  const focusValue = useCallback((key: string | null) => {
    if (!key) return;
    // A value in a folded group opens it first (it opens for the active value), then takes focus.
    setActive(key);
    const focus = () => {
      const el = document.getElementById(inputId(key));
      el?.focus();
      if (el instanceof HTMLInputElement) el.select();
      return el !== null;
    };
    if (!focus()) requestAnimationFrame(() => void focus());
  }, []);

  const forget = useForgetLearnedField(doc.id);
  const handleForget = async (value: ReviewValue) => {
    try {
      await forget.mutateAsync(value.key);
      toast.success(
        // The sender is the vendor of an invoice, but the buying company of a PO or GRN: name neither.
        `Forgotten: the ${value.label.toLowerCase()} of documents from this sender will be read without your earlier correction`,
      );
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not forget that');
    }
  };

  const changeLines = async (change: { deleteLines?: number[]; addLines?: number }) => {
    try {
      await correct.mutateAsync(change);
      toast.success(change.addLines ? 'Added an empty line: type its values' : 'Deleted the line');
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not change the lines');
    }
  };

  const fieldProps = (value: ReviewValue): FieldProps => ({
    value,
    draft: drafts[value.key],
    serverError: serverErrors[value.key],
    disabled: !editable || !canCorrect.allowed,
    active: active === value.key,
    onLook: () => setActive(value.key),
    onDraft: (text: string) => setDrafts((d) => ({ ...d, [value.key]: text })),
    onRevert: () => setDrafts(({ [value.key]: _dropped, ...rest }) => rest),
    onCommit: () => commit(value),
    onNext: async () => {
      if (await commit(value)) focusValue(findNextLook(values, value.key) ?? value.key);
    },
    onForget: value.lesson ? () => void handleForget(value) : undefined,
    forgetting: forget.isPending && forget.variables === value.key,
  });

  return {
    active,
    activeValue,
    page,
    setPage,
    drafts,
    commit,
    focusValue,
    fieldProps,
    changeLines,
    changingLines: correct.isPending,
    correctBlocked: canCorrect.reason,
  };
}

/** The review screen's editing state (see `useReviewEditing`). */
export type ReviewEditing = ReturnType<typeof useReviewEditing>;
