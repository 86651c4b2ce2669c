import { useState } from 'react';
import {
  ClearFiltersButton,
  ParamSearch,
  ParamSelect,
  useFilterParams,
} from '@/components/param-filters.tsx';
import { Input } from '@/components/ui/input.tsx';
import { useFlows } from '@/shared/flows/queries.ts';

/** The filter fields kept in the address, so a filtered queue can be bookmarked and shared. */
export const FILTERS = ['q', 'vendor', 'flowId', 'from', 'to', 'min', 'max'] as const;

/** The review queue's filters: a search, the vendor, the flow, a date range and a range of totals. */
export function ReviewQueueFilters({ setParam }: { setParam: (key: string, value: string) => void }) {
  const { params, clearFilters } = useFilterParams();
  const flows = useFlows();
  // Clearing the filters starts their inputs afresh (the text ones keep what was typed otherwise).
  const [generation, setGeneration] = useState(0);
  const filtered = FILTERS.some((k) => params.get(k));
  return (
    <fieldset
      key={generation}
      className="grid gap-2 sm:grid-cols-2 lg:grid-cols-[2fr_1.2fr_1.2fr_9.5rem_9.5rem_6.5rem_6.5rem_auto]"
    >
      <legend className="sr-only">Filters</legend>
      <ParamSearch
        params={params}
        setParam={setParam}
        label="Search by document number, GSTIN or vendor"
        placeholder="Document no., GSTIN or vendor"
      />
      <Input
        aria-label="Vendor"
        placeholder="Vendor"
        defaultValue={params.get('vendor') ?? ''}
        onChange={(e) => setParam('vendor', e.target.value)}
      />
      <ParamSelect
        params={params}
        setParam={setParam}
        name="flowId"
        label="Flow"
        allLabel="All flows"
        options={(flows.data ?? []).map((f) => ({ value: f.id, label: f.name }))}
      />
      <Input
        type="date"
        aria-label="Dated from"
        title="Dated from"
        value={params.get('from') ?? ''}
        onChange={(e) => setParam('from', e.target.value)}
      />
      <Input
        type="date"
        aria-label="Dated to"
        title="Dated to"
        value={params.get('to') ?? ''}
        onChange={(e) => setParam('to', e.target.value)}
      />
      <Input
        inputMode="decimal"
        aria-label="Total from (₹)"
        placeholder="₹ from"
        defaultValue={params.get('min') ?? ''}
        onChange={(e) => setParam('min', e.target.value.replace(/[^0-9.]/g, ''))}
      />
      <Input
        inputMode="decimal"
        aria-label="Total up to (₹)"
        placeholder="₹ up to"
        defaultValue={params.get('max') ?? ''}
        onChange={(e) => setParam('max', e.target.value.replace(/[^0-9.]/g, ''))}
      />
      {filtered && (
        <ClearFiltersButton
          onClear={() => {
            clearFilters();
            setGeneration((g) => g + 1);
          }}
        />
      )}
    </fieldset>
  );
}
