import {
  appPaths,
  describePayable,
  describeReconcileReason,
  type InvoiceMatch,
  invoiceStatusWords,
  OverrideExceptionSchema,
  type PoMatch,
  type ReconcilePage as ReconcilePageData,
  type ReconcileView,
} from '@bahi/contracts';
import { formatIndianDate, formatIndianNumber } from '@bahi/india';
import { ChevronRightIcon, DownloadIcon, GitCompareArrowsIcon, SearchIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Table } from '@/components/ui/table.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { ViewTabs } from '@/components/view-tabs.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { buildApiPath } from '@/lib/endpoint.ts';
import { apiLinks } from '@/lib/endpoints.ts';
import { useContractForm } from '@/lib/form.ts';
import { formatAgo } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';
import { usePermission } from '../../lib/permissions.ts';
import { useOverrideInvoice, useReconciliation, useSetFlowNoPo } from './queries.ts';
import { TolerancesDialog } from './tolerances-dialog.tsx';

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

const VIEWS: Array<{ key: ReconcileView; label: string; count: (d: ReconcilePageData) => number }> = [
  { key: 'all', label: 'All', count: (d) => d.counts.invoices },
  { key: 'exception', label: 'Exceptions', count: (d) => d.counts.exceptions - d.counts.heldCopies },
  { key: 'needs_approval', label: 'No PO — to approve', count: (d) => d.counts.needsApproval },
  { key: 'held', label: 'Possible duplicates', count: (d) => d.counts.heldCopies },
  { key: 'matched', label: 'Matched', count: (d) => d.counts.matched },
  { key: 'cleared', label: 'Cleared', count: (d) => d.counts.overridden },
];

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
      {match.copyOf && (
        <p className="text-sm" data-testid="held-copy">
          Held as a possible copy of <DocLink doc={match.copyOf} />: it is not paid and counts in no total
          until a person decides.{' '}
          <Link
            className="font-medium text-primary underline"
            to={appPaths.document(match.invoice.flowId, match.invoice.id)}
          >
            Decide in Review
          </Link>
        </p>
      )}
      {/* A held copy's one reason is said above, with where to decide. */}
      {match.reasons.length > 0 && !match.copyOf && (
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
        ) : match.poNumber ? (
          ` · PO ${match.poNumber} not found`
        ) : (
          ' · No PO named on it'
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
      {!match.copyOf &&
        (match.effectiveStatus === 'exception' || match.effectiveStatus === 'no_po_needs_approval') && (
          <div className="flex flex-col gap-2">
            <label htmlFor={fieldId} className="font-medium text-sm">
              {match.effectiveStatus === 'no_po_needs_approval'
                ? 'This vendor or flow needs no purchase order. Approve it for payment — why?'
                : 'Clear these exceptions (pay it anyway) — why?'}
            </label>
            <Textarea
              id={fieldId}
              {...form.register('reason')}
              placeholder={
                match.effectiveStatus === 'no_po_needs_approval'
                  ? 'e.g. Office rent for August, as per the lease'
                  : 'e.g. Rate revised by the vendor from July; PO amendment to follow'
              }
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
              {match.effectiveStatus === 'no_po_needs_approval' ? 'Approve for payment' : 'Clear exceptions'}
            </Button>
          </div>
        )}
    </div>
  );
}

