import type { ReconcilePage as ReconcilePageData } from '@bahi/contracts';
import { DownloadIcon, GitCompareArrowsIcon } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { Pager } from '@/components/pager.tsx';
import { useFilterParams } from '@/components/param-filters.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { buildApiPath } from '@/lib/endpoint.ts';
import { apiLinks } from '@/lib/endpoints.ts';
import { InvoiceRow } from './invoice-row.tsx';
import { PurchaseOrders } from './purchase-orders.tsx';
import { useReconciliation } from './queries.ts';
import { ReconcileFilters } from './reconcile-filters.tsx';
import { MoneySummary, MsmeDue, NoPoFlows } from './reconcile-panels.tsx';
import { TolerancesDialog } from './tolerances-dialog.tsx';

/**
 * `/reconcile`: every invoice matched to its purchase order and goods receipts, worked through as a list:
 * exceptions first and open, matched rows folded, filtered by status, vendor and search, a page at a time.
 */
export function ReconcilePage() {
  useDocumentTitle('Reconcile');
  const filters = useFilterParams();
  const query = useReconciliation(filters.params);
  const data = query.data;
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
            <ReconcileSummary data={data} />
            {data.msmeDue.length > 0 && <MsmeDue data={data} />}
            {data.flows.length > 0 && <NoPoFlows flows={data.flows} />}
            <InvoicesSection data={data} fetching={query.isFetching} filters={filters} />
            {data.posTotal > 0 && <PurchaseOrders data={data} />}
          </>
        )
      )}
    </div>
  );
}

/** Money at stake, the counts, and the tolerances with the way to change them. */
function ReconcileSummary({ data }: { data: ReconcilePageData }) {
  const [editingTolerances, setEditingTolerances] = useState(false);
  return (
    <>
      <div className="flex flex-col gap-1">
        <MoneySummary data={data} />
        <p className="text-muted-foreground text-sm" data-testid="reconcile-summary">
          {data.counts.invoices} invoices: {data.counts.matched} matched, {data.counts.exceptions} with
          exceptions
          {data.counts.needsApproval > 0 ? `, ${data.counts.needsApproval} without a PO to approve` : ''}
          {data.counts.overridden > 0 ? `, ${data.counts.overridden} cleared by a person` : ''} · tolerances:
          quantity {data.tolerances.qtyPct}%, rate {data.tolerances.pricePct}%, ₹
          {data.tolerances.amountRupees} a line{' '}
          <Button variant="link" size="sm" className="h-auto p-0" onClick={() => setEditingTolerances(true)}>
            Change
          </Button>
        </p>
      </div>
      {editingTolerances && (
        <TolerancesDialog current={data.tolerances} onClose={() => setEditingTolerances(false)} />
      )}
    </>
  );
}

/** The invoices: status tabs and filters (kept in the address), the page of rows, and the pager. */
function InvoicesSection({
  data,
  fetching,
  filters,
}: {
  data: ReconcilePageData;
  fetching: boolean;
  filters: ReturnType<typeof useFilterParams>;
}) {
  const { params, setParam } = filters;
  const page = Number(params.get('page') ?? '1') || 1;
  const [generation, setGeneration] = useState(0);
  return (
    <section aria-labelledby="invoices-title" className="flex flex-col gap-2">
      <h2 id="invoices-title" className="font-semibold text-lg">
        Invoices
      </h2>
      <ReconcileFilters
        key={generation}
        data={data}
        params={params}
        setParam={setParam}
        onClear={() => {
          filters.clearFilters();
          // The search box starts afresh (it keeps what was typed otherwise).
          setGeneration((g) => g + 1);
        }}
      />
      {data.invoices.length === 0 ? (
        <p className="rounded-lg border bg-card p-4 text-muted-foreground text-sm">
          No invoice matches these filters.
        </p>
      ) : (
        <ul className="rounded-lg border bg-card" aria-busy={fetching}>
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
      <Pager
        data-testid="reconcile-pages"
        className="justify-between"
        page={page}
        pageSize={data.pageSize}
        total={data.filtered}
        onPage={(to) => setParam('page', String(to))}
      />
    </section>
  );
}
