import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  complianceSettings,
  documents,
  gstr2bDecisions,
  gstr2bFiles,
  vendors,
} from '../../db/schema/index.ts';
import type { RegisterInvoice } from './gst-match.ts';

/** One stored GSTR-2B file. */
export type Gstr2bFileRow = typeof gstr2bFiles.$inferSelect;
/** One stored decision. */
export type DecisionRow = typeof gstr2bDecisions.$inferSelect;

/**
 * Stores a GSTR-2B file unless the organisation already has these bytes: the unique (organisation,
 * sha256) decides, so two uploads at once still store one. Returns the row and whether it is new.
 */
export async function insertGstr2bFile(
  db: Db,
  row: Omit<typeof gstr2bFiles.$inferInsert, 'id' | 'createdAt'>,
): Promise<{ row: Gstr2bFileRow; created: boolean }> {
  const [created] = await db
    .insert(gstr2bFiles)
    .values(row)
    .onConflictDoNothing({ target: [gstr2bFiles.organizationId, gstr2bFiles.sha256] })
    .returning();
  if (created) return { row: created, created: true };
  const [existing] = await db
    .select()
    .from(gstr2bFiles)
    .where(and(eq(gstr2bFiles.organizationId, row.organizationId), eq(gstr2bFiles.sha256, row.sha256)));
  return { row: existing!, created: false };
}

/** The organisation's GSTR-2B files, oldest first (content included). */
export async function listGstr2bFiles(db: Db, organizationId: string): Promise<Gstr2bFileRow[]> {
  return db
    .select()
    .from(gstr2bFiles)
    .where(eq(gstr2bFiles.organizationId, organizationId))
    .orderBy(asc(gstr2bFiles.createdAt), asc(gstr2bFiles.id));
}

/**
 * The purchase register: the organisation's read invoices (any flow), with whether a person approved
 * them. Removed, failed and unread documents take no part. Ordered by id, so the input is stable.
 */
export async function listRegisterInvoices(db: Db, organizationId: string): Promise<RegisterInvoice[]> {
  const rows = await db
    .select({
      id: documents.id,
      flowId: documents.flowId,
      fileName: documents.fileName,
      extraction: documents.extraction,
      approvedAt: documents.approvedAt,
    })
    .from(documents)
    .where(
      and(
        eq(documents.organizationId, organizationId),
        inArray(documents.status, ['done', 'needs_review']),
        sql`${documents.extraction}->>'documentType' = 'invoice'`,
      ),
    )
    .orderBy(asc(documents.id));
  return rows.map(({ approvedAt, ...r }) => ({ ...r, approved: approvedAt !== null }));
}

/** Every decision of the organisation, oldest first. */
export async function listDecisions(db: Db, organizationId: string): Promise<DecisionRow[]> {
  return db
    .select()
    .from(gstr2bDecisions)
    .where(eq(gstr2bDecisions.organizationId, organizationId))
    .orderBy(asc(gstr2bDecisions.createdAt), asc(gstr2bDecisions.id));
}

/** Records a decision (rows are only added). */
export async function insertDecision(
  db: Db,
  row: Omit<typeof gstr2bDecisions.$inferInsert, 'id' | 'createdAt'>,
): Promise<DecisionRow> {
  const [saved] = await db.insert(gstr2bDecisions).values(row).returning();
  return saved!;
}

/** Supplier names of the vendor master by GSTIN (a person's display name first). */
export async function listVendorNames(db: Db, organizationId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ gstin: vendors.gstin, name: sql<string>`coalesce(${vendors.displayName}, ${vendors.name})` })
    .from(vendors)
    .where(and(eq(vendors.organizationId, organizationId), isNotNull(vendors.gstin)));
  return new Map(rows.map((r) => [r.gstin!, r.name]));
}

/** The organisation's GST & TDS settings, or undefined when it kept the defaults. */
export async function findComplianceSettings(db: Db, organizationId: string) {
  const [row] = await db
    .select()
    .from(complianceSettings)
    .where(eq(complianceSettings.organizationId, organizationId));
  return row;
}

/** Sets the organisation's GST & TDS settings. */
export async function saveComplianceSettings(
  db: Db,
  organizationId: string,
  values: { turnoverAbove10cr?: boolean; gstr2bTolerancePaise?: number },
): Promise<void> {
  await db
    .insert(complianceSettings)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({
      target: complianceSettings.organizationId,
      set: { ...values, updatedAt: new Date() },
    });
}

/** The TDS profile columns of the organisation's vendors with a GSTIN. */
export async function listVendorTdsRows(db: Db, organizationId: string) {
  return db
    .select({
      gstin: vendors.gstin,
      pan: vendors.pan,
      tdsSection: vendors.tdsSection,
      panOperative: vendors.panOperative,
      ldcSection: vendors.ldcSection,
      ldcRate: vendors.ldcRate,
      ldcFrom: vendors.ldcFrom,
      ldcTo: vendors.ldcTo,
      ldcLimitPaise: vendors.ldcLimitPaise,
    })
    .from(vendors)
    .where(and(eq(vendors.organizationId, organizationId), isNotNull(vendors.gstin)));
}
