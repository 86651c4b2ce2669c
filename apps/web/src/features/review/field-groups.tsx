import { ChevronRightIcon, SparklesIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '@/lib/utils.ts';
import { draftError, type FieldProps, useInputHandlers } from './field-input.tsx';
import { describeLesson, type FieldGroup, SOURCE_LABELS } from './review-fields.ts';

/* The header fields panel: the document's values in groups, each with where it was read from. */

/** A group of fields; a folded one ("More fields") opens by itself when one of its values asks for a look. */
export function FieldGroupSection({
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

const SOURCE_TONES: Record<string, string> = {
  corrected: 'bg-primary/10 text-primary',
  qr: 'bg-success/12 text-success',
};

/** A header field: label, input, where it was read from and how sure, and what asks for a look. */
export function FieldRow(props: FieldProps) {
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
