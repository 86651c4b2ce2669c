import { FileTextIcon, LogOutIcon, PanelLeftCloseIcon, PanelLeftOpenIcon, ShieldIcon } from 'lucide-react';
import type * as React from 'react';
import { Link, NavLink, useMatch } from 'react-router';
import { BrandLogo } from '@/components/brand-logo.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip.tsx';
import { signOutAndLeave } from '@/lib/sign-out.ts';
import { cn } from '@/lib/utils.ts';
import { accountNavItems, mainNavItems, type NavItem } from './nav-items.ts';

const itemBase =
  'group flex h-9 w-full items-center gap-3 rounded-md px-2.5 text-sm font-medium outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/40';

/** Wraps a nav control in a tooltip naming it, only when the sidebar is narrow (labels hidden). */
function WithTooltip({
  collapsed,
  label,
  children,
}: {
  collapsed: boolean;
  label: string;
  children: React.ReactElement;
}) {
  if (!collapsed) return children;
  return (
    <Tooltip>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent side="right">{label}</TooltipContent>
    </Tooltip>
  );
}

/** One sidebar entry: a NavLink, or an inert button for modules that are not available yet. */
function SidebarItem({
  item,
  collapsed,
  onNavigate,
}: {
  item: NavItem;
  collapsed: boolean;
  onNavigate?: () => void;
}) {
  const Icon = item.icon;
  const label = item.soon && collapsed ? `${item.label} (Soon)` : item.label;
  const content = (
    <>
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      <span className={cn('flex-1 truncate text-left', collapsed && 'sr-only')}>{item.label}</span>
      {item.soon && !collapsed && (
        <Badge variant="soon" className="px-1.5 py-0 text-[10px] uppercase tracking-wide">
          Soon
        </Badge>
      )}
    </>
  );

  if (item.disabled || !item.to) {
    return (
      <WithTooltip collapsed={collapsed} label={label}>
        <button
          type="button"
          aria-disabled="true"
          onClick={(event) => event.preventDefault()}
          className={cn(
            itemBase,
            'cursor-not-allowed text-sidebar-foreground/50',
            collapsed && 'justify-center px-0',
          )}
        >
          {content}
        </button>
      </WithTooltip>
    );
  }

  return (
    <SidebarLink
      item={item}
      to={item.to}
      collapsed={collapsed}
      label={label}
      onNavigate={onNavigate}
      content={content}
    />
  );
}

/**
 * Enabled sidebar link. Active state is computed here rather than with NavLink's function
 * className, because Radix's Slot (tooltip trigger) concatenates className props as strings.
 */
function SidebarLink({
  item,
  to,
  collapsed,
  label,
  onNavigate,
  content,
}: {
  item: NavItem;
  to: string;
  collapsed: boolean;
  label: string;
  onNavigate?: () => void;
  content: React.ReactNode;
}) {
  const onAlso = useMatch({ path: item.alsoOn ?? to, end: true }) !== null;
  const isActive = useMatch({ path: to, end: item.end ?? false }) !== null || onAlso;
  return (
    <WithTooltip collapsed={collapsed} label={label}>
      <Link
        to={to}
        onClick={onNavigate}
        aria-current={isActive ? 'page' : undefined}
        className={cn(
          itemBase,
          isActive
            ? 'bg-sidebar-accent text-sidebar-accent-foreground'
            : 'text-sidebar-foreground hover:bg-sidebar-accent/60 hover:text-foreground',
          collapsed && 'justify-center px-0',
        )}
      >
        {content}
      </Link>
    </WithTooltip>
  );
}

/** Navigation list shared by the desktop sidebar and the mobile sheet. */
export function SidebarNav({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const legalLinkClass = cn(
    itemBase,
    'h-8 text-muted-foreground text-xs hover:bg-sidebar-accent/60 hover:text-foreground',
    collapsed && 'justify-center px-0',
  );
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
        <ul className="flex flex-col gap-1">
          {mainNavItems.map((item) => (
            <li key={item.label}>
              <SidebarItem item={item} collapsed={collapsed} onNavigate={onNavigate} />
            </li>
          ))}
        </ul>
        <p
          className={cn(
            'mt-6 mb-2 px-2.5 font-medium text-[11px] text-muted-foreground uppercase tracking-wider',
            collapsed && 'sr-only',
          )}
        >
          Account
        </p>
        {collapsed && <div className="mx-2 my-4 h-px bg-sidebar-border" aria-hidden="true" />}
        <ul className="flex flex-col gap-1">
          {accountNavItems.map((item) => (
            <li key={item.label}>
              <SidebarItem item={item} collapsed={collapsed} onNavigate={onNavigate} />
            </li>
          ))}
        </ul>
      </nav>
      <div className="flex flex-col gap-0.5 border-sidebar-border border-t px-3 py-3">
        <WithTooltip collapsed={collapsed} label="Terms and Conditions">
          <NavLink to="/terms-and-conditions" className={legalLinkClass} onClick={onNavigate}>
            <FileTextIcon className="size-4 shrink-0" aria-hidden="true" />
            <span className={cn('truncate', collapsed && 'sr-only')}>Terms and Conditions</span>
          </NavLink>
        </WithTooltip>
        <WithTooltip collapsed={collapsed} label="Privacy Policy">
          <NavLink to="/privacy-policy" className={legalLinkClass} onClick={onNavigate}>
            <ShieldIcon className="size-4 shrink-0" aria-hidden="true" />
            <span className={cn('truncate', collapsed && 'sr-only')}>Privacy Policy</span>
          </NavLink>
        </WithTooltip>
        <WithTooltip collapsed={collapsed} label="Sign Out">
          <button
            type="button"
            onClick={() => void signOutAndLeave()}
            className={cn(
              itemBase,
              'mt-1 text-sidebar-foreground hover:bg-destructive/10 hover:text-destructive',
              collapsed && 'justify-center px-0',
            )}
          >
            <LogOutIcon className="size-4 shrink-0" aria-hidden="true" />
            <span className={cn(collapsed && 'sr-only')}>Sign Out</span>
          </button>
        </WithTooltip>
      </div>
    </div>
  );
}

/** Desktop sidebar: 18rem wide, or 4rem with icons only when collapsed. */
export function Sidebar({ collapsed, onToggle }: { collapsed: boolean; onToggle: () => void }) {
  return (
    <aside
      data-collapsed={collapsed}
      className={cn(
        'sticky top-0 hidden h-svh shrink-0 flex-col border-sidebar-border border-r bg-sidebar transition-[width] duration-200 md:flex',
        collapsed ? 'w-16' : 'w-72',
      )}
    >
      <div
        className={cn(
          'flex h-16 shrink-0 items-center border-sidebar-border border-b',
          collapsed ? 'justify-center px-2' : 'justify-between px-5',
        )}
      >
        {!collapsed && <BrandLogo />}
        <WithTooltip collapsed={collapsed} label="Expand sidebar">
          <button
            type="button"
            onClick={onToggle}
            aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            aria-expanded={!collapsed}
            className="flex size-8 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-sidebar-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/40"
          >
            {collapsed ? <PanelLeftOpenIcon className="size-4" /> : <PanelLeftCloseIcon className="size-4" />}
          </button>
        </WithTooltip>
      </div>
      <SidebarNav collapsed={collapsed} />
    </aside>
  );
}
