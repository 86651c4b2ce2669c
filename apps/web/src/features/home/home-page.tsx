import type { Activity, DashboardStats } from '@bahi/contracts';
import {
  ActivityIcon,
  ArrowRightIcon,
  FileCheck2Icon,
  FileSpreadsheetIcon,
  GaugeIcon,
  IndianRupeeIcon,
  type LucideIcon,
  ShieldCheckIcon,
  UsersIcon,
  WorkflowIcon,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { formatCount, formatInr, formatRelativeTime, getFirstName, getGreeting } from '@/lib/format.ts';
import { useMe } from '@/lib/session.ts';
import { ActivityHistorySheet } from './activity-history.tsx';
import { useDashboard } from './queries.ts';

/** One counter card. */
function StatCard({
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
function StatGrid({ stats, loading }: { stats: DashboardStats | undefined; loading: boolean }) {
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

/** Newest-first activity list. */
function RecentActivity({
  items,
  loading,
  failed,
}: {
  items: Activity[];
  loading: boolean;
  failed: boolean;
}) {
  const [historyOpen, setHistoryOpen] = useState(false);
  return (
    <Card className="h-full">
      <CardHeader>
        <CardTitle>Recent Activity</CardTitle>
        <CardDescription>What happened in your workspace lately</CardDescription>
        <CardAction>
          <Button variant="outline" size="sm" onClick={() => setHistoryOpen(true)}>
            View All Activity
          </Button>
        </CardAction>
      </CardHeader>
      <ActivityHistorySheet open={historyOpen} onOpenChange={setHistoryOpen} />
      <CardContent>
        {loading ? (
          <div className="space-y-4">
            {[0, 1, 2].map((i) => (
              <div key={i} className="flex gap-3">
                <Skeleton className="size-2 rounded-full" />
                <div className="flex-1 space-y-2">
                  <Skeleton className="h-4 w-3/4" />
                  <Skeleton className="h-3 w-20" />
                </div>
              </div>
            ))}
          </div>
        ) : failed ? (
          <p className="py-6 text-center text-muted-foreground text-sm">Couldn't load recent activity.</p>
        ) : items.length === 0 ? (
          <p className="py-8 text-center text-muted-foreground text-sm">
            No recent activity. Start by creating a processing flow.
          </p>
        ) : (
          <ol className="relative space-y-5 border-border border-l pl-5" data-testid="recent-activity">
            {items.slice(0, 10).map((item) => (
              <li key={item.id} className="relative">
                <span
                  aria-hidden="true"
                  className="absolute top-1.5 -left-[25px] size-2.5 rounded-full border-2 border-card bg-primary"
                />
                <p className="text-sm">{item.message}</p>
                <time dateTime={item.createdAt} className="text-muted-foreground text-xs">
                  {formatRelativeTime(item.createdAt)}
                </time>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * A quick action: a link, or — for one the product names but has not built — `unavailable` says so
 * plainly and `to` leads to what works instead.
 */
interface QuickAction {
  label: string;
  description: string;
  to: string;
  icon: LucideIcon;
  unavailable?: { instead: string };
}

const quickActions: QuickAction[] = [
  {
    label: 'Create Parse Flow',
    description: 'Read POs, GRNs and invoices into a sheet',
    to: '/parse?create=1',
    icon: WorkflowIcon,
  },
  {
    label: 'Generate Vendor Form',
    description: 'A link vendors open to fill in their own PAN, GSTINs, bank account and Udyam details',
    to: '/vendor-management?link=1',
    icon: UsersIcon,
  },
  {
    label: 'View Reports',
    description: 'Your flows, their runs and the sheets they wrote',
    to: '/parse',
    icon: FileSpreadsheetIcon,
  },
];

/** What the analytics card will hold, named as the product's specification names it. */
const analytics: Array<{ label: string; description: string; icon: LucideIcon }> = [
  {
    label: 'Real-time Reports',
    description: 'Documents read and booked, as they happen',
    icon: ActivityIcon,
  },
  { label: 'Cost Analysis', description: 'Spend by vendor, HSN/SAC and GST rate', icon: IndianRupeeIcon },
  { label: 'Performance Metrics', description: 'Turnaround, accuracy and review load', icon: GaugeIcon },
  {
    label: 'Compliance Tracking',
    description: 'GST input credit, TDS and MSME payment dates',
    icon: ShieldCheckIcon,
  },
];

/** `/`: greeting, counters, analytics placeholder, recent activity and quick actions. */
export function HomePage() {
  useDocumentTitle('Home');
  const me = useMe();
  const dashboard = useDashboard();
  const greeting = getGreeting(new Date().getHours());
  const firstName = getFirstName(me.data?.user.name, me.data?.user.email);

  return (
    <div className="flex flex-col gap-8">
      <PageHeader
        title={`${greeting}, ${firstName}`}
        description="Welcome back to your business intelligence dashboard"
      />
      {dashboard.isError && (
        <p
          role="alert"
          className="rounded-md border border-destructive/30 bg-destructive/5 px-4 py-3 text-destructive text-sm"
        >
          Couldn't load the dashboard: {dashboard.error.message}
        </p>
      )}
      <StatGrid stats={dashboard.data?.stats} loading={dashboard.isPending} />

      <Card>
        <CardHeader>
          <CardTitle>Dashboard Analytics</CardTitle>
          <CardDescription>Trends in documents, spend and vendor performance over time</CardDescription>
          <CardAction>
            <Badge variant="soon">Coming Soon</Badge>
          </CardAction>
        </CardHeader>
        <CardContent>
          <ul
            className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4"
            data-testid="analytics-features"
          >
            {analytics.map(({ label, description, icon: Icon }) => (
              <li
                key={label}
                className="flex items-start gap-3 rounded-lg border border-dashed bg-muted/40 p-4"
              >
                <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-accent text-accent-foreground">
                  <Icon className="size-4" aria-hidden="true" />
                </span>
                <span className="min-w-0">
                  <span className="block font-medium text-sm">{label}</span>
                  <span className="block text-muted-foreground text-xs">{description}</span>
                </span>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
        <div className="lg:col-span-3">
          <RecentActivity
            items={dashboard.data?.recentActivity ?? []}
            loading={dashboard.isPending}
            failed={dashboard.isError}
          />
        </div>
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Quick Actions</CardTitle>
            <CardDescription>Get set up in a few minutes</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="flex flex-col gap-2">
              {quickActions.map(({ label, description, to, icon: Icon, unavailable }) => (
                <li key={label}>
                  {unavailable ? (
                    <div
                      className="flex items-center gap-3 rounded-lg border border-dashed px-3 py-3"
                      data-testid="quick-action-unavailable"
                    >
                      <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground">
                        <Icon className="size-4" aria-hidden="true" />
                      </span>
                      <span className="min-w-0 flex-1">
                        <span className="flex flex-wrap items-center gap-2">
                          <span className="font-medium text-muted-foreground text-sm">{label}</span>
                          <Badge variant="soon">Not available yet</Badge>
                        </span>
                        <span className="block text-muted-foreground text-xs">
                          {description}{' '}
                          <Link to={to} className="text-primary underline underline-offset-2">
                            {unavailable.instead}
                          </Link>
                        </span>
                      </span>
                    </div>
                  ) : (
                    <Link
                      to={to}
                      className="group flex items-center gap-3 rounded-lg border px-3 py-3 outline-none transition-colors hover:border-primary/30 hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/40"
                    >
                      <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-accent text-accent-foreground">
                        <Icon className="size-4" aria-hidden="true" />
                      </span>
                      <span className="min-w-0 flex-1">
                        <span className="block font-medium text-sm">{label}</span>
                        <span className="block truncate text-muted-foreground text-xs">{description}</span>
                      </span>
                      <ArrowRightIcon
                        className="size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5"
                        aria-hidden="true"
                      />
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
