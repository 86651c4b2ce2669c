import { zodResolver } from '@hookform/resolvers/zod';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type UseFormRegisterReturn,
  type UseFormReturn,
  type UseFormSetError,
  useForm,
} from 'react-hook-form';
import { z } from 'zod';

/**
 * A react-hook-form form whose rules are a `@bahi/contracts` schema (through `zodResolver`), so the
 * form and the server refuse the same things with the same words. It is checked when submitted, and
 * not again while typing: the forms show a message until its field is edited (`registerClearing`) or
 * the next submit, as they always have. The submit handler receives the schema's output (trimmed,
 * converted), which is what the API takes.
 */
export function useContractForm<TInput extends FieldValues, TOutput extends FieldValues>(
  schema: z.ZodType<TOutput, TInput>,
  defaultValues: DefaultValues<TInput>,
): UseFormReturn<TInput, unknown, TOutput> {
  return useForm<TInput, unknown, TOutput>({
    resolver: zodResolver(schema),
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    // The forms never moved focus to a refused field; the messages are announced (role="alert") instead.
    shouldFocusError: false,
  });
}

/**
 * `register` for a field whose message goes as soon as the person edits it; `onEdit` clears anything
 * else the edit answers (a form-level error).
 */
export function registerClearing<T extends FieldValues>(
  form: Pick<UseFormReturn<T, unknown, FieldValues>, 'register' | 'clearErrors'>,
  name: Path<T>,
  onEdit?: () => void,
): UseFormRegisterReturn<Path<T>> {
  return form.register(name, {
    onChange: () => {
      form.clearErrors(name);
      onEdit?.();
    },
  });
}

/**
 * Shows the server's per-field messages (`ApiError.fields`, keyed by dotted path such as `phone` or
 * `tolerances.qtyPct`) on the form's fields. Answers whether there were any.
 */
export function setServerFieldErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  fields: Readonly<Record<string, string>>,
): boolean {
  const entries = Object.entries(fields);
  for (const [path, message] of entries) setError(path as Path<T>, { type: 'server', message });
  return entries.length > 0;
}

/**
 * A text box checked by a contract rule: `read` turns what was typed into the value the API takes
 * (a number, null for empty), then `rule` (a field of a contract schema) decides. `message`, when
 * given, replaces the rule's own words with the form's; the rule itself is never re-implemented.
 */
export function textField<T extends z.ZodType>(
  read: (text: string) => z.input<T>,
  rule: T,
  message?: string,
): z.ZodType<z.output<T>, string> {
  return z.string().transform((text, ctx): z.output<T> => {
    const checked = rule.safeParse(read(text));
    if (checked.success) return checked.data;
    const issues = message ? [{ message, path: [] }] : checked.error.issues;
    for (const issue of issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: [...issue.path] });
    return z.NEVER;
  });
}

/** Reads a number box: empty is null (nothing set), anything else `Number(text)` (NaN fails the rule). */
export function readOptionalNumber(text: string): number | null {
  return text.trim() === '' ? null : Number(text);
}
