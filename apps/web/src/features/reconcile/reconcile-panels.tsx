import type { ReconcilePage as ReconcilePageData } from '@bahi/contracts';
import { formatIndianDate, formatIndianNumber } from '@bahi/india';
import { toast } from 'sonner';
import { usePermission } from '@/lib/permissions.ts';
import { cn } from '@/lib/utils.ts';
import { useSetFlowNoPo } from './queries.ts';
import { DocLink, money } from './reconcile-bits.tsx';

/* The panels above Reconcile's invoice list: MSME payments due, the money summary, flows needing no PO. */

/** MSME invoices due within a week or past due (section 43B(h)), soonest first. */
export function MsmeDue({ data }: { data: ReconcilePageData }) {
  const byId = new Map(data.msmeDueInvoices.map((i) => [i.invoice.id, i]));
  return (
    <section
      aria-labelledby="msme-title"
      className="flex flex-col gap-2 rounded-lg border border-warning/40 bg-warning/10 p-3"
      data-testid="msme-due"
    >
      <h2 id="msme-title" className="font-semibold text-base">
        MSME payments due
      </h2>
      <p className="text-muted-foreground text-xs">
        Pay MSME suppliers within the agreed days of accepting the goods (at most 45; 15 when nothing was
        agreed), or the expense is not deductible this year.
      </p>
      <ul className="flex flex-col gap-1 text-sm">
        {data.msmeDue.map((id) => {
          const m = byId.get(id);
          if (!m?.msme?.payBy) return null;
          const left = m.msme.daysLeft ?? 0;
          return (
            <li key={id} className="flex flex-wrap gap-x-2">
              <DocLink doc={m.invoice} />
              <span>{m.vendorName ?? m.vendorGstin}</span>
              <span className="tabular-nums">₹{money(m.total)}</span>
              <span className={cn('font-medium', left < 0 ? 'text-destructive' : 'text-warning-foreground')}>
                {left < 0
                  ? `${-left} ${-left === 1 ? 'day' : 'days'} past due (${formatIndianDate(m.msme.payBy)})`
                  : left === 0
                    ? 'due today'
                    : `due in ${left} ${left === 1 ? 'day' : 'days'} (${formatIndianDate(m.msme.payBy)})`}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Money as "₹1,23,456.00". */
const rupees = (v: number) => `₹${formatIndianNumber(v)}`;

/** What the invoice totals can be trusted for: verified apart from awaiting review; held copies in neither. */
export function MoneySummary({ data }: { data: ReconcilePageData }) {
  const t = data.totals;
  return (
    <p className="text-sm" data-testid="reconcile-money">
      <span className="font-semibold tabular-nums">{rupees(t.verified)}</span> verified ({t.verifiedCount}{' '}
      {t.verifiedCount === 1 ? 'invoice' : 'invoices'}) ·{' '}
      <span className="font-semibold tabular-nums">{rupees(t.awaitingReview)}</span> awaiting review (
      {t.awaitingReviewCount})
      {data.counts.heldCopies > 0 && (
        <span className="text-muted-foreground">
          {' '}
          · {data.counts.heldCopies} possible {data.counts.heldCopies === 1 ? 'duplicate' : 'duplicates'} held
          out of both
        </span>
      )}
    </p>
  );
}

/** Invoice flows whose invoices need no purchase order (services, rent, travel, utilities). */
export function NoPoFlows({ flows }: { flows: ReconcilePageData['flows'] }) {
  const setNoPo = useSetFlowNoPo();
  const may = usePermission('settings.manage');
  const marked = flows.filter((f) => f.noPoNeeded).length;
  return (
    <details className="rounded-lg border bg-card p-3 text-sm" data-testid="no-po-flows">
      <summary className="cursor-pointer font-medium">
        Invoices that need no purchase order
        {marked > 0 ? ` (${marked} ${marked === 1 ? 'flow' : 'flows'})` : ''}
      </summary>
      <p className="mt-2 text-muted-foreground">
        Services, rent, travel and utilities are bought without a PO. Mark their flow here (or their vendor on
        the Vendors page): such an invoice reads “No PO — needs approval” and is paid once a person approves
        it, instead of “Do not pay”.
      </p>
      {may.reason && <p className="mt-2 text-muted-foreground">{may.reason}</p>}
      <ul className="mt-2 flex flex-col gap-1">
        {flows.map((f) => (
          <li key={f.id}>
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                className="size-4"
                checked={f.noPoNeeded}
                disabled={setNoPo.isPending || !may.allowed}
                onChange={(e) =>
                  setNoPo.mutate(
                    { flowId: f.id, noPoNeeded: e.target.checked },
                    { onError: (error) => toast.error(error.message) },
                  )
                }
              />
              {f.name}
            </label>
          </li>
        ))}
      </ul>
    </details>
  );
}
