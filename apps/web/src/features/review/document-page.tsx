import {
  appPaths,
  approvalNoteMessage,
  type DocumentEvent,
  type DocumentReview,
  describeReviewReason,
  isReviewNote,
  listHoldingReasons,
  listReasonsNeedingNote,
  readFieldInput,
} from '@bahi/contracts';
import {
  ArrowLeftIcon,
  CheckIcon,
  ChevronLeftIcon,
  ChevronRightIcon,
  ExternalLinkIcon,
  HistoryIcon,
  PlusIcon,
  SparklesIcon,
  Trash2Icon,
} from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { ApiError } from '@/lib/api.ts';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { formatAgo, formatPageRange } from '@/lib/format.ts';
import { approvalBlock, usePermission } from '@/lib/permissions.ts';
import { useMe } from '@/lib/session.ts';
import { cn } from '@/lib/utils.ts';
import { DocumentTally } from '@/shared/books/document-tally.tsx';
import { formatDocumentStatus } from '@/shared/flows/document-status.ts';
import { useRemoveDocument } from '@/shared/flows/queries.ts';
import { PageViewer } from './page-viewer.tsx';
import {
  useApproveDocument,
  useCorrectDocument,
  useDocumentReview,
  useForgetLearnedField,
} from './queries.ts';
import {
  buildFieldGroups,
  buildLineRows,
  describeFieldKey,
  describeLesson,
  type FieldGroup,
  findNextLook,
  formatInputValue,
  getReviewType,
  type ReviewValue,
  SOURCE_LABELS,
} from './review-fields.ts';
import { SheetStatus } from './sheet-status.tsx';

/** Whether a key press happened while typing (the screen's one-key shortcuts stay out of the way). */
function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/** The id of a value's input, so focus can jump to it. */
const inputId = (key: string) => `review-${key.replace(/\./g, '-')}`;

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
          <Link to={appPaths.flowSheet(flowId)}>Back to the flow</Link>
        </Button>
      </div>
    );
  return <DocumentReviewScreen key={documentId} review={review.data} />;
}

