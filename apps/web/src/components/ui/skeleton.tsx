import type * as React from 'react';
import { cn } from '@/lib/utils.ts';

/** Pulsing placeholder shown while data loads. */
export function Skeleton({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div data-slot="skeleton" className={cn('animate-pulse rounded-md bg-muted', className)} {...props} />
  );
}
