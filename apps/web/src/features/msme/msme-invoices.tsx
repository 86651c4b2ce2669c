import { appPaths, type MsmeInvoice, type MsmeView } from '@bahi/contracts';
import { ShieldCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { EmptyState } from '@/components/empty-state.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { usePermission } from '@/lib/permissions.ts';
import { date, money } from './msme-format.ts';
import { ObjectionForm } from './msme-forms.tsx';
import { useResolveObjection } from './queries.ts';

/** Days left or overdue, in words and colour. */
function Clock({ i }: { i: MsmeInvoice }) {
  if (!i.covered) return <Badge variant="outline">Not covered</Badge>;
  if (i.acceptance === 'objection_open')
    return <Badge variant="secondary">Objection open: clock stopped</Badge>;
  if (i.outstanding <= 0) return <Badge variant="secondary">Paid</Badge>;
  const d = i.daysLeft ?? 0;
  if (d < 0)
    return (
      <Badge variant="destructive" data-testid="overdue">
        {-d} {d === -1 ? 'day' : 'days'} overdue
      </Badge>
    );
  return (
    <Badge variant={d <= 7 ? 'default' : 'outline'}>
      {d === 0 ? 'Due today' : `${d} ${d === 1 ? 'day' : 'days'} left`}
    </Badge>
  );
}

const ACCEPTANCE_WORDS: Record<MsmeInvoice['acceptance'], string> = {
  goods_receipt: 'goods received',
  objection_resolved: 'objection resolved',
  assumed_invoice_date: 'assumed: invoice date, no goods receipt matched',
  objection_open: 'written objection open',
};

/** One invoice: its clock, when it was accepted and is due, objections, and what can be done. */
function InvoiceRow({ i, data, onPay }: { i: MsmeInvoice; data: MsmeView; onPay: (i: MsmeInvoice) => void }) {
  const [objecting, setObjecting] = useState(false);
  const resolve = useResolveObjection();
  const may = usePermission('vendors.edit');
  return (
    <li className="flex flex-col gap-1.5 border-b p-3 text-sm last:border-0" data-testid="msme-invoice">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="min-w-0">
          <Link
            to={appPaths.document(i.invoice.flowId, i.invoice.id)}
            className="font-medium text-primary underline"
          >
            {i.invoice.documentNumber ?? i.invoice.fileName}
          </Link>
          <span className="text-muted-foreground">
            {' '}
            · {i.vendorName} · {date(i.invoiceDate)} · {money(i.amount)}
          </span>
        </span>
        <Clock i={i} />
      </div>
      {i.covered ? (
        <p className="text-xs">
          Accepted {date(i.acceptedOn)}{' '}
          <span className="text-muted-foreground">({ACCEPTANCE_WORDS[i.acceptance]})</span> · pay by{' '}
          <span className="font-medium">{date(i.dueDate)}</span> ({i.days} days) · owed{' '}
          <span className="font-medium">{money(i.outstanding)}</span>
          {i.paidLate > 0 && ` · paid late ${money(i.paidLate)}`}
          {i.interest !== null &&
            i.interest > 0 &&
            ` · interest ${money(i.interest)} (3 × ${i.bankRatePct} % bank rate on the due date)`}
          {i.interest === null && i.bankRatePct === null && data.bankRates.length > 0 && (
            <span className="text-amber-700 dark:text-amber-400">
              {' '}
              · no bank rate recorded for {date(i.dueDate)}: add the rate then in force
            </span>
          )}
        </p>
      ) : (
        <p className="text-muted-foreground text-xs">{i.notCoveredReason}</p>
      )}
      {i.objections.map((o) => (
        <p key={o.id} className="text-xs">
          Written objection raised {date(o.raisedOn)}: {o.note} ·{' '}
          {o.resolvedOn ? (
            `resolved ${date(o.resolvedOn)}`
          ) : (
            <button
              type="button"
              className="text-primary underline"
              disabled={!may.allowed}
              onClick={() =>
                resolve.mutateAsync({ id: o.id, resolvedOn: data.today }).then(
                  () => toast.success('Marked resolved today'),
                  (e: Error) => toast.error(e.message),
                )
              }
            >
              mark resolved today
            </button>
          )}
        </p>
      ))}
      {i.covered && may.allowed && (
        <div className="flex flex-wrap gap-2">
          {i.outstanding > 0 && (
            <Button size="sm" variant="outline" onClick={() => onPay(i)}>
              Record payment
            </Button>
          )}
          {!objecting && (
            <Button size="sm" variant="ghost" onClick={() => setObjecting(true)}>
              Written objection
            </Button>
          )}
        </div>
      )}
      {objecting && <ObjectionForm invoice={i} today={data.today} onDone={() => setObjecting(false)} />}
    </li>
  );
}

/** The covered and not-covered invoices, each with its clock. */
export function InvoicesSection({ data, onPay }: { data: MsmeView; onPay: (i: MsmeInvoice) => void }) {
  return (
    <section aria-labelledby="msme-invoices-title" className="flex flex-col gap-2">
      <h2 id="msme-invoices-title" className="font-semibold text-lg">
        Invoices
      </h2>
      {data.invoices.length === 0 ? (
        <EmptyState
          icon={ShieldCheckIcon}
          title="No MSME invoices yet"
          description="Set a vendor's category for the year below; its read invoices then appear here with their due dates."
        />
      ) : (
        <ul className="rounded-lg border bg-card">
          {data.invoices.map((i) => (
            <InvoiceRow key={i.invoice.id} i={i} data={data} onPay={onPay} />
          ))}
        </ul>
      )}
    </section>
  );
}
