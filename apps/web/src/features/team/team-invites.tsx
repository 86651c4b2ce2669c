import { type Invitation, ROLE_INFO, type Role } from '@bahi/contracts';
import { CopyIcon, LinkIcon, UserPlusIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { usePermission } from '@/lib/permissions.ts';
import { useInvite, useRevokeInvitation } from './queries.ts';

import { errorText, formatDate } from './team-format.ts';
import { RoleSelect } from './team-members.tsx';

/** Invite form: an optional address and a role; the link is shown to copy. */
export function InviteCard({ isOwner }: { isOwner: boolean }) {
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

/** Invitations not yet accepted, each with its link to copy and a way to revoke it. */
export function PendingInvitations({ invitations }: { invitations: Invitation[] }) {
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
