import { type Invitation, type Member, ROLE_INFO, ROLES, type Role } from '@bahi/contracts';
import { CopyIcon, LinkIcon, LogOutIcon, UserPlusIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { PageHeader } from '@/components/page-header.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { formatPaise, usePermission, useRole } from '@/lib/permissions.ts';
import {
  useChangeRole,
  useEndSession,
  useInvite,
  useLeaveOrganization,
  useMySessions,
  useRemoveMember,
  useRevokeInvitation,
  useSetApprovalLimit,
  useTeam,
} from './queries.ts';

const errorText = (error: unknown, fallback: string) => (error instanceof Error ? error.message : fallback);
const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });

/** A role picker. Only an owner is offered the owner role. */
function RoleSelect({
  value,
  onChange,
  label,
  disabled,
  allowOwner,
  id,
}: {
  id?: string;
  value: Role;
  onChange: (role: Role) => void;
  label: string;
  disabled?: boolean;
  allowOwner: boolean;
}) {
  return (
    <Select value={value} onValueChange={(v) => onChange(v as Role)} disabled={disabled}>
      <SelectTrigger id={id} aria-label={label} className="w-40">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {ROLES.filter((r) => allowOwner || r !== 'owner').map((r) => (
          <SelectItem key={r} value={r}>
            {ROLE_INFO[r].label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/** Invite form: an optional address and a role; the link is shown to copy. */
function InviteCard({ isOwner }: { isOwner: boolean }) {
  const manage = usePermission('members.manage');
  const invite = useInvite();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('reviewer');
  const [link, setLink] = useState<string | null>(null);
  const emailId = useId();
  const roleId = useId();
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      const created = await invite.mutateAsync({ role, ...(email.trim() ? { email: email.trim() } : {}) });
      setLink(created.link);
      setEmail('');
      toast.success(`Invitation made for ${ROLE_INFO[role].label.toLowerCase()}: copy the link and send it`);
    } catch (error) {
      toast.error(errorText(error, 'Could not make the invitation'));
    }
  };
  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      toast.success('Link copied');
    } catch {
      toast.error('Could not copy: select the link and copy it yourself');
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle role="heading" aria-level={2}>
          Invite someone
        </CardTitle>
        <CardDescription>
          The link works once, for 7 days. Bahi does not send e-mail yet: copy the link and send it yourself.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {!manage.allowed && manage.reason && <p className="text-muted-foreground text-sm">{manage.reason}</p>}
        <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex flex-1 flex-col gap-1.5">
            <Label htmlFor={emailId}>E-mail (optional)</Label>
            <Input
              id={emailId}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              placeholder="name@company.in"
              disabled={!manage.allowed}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={roleId}>Role</Label>
            <RoleSelect
              id={roleId}
              value={role}
              onChange={setRole}
              label="Role of the person invited"
              disabled={!manage.allowed}
              allowOwner={isOwner}
            />
          </div>
          <Button type="submit" disabled={!manage.allowed || invite.isPending}>
            <UserPlusIcon aria-hidden="true" />
            Make invitation link
          </Button>
        </form>
        <p className="text-muted-foreground text-xs">{ROLE_INFO[role].description}.</p>
        {link && (
          <div className="flex flex-col gap-2 rounded-lg border bg-muted/40 p-3 sm:flex-row sm:items-center">
            <LinkIcon className="hidden size-4 shrink-0 sm:block" aria-hidden="true" />
            <Input readOnly value={link} aria-label="Invitation link" className="font-mono text-xs" />
            <Button type="button" variant="outline" onClick={copy}>
              <CopyIcon aria-hidden="true" />
              Copy link
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function PendingInvitations({ invitations }: { invitations: Invitation[] }) {
  const manage = usePermission('members.manage');
  const revoke = useRevokeInvitation();
  if (invitations.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle role="heading" aria-level={2}>
          Pending invitations
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="divide-y">
          {invitations.map((i) => (
            <li
              key={i.id}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <p className="truncate font-medium text-sm">{i.email ?? 'Anyone with the link'}</p>
                <p className="text-muted-foreground text-xs">
                  {ROLE_INFO[i.role].label} · invited by {i.invitedBy} · expires {formatDate(i.expiresAt)}
                </p>
              </div>
              <Button
                variant="outline"
                size="sm"
                disabled={!manage.allowed || revoke.isPending}
                title={manage.reason ?? undefined}
                onClick={() =>
                  revoke.mutate(i.id, {
                    onSuccess: () => toast.success('Invitation revoked: its link no longer works'),
                    onError: (error) => toast.error(errorText(error, 'Could not revoke')),
                  })
                }
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function MemberRow({
  member,
  isOwner,
  canManage,
  lastOwner,
}: {
  member: Member;
  isOwner: boolean;
  canManage: boolean;
  lastOwner: boolean;
}) {
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  // Only an owner makes, unmakes or removes an owner (the server says the same).
  // The last owner stays an owner: someone else is made an owner first.
  const locked = !canManage || (member.role === 'owner' && !isOwner) || lastOwner;
  const reason = !canManage
    ? 'Only owners and admins manage members'
    : lastOwner
      ? 'The last owner stays an owner: make someone else an owner first'
      : locked
        ? 'Only an owner can change an owner'
        : '';
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="truncate font-medium text-sm">
          {member.name} {member.you && <Badge variant="secondary">You</Badge>}
        </p>
        <p className="truncate text-muted-foreground text-xs">
          {member.email} · joined {formatDate(member.joinedAt)}
        </p>
      </div>
      <div className="flex items-center gap-2">
        {locked ? (
          <Badge variant="outline" title={reason}>
            {ROLE_INFO[member.role].label}
          </Badge>
        ) : (
          <RoleSelect
            value={member.role}
            label={`Role of ${member.name}`}
            allowOwner={isOwner}
            disabled={changeRole.isPending}
            onChange={(role) =>
              changeRole.mutate(
                { userId: member.userId, role },
                {
                  onSuccess: () =>
                    toast.success(`${member.name} is now ${ROLE_INFO[role].label.toLowerCase()}`),
                  onError: (error) => toast.error(errorText(error, 'Could not change the role')),
                },
              )
            }
          />
        )}
        {member.you && !lastOwner && <LeaveButton name={member.name} />}
        {!member.you && !locked && (
          <Button
            variant="outline"
            size="sm"
            disabled={remove.isPending}
            onClick={() => {
              if (!window.confirm(`Remove ${member.name}? They are signed out at once.`)) return;
              remove.mutate(member.userId, {
                onSuccess: () => toast.success(`${member.name} was removed and signed out`),
                onError: (error) => toast.error(errorText(error, 'Could not remove')),
              });
            }}
          >
            Remove
          </Button>
        )}
      </div>
    </li>
  );
}

/** Leaving the organisation signs the person out (as removal does); the last owner is refused, in words. */
function LeaveButton({ name }: { name: string }) {
  const leave = useLeaveOrganization();
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={leave.isPending}
      onClick={() => {
        if (!window.confirm(`${name}, leave this organisation? You will be signed out.`)) return;
        leave.mutate(undefined, {
          onSuccess: () => window.location.assign('/login'),
          onError: (error) => toast.error(errorText(error, 'Could not leave')),
        });
      }}
    >
      Leave
    </Button>
  );
}

function ApprovalLimitCard({ limitPaise }: { limitPaise: number }) {
  const settings = usePermission('settings.manage');
  const save = useSetApprovalLimit();
  const [rupees, setRupees] = useState(String(limitPaise / 100));
  const id = useId();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const value = Number(rupees.replaceAll(',', ''));
    if (!Number.isFinite(value) || value < 0) return toast.error('Enter the limit in rupees, like 100000');
    save.mutate(Math.round(value * 100), {
      onSuccess: () => toast.success(`Approval limit set to ${formatPaise(Math.round(value * 100))}`),
      onError: (error) => toast.error(errorText(error, 'Could not save the limit')),
    });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle role="heading" aria-level={2}>
          Approval limit
        </CardTitle>
        <CardDescription>
          Invoices above {formatPaise(limitPaise)} need an approver or owner, and never the person who
          corrected their amounts.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={id}>Limit in rupees</Label>
            <Input
              id={id}
              inputMode="decimal"
              value={rupees}
              onChange={(e) => setRupees(e.target.value)}
              disabled={!settings.allowed}
              className="w-48"
            />
          </div>
          <Button type="submit" variant="outline" disabled={!settings.allowed || save.isPending}>
            Save limit
          </Button>
        </form>
        {settings.reason && <p className="mt-2 text-muted-foreground text-xs">{settings.reason}</p>}
      </CardContent>
    </Card>
  );
}

/** Where I am signed in, each with a way to sign it out. */
function SessionsCard() {
  const sessions = useMySessions();
  const end = useEndSession();
  return (
    <Card>
      <CardHeader>
        <CardTitle role="heading" aria-level={2}>
          Your sessions
        </CardTitle>
        <CardDescription>Where you are signed in. Sign out a device you no longer use.</CardDescription>
      </CardHeader>
      <CardContent>
        {sessions.isPending ? (
          <Skeleton className="h-12" />
        ) : (
          <ul className="divide-y">
            {(sessions.data ?? []).map((s) => (
              <li
                key={s.id}
                className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0">
                  <p className="truncate text-sm">
                    {describeAgent(s.userAgent)} {s.current && <Badge variant="secondary">This device</Badge>}
                  </p>
                  <p className="text-muted-foreground text-xs">
                    {s.ipAddress ?? 'Unknown address'} · signed in {formatDate(s.createdAt)} · last seen{' '}
                    {formatDate(s.lastSeenAt)}
                  </p>
                </div>
                {!s.current && (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={end.isPending}
                    onClick={() =>
                      end.mutate(s.id, {
                        onSuccess: () => toast.success('That session is signed out'),
                        onError: (error) => toast.error(errorText(error, 'Could not sign it out')),
                      })
                    }
                  >
                    <LogOutIcon aria-hidden="true" />
                    Sign out
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** A browser's user-agent string in a few words. */
function describeAgent(agent: string | null): string {
  if (!agent) return 'Unknown device';
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Chrome\//.test(agent)
      ? 'Chrome'
      : /Firefox\//.test(agent)
        ? 'Firefox'
        : /Safari\//.test(agent)
          ? 'Safari'
          : 'A browser';
  const system = /Android/.test(agent)
    ? 'Android'
    : /iPhone|iPad/.test(agent)
      ? 'iOS'
      : /Windows/.test(agent)
        ? 'Windows'
        : /Mac OS/.test(agent)
          ? 'macOS'
          : /Linux/.test(agent)
            ? 'Linux'
            : '';
  return system ? `${browser} on ${system}` : browser;
}

/** `/team` (Settings → Team): invite with a role, pending invitations, members, approval limit, sessions. */
export function TeamPage() {
  useDocumentTitle('Team');
  const team = useTeam();
  const role = useRole();
  const manage = usePermission('members.manage');
  const isOwner = role === 'owner';
  const owners = team.data?.members.filter((m) => m.role === 'owner').length ?? 0;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Team" description="Who works in this organisation, and what each person may do." />
      <InviteCard isOwner={isOwner} />
      {team.isPending ? (
        <Skeleton className="h-40" />
      ) : team.isError ? (
        <p className="text-destructive text-sm">{team.error.message}</p>
      ) : (
        <>
          <PendingInvitations invitations={team.data.invitations} />
          <Card>
            <CardHeader>
              <CardTitle role="heading" aria-level={2}>
                Members
              </CardTitle>
              <CardDescription>
                Removing someone signs them out at once. The organisation always keeps at least one owner.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <ul className="divide-y">
                {team.data.members.map((m) => (
                  <MemberRow
                    key={m.userId}
                    member={m}
                    isOwner={isOwner}
                    canManage={manage.allowed}
                    lastOwner={m.role === 'owner' && owners === 1}
                  />
                ))}
              </ul>
            </CardContent>
          </Card>
          <ApprovalLimitCard key={team.data.approvalLimitPaise} limitPaise={team.data.approvalLimitPaise} />
        </>
      )}
      <SessionsCard />
    </div>
  );
}
