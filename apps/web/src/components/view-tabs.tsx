import { cn } from '@/lib/utils.ts';

/** One tab of a {@link ViewTabs} row: its key, its label and, once known, how many it holds. */
export interface ViewTab<K extends string> {
  key: K;
  label: string;
  count?: number;
}

/**
 * A row of tabs that filters a list (Review's views, Reconcile's statuses), each with its count.
 * The list below is the same element whichever tab is chosen, so these are buttons with `role="tab"`,
 * not a tab panel set.
 */
export function ViewTabs<K extends string>({
  label,
  tabs,
  selected,
  onSelect,
}: {
  label: string;
  tabs: ReadonlyArray<ViewTab<K>>;
  selected: K;
  onSelect: (key: K) => void;
}) {
  return (
    <div role="tablist" aria-label={label} className="flex flex-wrap gap-1 rounded-lg bg-muted p-1 sm:w-fit">
      {tabs.map((t) => (
        <button
          key={t.key}
          type="button"
          role="tab"
          aria-selected={selected === t.key}
          onClick={() => onSelect(t.key)}
          className={cn(
            'rounded-md px-3 py-1.5 font-medium text-sm transition-colors',
            selected === t.key
              ? 'bg-card text-foreground shadow-xs'
              : 'text-muted-foreground hover:text-foreground',
          )}
        >
          {t.label}
          {t.count !== undefined && <span className="ml-1.5 tabular-nums opacity-80">{t.count}</span>}
        </button>
      ))}
    </div>
  );
}
