import type * as React from 'react';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { cn } from '@/lib/utils.ts';

/** A label over one control (a select, say); `className` adds to the column they stand in. */
export function LabelledField({
  id,
  label,
  className,
  children,
}: {
  id: string;
  label: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

/**
 * A label over a text input, for the small set-up forms that need no error line under each field
 * (those use FormField). Every prop but `label` and `fieldClassName` goes to the input.
 */
export function LabelledInput({
  id,
  label,
  fieldClassName,
  ...input
}: React.ComponentProps<typeof Input> & { id: string; label: React.ReactNode; fieldClassName?: string }) {
  return (
    <LabelledField id={id} label={label} className={fieldClassName}>
      <Input id={id} {...input} />
    </LabelledField>
  );
}
