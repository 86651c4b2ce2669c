import { appPaths, type MsmeInvoice, type MsmeView } from '@bahi/contracts';
import { formatIndianDate, formatIndianNumber } from '@bahi/india';
import { ShieldCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { apiLinks } from '@/lib/endpoints.ts';
import { usePermission } from '@/lib/permissions.ts';
import { BankRates } from './bank-rates.tsx';
import {
  CategoryEditor,
  financialYearOf,
  fyLabel,
  ImportCsv,
  ObjectionForm,
  PaymentDialog,
} from './msme-forms.tsx';
import { useMsme, useRemovePayment, useResolveObjection } from './queries.ts';

const money = (v: number | null) => (v === null ? '—' : `₹${formatIndianNumber(v)}`);
const date = (iso: string | null) => (iso ? (formatIndianDate(iso) ?? iso) : '—');

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

function Totals({ data }: { data: MsmeView }) {
  const t = data.totals;
  const cards = [
    {
      label: 'Pay this week',
      value: money(t.dueThisWeek),
      note: `${t.dueThisWeekCount} ${t.dueThisWeekCount === 1 ? 'invoice' : 'invoices'} due by ${date(addDays(data.today, 7))}`,
    },
    {
      label: 'Overdue',
      value: money(t.overdue),
      note:
        t.overdueCount === 1
          ? '1 invoice past its due date'
          : `${t.overdueCount} invoices past their due date`,
    },
    {
      label: 'Interest estimate (s.16)',
      value: t.interest === null ? 'Set the bank rate' : money(t.interest),
      note:
        t.interestUnpriced > 0
          ? `Without ${t.interestUnpriced} late ${t.interestUnpriced === 1 ? 'invoice' : 'invoices'} due before the first rate recorded`
          : 'Compound, monthly rests, 3× the bank rate on the due date',
    },
    {
      label: 'Owed to MSME suppliers',
      value: money(t.outstanding),
      note: 'Micro and small, covered invoices',
    },
  ];
  return (
    <section aria-label="Totals" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {cards.map((c) => (
        <div key={c.label} className="rounded-lg border bg-card p-3" data-testid={`total-${c.label}`}>
          <p className="text-muted-foreground text-xs">{c.label}</p>
          <p className="font-semibold text-lg tabular-nums">{c.value}</p>
          <p className="text-muted-foreground text-xs">{c.note}</p>
        </div>
      ))}
    </section>
  );
}

function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

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

function Exports({ today }: { today: string }) {
  const current = financialYearOf(today);
  const [year, setYear] = useState(
    String(Number(today.slice(5, 7)) >= 10 || Number(today.slice(5, 7)) <= 3 ? current : current - 1),
  );
  const [half, setHalf] = useState(
    Number(today.slice(5, 7)) >= 10 || Number(today.slice(5, 7)) <= 3 ? 'H1' : 'H2',
  );
  const years = [current - 2, current - 1, current];
  const may = usePermission('download');
  return (
    <section aria-label="Returns" className="flex flex-wrap items-end gap-2">
      <label className="flex flex-col gap-1 text-sm">
        <span className="text-muted-foreground text-xs">Financial year</span>
        <select
          className="h-9 rounded-md border bg-card px-2 text-sm"
          value={year}
          onChange={(e) => setYear(e.target.value)}
        >
          {years.map((y) => (
            <option key={y} value={y}>
              {fyLabel(y)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span className="text-muted-foreground text-xs">Half-year</span>
        <select
          className="h-9 rounded-md border bg-card px-2 text-sm"
          value={half}
          onChange={(e) => setHalf(e.target.value)}
        >
          <option value="H1">April–September</option>
          <option value="H2">October–March</option>
        </select>
      </label>
      <Button asChild variant="outline" size="sm" disabled={!may.allowed}>
        <a
          href={`${apiLinks.msmeForm1Xlsx}?financialYear=${year}&half=${half}`}
          download
          data-testid="download-form1"
        >
          Form-1 (.xlsx)
        </a>
      </Button>
      <Button asChild variant="outline" size="sm" disabled={!may.allowed}>
        <a href={`${apiLinks.msme43bhXlsx}?financialYear=${year}`} download data-testid="download-43bh">
          43B(h) list {fyLabel(Number(year))} (.xlsx)
        </a>
      </Button>
    </section>
  );
}

function Payments({ data }: { data: MsmeView }) {
  const remove = useRemovePayment();
  const may = usePermission('vendors.edit');
  if (data.payments.length === 0) return null;
  return (
    <section aria-labelledby="msme-payments-title" className="flex flex-col gap-2">
      <h2 id="msme-payments-title" className="font-semibold text-lg">
        Payments recorded
      </h2>
      <ul className="rounded-lg border bg-card">
        {data.payments.map((p) => (
          <li
            key={p.id}
            className="flex flex-wrap items-center justify-between gap-2 border-b p-3 text-sm last:border-0"
            data-testid="msme-payment"
          >
            <span>
              {date(p.date)} · {p.vendorName} ·{' '}
              <span className="font-medium tabular-nums">{money(p.amount)}</span>
              <span className="text-muted-foreground">
                {' '}
                · {p.reference} · {p.source === 'import' ? 'imported' : 'typed'} by {p.userName}
              </span>
            </span>
            {may.allowed && (
              <Button
                size="sm"
                variant="ghost"
                onClick={() =>
                  remove.mutateAsync(p.id).then(
                    () => toast.success('Payment removed'),
                    (e: Error) => toast.error(e.message),
                  )
                }
              >
                Remove
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Vendors({ data }: { data: MsmeView }) {
  if (data.vendors.length === 0) return null;
  return (
    <section aria-labelledby="msme-vendors-title" className="flex flex-col gap-2">
      <h2 id="msme-vendors-title" className="font-semibold text-lg">
        Vendors' MSME category by year
      </h2>
      <p className="text-muted-foreground text-sm">
        Micro and small enterprises must be paid within the agreed days (at most 45, or 15 with no written
        agreement). Medium enterprises and traders are not covered.
      </p>
      <ul className="rounded-lg border bg-card">
        {data.vendors.map((v) => (
          <li key={v.id} className="flex flex-col gap-2 border-b p-3 last:border-0" data-testid="msme-vendor">
            <p className="font-medium text-sm">
              {v.name}{' '}
              <span className="font-normal text-muted-foreground text-xs">{v.gstin ?? v.pan ?? ''}</span>
            </p>
            <CategoryEditor vendor={v} today={data.today} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** `/msme`: MSME suppliers' invoices against the 45-day rule, payments, interest and the returns. */
export function MsmePage() {
  useDocumentTitle('MSME');
  const query = useMsme();
  const data = query.data;
  const [paying, setPaying] = useState<{ invoice: MsmeInvoice | null } | null>(null);
  const may = usePermission('vendors.edit');
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="MSME"
        description="Invoices of micro and small suppliers against the MSMED Act's payment days, the interest a late payment costs, and MSME Form-1 and the section 43B(h) list."
        actions={
          data && (
            <Button
              onClick={() => setPaying({ invoice: null })}
              disabled={!may.allowed || data.vendors.length === 0}
            >
              Record payment
            </Button>
          )
        }
      />
      {query.isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : query.isError || !data ? (
        <p role="alert" className="text-destructive">
          Couldn't load the MSME screen: {query.error?.message ?? 'no answer'}
        </p>
      ) : (
        <>
          <Totals data={data} />
          <div className="flex flex-wrap items-start justify-between gap-4">
            <BankRates data={data} />
            <ImportCsv />
          </div>
          <Exports today={data.today} />
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
                  <InvoiceRow
                    key={i.invoice.id}
                    i={i}
                    data={data}
                    onPay={(invoice) => setPaying({ invoice })}
                  />
                ))}
              </ul>
            )}
          </section>
          <Payments data={data} />
          <Vendors data={data} />
          {paying && <PaymentDialog data={data} invoice={paying.invoice} onClose={() => setPaying(null)} />}
        </>
      )}
    </div>
  );
}
