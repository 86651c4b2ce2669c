import { type Member, ROLE_INFO, ROLES, type Role } from '@bahi/contracts';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { useChangeRole, useLeaveOrganization, useRemoveMember } from './queries.ts';

import { errorText, formatDate } from './team-format.ts';

/** A role picker. Only an owner is offered the owner role. */
export function RoleSelect({
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

/** One member: name, address, role (changeable by who may), and remove or leave. */
export function MemberRow({
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
