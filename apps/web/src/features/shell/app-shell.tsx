import { MenuIcon } from 'lucide-react';
import { useState } from 'react';
import { Outlet } from 'react-router';
import { BrandLogo } from '@/components/brand-logo.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useMe } from '@/lib/session.ts';
import { readSidebarCollapsed, writeSidebarCollapsed } from '@/lib/sidebar-state.ts';
import { NotificationsMenu } from './notifications-menu.tsx';
import { Sidebar, SidebarNav } from './sidebar.tsx';
import { UserMenu } from './user-menu.tsx';

/** Signed-in layout: collapsible sidebar, top bar with organisation, notifications and user, then the page. */
export function AppShell() {
  const me = useMe();
  const [collapsed, setCollapsed] = useState(() => readSidebarCollapsed(window.localStorage));
  const [mobileOpen, setMobileOpen] = useState(false);

  function toggleSidebar() {
    setCollapsed((value) => {
      writeSidebarCollapsed(window.localStorage, !value);
      return !value;
    });
  }

  const orgName = me.data?.organization?.legalName?.trim() || 'Bahi';

  return (
    <div className="flex min-h-svh bg-background">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <Sidebar collapsed={collapsed} onToggle={toggleSidebar} />

      <Sheet open={mobileOpen} onOpenChange={setMobileOpen}>
        <SheetContent side="left" className="w-72 gap-0 bg-sidebar p-0">
          <div className="flex h-16 items-center border-sidebar-border border-b px-5">
            <BrandLogo />
          </div>
          <SheetTitle className="sr-only">Navigation</SheetTitle>
          <SheetDescription className="sr-only">Main navigation of Bahi</SheetDescription>
          <SidebarNav collapsed={false} onNavigate={() => setMobileOpen(false)} />
        </SheetContent>
      </Sheet>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-3 border-b bg-background/85 px-4 backdrop-blur supports-[backdrop-filter]:bg-background/70 sm:px-6 lg:px-8">
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label="Open navigation"
            onClick={() => setMobileOpen(true)}
          >
            <MenuIcon className="size-5" />
          </Button>
          <div className="min-w-0 flex-1">
            {me.isPending ? (
              <Skeleton className="h-5 w-48" />
            ) : (
              <p className="truncate font-semibold text-base leading-tight" data-testid="org-name">
                {orgName}
              </p>
            )}
            <p className="truncate text-muted-foreground text-xs">Streamline your operations with AI</p>
          </div>
          <div className="flex items-center gap-2">
            <NotificationsMenu />
            <div className="mx-1 hidden h-8 w-px bg-border sm:block" aria-hidden="true" />
            {me.data ? (
              <UserMenu user={me.data.user} organizations={me.data.organizations} />
            ) : (
              <Skeleton className="size-9 rounded-full" />
            )}
          </div>
        </header>
        <main id="main-content" tabIndex={-1} className="flex-1 px-4 py-8 outline-none sm:px-6 lg:px-10">
          <div className="mx-auto w-full max-w-6xl">
            <Outlet />
          </div>
        </main>
      </div>
    </div>
  );
}