function DocumentReviewScreen({ review }: { review: DocumentReview }) {
  const navigate = useNavigate();
  const doc = review.document;
  const correct = useCorrectDocument(doc.id);
  const approve = useApproveDocument(doc.id);
  const groups = useMemo(() => buildFieldGroups(review), [review]);
  const lines = useMemo(() => buildLineRows(review), [review]);
  const values = useMemo(() => [...groups.flatMap((g) => g.values), ...lines.rows.flat()], [groups, lines]);
  const [active, setActive] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const saving = useRef(new Set<string>());
  const editable = doc.status === 'done' || doc.status === 'needs_review';
  const activeValue = values.find((v) => v.key === active) ?? null;
  const status = formatDocumentStatus(doc.status);
  const approved = Boolean(review.approvedAt);
  // What the caller's role allows (the server enforces the same): said beside the buttons, never silent.
  const me = useMe();
  const canCorrect = usePermission('documents.correct');
  const reading = doc.extraction as { documentType?: unknown; fields?: Record<string, unknown> } | null;
  const approveBlocked = approvalBlock({
    role: me.data?.role,
    limitPaise: me.data?.approvalLimitPaise,
    documentType: reading?.documentType,
    total: reading?.fields?.total,
  });

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

  const goTo = useCallback(
    (id: string | null) => {
      if (id) navigate(appPaths.document(doc.flowId, id));
    },
    [navigate, doc.flowId],
  );

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

  const remove = useRemoveDocument(doc.flowId);
  const handleRemove = async () => {
    try {
      await remove.mutateAsync(doc.id);
      toast.success(`Removed ${doc.fileName} from this flow`);
      navigate(
        review.nextToReviewId
          ? appPaths.document(doc.flowId, review.nextToReviewId)
          : appPaths.flowSheet(doc.flowId),
      );
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not remove this document');
    }
  };

  // Approving over a failed check asks why (the server refuses it without a note too).
  const needsNote = listReasonsNeedingNote(listHoldingReasons(doc.failedChecks)).length > 0;
  const [asking, setAsking] = useState(false);
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

  const changeLines = async (change: { deleteLines?: number[]; addLines?: number }) => {
    try {
      await correct.mutateAsync(change);
      toast.success(change.addLines ? 'Added an empty line: type its values' : 'Deleted the line');
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not change the lines');
    }
  };

  // Keyboard first: A approves, J / K open the next / previous document, Ctrl+Enter approves from a field.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey) return;
      if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
        event.preventDefault();
        void handleApprove();
        return;
      }
      if (event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      if (event.key === 'a') {
        event.preventDefault();
        void handleApprove();
      } else if (event.key === 'j') goTo(review.nextId);
      else if (event.key === 'k') goTo(review.previousId);
      else if (event.key === 'n') {
        event.preventDefault();
        // Nothing asks for a look: the first value, so the keyboard is in the form all the same.
        focusValue(findNextLook(values, active) ?? values[0]?.key ?? null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [handleApprove, goTo, review.nextId, review.previousId, focusValue, values, active]);

  const fieldProps = (value: ReviewValue) => ({
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

  const reasons = doc.failedChecks;
  const toReview = values.filter((v) => v.problems.length > 0).length;

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
          <Link
            to={appPaths.flowSheet(doc.flowId)}
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
            <Badge
              className={cn(
                'shrink-0 border-transparent',
                approved
                  ? 'bg-success/12 text-success'
                  : status.tone === 'review'
                    ? 'bg-warning/15 text-warning-foreground'
                    : status.tone === 'failed'
                      ? 'bg-destructive/10 text-destructive'
                      : 'bg-success/12 text-success',
              )}
            >
              {approved ? 'Approved' : status.label}
            </Badge>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Button
              variant="outline"
              size="sm"
              disabled={!review.previousId}
              onClick={() => goTo(review.previousId)}
              aria-keyshortcuts="k"
            >
              <ChevronLeftIcon aria-hidden="true" />
              Previous
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={!review.nextId}
              onClick={() => goTo(review.nextId)}
              aria-keyshortcuts="j"
            >
              Next
              <ChevronRightIcon aria-hidden="true" />
            </Button>
            <Button asChild variant="ghost" size="sm">
              <a href={doc.fileUrl} target="_blank" rel="noreferrer">
                <ExternalLinkIcon aria-hidden="true" />
                Original
              </a>
            </Button>
            {editable && (
              <Button
                size="sm"
                data-testid="approve"
                onClick={() => void handleApprove()}
                disabled={approve.isPending || approved || Boolean(approveBlocked)}
                aria-keyshortcuts="a Control+Enter"
              >
                <CheckIcon aria-hidden="true" />
                {approved ? 'Approved' : review.duplicateOf ? 'Not a duplicate — approve' : 'Approve'}
              </Button>
            )}
          </div>
        </div>
        {editable && !approved && (approveBlocked || canCorrect.reason) && (
          <p
            className="rounded-md bg-warning/15 px-3 py-2 text-sm text-warning-foreground"
            data-testid="role-note"
          >
            {approveBlocked ?? canCorrect.reason}
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

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="lg:sticky lg:top-4 lg:self-start">
          <PageViewer
            pages={review.pages}
            page={page}
            onPageChange={setPage}
            box={activeValue?.box ?? null}
            boxLabel={activeValue?.label ?? null}
            fileUrl={doc.fileUrl}
            error={review.pagesError}
          />
        </div>

        <div className="flex min-w-0 flex-col gap-5">
          {review.duplicateOf && !approved && editable && (
            <DuplicateNotice
              original={review.duplicateOf}
              onRemove={() => void handleRemove()}
              removing={remove.isPending}
              onNotDuplicate={() => void handleApprove()}
              approving={approve.isPending}
            />
          )}
          <ReviewSummary review={review} reasons={reasons} toReview={toReview} />
          <DocumentTally documentId={doc.id} approved={approved} />
          <DocumentTally documentId={doc.id} approved={approved} kind="zoho" />
          {asking && editable && !approved && (
            <ApprovalNote
              busy={approve.isPending}
              onCancel={() => setAsking(false)}
              onApprove={(note) => void handleApprove(note)}
            />
          )}
          {doc.status === 'failed'
            ? null
            : groups.map((group) => (
                <FieldGroupSection
                  key={group.title}
                  group={group}
                  holdsActive={group.values.some((v) => v.key === active)}
                >
                  {group.values.map((value) => (
                    <FieldRow key={value.key} {...fieldProps(value)} />
                  ))}
                </FieldGroupSection>
              ))}
        </div>
      </div>

      {doc.status !== 'failed' && (
        <section aria-labelledby="lines-title" className="flex flex-col gap-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="lines-title" className="font-medium text-muted-foreground text-sm">
              Line items ({lines.rows.length})
            </h2>
            {editable && (
              <Button
                size="sm"
                variant="outline"
                onClick={() => void changeLines({ addLines: 1 })}
                disabled={correct.isPending}
              >
                <PlusIcon aria-hidden="true" />
                Add a line
              </Button>
            )}
          </div>
          {/* relative: the screen-reader-only header is placed, and clipped, inside the scroller. */}
          <div className="relative overflow-x-auto rounded-lg border bg-card">
            <table className="w-full min-w-[48rem] border-collapse text-sm">
              <thead>
                <tr className="border-b bg-muted/50 text-left">
                  <th scope="col" className="px-2 py-2 font-medium text-muted-foreground">
                    #
                  </th>
                  {lines.columns.map((c) => (
                    <th key={c.name} scope="col" className="px-2 py-2 font-medium text-muted-foreground">
                      {c.label}
                    </th>
                  ))}
                  {editable && (
                    <th scope="col" className="px-2 py-2 font-medium text-muted-foreground">
                      <span className="sr-only">Delete</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {lines.rows.map((row, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: lines are numbered by their place on the document.
                  <tr key={i} className="border-b last:border-0">
                    <td className="px-2 py-1 text-muted-foreground tabular-nums">{i + 1}</td>
                    {row.map((value) => (
                      <td key={value.key} className="px-1 py-1 align-top">
                        <CellInput {...fieldProps(value)} />
                      </td>
                    ))}
                    {editable && (
                      <td className="px-1 py-1 align-top">
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={`Delete line ${i + 1}`}
                          title="Delete this line (a total, a banner or bank details read as an item)"
                          onClick={() => void changeLines({ deleteLines: [i + 1] })}
                          disabled={correct.isPending}
                        >
                          <Trash2Icon aria-hidden="true" />
                        </Button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      <ReviewTrail events={review.events} describe={(key) => describeFieldKey(getReviewType(review), key)} />
    </div>
  );
}

/** A possible copy of a document already read: where the original is, and the two ways out. */
function DuplicateNotice({
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

/** A group of fields; a folded one ("More fields") opens by itself when one of its values asks for a look. */
function FieldGroupSection({
  group,
  holdsActive,
  children,
}: {
  group: FieldGroup;
  /** The value being looked at is in it (the keyboard moved there): it opens. */
  holdsActive: boolean;
  children: React.ReactNode;
}) {
  const asks = group.values.filter((v) => v.problems.length > 0).length;
  const [open, setOpen] = useState(!group.folded || asks > 0);
  useEffect(() => {
    if (holdsActive) setOpen(true);
  }, [holdsActive]);
  const id = `group-${group.title.replace(/\s+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      {group.folded ? (
        <h2 id={id} className="font-medium text-muted-foreground text-sm">
          <button
            type="button"
            className="flex items-center gap-1 hover:text-foreground"
            aria-expanded={open}
            onClick={() => setOpen((o) => !o)}
          >
            <ChevronRightIcon
              aria-hidden="true"
              className={cn('size-4 transition-transform', open && 'rotate-90')}
            />
            {group.title} ({group.values.length}){asks > 0 ? ` · ${asks} to check` : ''}
          </button>
        </h2>
      ) : (
        <h2 id={id} className="font-medium text-muted-foreground text-sm">
          {group.title}
        </h2>
      )}
      {open && <div className="flex flex-col gap-2 rounded-lg border bg-card p-3">{children}</div>}
    </section>
  );
}

/** Approving over a failed check: the note saying why, kept in the trail. */
function ApprovalNote({
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
function ReviewSummary({
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

interface FieldProps {
  value: ReviewValue;
  draft: string | undefined;
  serverError: string | undefined;
  disabled: boolean;
  active: boolean;
  onLook: () => void;
  onDraft: (text: string) => void;
  onRevert: () => void;
  onCommit: () => Promise<boolean>;
  onNext: () => Promise<void>;
  /** Forget what was learned for this value (only for a value read from memory). */
  onForget?: (() => void) | undefined;
  forgetting?: boolean;
}

/** What is wrong with the typed text, if anything (checked as it is typed). */
function draftError({ value, draft, serverError }: FieldProps): string | null {
  if (draft !== undefined) {
    const reading = readFieldInput(value.kind, draft);
    if (!reading.ok) return reading.message;
  }
  return serverError ?? null;
}

function useInputHandlers(props: FieldProps) {
  return {
    id: inputId(props.value.key),
    value: props.draft ?? formatInputValue(props.value.kind, props.value.value),
    disabled: props.disabled,
    onFocus: props.onLook,
    onMouseEnter: props.onLook,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => props.onDraft(e.target.value),
    onBlur: () => void props.onCommit(),
    onKeyDown: (e: React.KeyboardEvent<HTMLInputElement>) => {
      if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        void props.onNext();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        // First Esc undoes what was typed; the next leaves the field, so the screen's keys work again.
        if (props.draft !== undefined) props.onRevert();
        else e.currentTarget.blur();
      }
    },
  };
}

const SOURCE_TONES: Record<string, string> = {
  corrected: 'bg-primary/10 text-primary',
  qr: 'bg-success/12 text-success',
};

/** A header field: label, input, where it was read from and how sure, and what asks for a look. */
function FieldRow(props: FieldProps) {
  const { value, active } = props;
  const handlers = useInputHandlers(props);
  const error = draftError(props);
  const messageId = `${handlers.id}-notes`;
  const look = value.problems.length > 0;
  return (
    <div
      className={cn(
        'grid grid-cols-[8.5rem_minmax(0,1fr)] items-start gap-x-3 gap-y-1 rounded-md px-1 py-1',
        active && 'bg-primary/5',
      )}
      data-testid="review-field"
      data-key={value.key}
      data-look={look ? 'yes' : 'no'}
    >
      <label htmlFor={handlers.id} className="flex items-center gap-1.5 pt-2 text-sm">
        {look && <span className="size-2 shrink-0 rounded-full bg-warning" aria-hidden="true" />}
        <span className="truncate" title={value.label}>
          {value.label}
        </span>
      </label>
      <div className="flex min-w-0 flex-col gap-1">
        <input
          {...handlers}
          aria-invalid={error ? true : undefined}
          aria-describedby={messageId}
          autoComplete="off"
          spellCheck={false}
          className={cn(
            'h-9 w-full min-w-0 rounded-md border border-input bg-card px-2.5 text-sm shadow-xs outline-none',
            'focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40',
            'aria-invalid:border-destructive disabled:bg-muted',
            look && 'border-warning',
            ['money', 'quantity', 'percent'].includes(value.kind) && 'text-right tabular-nums',
          )}
        />
        <div id={messageId} className="flex flex-col gap-0.5 text-xs">
          <span className="flex items-center gap-1.5 text-muted-foreground">
            <span
              className={cn(
                'rounded px-1 py-px font-medium',
                SOURCE_TONES[value.source] ?? 'bg-muted text-muted-foreground',
              )}
            >
              {SOURCE_LABELS[value.source]}
            </span>
            {value.confidence !== null && value.source !== 'corrected' && value.value !== null && (
              <span className="tabular-nums">{Math.round(value.confidence * 100)}% sure</span>
            )}
            {value.value === null && value.source === 'none' && <span>not read</span>}
          </span>
          {value.lesson && (
            <span className="flex items-start gap-1.5 text-muted-foreground" data-testid="learned-note">
              <SparklesIcon className="mt-px size-3.5 shrink-0 text-primary" aria-hidden="true" />
              <span>
                {describeLesson(value.lesson)}
                {props.onForget && (
                  <>
                    {' · '}
                    <button
                      type="button"
                      onClick={props.onForget}
                      disabled={props.forgetting}
                      title={`Read the ${value.label.toLowerCase()} of documents from this sender without your earlier correction from now on`}
                      className="rounded font-medium text-primary underline-offset-2 hover:underline disabled:opacity-50"
                    >
                      Forget
                    </button>
                  </>
                )}
              </span>
            </span>
          )}
          {error && <span className="text-destructive">{error}</span>}
          {value.problems.map((p) => (
            <span key={p} className="text-warning-foreground">
              {p}
            </span>
          ))}
        </div>
      </div>
    </div>
  );
}

/** A line cell: a compact input, amber when a check concerns it. */
function CellInput(props: FieldProps) {
  const handlers = useInputHandlers(props);
  const error = draftError(props);
  const { value } = props;
  return (
    <input
      {...handlers}
      aria-label={value.label}
      aria-invalid={error ? true : undefined}
      title={error ?? value.problems.join('; ') ?? undefined}
      autoComplete="off"
      spellCheck={false}
      data-source={value.source}
      className={cn(
        'h-8 w-full min-w-16 rounded border border-transparent bg-transparent px-1.5 text-sm outline-none hover:border-input',
        'focus-visible:border-ring focus-visible:bg-card focus-visible:ring-2 focus-visible:ring-ring/40',
        'aria-invalid:border-destructive',
        value.problems.length > 0 && 'border-warning bg-warning/10',
        value.source === 'corrected' && 'text-primary',
        ['money', 'quantity', 'percent'].includes(value.kind) && 'text-right tabular-nums',
        value.key.endsWith('.description') && 'min-w-56',
      )}
    />
  );
}

/** The review trail: every correction and approval, newest first. */
function ReviewTrail({ events, describe }: { events: DocumentEvent[]; describe: (key: string) => string }) {
  if (events.length === 0) return null;
  const show = (v: DocumentEvent['oldValue']) => (v === null || v === '' ? 'empty' : String(v));
  return (
    <section aria-labelledby="trail-title" className="flex flex-col gap-2">
      <h2 id="trail-title" className="flex items-center gap-1.5 font-medium text-muted-foreground text-sm">
        <HistoryIcon className="size-4" aria-hidden="true" />
        History
      </h2>
      <ol className="flex flex-col gap-1 rounded-lg border bg-card p-3 text-sm" data-testid="review-trail">
        {[...events].reverse().map((e) => (
          <li key={e.id} className="flex flex-wrap gap-x-2">
            <span className="font-medium">{e.userName}</span>
            {e.kind === 'approved' ? (
              <span>approved the document{e.newValue ? `: “${e.newValue}”` : ''}</span>
            ) : /^lineItems\.\d+$/.test(e.field ?? '') ? (
              <span>
                {e.newValue === null
                  ? `deleted line ${e.field?.split('.')[1]} (${show(e.oldValue)})`
                  : `added line ${e.field?.split('.')[1]}`}
              </span>
            ) : (
              <span>
                changed {describe(e.field ?? '')} from{' '}
                <span className="font-mono text-xs">{show(e.oldValue)}</span> to{' '}
                <span className="font-mono text-xs">{show(e.newValue)}</span>
              </span>
            )}
            <span className="text-muted-foreground" title={new Date(e.at).toLocaleString('en-IN')}>
              {formatAgo(e.at)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
