import type { ExtractionResult } from '@bahi/engine';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documents } from '../../db/schema/index.ts';
import { buildDocumentOutcome } from './document-outcome.ts';

/** Documents re-decided per statement: a large organisation's invoices are never all in memory at once. */
const BATCH = 100;

/**
 * Decides again, after the organisation's GSTINs changed, the verdict of every invoice it has read and
 * nobody approved yet: an invoice read while the profile had no GSTIN ("not checked") is checked now, and
 * one that was billed to a GSTIN the profile has just gained is OK now. Everything else about the verdict
 * is decided as before (`buildDocumentOutcome` over the stored reading, corrections included), so a
 * document's reasons stay the one definition. Approved documents keep the person's decision; documents
 * being read pick the new GSTINs up as they are stored. Runs under the same per-organisation lock as a
 * run's store, inside the caller's transaction. Returns how many documents changed.
 */
export async function recheckBilledTo(
  db: Db,
  organizationId: string,
  organizationGstins: readonly string[],
): Promise<number> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`bahi:document-outcome:${organizationId}`}))`);
  const ids = await db
    .select({ id: documents.id })
    .from(documents)
    .where(
      and(
        eq(documents.organizationId, organizationId),
        inArray(documents.status, ['done', 'needs_review']),
        isNull(documents.approvedAt),
        sql`${documents.extraction}->>'documentType' = 'invoice'`,
      ),
    );
  let changed = 0;
  for (let i = 0; i < ids.length; i += BATCH) {
    const rows = await db
      .select({
        id: documents.id,
        status: documents.status,
        extraction: documents.extraction,
        failedChecks: documents.failedChecks,
        duplicateOf: documents.duplicateOf,
      })
      .from(documents)
      .where(
        and(
          eq(documents.organizationId, organizationId),
          inArray(
            documents.id,
            ids.slice(i, i + BATCH).map((r) => r.id),
          ),
        ),
      )
      // Locked until the transaction ends: a person's correction saved meanwhile waits, so its
      // verdict is never overwritten by one worked out from the reading before it.
      .for('update');
    for (const row of rows) {
      const outcome = buildDocumentOutcome(row.extraction as ExtractionResult, {
        organizationGstins,
        duplicateOf: row.duplicateOf,
      });
      if (outcome.status === row.status && outcome.failedChecks.join(',') === row.failedChecks.join(','))
        continue;
      await db
        .update(documents)
        .set({
          status: outcome.status,
          failedChecks: outcome.failedChecks,
          reviewFlag: outcome.reviewFlag,
          updatedAt: sql`now()`,
        })
        .where(and(eq(documents.id, row.id), isNull(documents.approvedAt)));
      changed++;
    }
  }
  return changed;
}
