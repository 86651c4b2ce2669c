import { createHash, randomBytes } from 'node:crypto';
import {
  type CreateInvitationInput,
  type Invitation,
  type InvitationCreated,
  type InvitationPreview,
  ROLE_INFO,
  type Role,
  type SessionInfo,
  type Team,
} from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordActivity } from '../activity/activity.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import {
  consumeInvitation,
  deleteMember,
  deleteUserSession,
  deleteUserSessions,
  findInvitationByHash,
  findMember,
  findOrganizationSettings,
  type InvitationRow,
  insertInvitation,
  insertMember,
  listMembers,
  listPendingInvitations,
  listUserMemberships,
  listUserSessions,
  lockOwners,
  revokeInvitationRow,
  setSessionOrganization,
  updateApprovalLimit,
  updateMemberRole,
} from './team.repo.ts';

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;

/** The caller as the team services take them. */
interface Caller {
  user: SessionUser;
  membership: Membership;
}

/** The SHA-256 of a token: all the database keeps of an invitation link. */
function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function roleName(role: string): string {
  return ROLE_INFO[role as Role]?.label.toLowerCase() ?? role;
}

function toInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role as Role,
    invitedBy: row.invitedByName,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** Only an owner makes, unmakes or removes an owner. */
function requireOwnerFor(caller: Caller, what: string): void {
  if (caller.membership.role !== 'owner') throw new AppError('forbidden', `Only an owner can ${what}`);
}

/** `GET /api/team`: members, pending invitations, the approval limit and whether invitations are e-mailed. */
export async function getTeam(db: Db, { user, membership }: Caller): Promise<Team> {
  const [members, pending, settings] = await Promise.all([
    listMembers(db, membership.organizationId),
    listPendingInvitations(db, membership.organizationId),
    findOrganizationSettings(db, membership.organizationId),
  ]);
  return {
    members: members.map((m) => ({
      userId: m.userId,
      name: m.name,
      email: m.email,
      role: m.role as Role,
      joinedAt: m.createdAt.toISOString(),
      you: m.userId === user.id,
    })),
    invitations: pending.map(toInvitation),
    approvalLimitPaise: settings?.approvalLimitPaise ?? 0,
    // Bahi sends no mail yet: the link is copied and passed on by the person who invites.
    mailConfigured: false,
  };
}

/**
 * `POST /api/team/invitations`: a one-use link for the role, valid {@link INVITATION_DAYS} days. The token
 * is returned once and stored only as a hash.
 */
export async function createInvitation(
  db: Db,
  { caller, publicUrl, input }: { caller: Caller; publicUrl: string; input: CreateInvitationInput },
): Promise<InvitationCreated> {
  if (input.role === 'owner') requireOwnerFor(caller, 'invite another owner');
  const { user, membership } = caller;
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 3600 * 1000);
  const row = await db.transaction(async (tx) => {
    const created = await insertInvitation(tx, {
      organizationId: membership.organizationId,
      tokenHash: hashToken(token),
      email: input.email ?? null,
      role: input.role,
      invitedBy: user.id,
      invitedByName: user.name,
      expiresAt,
    });
    await recordAudit(tx, {
      organizationId: membership.organizationId,
      kind: 'member.invited',
      actor: user,
      summary: `${user.name} invited ${input.email ?? 'someone with a link'} as ${roleName(input.role)}`,
      details: { invitationId: created.id, email: input.email ?? null, role: input.role },
    });
    return created;
  });
  return { invitation: toInvitation(row), link: `${publicUrl}/invite/${token}`, emailed: false };
}

/** `DELETE /api/team/invitations/{id}`: the link stops working at once. */
export async function revokeInvitation(
  db: Db,
  { caller, id }: { caller: Caller; id: string },
): Promise<void> {
  const { user, membership } = caller;
  await db.transaction(async (tx) => {
    const row = await revokeInvitationRow(tx, membership.organizationId, id);
    if (!row) throw new AppError('not_found', 'No pending invitation by that id');
    await recordAudit(tx, {
      organizationId: membership.organizationId,
      kind: 'member.invitation_revoked',
      actor: user,
      summary: `${user.name} revoked the invitation for ${row.email ?? 'a link'} (${roleName(row.role)})`,
      details: { invitationId: row.id, email: row.email, role: row.role },
    });
  });
}

