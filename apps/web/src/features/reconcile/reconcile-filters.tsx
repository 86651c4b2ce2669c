import type { ReconcilePage as ReconcilePageData, ReconcileView } from '@bahi/contracts';
import { ClearFiltersButton, ParamSearch, ParamSelect } from '@/components/param-filters.tsx';
import { ViewTabs } from '@/components/view-tabs.tsx';

const VIEWS: Array<{ key: ReconcileView; label: string; count: (d: ReconcilePageData) => number }> = [
  { key: 'all', label: 'All', count: (d) => d.counts.invoices },
  { key: 'exception', label: 'Exceptions', count: (d) => d.counts.exceptions - d.counts.heldCopies },
  { key: 'needs_approval', label: 'No PO — to approve', count: (d) => d.counts.needsApproval },
  { key: 'held', label: 'Possible duplicates', count: (d) => d.counts.heldCopies },
  { key: 'matched', label: 'Matched', count: (d) => d.counts.matched },
  { key: 'cleared', label: 'Cleared', count: (d) => d.counts.overridden },
];

/** Status tabs, vendor and search: filtered on the server, one page at a time. */
export function ReconcileFilters({
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
        <ParamSearch
          params={params}
          setParam={setParam}
          label="Search by invoice or PO number, file, vendor or GSTIN"
          placeholder="Invoice or PO no., vendor, GSTIN"
        />
        <ParamSelect
          params={params}
          setParam={setParam}
          name="vendor"
          label="Vendor"
          allLabel="All vendors"
          options={(data?.vendors ?? []).map((v) => ({ value: v.gstin, label: `${v.name} (${v.invoices})` }))}
        />
        {(params.get('q') || params.get('vendor')) && <ClearFiltersButton onClear={onClear} />}
      </div>
    </div>
  );
}
