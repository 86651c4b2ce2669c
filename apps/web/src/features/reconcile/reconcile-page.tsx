import {
  appPaths,
  describeReconcileReason,
  type InvoiceMatch,
  OverrideExceptionSchema,
  type PoMatch,
  type Reconciliation,
} from '@bahi/contracts';
import { formatIndianDate, formatIndianNumber } from '@bahi/india';
import { DownloadIcon, GitCompareArrowsIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Table } from '@/components/ui/table.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { buildApiPath } from '@/lib/endpoint.ts';
import { apiLinks } from '@/lib/endpoints.ts';
import { useContractForm } from '@/lib/form.ts';
import { formatAgo } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';
import { useOverrideInvoice, useReconciliation } from './queries.ts';
import { TolerancesDialog } from './tolerances-dialog.tsx';

const STATUS: Record<InvoiceMatch['effectiveStatus'], { label: string; tone: string }> = {
  matched: { label: 'Matched', tone: 'bg-success/12 text-success' },
  matched_within_tolerance: { label: 'Matched within tolerance', tone: 'bg-success/12 text-success' },
  exception: { label: 'Exception', tone: 'bg-warning/15 text-warning-foreground' },
  overridden: { label: 'Cleared by a person', tone: 'bg-primary/10 text-primary' },
  no_po_needs_approval: { label: 'No PO — needs approval', tone: 'bg-primary/10 text-primary' },
  no_po_approved: { label: 'No PO — approved', tone: 'bg-success/12 text-success' },
};

const PAY: Record<InvoiceMatch['payable'], string> = { yes: 'Pay', no: 'Do not pay', exception: 'Hold' };

const STATE_WORDS: Record<PoMatch['receipt'], string> = {
  none: 'None yet',
  partial: 'Partly',
  full: 'In full',
  over: 'More than ordered',
};

const qty = (v: number | null) => (v === null ? '—' : formatIndianNumber(v, Number.isInteger(v) ? 0 : 2));
const money = (v: number | null) => (v === null ? '—' : formatIndianNumber(v));

function DocLink({
  doc,
}: {
  doc: { id: string; flowId: string; fileName: string; documentNumber: string | null };
}) {
  return (
    <Link to={appPaths.document(doc.flowId, doc.id)} className="text-primary underline" title={doc.fileName}>
      {doc.documentNumber ?? doc.fileName}
    </Link>
  );
}

