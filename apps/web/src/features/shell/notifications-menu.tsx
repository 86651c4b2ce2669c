import type { Notification } from '@bahi/contracts';
import { BellIcon, CheckCheckIcon } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { formatRelativeTime } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';
import { useMarkNotificationsRead, useNotifications } from './queries.ts';

/** Bell with the unread count and a dropdown of recent notifications. */
export function NotificationsMenu() {
  const navigate = useNavigate();
  const notifications = useNotifications();
  const markRead = useMarkNotificationsRead();
  const unread = notifications.data?.unreadCount ?? 0;
  const items = notifications.data?.items ?? [];

  function openItem(item: Notification) {
    if (!item.readAt) markRead.mutate([item.id]);
    if (item.link) navigate(item.link);
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
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
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-96 p-0">
        <div className="flex items-center justify-between px-4 py-3">
          <p className="font-semibold text-sm">Notifications</p>
          <Button
            variant="ghost"
            size="sm"
            className="h-7 px-2 text-xs"
            disabled={unread === 0 || markRead.isPending}
            onClick={(event) => {
              // Keep the menu open so the user sees the items turn read.
              event.preventDefault();
              markRead.mutate(undefined);
            }}
          >
            <CheckCheckIcon className="size-3.5" aria-hidden="true" />
            Mark all read
          </Button>
        </div>
        <DropdownMenuSeparator className="m-0" />
        <div className="max-h-96 overflow-y-auto p-1">
          {notifications.isPending ? (
            <div className="space-y-2 p-3">
              <Skeleton className="h-4 w-2/3" />
              <Skeleton className="h-3 w-full" />
            </div>
          ) : notifications.isError ? (
            <p className="px-4 py-8 text-center text-muted-foreground text-sm">
              Couldn't load notifications.
            </p>
          ) : items.length === 0 ? (
            <div className="flex flex-col items-center gap-2 px-4 py-10 text-center">
              <CheckCheckIcon className="size-6 text-muted-foreground" aria-hidden="true" />
              <p className="text-muted-foreground text-sm">You're all caught up</p>
            </div>
          ) : (
            items.map((item) => (
              <DropdownMenuItem
                key={item.id}
                onSelect={() => openItem(item)}
                className="flex items-start gap-3 px-3 py-2.5"
              >
                <span
                  aria-hidden="true"
                  className={cn(
                    'mt-1.5 size-2 shrink-0 rounded-full',
                    item.readAt ? 'bg-transparent' : 'bg-primary',
                  )}
                />
                <span className="min-w-0 flex-1">
                  <span className={cn('block truncate text-sm', !item.readAt && 'font-semibold')}>
                    {item.title}
                  </span>
                  <span className="mt-0.5 line-clamp-2 block text-muted-foreground text-xs">{item.body}</span>
                  <span className="mt-1 block text-[11px] text-muted-foreground">
                    {formatRelativeTime(item.createdAt)}
                  </span>
                </span>
                {!item.readAt && <span className="sr-only">Unread</span>}
              </DropdownMenuItem>
            ))
          )}
        </div>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