function InvoiceRow({ match, initiallyOpen }: { match: InvoiceMatch; initiallyOpen: boolean }) {
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

/** MSME invoices due within a week or past due (section 43B(h)), soonest first. */
function MsmeDue({ data }: { data: ReconcilePageData }) {
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
function MoneySummary({ data }: { data: ReconcilePageData }) {
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
function NoPoFlows({ flows }: { flows: ReconcilePageData['flows'] }) {
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

/** Status tabs, vendor and search: filtered on the server, one page at a time. */
function Filters({
  data,
  params,
  setParam,
  onClear,
}: {
  data: ReconcilePageData | undefined;
  params: URLSearchParams;
  setParam: (key: string, value: string) => void;
  onClear: () => void;
}) {
  const view = (params.get('view') ?? 'all') as ReconcileView;
  return (
    <div className="flex flex-col gap-2">
      <ViewTabs
        label="Status"
        tabs={VIEWS.map((v) => ({ key: v.key, label: v.label, count: data ? v.count(data) : undefined }))}
        selected={view}
        onSelect={(key) => setParam('view', key === 'all' ? '' : key)}
      />
      <div className="grid gap-2 sm:grid-cols-[2fr_1.4fr_auto]">
        <div className="relative">
          <SearchIcon
            className="-translate-y-1/2 absolute top-1/2 left-2.5 size-4 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            aria-label="Search by invoice or PO number, file, vendor or GSTIN"
            placeholder="Invoice or PO no., vendor, GSTIN"
            className="pl-8"
            defaultValue={params.get('q') ?? ''}
            onChange={(e) => setParam('q', e.target.value)}
          />
        </div>
        <select
          aria-label="Vendor"
          value={params.get('vendor') ?? ''}
          onChange={(e) => setParam('vendor', e.target.value)}
          className="h-9 rounded-md border border-input bg-card px-2 text-sm shadow-xs"
        >
          <option value="">All vendors</option>
          {(data?.vendors ?? []).map((v) => (
            <option key={v.gstin} value={v.gstin}>
              {v.name} ({v.invoices})
            </option>
          ))}
        </select>
        {(params.get('q') || params.get('vendor')) && (
          <Button variant="ghost" onClick={onClear}>
            <XIcon aria-hidden="true" />
            Clear
          </Button>
        )}
      </div>
    </div>
  );
}

/** Purchase orders and what was received and billed on each, folded: a person opens them when needed. */
function PurchaseOrders({ data }: { data: ReconcilePageData }) {
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="pos-title" className="flex flex-col gap-2">
      <h2 id="pos-title" className="font-semibold text-lg">
        <button
          type="button"
          className="flex items-center gap-1"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
        >
          <ChevronRightIcon
            aria-hidden="true"
            className={cn('size-5 transition-transform', open && 'rotate-90')}
          />
          Purchase orders ({data.posTotal})
        </button>
      </h2>
      {open && (
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
          {data.posTotal > data.pos.length && (
            <p className="border-t px-3 py-2 text-muted-foreground text-xs">
              The first {data.pos.length} of {data.posTotal}: pick a vendor above, or download the workbook
              for all.
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * `/reconcile`: every invoice matched to its purchase order and goods receipts, worked through as a list:
 * exceptions first and open, matched rows folded, filtered by status, vendor and search, a page at a time.
 */
export function ReconcilePage() {
  useDocumentTitle('Reconcile');
  const [params, setParams] = useSearchParams();
  const query = useReconciliation(params);
  const data = query.data;
  const page = Number(params.get('page') ?? '1') || 1;
  const [editingTolerances, setEditingTolerances] = useState(false);
  const [generation, setGeneration] = useState(0);
  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    // A new filter starts from the first page.
    if (key !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };
  const empty = data && data.counts.invoices === 0 && data.posTotal === 0;
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="Reconcile"
        description="Invoices matched to their purchase orders and goods receipts, line by line, from the documents your flows read."
        actions={
          data && !empty ? (
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
      ) : empty ? (
        <EmptyState
          icon={GitCompareArrowsIcon}
          title="Nothing to match yet"
          description="Run flows that read purchase orders, goods receipts and invoices; their documents are matched here by themselves."
        />
      ) : (
        data && (
          <>
            <div className="flex flex-col gap-1">
              <MoneySummary data={data} />
              <p className="text-muted-foreground text-sm" data-testid="reconcile-summary">
                {data.counts.invoices} invoices: {data.counts.matched} matched, {data.counts.exceptions} with
                exceptions
                {data.counts.needsApproval > 0
                  ? `, ${data.counts.needsApproval} without a PO to approve`
                  : ''}
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
            </div>
            {editingTolerances && (
              <TolerancesDialog current={data.tolerances} onClose={() => setEditingTolerances(false)} />
            )}
            {data.msmeDue.length > 0 && <MsmeDue data={data} />}
            {data.flows.length > 0 && <NoPoFlows flows={data.flows} />}
            <section aria-labelledby="invoices-title" className="flex flex-col gap-2">
              <h2 id="invoices-title" className="font-semibold text-lg">
                Invoices
              </h2>
              <Filters
                key={generation}
                data={data}
                params={params}
                setParam={setParam}
                onClear={() => {
                  const next = new URLSearchParams();
                  if (params.get('view')) next.set('view', params.get('view')!);
                  setParams(next, { replace: true });
                  // The search box starts afresh (it keeps what was typed otherwise).
                  setGeneration((g) => g + 1);
                }}
              />
              {data.invoices.length === 0 ? (
                <p className="rounded-lg border bg-card p-4 text-muted-foreground text-sm">
                  No invoice matches these filters.
                </p>
              ) : (
                <ul className="rounded-lg border bg-card" aria-busy={query.isFetching}>
                  {data.invoices.map((m, i) => (
                    <InvoiceRow
                      key={`${m.invoice.id}-${page}`}
                      match={m}
                      // The first exceptions open with their evidence; matched rows stay folded.
                      initiallyOpen={i < 3 && m.effectiveStatus === 'exception'}
                    />
                  ))}
                </ul>
              )}
              {data.filtered > data.pageSize && (
                <div
                  className="flex items-center justify-between gap-2 text-sm"
                  data-testid="reconcile-pages"
                >
                  <span className="text-muted-foreground tabular-nums">
                    {(page - 1) * data.pageSize + 1}–{Math.min(page * data.pageSize, data.filtered)} of{' '}
                    {data.filtered}
                  </span>
                  <span className="flex gap-2">
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={page <= 1}
                      onClick={() => setParam('page', String(page - 1))}
                    >
                      Previous
                    </Button>
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={page * data.pageSize >= data.filtered}
                      onClick={() => setParam('page', String(page + 1))}
                    >
                      Next
                    </Button>
                  </span>
                </div>
              )}
            </section>
            {data.posTotal > 0 && <PurchaseOrders data={data} />}
          </>
        )
      )}
    </div>
  );
}
