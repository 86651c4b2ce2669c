import {
  appPaths,
  GST_TAB_LABELS,
  GST_TABS,
  type GstReconciliation,
  type GstRow,
  type GstSide,
  type GstTab,
} from '@bahi/contracts';
import { formatIndianDate, formatIndianNumber } from '@bahi/india';
import { DownloadIcon, FileJsonIcon, UploadIcon } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { EmptyState } from '@/components/empty-state.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Table } from '@/components/ui/table.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { buildApiPath } from '@/lib/endpoint.ts';
import { apiLinks } from '@/lib/endpoints.ts';
import { formatAgo } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';
import { usePermission } from '../../lib/permissions.ts';
import { DecisionDialog, type PendingDecision } from './decision-dialog.tsx';
import { ForeignGstinNotice, GstinSelect, ToleranceSetting } from './gst-buyer.tsx';
import { useGst, useUploadGstr2b } from './queries.ts';

const money = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : `₹${formatIndianNumber(v)}`;
const date = (v: string | null | undefined) => (v ? formatIndianDate(v) : '—');
/** `082025` → `Aug 2025`. */
export function periodLabel(period: string): string {
  const d = new Date(Date.UTC(Number(period.slice(2)), Number(period.slice(0, 2)) - 1, 1));
  return d.toLocaleDateString('en-IN', { month: 'short', year: 'numeric', timeZone: 'UTC' });
}

const STATUS_WORDS: Record<GstRow['status'], string> = {
  matched: 'Matched',
  matched_within_tolerance: 'Within tolerance',
  mismatch: 'Mismatch',
  probable_match: 'Probable match',
  missing_in_2b: 'Missing in 2B',
  missing_in_books: 'Missing in books',
  duplicate_in_books: 'Booked twice',
};
const TONE: Record<GstTab, string> = {
  matched: 'bg-success/12 text-success',
  within_tolerance: 'bg-success/12 text-success',
  mismatch: 'bg-warning/15 text-warning-foreground',
  probable: 'bg-primary/10 text-primary',
  missing_in_2b: 'bg-destructive/10 text-destructive',
  missing_in_books: 'bg-warning/15 text-warning-foreground',
};
const IMS_WORDS: Record<GstRow['ims'], string> = {
  accept: 'IMS: accept',
  pending: 'IMS: keep pending',
  none: '',
};

const FIELDS: Array<{ key: keyof GstSide; diff: string; label: string; kind: 'text' | 'date' | 'money' }> = [
  { key: 'gstin', diff: 'vendorGstin', label: 'Supplier GSTIN', kind: 'text' },
  { key: 'documentNumber', diff: 'documentNumber', label: 'Invoice no.', kind: 'text' },
  { key: 'documentDate', diff: 'documentDate', label: 'Invoice date', kind: 'date' },
  { key: 'placeOfSupply', diff: 'placeOfSupply', label: 'Place of supply', kind: 'text' },
  { key: 'taxableValue', diff: 'taxableValue', label: 'Taxable value', kind: 'money' },
  { key: 'igst', diff: 'igst', label: 'IGST', kind: 'money' },
  { key: 'cgst', diff: 'cgst', label: 'CGST', kind: 'money' },
  { key: 'sgst', diff: 'sgst', label: 'SGST', kind: 'money' },
  { key: 'cess', diff: 'cess', label: 'Cess', kind: 'money' },
];

function cell(side: GstSide | null, f: (typeof FIELDS)[number]) {
  if (!side) return '—';
  const v = side[f.key];
  if (f.kind === 'money') return money(v as number | null);
  if (f.kind === 'date') return date(v as string | null);
  return (v as string | null) ?? '—';
}

