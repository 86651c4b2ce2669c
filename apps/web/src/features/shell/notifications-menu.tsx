import type { Notification } from '@bahi/contracts';
import { BellIcon, CheckCheckIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover.tsx';
import { Separator } from '@/components/ui/separator.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { formatRelativeTime } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';
import { useMarkNotificationsRead, useNotifications } from './queries.ts';

/** One notification: a dot and bold title while unread, the body, and how long ago. */
function NotificationItem({ item, onOpen }: { item: Notification; onOpen: () => void }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      className="flex w-full items-start gap-3 rounded-sm px-3 py-2.5 text-left outline-none hover:bg-accent focus-visible:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/40"
    >
      <span
        aria-hidden="true"
        className={cn('mt-1.5 size-2 shrink-0 rounded-full', item.readAt ? 'bg-transparent' : 'bg-primary')}
      />
      <span className="min-w-0 flex-1">
        <span className={cn('block truncate text-sm', !item.readAt && 'font-semibold')}>{item.title}</span>
        <span className="mt-0.5 line-clamp-2 block text-muted-foreground text-xs">{item.body}</span>
        <span className="mt-1 block text-[11px] text-muted-foreground">
          {formatRelativeTime(item.createdAt)}
        </span>
      </span>
      {!item.readAt && <span className="sr-only">Unread</span>}
    </button>
  );
}

/** The panel's list: skeletons while loading, the error, "all caught up", or the notifications. */
function NotificationList({
  notifications,
  onOpen,
}: {
  notifications: ReturnType<typeof useNotifications>;
  onOpen: (item: Notification) => void;
}) {
  if (notifications.isPending) {
    return (
      <div className="space-y-2 p-3">
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-3 w-full" />
      </div>
    );
  }
  if (notifications.isError) {
    return (
      <p className="px-4 py-8 text-center text-muted-foreground text-sm">Couldn't load notifications.</p>
    );
  }
  const items = notifications.data.items;
  if (items.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 px-4 py-10 text-center">
        <CheckCheckIcon className="size-6 text-muted-foreground" aria-hidden="true" />
        <p className="text-muted-foreground text-sm">You're all caught up</p>
      </div>
    );
  }
  return (
    <ul aria-label="Recent notifications">
      {items.map((item) => (
        <li key={item.id}>
          <NotificationItem item={item} onOpen={() => onOpen(item)} />
        </li>
      ))}
    </ul>
  );
}

/**
 * Bell with the unread count and a panel of recent notifications. A popover (a labelled dialog), not a
 * menu: it holds a heading, a "Mark all read" button and a list, which a menu role may not contain.
 */
export function NotificationsMenu() {
  const navigate = useNavigate();
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const notifications = useNotifications();
  const markRead = useMarkNotificationsRead();
  const unread = notifications.data?.unreadCount ?? 0;

  function openItem(item: Notification) {
    if (!item.readAt) markRead.mutate([item.id]);
    setOpen(false);
    if (item.link) navigate(item.link);
  }

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        >
          <BellIcon className="size-5" />
          {unread > 0 && (
            <span
              data-testid="notification-count"
              className="absolute top-1 right-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 font-semibold text-[10px] text-white leading-none"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-[min(24rem,calc(100vw-2rem))] p-0" aria-labelledby={titleId}>
        <div className="flex items-center justify-between px-4 py-3">
          <h2 id={titleId} className="font-semibold text-sm">
            Notifications
          </h2>
          <Button
            variant="ghost"
            size="sm"
            className="h-7 px-2 text-xs"
            disabled={unread === 0 || markRead.isPending}
            // The panel stays open so the user sees the items turn read.
            onClick={() => markRead.mutate(undefined)}
          >
            <CheckCheckIcon className="size-3.5" aria-hidden="true" />
            Mark all read
          </Button>
        </div>
        <Separator />
        <div className="max-h-96 overflow-y-auto p-1">
          <NotificationList notifications={notifications} onOpen={openItem} />
        </div>
      </PopoverContent>
    </Popover>
  );
}
