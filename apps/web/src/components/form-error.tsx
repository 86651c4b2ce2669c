import { AlertCircleIcon } from 'lucide-react';
import type * as React from 'react';

/** Error banner above a form's submit button, announced to screen readers; `children` offer a way on. */
export function FormError({ message, children }: { message: string | null; children?: React.ReactNode }) {
  if (!message) return null;
  return (
    <div
      role="alert"
      className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2.5 text-destructive text-sm"
    >
      <AlertCircleIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        {message}
        {children && <> {children}</>}
      </span>
    </div>
  );
}
