import { cn } from '@/lib/utils.ts';

/** Bahi's ledger mark: a bound book with ruled lines, drawn inline so it needs no asset request. */
export function LedgerMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-8 shrink-0', className)}>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path
        d="M9 8h9a5 5 0 0 1 5 5v11H14a5 5 0 0 1-5-5z"
        fill="none"
        stroke="white"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <path d="M13 13h6M13 17h6M13 21h3" stroke="white" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** The mark plus the "Bahi" wordmark. `inverted` is for dark backgrounds. */
export function BrandLogo({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <LedgerMark className={inverted ? '[&>rect]:fill-white/15' : undefined} />
      <span
        className={cn('font-semibold text-xl tracking-tight', inverted ? 'text-white' : 'text-foreground')}
      >
        Bahi
      </span>
    </span>
  );
}
