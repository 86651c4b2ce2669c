import {
  ActivityIcon,
  ArrowRightIcon,
  FileSpreadsheetIcon,
  GaugeIcon,
  IndianRupeeIcon,
  type LucideIcon,
  ShieldCheckIcon,
  UsersIcon,
  WorkflowIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { getFirstName, getGreeting } from '@/lib/format.ts';
import { useMe } from '@/lib/session.ts';
import { StatGrid } from './home-stats.tsx';
import { useDashboard } from './queries.ts';
import { RecentActivity } from './recent-activity.tsx';

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

/** What the analytics will show, each part marked as not built yet. */
function AnalyticsCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Dashboard Analytics</CardTitle>
        <CardDescription>Trends in documents, spend and vendor performance over time</CardDescription>
        <CardAction>
          <Badge variant="soon">Coming Soon</Badge>
        </CardAction>
      </CardHeader>
      <CardContent>
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4" data-testid="analytics-features">
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
  );
}

/** One quick action: a link, or — not built yet — a greyed-out line that says so and links what works. */
function QuickActionItem({ label, description, to, icon: Icon, unavailable }: QuickAction) {
  if (unavailable) {
    return (
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
    );
  }
  return (
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
  );
}

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
      <AnalyticsCard />
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
              {quickActions.map((action) => (
                <li key={action.label}>
                  <QuickActionItem {...action} />
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
