import { createHash, randomUUID } from 'node:crypto';
import { and, eq, like, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rateLimits } from '../../db/schema/index.ts';

/** Failed sign-ins an account takes, from any number of addresses, before it waits. */
export const ACCOUNT_FAILURES_BEFORE_WAIT = 10;
/** The first wait; each further failure doubles it, up to `MAX_ACCOUNT_WAIT_MS`. */
const FIRST_WAIT_MS = 30_000;
/** The longest wait: an attacker can slow a person's sign-in, never lock them out for long. */
export const MAX_ACCOUNT_WAIT_MS = 15 * 60_000;
/** Failures older than this are forgotten. */
const FAILURE_MEMORY_MS = 30 * 60_000;

/** The rate-limit row of an account's failed sign-ins; the address is hashed, never stored. */
function keyOf(email: string): string {
  return `account-sign-in:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
}

/** How long an account with `failures` recent failures waits after the last one. */
export function waitAfter(failures: number): number {
  if (failures < ACCOUNT_FAILURES_BEFORE_WAIT) return 0;
  return Math.min(MAX_ACCOUNT_WAIT_MS, FIRST_WAIT_MS * 2 ** (failures - ACCOUNT_FAILURES_BEFORE_WAIT));
}

/**
 * Milliseconds the account must still wait before another sign-in attempt, or 0. Counted per
 * account across all source addresses (the per-address limit is better-auth's).
 */
export async function accountWaitMs(db: Db, email: string, now = Date.now()): Promise<number> {
  const [row] = await db
    .select()
    .from(rateLimits)
    .where(eq(rateLimits.key, keyOf(email)));
  if (!row || now - row.lastRequest > FAILURE_MEMORY_MS) return 0;
  return Math.max(0, row.lastRequest + waitAfter(row.count) - now);
}

/** Count one failed sign-in of the account (failures older than the memory start again from one). */
export async function recordSignInFailure(db: Db, email: string, now = Date.now()): Promise<void> {
  await db
    .insert(rateLimits)
    .values({ id: randomUUID(), key: keyOf(email), count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${now} - ${rateLimits.lastRequest} > ${FAILURE_MEMORY_MS} then 1 else ${rateLimits.count} + 1 end`,
        lastRequest: now,
      },
    });
}

/** Forget an account's failed sign-ins (after a successful one). */
export async function clearSignInFailures(db: Db, email: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, keyOf(email)));
}

/**
 * "This address already has an account" answers the server gives, from all addresses together, in
 * one window before sign-up pauses: the answer stays helpful for a person, while harvesting
 * addresses in bulk (from many sources, past the per-address limit) slows to this pace.
 */
export const EXISTING_ADDRESS_ANSWERS_PER_WINDOW = 20;
/** The window of that count. */
export const SIGN_UP_WINDOW_MS = 10 * 60_000;
const SIGN_UP_KEY = 'sign-up-existing-address:';

/** Milliseconds until sign-up opens again, or 0. */
export async function signUpWaitMs(db: Db, now = Date.now()): Promise<number> {
  const window = Math.floor(now / SIGN_UP_WINDOW_MS);
  const [row] = await db
    .select()
    .from(rateLimits)
    .where(eq(rateLimits.key, `${SIGN_UP_KEY}${window}`));
  if (!row || row.count < EXISTING_ADDRESS_ANSWERS_PER_WINDOW) return 0;
  return (window + 1) * SIGN_UP_WINDOW_MS - now;
}

/** Count one sign-up refused because its address already has an account; earlier windows are dropped. */
export async function recordExistingAddressAnswer(db: Db, now = Date.now()): Promise<void> {
  const key = `${SIGN_UP_KEY}${Math.floor(now / SIGN_UP_WINDOW_MS)}`;
  await db.delete(rateLimits).where(and(like(rateLimits.key, `${SIGN_UP_KEY}%`), ne(rateLimits.key, key)));
  await db
    .insert(rateLimits)
    .values({ id: randomUUID(), key, count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: { count: sql`${rateLimits.count} + 1`, lastRequest: now },
    });
}
