import { type MeUser, type MyOrganization, ROLE_INFO } from '@bahi/contracts';
import { ArrowLeftRightIcon, Building2Icon, LogOutIcon, PlugIcon, UsersRoundIcon } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu.tsx';
import { getInitials } from '@/lib/format.ts';
import { signOutAndLeave } from '@/lib/sign-out.ts';
import { useSwitchOrganization } from './queries.ts';

/** The user's photo, or two-letter initials when there is none (or it fails to load). */
export function UserAvatar({ user, className }: { user: MeUser; className?: string }) {
  return (
    <Avatar className={className}>
      {user.image && <AvatarImage src={user.image} alt="" referrerPolicy="no-referrer" />}
      <AvatarFallback>{getInitials(user.name, user.email)}</AvatarFallback>
    </Avatar>
  );
}

/** Name, e-mail and avatar in the top bar, opening a small account menu (and the organisation switcher). */
export function UserMenu({ user, organizations = [] }: { user: MeUser; organizations?: MyOrganization[] }) {
  const navigate = useNavigate();
  const switchOrganization = useSwitchOrganization();
  const active = organizations.find((o) => o.active);
  const others = organizations.filter((o) => !o.active);
  const switchTo = (org: MyOrganization) =>
    switchOrganization.mutate(org.id, {
      onSuccess: () => {
        toast.success(`Now working in ${org.legalName}`);
        navigate('/');
      },
      onError: (error) => toast.error(error instanceof Error ? error.message : 'Could not switch'),
    });
  return (
    // Not modal: a modal menu hides the page from screen readers while its links stay focusable.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger className="flex items-center gap-3 rounded-lg py-1 pr-1 pl-2 text-left outline-none hover:bg-accent/60 focus-visible:ring-[3px] focus-visible:ring-ring/40">
        <span className="hidden min-w-0 flex-col sm:flex">
          <span className="max-w-60 truncate font-medium text-sm leading-tight">
            {user.name || user.email}
          </span>
          <span className="max-w-60 truncate text-muted-foreground text-xs leading-tight">{user.email}</span>
        </span>
        <UserAvatar user={user} className="size-9" />
        <span className="sr-only">Account menu</span>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        <DropdownMenuLabel className="font-normal">
          <span className="block truncate font-medium text-sm">{user.name || user.email}</span>
          <span className="block truncate text-muted-foreground text-xs">{user.email}</span>
          {active && (
            <span className="mt-1 block truncate text-muted-foreground text-xs">
              {active.legalName} · {ROLE_INFO[active.role].label}
            </span>
          )}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {others.map((org) => (
          <DropdownMenuItem key={org.id} onSelect={() => switchTo(org)}>
            <ArrowLeftRightIcon aria-hidden="true" />
            <span className="truncate">Switch to {org.legalName}</span>
          </DropdownMenuItem>
        ))}
        {others.length > 0 && <DropdownMenuSeparator />}
        <DropdownMenuItem onSelect={() => navigate('/profile')}>
          <Building2Icon aria-hidden="true" />
          Profile
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate('/integrations')}>
          <PlugIcon aria-hidden="true" />
          Integrations
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate('/team')}>
          <UsersRoundIcon aria-hidden="true" />
          Team
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={() => void signOutAndLeave()}>
          <LogOutIcon aria-hidden="true" />
          Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