/** The exception's evidence side by side, and the way to clear it with a written reason. */
function InvoiceDetail({ match }: { match: InvoiceMatch }) {
  const form = useContractForm<{ reason: string }, { reason: string }>(OverrideExceptionSchema, {
    reason: '',
  });
  const error = form.formState.errors.reason?.message;
  const override = useOverrideInvoice();
  const flagged = new Set(match.reasons.map((r) => r.line).filter((l) => l !== null));
  /** Runs with the contract's output (the reason trimmed); a refusal shows where the reason is typed. */
  const submit = async ({ reason }: { reason: string }) => {
    try {
      await override.mutateAsync({ invoiceId: match.invoice.id, reason });
      toast.success(`Cleared the exceptions of ${match.invoice.documentNumber ?? match.invoice.fileName}`);
    } catch (e) {
      form.setError('reason', { message: e instanceof Error ? e.message : 'Could not save the override' });
    }
  };
  const fieldId = `override-${match.invoice.id}`;
  return (
    <div className="flex flex-col gap-3 border-t bg-muted/20 p-3" data-testid="invoice-detail">
      {match.reasons.length > 0 && (
        <ul className="list-disc pl-5 text-sm">
          {match.reasons.map((r) => (
            <li key={`${r.code}-${r.line}`}>
              <span className="font-medium">{describeReconcileReason(r.code)}</span>
              {r.line !== null && <span className="text-muted-foreground"> (line {r.line})</span>}:{' '}
              {r.message}
            </li>
          ))}
        </ul>
      )}
      {match.lines.length > 0 && (
        <div className="rounded-md border bg-card">
          <Table className="min-w-[44rem]" aria-label="Evidence by line">
            <thead>
              <tr className="border-b bg-muted/50 text-left text-muted-foreground">
                <th scope="col" className="px-2 py-1.5 font-medium">
                  Invoice line
                </th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">
                  Billed
                </th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">
                  Rate
                </th>
                <th scope="col" className="px-2 py-1.5 font-medium">
                  PO line
                </th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">
                  Ordered
                </th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">
                  PO rate
                </th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">
                  Received (GRN)
                </th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">
                  Billed before
                </th>
              </tr>
            </thead>
            <tbody>
              {match.lines.map((l) => (
                <tr
                  key={l.line}
                  className={cn('border-b last:border-0', flagged.has(l.line) && 'bg-warning/10')}
                >
                  <td className="px-2 py-1.5">
                    {l.line}. {l.description ?? '—'}
                  </td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{qty(l.billed)}</td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{money(l.rate)}</td>
                  <td className="px-2 py-1.5">
                    {l.poLine ? `${l.poLine}. ${l.poDescription ?? ''}` : 'None'}
                  </td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{qty(l.ordered)}</td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{money(l.poRate)}</td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{qty(l.received)}</td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{qty(l.alreadyBilled)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
      <p className="text-muted-foreground text-xs">
        Invoice <DocLink doc={match.invoice} />
        {match.po ? (
          <>
            {' '}
            · PO <DocLink doc={match.po} />
          </>
        ) : (
          ` · PO ${match.poNumber ?? 'not named'} not found`
        )}
        {match.grns.map((g) => (
          <span key={g.id}>
            {' '}
            · GRN <DocLink doc={g} />
          </span>
        ))}
      </p>
      {match.msme && (
        <p className="text-sm" data-testid="msme-clock">
          MSME supplier ({match.msme.udyam}):{' '}
          {match.msme.payBy
            ? `goods accepted ${formatIndianDate(match.msme.acceptedOn ?? '')}, pay by ${formatIndianDate(match.msme.payBy)} (${match.msme.days} days)`
            : 'no goods receipt yet, so the payment clock has not started'}
        </p>
      )}
      {match.override && (
        <p className="text-sm">
          Cleared by <span className="font-medium">{match.override.userName}</span>{' '}
          {formatAgo(match.override.at)}: “{match.override.reason}”
        </p>
      )}
      {match.effectiveStatus === 'exception' && (
        <div className="flex flex-col gap-2">
          <label htmlFor={fieldId} className="font-medium text-sm">
            Clear these exceptions (pay it anyway) — why?
          </label>
          <Textarea
            id={fieldId}
            {...form.register('reason')}
            placeholder="e.g. Rate revised by the vendor from July; PO amendment to follow"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${fieldId}-error` : undefined}
            rows={2}
          />
          {error && (
            <p id={`${fieldId}-error`} className="text-destructive text-xs">
              {error}
            </p>
          )}
          <Button
            size="sm"
            className="w-fit"
            onClick={form.handleSubmit(submit)}
            disabled={override.isPending}
          >
            Clear exceptions
          </Button>
        </div>
      )}
    </div>
  );
}

function InvoiceRow({ match }: { match: InvoiceMatch }) {
  const [open, setOpen] = useState(match.effectiveStatus === 'exception');
  const status = STATUS[match.effectiveStatus];
  return (
    <li className="border-b last:border-0" data-testid="invoice-match" data-status={match.effectiveStatus}>
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        className="grid w-full grid-cols-[minmax(0,1.4fr)_minmax(0,1.2fr)_6rem_7rem_auto] items-center gap-3 px-3 py-2.5 text-left text-sm hover:bg-muted/40 max-md:grid-cols-[minmax(0,1fr)_auto]"
      >
        <span className="min-w-0">
          <span className="block truncate font-medium">
            {match.invoice.documentNumber ?? match.invoice.fileName}
          </span>
          <span className="block truncate text-muted-foreground text-xs">
            {match.vendorName ?? match.vendorGstin ?? 'Unknown vendor'}
          </span>
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
          <span className="w-16 text-right font-medium text-xs" data-testid="payable">
            {PAY[match.payable]}
          </span>
        </span>
      </button>
      {open && <InvoiceDetail match={match} />}
    </li>
  );
}

/** MSME invoices due within a week or past due (section 43B(h)), soonest first. */
function MsmeDue({ data }: { data: Reconciliation }) {
  const byId = new Map(data.invoices.map((i) => [i.invoice.id, i]));
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

/**
 * `/reconcile`: every invoice matched to its purchase order and goods receipts, exceptions first with
 * their evidence, and each purchase order's receipt and billing state.
 */
export function ReconcilePage() {
  useDocumentTitle('Reconcile');
  const query = useReconciliation();
  const data = query.data;
  const [editingTolerances, setEditingTolerances] = useState(false);
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Reconcile"
        description="Invoices matched to their purchase orders and goods receipts, line by line, from the documents your flows read."
        actions={
          data && data.invoices.length + data.pos.length > 0 ? (
            <Button asChild variant="outline">
              <a href={buildApiPath(apiLinks.reconcileXlsx, {})} download data-testid="download-reconcile">
                <DownloadIcon aria-hidden="true" />
                Download .xlsx
              </a>
            </Button>
          ) : undefined
        }
      />
      {query.isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : query.isError ? (
        <p role="alert" className="text-destructive">
          Couldn't match the documents: {query.error.message}
        </p>
      ) : data && data.invoices.length === 0 && data.pos.length === 0 ? (
        <EmptyState
          icon={GitCompareArrowsIcon}
          title="Nothing to match yet"
          description="Run flows that read purchase orders, goods receipts and invoices; their documents are matched here by themselves."
        />
      ) : (
        data && (
          <>
            <p className="text-muted-foreground text-sm" data-testid="reconcile-summary">
              {data.counts.invoices} invoices: {data.counts.matched} matched, {data.counts.exceptions} with
              exceptions
              {data.counts.overridden > 0 ? `, ${data.counts.overridden} cleared by a person` : ''} ·
              tolerances: quantity {data.tolerances.qtyPct}%, rate {data.tolerances.pricePct}%, ₹
              {data.tolerances.amountRupees} a line{' '}
              <Button
                variant="link"
                size="sm"
                className="h-auto p-0"
                onClick={() => setEditingTolerances(true)}
              >
                Change
              </Button>
            </p>
            {editingTolerances && (
              <TolerancesDialog current={data.tolerances} onClose={() => setEditingTolerances(false)} />
            )}
            {data.msmeDue.length > 0 && <MsmeDue data={data} />}
            <section aria-labelledby="invoices-title" className="flex flex-col gap-2">
              <h2 id="invoices-title" className="font-semibold text-lg">
                Invoices
              </h2>
              <ul className="rounded-lg border bg-card">
                {data.invoices.map((m) => (
                  <InvoiceRow key={m.invoice.id} match={m} />
                ))}
              </ul>
            </section>
            {data.pos.length > 0 && (
              <section aria-labelledby="pos-title" className="flex flex-col gap-2">
                <h2 id="pos-title" className="font-semibold text-lg">
                  Purchase orders
                </h2>
                <div className="rounded-lg border bg-card">
                  <Table className="min-w-[36rem]" aria-label="Purchase orders">
                    <thead>
                      <tr className="border-b bg-muted/50 text-left text-muted-foreground">
                        <th scope="col" className="px-3 py-2 font-medium">
                          PO
                        </th>
                        <th scope="col" className="px-3 py-2 font-medium">
                          Vendor
                        </th>
                        <th scope="col" className="px-3 py-2 font-medium">
                          Received
                        </th>
                        <th scope="col" className="px-3 py-2 font-medium">
                          Billed
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.pos.map((p) => (
                        <tr key={p.po.id} className="border-b last:border-0" data-testid="po-match">
                          <td className="px-3 py-2">
                            <DocLink doc={p.po} />
                          </td>
                          <td className="px-3 py-2">{p.vendorName ?? p.vendorGstin ?? '—'}</td>
                          <td className="px-3 py-2">{STATE_WORDS[p.receipt]}</td>
                          <td className="px-3 py-2">{STATE_WORDS[p.billing]}</td>
                        </tr>
                      ))}
                    </tbody>
                  </Table>
                </div>
              </section>
            )}
          </>
        )
      )}
    </div>
  );
}
