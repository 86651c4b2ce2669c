import type { DashboardStats } from '@bahi/contracts';
import { FileCheck2Icon, IndianRupeeIcon, type LucideIcon, UsersIcon, WorkflowIcon } from 'lucide-react';
import { Card, CardAction, CardContent, CardDescription, CardHeader } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { formatCount, formatInr } from '@/lib/format.ts';

/** One counter card. */
export function StatCard({
  label,
  value,
  icon: Icon,
  hint,
  loading,
}: {
  label: string;
  value: string;
  icon: LucideIcon;
  hint?: string;
  loading: boolean;
}) {
  return (
    <Card className="gap-3 py-5">
      <CardHeader className="px-5">
        {/* Four across, a long label wraps on narrower screens: reserve two lines so the figures line up. */}
        <CardDescription className="font-medium text-foreground/70 xl:min-h-10">{label}</CardDescription>
        <CardAction>
          <span className="flex size-8 items-center justify-center rounded-md bg-accent text-accent-foreground">
            <Icon className="size-4" aria-hidden="true" />
          </span>
        </CardAction>
      </CardHeader>
      <CardContent className="px-5">
        {loading ? (
          <Skeleton className="h-8 w-24" />
        ) : (
          <p className="font-semibold text-3xl tabular-nums tracking-tight">{value}</p>
        )}
        {hint && !loading && <p className="mt-1.5 text-muted-foreground text-xs">{hint}</p>}
      </CardContent>
    </Card>
  );
}

/** The four counters from `/api/dashboard`. */
export function StatGrid({ stats, loading }: { stats: DashboardStats | undefined; loading: boolean }) {
  const s = stats ?? {
    activeFlows: 0,
    vendorsOnboarded: 0,
    documentsProcessed: 0,
    documentsVerified: 0,
    documentsAwaitingReview: 0,
    costSavingsInr: 0,
    costPerDocumentInr: 0,
  };
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard
        label="Active Flows"
        value={formatCount(s.activeFlows)}
        icon={WorkflowIcon}
        loading={loading}
        hint="Flows that have run"
      />
      <StatCard
        label="Vendors Onboarded"
        value={formatCount(s.vendorsOnboarded)}
        icon={UsersIcon}
        loading={loading}
        hint="Suppliers learned from verified documents (checks passed or approved)"
      />
      <StatCard
        label="Documents Processed"
        value={formatCount(s.documentsProcessed)}
        icon={FileCheck2Icon}
        loading={loading}
        hint={`${formatCount(s.documentsVerified)} verified · ${formatCount(s.documentsAwaitingReview)} awaiting review (possible duplicates not counted)`}
      />
      <StatCard
        label="Cost Savings"
        value={formatInr(s.costSavingsInr)}
        icon={IndianRupeeIcon}
        loading={loading}
        hint={`${formatCount(s.documentsVerified)} verified ${s.documentsVerified === 1 ? 'document' : 'documents'} × ${formatInr(s.costPerDocumentInr)} manual cost per document`}
      />
    </div>
  );
}