/** `PUT /api/team/members/{userId}`: a new role; the last owner stays an owner. */
export async function changeMemberRole(
  db: Db,
  { caller, userId, role }: { caller: Caller; userId: string; role: Role },
): Promise<void> {
  const { user, membership } = caller;
  const orgId = membership.organizationId;
  await db.transaction(async (tx) => {
    const owners = await lockOwners(tx, orgId);
    const target = await findMember(tx, orgId, userId);
    if (!target) throw new AppError('not_found', 'This person is not a member of the organisation');
    if (target.role === role) return;
    if (target.role === 'owner' || role === 'owner') requireOwnerFor(caller, 'make or unmake an owner');
    if (target.role === 'owner' && owners.length <= 1)
      throw new AppError(
        'conflict',
        'The organisation needs at least one owner: make someone else an owner before changing this role',
      );
    await updateMemberRole(tx, { organizationId: orgId, userId, role });
    await recordAudit(tx, {
      organizationId: orgId,
      kind: 'member.role_changed',
      actor: user,
      summary: `${user.name} changed ${target.name}'s role from ${roleName(target.role)} to ${roleName(role)}`,
      details: { userId, from: target.role, to: role },
    });
  });
}

/**
 * `DELETE /api/team/members/{userId}` (and leaving, for oneself): the membership goes and every session of
 * the person ends, so their next request is refused. The last owner can neither leave nor be removed.
 */
export async function removeMember(
  db: Db,
  { caller, userId }: { caller: Caller; userId: string },
): Promise<void> {
  const { user, membership } = caller;
  const orgId = membership.organizationId;
  const self = userId === user.id;
  await db.transaction(async (tx) => {
    const owners = await lockOwners(tx, orgId);
    const target = await findMember(tx, orgId, userId);
    if (!target) throw new AppError('not_found', 'This person is not a member of the organisation');
    if (target.role === 'owner' && !self) requireOwnerFor(caller, 'remove an owner');
    if (target.role === 'owner' && owners.length <= 1)
      throw new AppError(
        'conflict',
        self
          ? 'You are the last owner: make someone else an owner before you leave'
          : 'The organisation needs at least one owner: this is the last one',
      );
    await deleteMember(tx, orgId, userId);
    await deleteUserSessions(tx, userId);
    await recordAudit(tx, {
      organizationId: orgId,
      kind: 'member.removed',
      actor: user,
      summary: self
        ? `${user.name} left the organisation`
        : `${user.name} removed ${target.name} (${target.email})`,
      details: { userId, email: target.email, role: target.role },
    });
  });
}

/** The invitation a link points at, when it can still be used; else a message saying why not. */
async function findUsableInvitation(db: Db, token: string) {
  const found = await findInvitationByHash(db, hashToken(token));
  if (!found) throw new AppError('not_found', 'This invitation link is not valid');
  const { invitation } = found;
  if (invitation.revokedAt)
    throw new AppError('not_found', 'This invitation was withdrawn; ask for a new link');
  if (invitation.acceptedAt) throw new AppError('conflict', 'This invitation link has already been used');
  if (invitation.expiresAt.getTime() <= Date.now())
    throw new AppError('not_found', 'This invitation link has expired; ask for a new one');
  return found;
}

