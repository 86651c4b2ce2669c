import { XIcon } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { SearchInput } from '@/components/search-input.tsx';
import { Button } from '@/components/ui/button.tsx';

// The pieces of a list's filters kept in the address (so a filtered list can be bookmarked and shared):
// the setter every filter goes through, the search box, a select with "All …" first, and Clear.

/**
 * The address's filters: `setParam` sets one (empty removes it) and goes back to the first page;
 * `clearFilters` drops all but the chosen view.
 */
export function useFilterParams() {
  const [params, setParams] = useSearchParams();
  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    // A new filter starts from the first page.
    if (key !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };
  const clearFilters = () => {
    const next = new URLSearchParams();
    const view = params.get('view');
    if (view) next.set('view', view);
    setParams(next, { replace: true });
  };
  return { params, setParam, clearFilters };
}

/** The list's search box, kept as `q`. It is uncontrolled, so typing is not slowed by the address. */
export function ParamSearch({
  params,
  setParam,
  label,
  placeholder,
}: {
  params: URLSearchParams;
  setParam: (key: string, value: string) => void;
  label: string;
  placeholder: string;
}) {
  return (
    <SearchInput
      aria-label={label}
      placeholder={placeholder}
      defaultValue={params.get('q') ?? ''}
      onChange={(e) => setParam('q', e.target.value)}
    />
  );
}

/** A select kept in the address as `name`: "All …" (no filter) first, then the options. */
export function ParamSelect({
  params,
  setParam,
  name,
  label,
  allLabel,
  options,
}: {
  params: URLSearchParams;
  setParam: (key: string, value: string) => void;
  name: string;
  label: string;
  allLabel: string;
  options: ReadonlyArray<{ value: string; label: string }>;
}) {
  return (
    <select
      aria-label={label}
      value={params.get(name) ?? ''}
      onChange={(e) => setParam(name, e.target.value)}
      className="h-9 rounded-md border border-input bg-card px-2 text-sm shadow-xs"
    >
      <option value="">{allLabel}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** "Clear", shown while any filter is set. */
export function ClearFiltersButton({ onClear }: { onClear: () => void }) {
  return (
    <Button variant="ghost" onClick={onClear}>
      <XIcon aria-hidden="true" />
      Clear
    </Button>
  );
}
