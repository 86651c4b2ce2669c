import type { GstReconciliation, GstRow, GstTab } from '@bahi/contracts';
import { DownloadIcon, FileJsonIcon, UploadIcon } from 'lucide-react';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { EmptyState } from '@/components/empty-state.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { buildApiPath } from '@/lib/endpoint.ts';
import { apiLinks } from '@/lib/endpoints.ts';
import { usePermission } from '../../lib/permissions.ts';
import { DecisionDialog, type PendingDecision } from './decision-dialog.tsx';
import { GstinSelect } from './gst-buyer.tsx';
import { periodLabel } from './gst-format.ts';
import { GstMatched } from './gst-tabs.tsx';
import { useGst, useUploadGstr2b } from './queries.ts';

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
  // A new upload is shown at once: its period and GSTIN.
  const showUploaded = (p: string, g: string | undefined) => {
    setPeriod(p);
    setGstin(g);
  };
  const choosePeriod = (p: string) => {
    setPeriod(p);
    setGstin(undefined);
  };
  const decide = (action: PendingDecision['action'], row: GstRow) =>
    setPending({ action, row, candidates: data?.rows.filter((r) => r.tab === 'missing_in_books') ?? [] });
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-2">
        <UploadButton onUploaded={showUploaded} />
        {data && <GstPeriodPicker data={data} shown={shown} onPeriod={choosePeriod} onGstin={setGstin} />}
        {data && shown && <GstDownloads data={data} shown={shown} />}
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
        <GstMatched data={data} shown={shown} tab={tab} setTab={setTab} onDecide={decide} />
      )}
      {pending && <DecisionDialog pending={pending} onClose={() => setPending(null)} />}
    </div>
  );
}

/** The return period (once any 2B is uploaded) and, beside it, the buyer GSTIN. */
function GstPeriodPicker({
  data,
  shown,
  onPeriod,
  onGstin,
}: {
  data: GstReconciliation;
  shown: string | null;
  onPeriod: (period: string) => void;
  onGstin: (gstin: string | undefined) => void;
}) {
  return (
    <>
      {data.periods.length > 0 && (
        <label className="flex flex-col gap-1 text-sm">
          <span className="text-muted-foreground text-xs">Return period</span>
          <select
            className="h-9 rounded-md border bg-card px-2 text-sm"
            value={shown ?? ''}
            onChange={(e) => onPeriod(e.target.value)}
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
      <GstinSelect data={data} onChange={onGstin} />
    </>
  );
}

/** The shown period's workbooks: every tab, and the IMS actions. */
function GstDownloads({ data, shown }: { data: GstReconciliation; shown: string }) {
  const where = `?${new URLSearchParams({ period: shown, ...(data.gstin ? { gstin: data.gstin } : {}) })}`;
  const links = [
    {
      href: `${buildApiPath(apiLinks.gstXlsx, {})}${where}`,
      testId: 'download-gst',
      label: 'All tabs .xlsx',
    },
    {
      href: `${buildApiPath(apiLinks.gstImsXlsx, {})}${where}`,
      testId: 'download-ims',
      label: 'IMS actions .xlsx',
    },
  ];
  return (
    <div className="flex flex-wrap gap-2 sm:ml-auto">
      {links.map((l) => (
        <Button key={l.testId} asChild variant="outline">
          <a href={l.href} download data-testid={l.testId}>
            <DownloadIcon aria-hidden="true" />
            {l.label}
          </a>
        </Button>
      ))}
    </div>
  );
}
