import { readFieldInput } from '@bahi/contracts';
import { cn } from '@/lib/utils.ts';
import { formatInputValue, type ReviewValue } from './review-fields.ts';

/** The id of a value's input, so focus can jump to it. */
export const inputId = (key: string) => `review-${key.replace(/\./g, '-')}`;

/** What one value's input needs: its value, the typed draft, and what to do as it is typed, left or saved. */
export interface FieldProps {
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
export function draftError({ value, draft, serverError }: FieldProps): string | null {
  if (draft !== undefined) {
    const reading = readFieldInput(value.kind, draft);
    if (!reading.ok) return reading.message;
  }
  return serverError ?? null;
}

/** The handlers every value input shares: look on focus, save on blur, Enter to the next value, Esc to undo. */
export function useInputHandlers(props: FieldProps) {
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

/** A line cell: a compact input, amber when a check concerns it. */
export function CellInput(props: FieldProps) {
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
