import type * as React from 'react';
import { FormField } from '@/components/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import type { VendorCheckKey, VendorFormModel, VendorTextKey } from './use-vendor-form.ts';

const selectClass =
  'h-10 w-full rounded-md border border-input bg-transparent px-3 text-base shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:text-sm';

/** What the text, select and tick boxes of the vendor form share: where they read, label and error. */
interface FieldProps {
  form: VendorFormModel;
  name: VendorTextKey;
  label: string;
  /** The key the error arrives under, when it is not the box's own name (like `bank.ifsc`). */
  errorKey?: string;
  required?: boolean;
  hint?: string | undefined;
  className?: string;
}

/** One labelled text box of the vendor form, tied to its state key and its error. */
export function TextField({
  form,
  name,
  label,
  errorKey = name,
  required,
  hint,
  className,
  upper,
  input,
}: FieldProps & {
  /** Capitals as typed (PAN, IFSC, Udyam). */
  upper?: boolean;
  /** Further attributes of the box: autoComplete, inputMode, type, readOnly. */
  input?: React.ComponentProps<typeof Input>;
}) {
  return (
    <FormField
      id={name}
      label={label}
      required={required}
      error={form.errors[errorKey]}
      hint={hint}
      className={className}
    >
      {(ids) => <Input {...ids} {...input} {...form.text(name, { upper })} />}
    </FormField>
  );
}

/** One labelled drop-down of the vendor form; the first, empty choice says what choosing nothing means. */
export function SelectField({
  form,
  name,
  label,
  errorKey = name,
  required,
  empty,
  options,
}: FieldProps & { empty: string; options: readonly { value: string; label: string }[] }) {
  return (
    <FormField id={name} label={label} required={required} error={form.errors[errorKey]}>
      {(ids) => (
        <select
          {...ids}
          className={selectClass}
          value={form.s[name]}
          onChange={(e) => form.set(name, e.target.value as never)}
        >
          <option value="">{empty}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/** One tick box with its sentence as the label. */
export function CheckField({
  form,
  name,
  className = '',
  children,
}: {
  form: VendorFormModel;
  name: VendorCheckKey;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <label className={`flex items-center gap-2 text-sm ${className}`.trim()}>
      <input
        type="checkbox"
        className="size-4"
        checked={form.s[name]}
        onChange={(e) => form.set(name, e.target.checked)}
      />
      {children}
    </label>
  );
}

/** `micro` → `Micro`, for the Udyam choices. */
export const capitalised = (c: string) => c[0]!.toUpperCase() + c.slice(1);
