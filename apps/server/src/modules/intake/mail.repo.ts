import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { intakeItems, mailMessages } from '../../db/schema/index.ts';

/** Where a message sits: the key that names it exactly once. */
export interface MessageKey {
  organizationId: string;
  flowId: string;
  mailbox: string;
  folder: string;
  uidValidity: number;
  uid: number;
}

/**
 * Claims a message for this worker: inserts its row, or takes over a claim older than `leaseSeconds` (its
 * worker died mid-message). True when this worker now owns it; false when it is done, or another live
 * worker holds it. The unique key decides between two workers polling at once.
 */
export async function claimMessage(
  db: Db,
  key: MessageKey,
  claim: { workerId: string; now: Date; leaseSeconds: number },
): Promise<string | null> {
  const lapsed = new Date(claim.now.getTime() - claim.leaseSeconds * 1000);
  const rows = await db
    .insert(mailMessages)
    .values({ ...key, claimedBy: claim.workerId, claimedAt: claim.now })
    .onConflictDoUpdate({
      target: [
        mailMessages.flowId,
        mailMessages.mailbox,
        mailMessages.folder,
        mailMessages.uidValidity,
        mailMessages.uid,
      ],
      set: { claimedBy: claim.workerId, claimedAt: claim.now },
      setWhere: sql`${mailMessages.status} = 'claimed' AND ${mailMessages.claimedAt} < ${lapsed}`,
    })
    .returning({ id: mailMessages.id });
  return rows[0]?.id ?? null;
}

/** Marks a claimed message done (only under this worker's claim: a worker whose claim lapsed writes nothing). */
export async function finishMessage(
  db: Db,
  id: string,
  done: { workerId: string; messageId: string },
): Promise<void> {
  await db
    .update(mailMessages)
    .set({ status: 'done', messageId: done.messageId })
    .where(and(eq(mailMessages.id, id), eq(mailMessages.claimedBy, done.workerId)));
}

/** The UIDs at or above `fromUid` already done in this folder under this UIDVALIDITY. */
export async function listDoneUids(db: Db, key: Omit<MessageKey, 'uid' | 'organizationId'>, fromUid: number) {
  const rows = await db
    .select({ uid: mailMessages.uid })
    .from(mailMessages)
    .where(
      and(
        eq(mailMessages.flowId, key.flowId),
        eq(mailMessages.mailbox, key.mailbox),
        eq(mailMessages.folder, key.folder),
        eq(mailMessages.uidValidity, key.uidValidity),
        eq(mailMessages.status, 'done'),
        gte(mailMessages.uid, fromUid),
      ),
    );
  return new Set(rows.map((r) => r.uid));
}

/** One line of the intake log. */
export interface IntakeLine {
  organizationId: string;
  flowId: string;
  origin: string;
  messageId: string;
  name: string;
  status: 'taken' | 'skipped' | 'failed';
  reason: string;
  contentHash?: string | null;
  size?: number | null;
}

/**
 * Records a taken attachment once per (flow, Message-ID, content hash): false when an earlier copy of the
 * message (a re-delivery, the same mail after a UIDVALIDITY change) already gave it.
 */
export async function recordTaken(db: Db, line: IntakeLine): Promise<boolean> {
  const rows = await db
    .insert(intakeItems)
    .values(line)
    .onConflictDoNothing({ target: [intakeItems.flowId, intakeItems.messageId, intakeItems.contentHash] })
    .returning({ id: intakeItems.id });
  return rows.length > 0;
}

/** Records a skipped or failed item (no hash: never collides). */
export async function recordSkipped(db: Db, line: IntakeLine): Promise<void> {
  await db.insert(intakeItems).values({ ...line, contentHash: null });
}

/** The flow's latest intake log lines, newest first. */
export async function listIntakeLines(db: Db, organizationId: string, flowId: string, limit = 100) {
  return db
    .select()
    .from(intakeItems)
    .where(and(eq(intakeItems.organizationId, organizationId), eq(intakeItems.flowId, flowId)))
    .orderBy(desc(intakeItems.createdAt), desc(intakeItems.id))
    .limit(limit);
}

/**
 * Drops every message claim still held (not done): at the start of the embedded server, which owns its
 * database alone, a claim can only be a killed process's — its messages are taken again at once.
 */
export async function releaseMailClaims(db: Db): Promise<number> {
  const rows = await db
    .update(mailMessages)
    .set({ claimedBy: null, claimedAt: new Date(0) })
    .where(eq(mailMessages.status, 'claimed'))
    .returning({ id: mailMessages.id });
  return rows.length;
}
