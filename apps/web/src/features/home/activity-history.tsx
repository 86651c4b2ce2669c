import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { useActivityHistory } from './queries.ts';

/** "View All Activity": the organisation's whole activity log in a side panel, a page at a time. */
export function ActivityHistorySheet({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [page, setPage] = useState(1);
  const history = useActivityHistory(page, open);
  const pages = history.data ? Math.max(1, Math.ceil(history.data.total / history.data.pageSize)) : 1;
  return (
    <Sheet
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) setPage(1);
      }}
    >
      <SheetContent side="right" className="w-full overflow-y-auto sm:max-w-lg">
        <SheetHeader className="border-b px-6 py-5">
          <SheetTitle className="text-lg">All activity</SheetTitle>
          <SheetDescription>Everything that happened in your workspace, newest first.</SheetDescription>
        </SheetHeader>
        <div className="flex flex-1 flex-col gap-4 px-6 pb-6">
          {history.isPending ? (
            <div className="space-y-4" aria-busy="true">
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} className="h-10 w-full" />
              ))}
            </div>
          ) : history.isError ? (
            <p role="alert" className="text-destructive text-sm">
              Couldn't load the activity: {history.error.message}
            </p>
          ) : history.data.items.length === 0 ? (
            <p className="py-8 text-center text-muted-foreground text-sm">Nothing has happened yet.</p>
          ) : (
            <ol className="divide-y" data-testid="activity-history" aria-busy={history.isFetching}>
              {history.data.items.map((item) => (
                <li key={item.id} className="py-3">
                  <p className="text-sm">{item.message}</p>
                  <time dateTime={item.createdAt} className="text-muted-foreground text-xs">
                    {formatDateTime(item.createdAt)}
                  </time>
                </li>
              ))}
            </ol>
          )}
          {history.data && pages > 1 && (
            <nav
              aria-label="Activity pages"
              className="mt-auto flex items-center justify-between gap-2 border-t pt-4"
            >
              <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                <ChevronLeftIcon aria-hidden="true" />
                Newer
              </Button>
              <span className="text-muted-foreground text-sm tabular-nums">
                Page {page} of {pages}
              </span>
              <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Older
                <ChevronRightIcon aria-hidden="true" />
              </Button>
            </nav>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}
