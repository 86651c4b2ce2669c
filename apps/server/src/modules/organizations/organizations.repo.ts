import { and, asc, eq, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { memberships, organizationGstins, organizations, sessions, users } from '../../db/schema/index.ts';

/** One stored organisation row. */
export type OrganizationRow = typeof organizations.$inferSelect;
/** One stored GSTIN row. */
export type GstinRow = typeof organizationGstins.$inferSelect;
/** One stored membership row. */
export type MembershipRow = typeof memberships.$inferSelect;

/** The user's membership (the first, if they ever get several), or null before onboarding. */
export async function findMembershipByUser(db: Db, userId: string): Promise<MembershipRow | null> {
  const [row] = await db
    .select()
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * The membership a session works in: the organisation it switched to, when the user still belongs to it,
 * else their first. One query, read on every request.
 */
export async function findSessionMembership(
  db: Db,
  userId: string,
  sessionId: string,
): Promise<MembershipRow | null> {
  const [row] = await db
    .select({ membership: memberships })
    .from(memberships)
    .leftJoin(sessions, and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .where(eq(memberships.userId, userId))
    .orderBy(
      sql`(${memberships.organizationId} = ${sessions.activeOrganizationId}) DESC NULLS LAST`,
      asc(memberships.createdAt),
    )
    .limit(1);
  return row?.membership ?? null;
}

/** Locks the user's row for the rest of the transaction, serialising onboarding per user. */
export async function lockUser(db: Db, userId: string): Promise<void> {
  await db.execute(sql`SELECT 1 FROM ${users} WHERE ${users.id} = ${userId} FOR UPDATE`);
}

/** The organisation with this id, or null. */
export async function findOrganization(db: Db, organizationId: string): Promise<OrganizationRow | null> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  return row ?? null;
}

/** The organisation's GSTINs in the order they were added. */
export async function listGstins(db: Db, organizationId: string): Promise<GstinRow[]> {
  return db
    .select()
    .from(organizationGstins)
    .where(eq(organizationGstins.organizationId, organizationId))
    .orderBy(asc(organizationGstins.createdAt), asc(organizationGstins.gstin));
}

/** Creates an organisation and makes the user its owner. */
export async function insertOrganizationWithOwner(
  db: Db,
  userId: string,
  values: { legalName: string; phone: string; orgType: string; address: string; timeZone?: string },
): Promise<OrganizationRow> {
  const [org] = await db.insert(organizations).values(values).returning();
  await db.insert(memberships).values({ userId, organizationId: org!.id, role: 'owner' });
  return org!;
}

/** Updates the profile fields of one organisation. */
export async function updateOrganizationProfile(
  db: Db,
  organizationId: string,
  values: { legalName: string; phone: string; orgType: string; address: string; timeZone: string },
): Promise<void> {
  await db
    .update(organizations)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(organizations.id, organizationId));
}

/**
 * Makes the organisation's GSTINs exactly `gstins`: removes the others, adds new ones and updates labels,
 * keeping the ids of GSTINs that stay. Every statement is filtered by `organizationId`.
 */
export async function replaceGstins(
  db: Db,
  organizationId: string,
  gstins: Array<{ gstin: string; label: string | null; stateCode: string }>,
): Promise<void> {
  const keep = gstins.map((g) => g.gstin);
  await db
    .delete(organizationGstins)
    .where(
      keep.length > 0
        ? and(
            eq(organizationGstins.organizationId, organizationId),
            notInArray(organizationGstins.gstin, keep),
          )
        : eq(organizationGstins.organizationId, organizationId),
    );
  if (gstins.length === 0) return;
  await db
    .insert(organizationGstins)
    .values(gstins.map((g) => ({ organizationId, gstin: g.gstin, label: g.label, stateCode: g.stateCode })))
    .onConflictDoUpdate({
      target: [organizationGstins.organizationId, organizationGstins.gstin],
      set: { label: sql`excluded.label`, stateCode: sql`excluded.state_code` },
    });
}

/** Every organisation the user belongs to, with their role there, oldest membership first. */
export async function listUserOrganizations(
  db: Db,
  userId: string,
): Promise<Array<{ id: string; legalName: string; role: string; approvalLimitPaise: number }>> {
  return db
    .select({
      id: organizations.id,
      legalName: organizations.legalName,
      role: memberships.role,
      approvalLimitPaise: organizations.approvalLimitPaise,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(organizations.id));
}
