import { Loader2Icon } from 'lucide-react';
import { cn } from '@/lib/utils.ts';

/** Spinning indicator with an accessible label. */
export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <Loader2Icon
        aria-hidden="true"
        className={cn('size-5 animate-spin text-muted-foreground', className)}
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Spinner centred in the viewport, shown while the session loads. */
export function FullPageSpinner() {
  return (
    <div className="flex min-h-svh items-center justify-center bg-background">
      <Spinner className="size-8 text-primary" />
    </div>
  );
}
