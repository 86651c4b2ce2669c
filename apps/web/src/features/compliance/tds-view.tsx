import { appPaths, TDS_SECTION_LABELS, type TdsView as TdsViewData } from '@bahi/contracts';
import { formatIndianDate, formatIndianNumber } from '@bahi/india';
import { ReceiptIndianRupeeIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { type DataColumn, DataTable } from '@/components/data-table.tsx';
import { EmptyState } from '@/components/empty-state.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { useSetTurnover, useTds } from './queries.ts';
import { VendorTdsProfiles } from './vendor-tds.tsx';

const money = (v: number | null) => (v === null ? '—' : `₹${formatIndianNumber(v)}`);
/** `2025-09` → `Sep 2025`. */
const monthLabel = (m: string) =>
  new Date(Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5, 7)) - 1, 1)).toLocaleDateString('en-IN', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

function TurnoverSetting({ data }: { data: TdsViewData }) {
  const save = useSetTurnover();
  const may = usePermission('settings.manage');
  // Ticked at once; the server's answer (and TDS worked out again) follows.
  const [optimistic, setOptimistic] = useState<boolean | null>(null);
  return (
    <label className="flex items-start gap-2 text-sm">
      <input
        type="checkbox"
        className="mt-0.5 size-4"
        checked={optimistic ?? data.turnoverAbove10cr}
        disabled={save.isPending || !may.allowed}
        onChange={async (e) => {
          setOptimistic(e.target.checked);
          try {
            await save.mutateAsync(e.target.checked);
            toast.success('Saved; TDS worked out again');
          } catch (error) {
            toast.error(error instanceof Error ? error.message : 'Could not save the setting');
          } finally {
            setOptimistic(null);
          }
        }}
      />
      <span>
        Our turnover last financial year was above ₹10 crore
        <span className="block text-muted-foreground text-xs">
          Then TDS under 194Q applies to goods bought from a seller beyond ₹50 lakh a year.
        </span>
        {may.reason && <span className="block text-muted-foreground text-xs">{may.reason}</span>}
      </span>
    </label>
  );
}

type SectionRow = NonNullable<TdsViewData['summary']>['sections'][number];

/** The month's TDS by section: the section (and what it covers), invoices, base and TDS. */
const SECTION_COLUMNS: DataColumn<SectionRow>[] = [
  {
    key: 'section',
    header: 'Section',
    cell: (x) => (
      <>
        <span className="font-medium">{x.section}</span>
        <span className="block text-muted-foreground text-xs">{TDS_SECTION_LABELS[x.section]}</span>
      </>
    ),
  },
  { key: 'invoices', header: 'Invoices', align: 'right', hideOnPhone: true, cell: (x) => x.invoices },
  { key: 'base', header: 'Base', align: 'right', cell: (x) => money(x.base) },
  { key: 'tds', header: 'TDS', align: 'right', cellClassName: 'font-medium', cell: (x) => money(x.tds) },
];

function Summary({ data }: { data: TdsViewData }) {
  const s = data.summary;
  if (!s) return null;
  return (
    <section
      aria-labelledby="tds-summary-title"
      className="flex flex-col gap-2 rounded-lg border bg-card p-3"
      data-testid="tds-summary"
    >
      <h2 id="tds-summary-title" className="font-semibold text-base">
        {monthLabel(s.month)}: {money(s.tds)} to deposit by {formatIndianDate(s.dueDate)}
      </h2>
      <p className="text-muted-foreground text-xs">
        {s.invoices} {s.invoices === 1 ? 'invoice' : 'invoices'} under a TDS section, {s.withTds} with TDS to
        deduct
        {s.awaitingApproval > 0 ? ` (${s.awaitingApproval} not approved yet: amounts may still change)` : ''}{' '}
        · deposit with challan ITNS 281 by the 7th of the next month (30 April for March).
      </p>
      <DataTable
        label="TDS by section"
        columns={SECTION_COLUMNS}
        rows={s.sections}
        rowKey={(x) => x.section}
      />
    </section>
  );
}

function Invoices({ data }: { data: TdsViewData }) {
  return (
    <section aria-labelledby="tds-invoices-title" className="flex flex-col gap-2">
      <h2 id="tds-invoices-title" className="font-semibold text-lg">
        Invoices
      </h2>
      <ul className="rounded-lg border bg-card">
        {data.invoices.map((inv) => (
          <li
            key={inv.invoice.id}
            className="flex flex-col gap-1.5 border-b p-3 text-sm last:border-0"
            data-testid="tds-invoice"
          >
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <span className="min-w-0">
                <Link
                  to={appPaths.document(inv.invoice.flowId, inv.invoice.id)}
                  className="font-medium text-primary underline"
                >
                  {inv.documentNumber ?? inv.invoice.fileName}
                </Link>
                <span className="text-muted-foreground">
                  {' '}
                  · {inv.vendorName ?? 'Unknown vendor'}
                  {inv.vendorPan ? ` · PAN ${inv.vendorPan}` : ' · no PAN'} ·{' '}
                  {inv.documentDate ? formatIndianDate(inv.documentDate) : '—'}
                  {!inv.invoice.approved && ' · not approved yet'}
                </span>
              </span>
              <span className="tabular-nums">
                TDS <span className="font-semibold">{money(inv.tds)}</span>
                {inv.netPayable !== null && (
                  <span className="text-muted-foreground"> · net payable {money(inv.netPayable)}</span>
                )}
              </span>
            </div>
            <ul className="flex flex-col gap-0.5 text-xs">
              {inv.sections.map((s) => (
                // One section appears at most twice (a certificate's rate, then the normal one).
                <li key={`${s.section}@${s.rate}`} data-testid="tds-section">
                  <span className="font-medium">{s.section}</span> on {money(s.base)}
                  {s.taxable !== s.base && s.taxable > 0 ? ` (taxed ${money(s.taxable)})` : ''} at {s.rate}% ={' '}
                  <span className="font-medium">{money(s.tds)}</span>
                  <span className="text-muted-foreground"> — {s.reason}</span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The TDS tab: a month's TDS by section with its due date, and each invoice's sections with the reason. */
export function TdsView() {
  const [month, setMonth] = useState<string | undefined>(undefined);
  const query = useTds(month);
  const data = query.data;
  if (query.isPending) return <Skeleton className="h-64 w-full" />;
  if (query.isError || !data)
    return (
      <p role="alert" className="text-destructive">
        Couldn't work out TDS: {query.error?.message ?? 'no answer'}
      </p>
    );
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        {data.months.length > 0 && (
          <label className="flex flex-col gap-1 text-sm">
            <span className="text-muted-foreground text-xs">Month</span>
            <select
              className="h-9 rounded-md border bg-card px-2 text-sm"
              value={data.summary?.month ?? ''}
              onChange={(e) => setMonth(e.target.value)}
              data-testid="month-select"
            >
              {data.months.map((m) => (
                <option key={m} value={m}>
                  {monthLabel(m)}
                </option>
              ))}
            </select>
          </label>
        )}
        <TurnoverSetting data={data} />
      </div>
      {data.months.length === 0 ? (
        <EmptyState
          icon={ReceiptIndianRupeeIcon}
          title="No invoice with TDS yet"
          description="Invoices for services (by their SAC), or from vendors whose TDS section you set in the vendor master, show their TDS here with the reason."
        />
      ) : (
        <>
          <Summary data={data} />
          <Invoices data={data} />
        </>
      )}
      <VendorTdsProfiles />
      <p className="text-muted-foreground text-xs">
        TDS rules version {data.rulesVersion}; thresholds add up per PAN, section and financial year.
      </p>
    </div>
  );
}
