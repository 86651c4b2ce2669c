import type { GstReconciliation } from '@bahi/contracts';
import { type DataColumn, DataTable } from '@/components/data-table.tsx';
import { cn } from '@/lib/utils.ts';
import { money } from './gst-format.ts';

type Supplier = GstReconciliation['suppliers'][number];
const matchedOf = (s: Supplier) => s.counts.matched + s.counts.within_tolerance;

const SUPPLIER_COLUMNS: DataColumn<Supplier>[] = [
  {
    key: 'supplier',
    header: 'Supplier',
    cell: (s) => (
      <>
        <span className="block font-medium">{s.vendorName ?? s.pan}</span>
        <span className="text-muted-foreground text-xs">PAN {s.pan}</span>
      </>
    ),
  },
  { key: 'matched', header: 'Matched', cellClassName: 'tabular-nums', cell: matchedOf },
  {
    key: 'rest',
    header: 'To look at',
    cellClassName: 'tabular-nums',
    cell: (s) => Object.values(s.counts).reduce((a, b) => a + b, 0) - matchedOf(s),
  },
  { key: 'itcBooks', header: 'ITC in books', align: 'right', cell: (s) => money(s.itcBooks) },
  { key: 'itcGstr2b', header: 'ITC in 2B', align: 'right', cell: (s) => money(s.itcGstr2b) },
  {
    key: 'itcAtRisk',
    header: 'ITC at risk',
    align: 'right',
    cellClassName: (s) => cn('group-hover:bg-muted/40', s.itcAtRisk > 0 && 'font-semibold text-destructive'),
    cell: (s) => money(s.itcAtRisk),
  },
];

/** ITC by supplier (PAN): how many documents matched, how many need a look, and the credit at risk. */
export function Suppliers({ data }: { data: GstReconciliation }) {
  if (data.suppliers.length === 0) return null;
  return (
    <section aria-labelledby="suppliers-title" className="flex flex-col gap-2">
      <h2 id="suppliers-title" className="font-semibold text-lg">
        By supplier (PAN)
      </h2>
      <DataTable
        label="Suppliers"
        columns={SUPPLIER_COLUMNS}
        rows={data.suppliers}
        rowKey={(s) => s.pan}
        tableClassName="min-w-[36rem]"
      />
    </section>
  );
}
