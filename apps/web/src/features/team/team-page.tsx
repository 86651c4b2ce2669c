import { PageHeader } from '@/components/page-header.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { usePermission, useRole } from '@/lib/permissions.ts';
import { useTeam } from './queries.ts';
import { ApprovalLimitCard, SessionsCard } from './team-account.tsx';
import { InviteCard, PendingInvitations } from './team-invites.tsx';
import { MemberRow } from './team-members.tsx';

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
