import type { MsmeView } from '@bahi/contracts';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.tsx';
import { usePermission } from '@/lib/permissions.ts';
import { CategoryEditor } from './category-editor.tsx';
import { date, money } from './msme-format.ts';
import { useRemovePayment } from './queries.ts';

/** Payments recorded, typed or imported, each removable. */
export function Payments({ data }: { data: MsmeView }) {
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

/** Each vendor's MSME category, editable per financial year. */
export function Vendors({ data }: { data: MsmeView }) {
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
