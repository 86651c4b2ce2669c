import type { ZohoMapping, ZohoMappingView } from '@bahi/contracts';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Spinner } from '@/components/spinner.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useSaveZohoMapping, useZohoMapping } from './books-api.ts';

// Which Zoho account and tax each GST rate of a bill goes to. What is saved is shown; a rate not saved yet
// shows what Zoho's lists suggest (an account named for the rate or Purchases, the GST group and the IGST
// tax of that rate), to be saved by a person.

type Column = keyof ZohoMapping;
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const BUYING = new Set(['expense', 'cost_of_goods_sold', 'other_expense']);

/** The saved mapping, each rate left empty filled with the suggestion. */
function initial(view: ZohoMappingView): ZohoMapping {
  const fill = (col: Column) => ({ ...view.suggested[col], ...view.mapping[col] });
  return { purchase: fill('purchase'), intraTax: fill('intraTax'), interTax: fill('interTax') };
}

function Choice({
  label,
  value,
  options,
  onChange,
  disabled,
}: {
  label: string;
  value: string;
  options: Array<{ id: string; name: string }>;
  onChange: (v: string) => void;
  disabled: boolean;
}) {
  return (
    <label className="flex min-w-0 flex-col gap-1 text-xs">
      <span className="text-muted-foreground sm:sr-only">{label}</span>
      <select
        aria-label={label}
        className="h-8 w-full min-w-0 rounded-md border bg-card px-2 text-sm"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
      >
        <option value="">Not chosen</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The Zoho Books mapping of the Integrations page (once the connection is saved). */
export function ZohoMappingForm({ canManage }: { canManage: boolean }) {
  const view = useZohoMapping(true);
  const save = useSaveZohoMapping();
  const [mapping, setMapping] = useState<ZohoMapping | null>(null);
  useEffect(() => {
    if (view.data) setMapping(initial(view.data));
  }, [view.data]);
  if (view.isError)
    return <p className="text-destructive text-sm">Couldn't load the mapping: {view.error.message}</p>;
  if (view.isPending || !mapping) return <Skeleton className="h-40" />;
  const v = view.data;
  const buying = v.accounts.filter((a) => BUYING.has(a.type));
  const accounts = buying.length > 0 ? buying : v.accounts;
  const taxes = v.taxes.map((t) => ({ id: t.id, name: `${t.name} (${t.percentage}%)` }));
  const set = (col: Column, rate: string, id: string) =>
    setMapping({ ...mapping, [col]: { ...mapping[col], [rate]: id } });
  const clean = (m: ZohoMapping): ZohoMapping => {
    const drop = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).filter(([, x]) => x));
    return { purchase: drop(m.purchase), intraTax: drop(m.intraTax), interTax: drop(m.interTax) };
  };
  const submit = () =>
    save.mutate(clean(mapping), {
      onSuccess: () => toast.success('Zoho Books mapping saved'),
      onError: (e) => toast.error('Could not save the mapping', { description: errorText(e) }),
    });
  const off = !canManage;
  return (
    <section aria-labelledby="zoho-mapping" className="flex flex-col gap-3" data-testid="zoho-mapping">
      <h3 id="zoho-mapping" className="font-semibold text-base">
        Accounts and taxes
      </h3>
      {v.accounts.length === 0 ? (
        <p className="text-muted-foreground text-sm">
          Test the connection to read Zoho's chart of accounts and taxes.
        </p>
      ) : (
        <p className="text-muted-foreground text-sm">
          Zoho works each bill's tax out from the tax chosen here; Bahi checks its total against the
          invoice's.
        </p>
      )}
      <div className="hidden gap-2 text-muted-foreground text-xs sm:grid sm:grid-cols-[4rem_1fr_1fr_1fr]">
        <span>GST rate</span>
        <span>Purchase account</span>
        <span>Tax within the state</span>
        <span>Tax from another state</span>
      </div>
      {v.rates.map((rate) => (
        <div
          key={rate}
          className="grid grid-cols-1 gap-2 rounded-md border p-2 sm:grid-cols-[4rem_1fr_1fr_1fr] sm:border-0 sm:p-0"
          data-testid="zoho-rate-row"
        >
          <span className="self-center font-medium text-sm tabular-nums">{rate}%</span>
          <Choice
            label={`Purchase account for ${rate}%`}
            value={mapping.purchase[rate] ?? ''}
            options={accounts}
            onChange={(id) => set('purchase', rate, id)}
            disabled={off}
          />
          {Number(rate) === 0 ? (
            <span className="self-center text-muted-foreground text-xs sm:col-span-2">No tax at 0%</span>
          ) : (
            <>
              <Choice
                label={`Tax within the state (CGST + SGST) for ${rate}%`}
                value={mapping.intraTax[rate] ?? ''}
                options={taxes}
                onChange={(id) => set('intraTax', rate, id)}
                disabled={off}
              />
              <Choice
                label={`Tax from another state (IGST) for ${rate}%`}
                value={mapping.interTax[rate] ?? ''}
                options={taxes}
                onChange={(id) => set('interTax', rate, id)}
                disabled={off}
              />
            </>
          )}
        </div>
      ))}
      {canManage && (
        <div>
          <Button type="button" onClick={submit} disabled={save.isPending}>
            {save.isPending ? <Spinner /> : null}
            Save mapping
          </Button>
        </div>
      )}
    </section>
  );
}
