import type { ReconcilePage as ReconcilePageData, ReconcileView } from '@bahi/contracts';
import { XIcon } from 'lucide-react';
import { SearchInput } from '@/components/search-input.tsx';
import { Button } from '@/components/ui/button.tsx';
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
        <SearchInput
          aria-label="Search by invoice or PO number, file, vendor or GSTIN"
          placeholder="Invoice or PO no., vendor, GSTIN"
          defaultValue={params.get('q') ?? ''}
          onChange={(e) => setParam('q', e.target.value)}
        />
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
