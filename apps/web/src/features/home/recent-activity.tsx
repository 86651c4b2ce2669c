import type { Activity } from '@bahi/contracts';
import { useState } from 'react';
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
import { formatRelativeTime } from '@/lib/format.ts';
import { ActivityHistorySheet } from './activity-history.tsx';

/** Newest-first activity list. */
export function RecentActivity({
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
