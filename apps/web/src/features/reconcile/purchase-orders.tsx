import type { PoMatch, ReconcilePage as ReconcilePageData } from '@bahi/contracts';
import { ChevronRightIcon } from 'lucide-react';
import { useState } from 'react';
import { type DataColumn, DataTable } from '@/components/data-table.tsx';
import { cn } from '@/lib/utils.ts';
import { DocLink } from './reconcile-bits.tsx';

const STATE_WORDS: Record<PoMatch['receipt'], string> = {
  none: 'None yet',
  partial: 'Partly',
  full: 'In full',
  over: 'More than ordered',
};

const PO_COLUMNS: DataColumn<PoMatch>[] = [
  { key: 'po', header: 'PO', cell: (p) => <DocLink doc={p.po} /> },
  { key: 'vendor', header: 'Vendor', cell: (p) => p.vendorName ?? p.vendorGstin ?? '—' },
  { key: 'received', header: 'Received', cell: (p) => STATE_WORDS[p.receipt] },
  { key: 'billed', header: 'Billed', cell: (p) => STATE_WORDS[p.billing] },
];

/** Purchase orders and what was received and billed on each, folded: a person opens them when needed. */
export function PurchaseOrders({ data }: { data: ReconcilePageData }) {
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
          <DataTable
            label="Purchase orders"
            columns={PO_COLUMNS}
            rows={data.pos}
            rowKey={(p) => p.po.id}
            rowProps={() => ({ 'data-testid': 'po-match' })}
            tableClassName="min-w-[36rem]"
            className="rounded-none border-0"
          />
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
