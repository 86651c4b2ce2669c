import {
  Building2Icon,
  ClipboardCheckIcon,
  FileScanIcon,
  GitCompareArrowsIcon,
  HomeIcon,
  type LucideIcon,
  PlugIcon,
  ReceiptIndianRupeeIcon,
  ScrollTextIcon,
  ShieldCheckIcon,
  UsersIcon,
  UsersRoundIcon,
  WalletIcon,
} from 'lucide-react';

/** One sidebar entry. `disabled` items look inactive and ignore clicks; `soon` shows a "Soon" badge. */
export interface NavItem {
  label: string;
  icon: LucideIcon;
  to?: string;
  /** Highlight only on an exact path match (Home). */
  end?: boolean;
  /** Another route the entry stands for, highlighted too (a flow's sheet is part of Parse). */
  alsoOn?: string;
  soon?: boolean;
  disabled?: boolean;
}

/** Main navigation, in sidebar order. */
export const mainNavItems: NavItem[] = [
  { label: 'Home', icon: HomeIcon, to: '/', end: true },
  { label: 'Parse', icon: FileScanIcon, to: '/parse', alsoOn: '/flows/:flowId/sheet' },
  { label: 'Review', icon: ClipboardCheckIcon, to: '/review' },
  { label: 'Reconcile', icon: GitCompareArrowsIcon, to: '/reconcile' },
  { label: 'Vendor Management', icon: UsersIcon, to: '/vendor-management' },
  { label: 'GST & TDS', icon: ReceiptIndianRupeeIcon, to: '/gst' },
  { label: 'MSME', icon: ShieldCheckIcon, to: '/msme' },
  { label: 'Working Capital', icon: WalletIcon, soon: true, disabled: true },
];

/** Account navigation under the main list. */
export const accountNavItems: NavItem[] = [
  { label: 'Profile', icon: Building2Icon, to: '/profile' },
  { label: 'Integrations', icon: PlugIcon, to: '/integrations' },
  { label: 'Team', icon: UsersRoundIcon, to: '/team' },
  { label: 'Audit Trail', icon: ScrollTextIcon, to: '/audit' },
];
