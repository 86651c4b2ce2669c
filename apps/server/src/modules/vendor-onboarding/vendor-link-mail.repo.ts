import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { organizations, vendorLinkMails, vendorLinks } from '../../db/schema/index.ts';

/** A mail row as stored. */
export type VendorLinkMailRow = typeof vendorLinkMails.$inferSelect;

/** Queues a link's e-mail (the sealed token waits here until it is sent). */
export async function insertLinkMail(
  db: Db,
  values: typeof vendorLinkMails.$inferInsert,
): Promise<VendorLinkMailRow> {
  const [row] = await db.insert(vendorLinkMails).values(values).returning();
  return row!;
}

/**
 * Takes a queued mail for sending (queued → sending) and returns it with its link and organisation; undefined
 * when it is not queued (already sent, being sent, or not this organisation's), so a second delivery of the
 * job does nothing.
 */
export async function claimLinkMail(db: Db, organizationId: string, id: string) {
  const [claimed] = await db
    .update(vendorLinkMails)
    .set({ status: 'sending' })
    .where(
      and(
        eq(vendorLinkMails.organizationId, organizationId),
        eq(vendorLinkMails.id, id),
        eq(vendorLinkMails.status, 'queued'),
      ),
    )
    .returning();
  if (!claimed) return undefined;
  const [row] = await db
    .select({ link: vendorLinks, organizationName: organizations.legalName })
    .from(vendorLinks)
    .innerJoin(organizations, eq(organizations.id, vendorLinks.organizationId))
    .where(and(eq(vendorLinks.organizationId, organizationId), eq(vendorLinks.id, claimed.linkId)));
  return row ? { mail: claimed, ...row } : undefined;
}

/** Records how a claimed mail ended: sent (the token wiped), or back to queued with the refusal. */
export async function finishLinkMail(
  db: Db,
  organizationId: string,
  id: string,
  outcome: { sent: true } | { sent: false; error: string; retry: boolean },
): Promise<void> {
  await db
    .update(vendorLinkMails)
    .set(
      outcome.sent
        ? { status: 'sent', sentAt: sql`now()`, sealedToken: null, error: null }
        : outcome.retry
          ? { status: 'queued', error: outcome.error }
          : { status: 'failed', error: outcome.error, sealedToken: null },
    )
    .where(and(eq(vendorLinkMails.organizationId, organizationId), eq(vendorLinkMails.id, id)));
}

/** The latest mail of each of these links. */
export async function latestMailsOf(
  db: Db,
  organizationId: string,
  linkIds: string[],
): Promise<Map<string, VendorLinkMailRow>> {
  if (linkIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(vendorLinkMails)
    .where(and(eq(vendorLinkMails.organizationId, organizationId), inArray(vendorLinkMails.linkId, linkIds)))
    .orderBy(desc(vendorLinkMails.createdAt));
  const latest = new Map<string, VendorLinkMailRow>();
  for (const row of rows) if (!latest.has(row.linkId)) latest.set(row.linkId, row);
  return latest;
}
