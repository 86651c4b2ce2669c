import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { invitations, memberships, organizations, sessions, users } from '../../db/schema/index.ts';

/** One member row with the person's name and address. */
export interface MemberRow {
  userId: string;
  name: string;
  email: string;
  role: string;
  createdAt: Date;
}

/** The organisation's members, oldest first. */
export async function listMembers(db: Db, organizationId: string): Promise<MemberRow[]> {
  return db
    .select({
      userId: memberships.userId,
      name: users.name,
      email: users.email,
      role: memberships.role,
      createdAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, organizationId))
    .orderBy(asc(memberships.createdAt), asc(users.name));
}

/** One member of the organisation, or null. */
export async function findMember(db: Db, organizationId: string, userId: string): Promise<MemberRow | null> {
  const [row] = (await listMembers(db, organizationId)).filter((m) => m.userId === userId);
  return row ?? null;
}

/**
 * The organisation's owners, their rows locked for the rest of the transaction: two owners demoting each
 * other at once are serialised, so one owner always stays.
 */
export async function lockOwners(db: Db, organizationId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'owner')))
    .for('update');
  return rows.map((r) => r.userId);
}

/** Adds a member (nothing when they already are one); true when added. */
export async function insertMember(
  db: Db,
  values: { organizationId: string; userId: string; role: string },
): Promise<boolean> {
  const rows = await db.insert(memberships).values(values).onConflictDoNothing().returning();
  return rows.length > 0;
}

/** Sets a member's role. */
export async function updateMemberRole(
  db: Db,
  { organizationId, userId, role }: { organizationId: string; userId: string; role: string },
): Promise<void> {
  await db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
}

/** Removes a member from the organisation. */
export async function deleteMember(db: Db, organizationId: string, userId: string): Promise<void> {
  await db
    .delete(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
}

/** Ends every session of the user (their next request is refused). */
export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** The organisation's name and approval limit, or null. */
export async function findOrganizationSettings(
  db: Db,
  organizationId: string,
): Promise<{ legalName: string; approvalLimitPaise: number } | null> {
  const [row] = await db
    .select({ legalName: organizations.legalName, approvalLimitPaise: organizations.approvalLimitPaise })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row ?? null;
}

/** Sets the organisation's maker-checker limit. */
export async function updateApprovalLimit(db: Db, organizationId: string, paise: number): Promise<void> {
  await db
    .update(organizations)
    .set({ approvalLimitPaise: paise, updatedAt: sql`now()` })
    .where(eq(organizations.id, organizationId));
}

/** One stored invitation. */
export type InvitationRow = typeof invitations.$inferSelect;

/** Stores an invitation (its token only as a hash). */
export async function insertInvitation(
  db: Db,
  values: {
    organizationId: string;
    tokenHash: string;
    email: string | null;
    role: string;
    invitedBy: string;
    invitedByName: string;
    expiresAt: Date;
  },
): Promise<InvitationRow> {
  const [row] = await db.insert(invitations).values(values).returning();
  return row!;
}

/** Invitations not yet used, revoked or expired, newest first. */
export async function listPendingInvitations(db: Db, organizationId: string): Promise<InvitationRow[]> {
  return db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.organizationId, organizationId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(invitations.createdAt));
}

/** Revokes a pending invitation of the organisation; false when there is none by that id. */
export async function revokeInvitationRow(
  db: Db,
  organizationId: string,
  id: string,
): Promise<InvitationRow | null> {
  const [row] = await db
    .update(invitations)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(invitations.organizationId, organizationId),
        eq(invitations.id, id),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    )
    .returning();
  return row ?? null;
}

/** The invitation with this token hash and its organisation's name, or null. */
export async function findInvitationByHash(
  db: Db,
  tokenHash: string,
): Promise<{ invitation: InvitationRow; organizationName: string } | null> {
  const [row] = await db
    .select({ invitation: invitations, organizationName: organizations.legalName })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(eq(invitations.tokenHash, tokenHash));
  return row ?? null;
}

/**
 * Uses the invitation once: marks it accepted by `userId` unless it was used, revoked or has expired in the
 * meantime. True when this call used it (two people clicking the same link: one wins).
 */
export async function consumeInvitation(db: Db, id: string, userId: string): Promise<boolean> {
  const rows = await db
    .update(invitations)
    .set({ acceptedAt: sql`now()`, acceptedBy: userId })
    .where(
      and(
        eq(invitations.id, id),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: invitations.id });
  return rows.length > 0;
}

/** The user's unexpired sessions, newest first. */
export async function listUserSessions(db: Db, userId: string) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(desc(sessions.updatedAt));
}

/** Ends one of the user's sessions; false when they have none by that id. */
export async function deleteUserSession(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.id, id)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Points the session at an organisation (the switcher). */
export async function setSessionOrganization(
  db: Db,
  { userId, sessionId, organizationId }: { userId: string; sessionId: string; organizationId: string },
): Promise<void> {
  await db
    .update(sessions)
    .set({ activeOrganizationId: organizationId })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)));
}

/** The organisations a user belongs to, with the user's name (for a trail entry with no session yet). */
export async function listUserMemberships(
  db: Db,
  userId: string,
): Promise<Array<{ organizationId: string; name: string }>> {
  return db
    .select({ organizationId: memberships.organizationId, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.userId, userId));
}
