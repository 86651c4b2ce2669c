import { sql } from 'drizzle-orm';

// What a money total may count, in one place for the sheets, the vendor master, the dashboard and
// Reconcile (issue #26). SQL over the `documents` table under the alias `d`.

/**
 * A document held as a copy: it looks like one already read (`duplicate_of`) and no person has said it is
 * not a duplicate. Undecided copies are held like decided ones: out of the sheets, the totals and payment.
 */
export const HELD_COPY = sql`(d.duplicate_of is not null and d.duplicate_decision is distinct from 'not_duplicate')`;

/** A read document that counts: not removed, failed or unread, and not held as a copy. */
export const COUNTED = sql`(d.status in ('done', 'needs_review') and not ${HELD_COPY})`;

/**
 * A counted document whose values are verified: every check passed when it was read, or a person approved
 * it (approval sets the status to done). The rest of the counted ones are "awaiting review".
 */
export const VERIFIED = sql`(${COUNTED} and d.status = 'done')`;

/** A counted document still awaiting a person's review. */
export const AWAITING_REVIEW = sql`(${COUNTED} and d.status = 'needs_review')`;