/** The invoice and the 2B document side by side, differing fields marked; the decisions and what can be done. */
function RowDetail({
  row,
  onDecide,
}: {
  row: GstRow;
  onDecide: (action: PendingDecision['action']) => void;
}) {
  const differs = new Set(row.differences.map((d) => d.field));
  const decide = usePermission('documents.approve');
  const canAccept =
    (row.status === 'mismatch' || row.status === 'probable_match') && row.decided !== 'accepted';
  return (
    <div className="flex flex-col gap-3 border-t bg-muted/20 p-3" data-testid="gst-detail">
      <div className="rounded-md border bg-card">
        <Table className="min-w-[30rem]" aria-label="Invoice and GSTR-2B side by side">
          <thead>
            <tr className="border-b bg-muted/50 text-left text-muted-foreground">
              <th scope="col" className="px-2 py-1.5 font-medium">
                Field
              </th>
              <th scope="col" className="px-2 py-1.5 font-medium">
                In your books
              </th>
              <th scope="col" className="px-2 py-1.5 font-medium">
                In GSTR-2B
              </th>
            </tr>
          </thead>
          <tbody>
            {FIELDS.map((f) => {
              const off = differs.has(f.diff);
              return (
                <tr
                  key={f.key}
                  className={cn('border-b last:border-0', off && 'bg-warning/10')}
                  data-differs={off || undefined}
                >
                  <th scope="row" className="px-2 py-1.5 text-left font-normal">
                    {f.label}
                    {off && (
                      <span className="ml-1.5 font-semibold text-warning-foreground text-xs">differs</span>
                    )}
                  </th>
                  <td className="px-2 py-1.5 tabular-nums">{cell(row.books, f)}</td>
                  <td className="px-2 py-1.5 tabular-nums">{cell(row.gstr2b, f)}</td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      </div>
      {row.gstr2b && !row.gstr2b.itcAvailable && (
        <p className="text-destructive text-sm">
          GSTR-2B says no input tax credit is available on this document
          {row.gstr2b.itcReason ? `: ${row.gstr2b.itcReason}` : ''}.
        </p>
      )}
      {row.invoice && (
        <p className="text-sm">
          <Link to={appPaths.document(row.invoice.flowId, row.invoice.id)} className="text-primary underline">
            Open the invoice {row.books?.documentNumber ?? row.invoice.fileName}
          </Link>
          {!row.invoice.approved && <span className="text-muted-foreground"> · not approved yet</span>}
        </p>
      )}
      {row.decisions.length > 0 && (
        <ul className="flex flex-col gap-1 text-sm" aria-label="Decisions">
          {row.decisions.map((d) => (
            <li key={d.id}>
              <span className="font-medium">{d.userName}</span>{' '}
              {{ link: 'linked', unlink: 'unlinked', accept: 'accepted the difference' }[d.action]}{' '}
              {formatAgo(d.at)}: “{d.reason}”
            </li>
          ))}
        </ul>
      )}
      {row.invoice && !decide.allowed && decide.reason && (
        <p className="text-muted-foreground text-sm">{decide.reason}</p>
      )}
      {row.invoice && decide.allowed && (
        <div className="flex flex-wrap gap-2">
          {canAccept && (
            <Button size="sm" onClick={() => onDecide('accept')}>
              Accept difference
            </Button>
          )}
          {row.status === 'probable_match' && row.decided !== 'linked' && (
            <Button size="sm" variant="outline" onClick={() => onDecide('link')}>
              Confirm link
            </Button>
          )}
          {row.gstr2b && (
            <Button size="sm" variant="outline" onClick={() => onDecide('unlink')}>
              Unlink
            </Button>
          )}
          {!row.gstr2b && (
            <Button size="sm" variant="outline" onClick={() => onDecide('link')}>
              Link to a 2B document
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

function GstRowItem({
  row,
  onDecide,
}: {
  row: GstRow;
  onDecide: (p: PendingDecision['action'], row: GstRow) => void;
}) {
  const [open, setOpen] = useState(false);
  const side = row.books ?? row.gstr2b;
  return (
    <li className="border-b last:border-0" data-testid="gst-row" data-tab={row.tab}>
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        className="grid w-full grid-cols-[minmax(0,1.6fr)_6.5rem_8rem_auto] items-center gap-3 px-3 py-2.5 text-left text-sm hover:bg-muted/40 max-md:grid-cols-[minmax(0,1fr)_auto]"
      >
        <span className="min-w-0">
          <span className="block truncate font-medium">
            {side?.documentNumber ?? row.invoice?.fileName ?? '—'}
          </span>
          <span className="block truncate text-muted-foreground text-xs">
            {row.vendorName ?? side?.gstin ?? 'Unknown supplier'}
            {row.differences.length > 0 &&
              ` · differs: ${row.differences.map((d) => d.field.replace(/([A-Z])/g, ' $1').toLowerCase()).join(', ')}`}
          </span>
        </span>
        <span className="tabular-nums max-md:hidden">{date(side?.documentDate)}</span>
        <span className="text-right tabular-nums max-md:hidden">
          <span className="text-muted-foreground text-xs">ITC </span>
          {money(row.itc)}
        </span>
        <span className="flex flex-col items-end gap-0.5">
          <Badge className={cn('border-transparent', TONE[row.tab])}>
            {row.decided === 'accepted'
              ? 'Accepted'
              : row.decided === 'linked'
                ? `Linked · ${STATUS_WORDS[row.status]}`
                : STATUS_WORDS[row.status]}
          </Badge>
          {IMS_WORDS[row.ims] && <span className="text-muted-foreground text-xs">{IMS_WORDS[row.ims]}</span>}
        </span>
      </button>
      {open && <RowDetail row={row} onDecide={(a) => onDecide(a, row)} />}
    </li>
  );
}

function Suppliers({ data }: { data: GstReconciliation }) {
  if (data.suppliers.length === 0) return null;
  return (
    <section aria-labelledby="suppliers-title" className="flex flex-col gap-2">
      <h2 id="suppliers-title" className="font-semibold text-lg">
        By supplier (PAN)
      </h2>
      <div className="rounded-lg border bg-card">
        <Table className="min-w-[36rem]" aria-label="Suppliers">
          <thead>
            <tr className="border-b bg-muted/50 text-left text-muted-foreground">
              <th scope="col" className="px-3 py-2 font-medium">
                Supplier
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Matched
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                To look at
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                ITC in books
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                ITC in 2B
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                ITC at risk
              </th>
            </tr>
          </thead>
          <tbody>
            {data.suppliers.map((s) => {
              const ok = s.counts.matched + s.counts.within_tolerance;
              const rest = Object.values(s.counts).reduce((a, b) => a + b, 0) - ok;
              return (
                <tr key={s.pan} className="border-b last:border-0">
                  <td className="px-3 py-2">
                    <span className="block font-medium">{s.vendorName ?? s.pan}</span>
                    <span className="text-muted-foreground text-xs">PAN {s.pan}</span>
                  </td>
                  <td className="px-3 py-2 tabular-nums">{ok}</td>
                  <td className="px-3 py-2 tabular-nums">{rest}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{money(s.itcBooks)}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{money(s.itcGstr2b)}</td>
                  <td
                    className={cn(
                      'px-3 py-2 text-right tabular-nums',
                      s.itcAtRisk > 0 && 'font-semibold text-destructive',
                    )}
                  >
                    {money(s.itcAtRisk)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      </div>
    </section>
  );
}

function UploadButton({ onUploaded }: { onUploaded: (period: string, gstin: string | undefined) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadGstr2b();
  const may = usePermission('flows.run');
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      const { file: saved, created } = await upload.mutateAsync(file);
      const whose = saved.gstin ? ` of ${saved.gstin}` : '';
      toast.success(
        created
          ? `GSTR-2B${whose} for ${periodLabel(saved.period)} uploaded: ${saved.documents} documents`
          : `This GSTR-2B${whose} for ${periodLabel(saved.period)} was already uploaded; nothing changed`,
      );
      if (saved.ownGstin === false)
        toast.warning(
          `${saved.gstin} is not one of your organisation's GSTINs: check you downloaded the right GSTIN's 2B`,
        );
      onUploaded(saved.period, saved.gstin ?? undefined);
    } catch (e) {
      toast.error(e instanceof Error ? e.message : 'Could not upload the file');
    } finally {
      if (input.current) input.current.value = '';
    }
  };
  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="gstr2b-input"
        onChange={(e) => void onFile(e.target.files?.[0])}
      />
      <Button
        onClick={() => input.current?.click()}
        disabled={upload.isPending || !may.allowed}
        title={may.reason ?? undefined}
      >
        <UploadIcon aria-hidden="true" />
        {upload.isPending ? 'Uploading…' : 'Upload GSTR-2B'}
      </Button>
    </>
  );
}

/** The GSTR-2B tab: upload, period, six tabs with counts and ITC at stake, rows side by side, suppliers, exports. */
export function GstView() {
  const [period, setPeriod] = useState<string | undefined>(undefined);
  const [gstin, setGstin] = useState<string | undefined>(undefined);
  const [tab, setTab] = useState<GstTab>('mismatch');
  const [pending, setPending] = useState<PendingDecision | null>(null);
  const query = useGst(period, gstin);
  const data = query.data;
  const shown = data?.period ?? null;
  const where = shown
    ? `?${new URLSearchParams({ period: shown, ...(data?.gstin ? { gstin: data.gstin } : {}) })}`
    : '';
  const links = shown
    ? {
        all: `${buildApiPath(apiLinks.gstXlsx, {})}${where}`,
        ims: `${buildApiPath(apiLinks.gstImsXlsx, {})}${where}`,
      }
    : null;
  // A new upload is shown at once: its period and GSTIN.
  const showUploaded = (p: string, g: string | undefined) => {
    setPeriod(p);
    setGstin(g);
  };
  const decide = (action: PendingDecision['action'], row: GstRow) =>
    setPending({ action, row, candidates: data?.rows.filter((r) => r.tab === 'missing_in_books') ?? [] });
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-2">
        <UploadButton onUploaded={showUploaded} />
        {data && data.periods.length > 0 && (
          <label className="flex flex-col gap-1 text-sm">
            <span className="text-muted-foreground text-xs">Return period</span>
            <select
              className="h-9 rounded-md border bg-card px-2 text-sm"
              value={shown ?? ''}
              onChange={(e) => {
                setPeriod(e.target.value);
                setGstin(undefined);
              }}
              data-testid="period-select"
            >
              {data.periods.map((p) => (
                <option key={p} value={p}>
                  {periodLabel(p)}
                </option>
              ))}
            </select>
          </label>
        )}
        {data && <GstinSelect data={data} onChange={setGstin} />}
        {links && (
          <div className="flex flex-wrap gap-2 sm:ml-auto">
            <Button asChild variant="outline">
              <a href={links.all} download data-testid="download-gst">
                <DownloadIcon aria-hidden="true" />
                All tabs .xlsx
              </a>
            </Button>
            <Button asChild variant="outline">
              <a href={links.ims} download data-testid="download-ims">
                <DownloadIcon aria-hidden="true" />
                IMS actions .xlsx
              </a>
            </Button>
          </div>
        )}
      </div>
      {query.isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : query.isError ? (
        <p role="alert" className="text-destructive">
          Couldn't match GSTR-2B: {query.error.message}
        </p>
      ) : !data || !shown ? (
        <EmptyState
          icon={FileJsonIcon}
          title="Upload the month's GSTR-2B"
          description="Download GSTR-2B as JSON from the GST portal (Returns › GSTR-2B) and upload it here: each supplier document is matched with the invoices Bahi read, and you see where input tax credit is at risk."
        />
      ) : (
        <>
          <ForeignGstinNotice data={data} />
          <p className="text-muted-foreground text-xs" data-testid="gst-files">
            {data.files
              .filter((f) => f.current && f.gstin === data.gstin)
              .map(
                (f) =>
                  `${f.fileName}: ${f.documents} documents, uploaded by ${f.uploadedBy} ${formatAgo(f.uploadedAt)}`,
              )
              .join(' · ')}
            {' · '}
            <ToleranceSetting toleranceRupees={data.toleranceRupees} />
          </p>
          <Tabs value={tab} onValueChange={(v) => setTab(v as GstTab)}>
            <TabsList className="grid h-auto w-full grid-cols-2 gap-1 sm:grid-cols-3">
              {data.tabs.map((t) => (
                <TabsTrigger
                  key={t.tab}
                  value={t.tab}
                  className="flex h-auto min-w-0 flex-col items-start gap-0 whitespace-normal px-2 py-1.5 text-left"
                  data-testid={`tab-${t.tab}`}
                >
                  <span className="text-xs sm:text-sm">
                    {GST_TAB_LABELS[t.tab]} <span className="tabular-nums">({t.count})</span>
                  </span>
                  <span className="font-normal text-muted-foreground text-xs tabular-nums">
                    ITC {money(t.itc)}
                  </span>
                </TabsTrigger>
              ))}
            </TabsList>
            {GST_TABS.map((t) => {
              const rows = data.rows.filter((r) => r.tab === t);
              return (
                <TabsContent key={t} value={t}>
                  {rows.length === 0 ? (
                    <p className="rounded-lg border bg-card p-4 text-muted-foreground text-sm">
                      Nothing here for {periodLabel(shown)}.
                    </p>
                  ) : (
                    <ul className="rounded-lg border bg-card" aria-label={GST_TAB_LABELS[t]}>
                      {rows.map((r) => (
                        <GstRowItem key={r.key} row={r} onDecide={decide} />
                      ))}
                    </ul>
                  )}
                </TabsContent>
              );
            })}
          </Tabs>
          <Suppliers data={data} />
        </>
      )}
      {pending && <DecisionDialog pending={pending} onClose={() => setPending(null)} />}
    </div>
  );
}