/** `GET /api/invitations/{token}`: what the accept page shows (anyone with the link may see it). */
export async function previewInvitation(db: Db, token: string): Promise<InvitationPreview> {
  const { invitation, organizationName } = await findUsableInvitation(db, token);
  return {
    organizationName,
    role: invitation.role as Role,
    invitedBy: invitation.invitedByName,
    email: invitation.email,
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

/**
 * `POST /api/invitations/{token}/accept`: the signed-in person joins with the invitation's role (once),
 * and this session switches to the organisation. An invitation made out to an address needs that address.
 */
export async function acceptInvitation(
  db: Db,
  { user, sessionId, token }: { user: SessionUser; sessionId: string; token: string },
): Promise<{ organizationId: string }> {
  const { invitation, organizationName } = await findUsableInvitation(db, token);
  if (invitation.email && invitation.email.toLowerCase() !== user.email.toLowerCase())
    throw new AppError(
      'forbidden',
      `This invitation is for ${invitation.email}; sign in with that address to accept it`,
    );
  const orgId = invitation.organizationId;
  await db.transaction(async (tx) => {
    if (await findMember(tx, orgId, user.id))
      throw new AppError('conflict', `You already belong to ${organizationName}`);
    if (!(await consumeInvitation(tx, invitation.id, user.id)))
      throw new AppError('conflict', 'This invitation link has already been used');
    await insertMember(tx, { organizationId: orgId, userId: user.id, role: invitation.role });
    await setSessionOrganization(tx, { userId: user.id, sessionId, organizationId: orgId });
    await recordAudit(tx, {
      organizationId: orgId,
      kind: 'member.joined',
      actor: user,
      summary: `${user.name} (${user.email}) joined as ${roleName(invitation.role)}, invited by ${invitation.invitedByName}`,
      details: { invitationId: invitation.id, role: invitation.role },
    });
    await recordActivity(tx, {
      organizationId: orgId,
      kind: 'member.joined',
      message: `${user.name} joined the team as ${roleName(invitation.role)}`,
      userId: user.id,
    });
  });
  return { organizationId: orgId };
}

/** `PUT /api/me/organization`: this session works in another of the caller's organisations from now on. */
export async function switchOrganization(
  db: Db,
  { user, sessionId, organizationId }: { user: SessionUser; sessionId: string; organizationId: string },
): Promise<void> {
  if (!(await findMember(db, organizationId, user.id)))
    throw new AppError('not_found', 'You are not a member of that organisation');
  await setSessionOrganization(db, { userId: user.id, sessionId, organizationId });
}

/** `PUT /api/team/approval-limit`: the maker-checker limit, in paise. */
export async function setApprovalLimit(
  db: Db,
  { caller, approvalLimitPaise }: { caller: Caller; approvalLimitPaise: number },
): Promise<void> {
  const { user, membership } = caller;
  await db.transaction(async (tx) => {
    const before = await findOrganizationSettings(tx, membership.organizationId);
    await updateApprovalLimit(tx, membership.organizationId, approvalLimitPaise);
    await recordAudit(tx, {
      organizationId: membership.organizationId,
      kind: 'settings.approval_limit',
      actor: user,
      summary: `${user.name} set the approval limit to ₹${(approvalLimitPaise / 100).toLocaleString('en-IN')}`,
      details: { from: before?.approvalLimitPaise ?? null, to: approvalLimitPaise },
    });
  });
}

/** `GET /api/me/sessions`: where the caller is signed in. */
export async function listSessions(
  db: Db,
  { user, sessionId }: { user: SessionUser; sessionId: string },
): Promise<SessionInfo[]> {
  const rows = await listUserSessions(db, user.id);
  return rows.map((s) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.updatedAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    ipAddress: s.ipAddress,
    userAgent: s.userAgent,
    current: s.id === sessionId,
  }));
}

/** `DELETE /api/me/sessions/{id}`: signs that session out (the device's next request is refused). */
export async function endSession(
  db: Db,
  { user, membership, id }: { user: SessionUser; membership: Membership | null; id: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await deleteUserSession(tx, user.id, id)))
      throw new AppError('not_found', 'No such session of yours');
    if (membership)
      await recordAudit(tx, {
        organizationId: membership.organizationId,
        kind: 'session.ended',
        actor: user,
        summary: `${user.name} ended one of their sessions`,
        details: { sessionId: id },
      });
  });
}

/** Records a new session as a sign-in in the trail of every organisation the person belongs to. */
export async function recordSignIn(
  db: Db,
  session: {
    id: string;
    userId: string;
    ipAddress?: string | null | undefined;
    userAgent?: string | null | undefined;
  },
): Promise<void> {
  const orgs = await listUserMemberships(db, session.userId);
  for (const org of orgs)
    await recordAudit(db, {
      organizationId: org.organizationId,
      kind: 'auth.sign_in',
      actor: { id: session.userId, name: org.name },
      summary: `${org.name} signed in`,
      details: { ipAddress: session.ipAddress ?? null, userAgent: session.userAgent ?? null },
    });
}
