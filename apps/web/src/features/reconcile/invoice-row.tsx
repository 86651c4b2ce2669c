import {
  describePayable,
  describeReconcileReason,
  type InvoiceMatch,
  invoiceStatusWords,
} from '@bahi/contracts';
import { formatIndianDate } from '@bahi/india';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { cn } from '@/lib/utils.ts';
import { InvoiceDetail } from './invoice-detail.tsx';
import { money } from './reconcile-bits.tsx';

const TONE: Record<InvoiceMatch['effectiveStatus'], string> = {
  matched: 'bg-success/12 text-success',
  matched_within_tolerance: 'bg-success/12 text-success',
  exception: 'bg-warning/15 text-warning-foreground',
  overridden: 'bg-primary/10 text-primary',
  no_po_needs_approval: 'bg-primary/10 text-primary',
  no_po_approved: 'bg-success/12 text-success',
};

/** A row's status: a copy held until decided in Review says so before anything else. */
function statusOf(match: InvoiceMatch): { label: string; tone: string } {
  if (match.copyOf) return { label: 'Possible duplicate', tone: 'bg-warning/15 text-warning-foreground' };
  return { label: invoiceStatusWords[match.effectiveStatus], tone: TONE[match.effectiveStatus] };
}

/** One invoice of the list: what it is, its PO, date, total and status; opens to its evidence. */
export function InvoiceRow({ match, initiallyOpen }: { match: InvoiceMatch; initiallyOpen: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  const status = statusOf(match);
  const firstReason = match.reasons[0];
  return (
    <li
      className="border-b last:border-0"
      data-testid="invoice-match"
      data-status={match.effectiveStatus}
      data-invoice-id={match.invoice.id}
      data-held={match.copyOf ? 'true' : undefined}
    >
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        className="grid w-full grid-cols-[minmax(0,1.4fr)_minmax(0,1.2fr)_6rem_7rem_minmax(0,auto)] items-center gap-3 px-3 py-2.5 text-left text-sm hover:bg-muted/40 max-md:grid-cols-[minmax(0,1fr)_auto]"
      >
        <span className="min-w-0">
          <span className="block truncate font-medium">
            {match.invoice.documentNumber ?? match.invoice.fileName}
          </span>
          <span className="block truncate text-muted-foreground text-xs">
            {match.vendorName ?? match.vendorGstin ?? 'Unknown vendor'}
            {!match.verified && !match.copyOf ? ' · awaiting review' : ''}
            {/* A copy carries the original's number: its file tells the two apart. */}
            {match.copyOf ? ` · ${match.invoice.fileName}` : ''}
          </span>
          {!open && firstReason && match.effectiveStatus === 'exception' && (
            <span className="block truncate text-warning-foreground text-xs">
              {describeReconcileReason(firstReason.code)}
              {match.reasons.length > 1 ? ` and ${match.reasons.length - 1} more` : ''}
            </span>
          )}
        </span>
        <span className="min-w-0 truncate text-muted-foreground max-md:hidden">
          {match.po ? `PO ${match.po.documentNumber ?? match.po.fileName}` : 'No PO'}
          {match.grns.length > 0 ? ` · ${match.grns.length} GRN${match.grns.length > 1 ? 's' : ''}` : ''}
        </span>
        <span className="tabular-nums max-md:hidden">
          {match.documentDate ? formatIndianDate(match.documentDate) : '—'}
        </span>
        <span className="text-right tabular-nums max-md:hidden">{money(match.total)}</span>
        <span className="flex items-center justify-end gap-1.5">
          <Badge className={cn('border-transparent', status.tone)}>{status.label}</Badge>
          <span className="w-24 text-right font-medium text-xs" data-testid="payable">
            {describePayable(match)}
          </span>
        </span>
      </button>
      {open && <InvoiceDetail match={match} />}
    </li>
  );
}
