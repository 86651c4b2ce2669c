import { GST_TAB_LABELS, GST_TABS, type GstReconciliation, type GstRow, type GstTab } from '@bahi/contracts';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { formatAgo } from '@/lib/format.ts';
import type { PendingDecision } from './decision-dialog.tsx';
import { ForeignGstinNotice, ToleranceSetting } from './gst-buyer.tsx';
import { money, periodLabel } from './gst-format.ts';
import { GstRowItem } from './gst-row.tsx';
import { Suppliers } from './gst-suppliers.tsx';

/**
 * A matched period: which 2B files it rests on, the six tabs with their counts and ITC at stake, each
 * tab's rows side by side, then the suppliers.
 */
export function GstMatched({
  data,
  shown,
  tab,
  setTab,
  onDecide,
}: {
  data: GstReconciliation;
  shown: string;
  /** Kept by the view, so the chosen tab stays while another period loads. */
  tab: GstTab;
  setTab: (tab: GstTab) => void;
  onDecide: (action: PendingDecision['action'], row: GstRow) => void;
}) {
  return (
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
                    <GstRowItem key={r.key} row={r} onDecide={onDecide} />
                  ))}
                </ul>
              )}
            </TabsContent>
          );
        })}
      </Tabs>
      <Suppliers data={data} />
    </>
  );
}
