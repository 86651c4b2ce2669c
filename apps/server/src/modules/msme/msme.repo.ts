import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  documents,
  msmeBankRates,
  msmeObjections,
  msmePayments,
  msmeRegistrations,
  vendors,
} from '../../db/schema/index.ts';

/** One registration row. */
export type RegistrationRow = typeof msmeRegistrations.$inferSelect;
/** One payment row. */
export type PaymentRow = typeof msmePayments.$inferSelect;
/** One objection row. */
export type ObjectionRow = typeof msmeObjections.$inferSelect;

/** The organisation's vendors, as the MSME screen names them. */
export async function listMsmeVendors(db: Db, organizationId: string) {
  return db
    .select({
      id: vendors.id,
      name: sql<string>`coalesce(${vendors.displayName}, ${vendors.name})`,
      gstin: vendors.gstin,
      pan: vendors.pan,
    })
    .from(vendors)
    .where(eq(vendors.organizationId, organizationId))
    .orderBy(sql`coalesce(${vendors.displayName}, ${vendors.name})`);
}

/** Whether a vendor belongs to the organisation. */
export async function vendorExists(db: Db, organizationId: string, vendorId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: vendors.id })
    .from(vendors)
    .where(and(eq(vendors.organizationId, organizationId), eq(vendors.id, vendorId)));
  return row !== undefined;
}

/** Every registration of the organisation's vendors. */
export async function listRegistrations(db: Db, organizationId: string): Promise<RegistrationRow[]> {
  return db
    .select()
    .from(msmeRegistrations)
    .where(eq(msmeRegistrations.organizationId, organizationId))
    .orderBy(asc(msmeRegistrations.financialYear));
}

/** Sets a vendor's registration for a year (one row per vendor and year). */
export async function upsertRegistration(
  db: Db,
  row: Omit<typeof msmeRegistrations.$inferInsert, 'id' | 'updatedAt'>,
): Promise<RegistrationRow> {
  const { organizationId: _o, vendorId: _v, financialYear: _y, ...values } = row;
  const [saved] = await db
    .insert(msmeRegistrations)
    .values(row)
    .onConflictDoUpdate({
      target: [msmeRegistrations.organizationId, msmeRegistrations.vendorId, msmeRegistrations.financialYear],
      set: { ...values, updatedAt: new Date() },
    })
    .returning();
  return saved!;
}

/** Every payment of the organisation, newest first. */
export async function listPayments(db: Db, organizationId: string): Promise<PaymentRow[]> {
  return db
    .select()
    .from(msmePayments)
    .where(eq(msmePayments.organizationId, organizationId))
    .orderBy(desc(msmePayments.paidOn), desc(msmePayments.createdAt));
}

/**
 * Records payments; one already recorded (same vendor, date, amount and reference) is skipped. Returns
 * the rows added.
 */
export async function insertPayments(
  db: Db,
  rows: Array<Omit<typeof msmePayments.$inferInsert, 'id' | 'createdAt'>>,
): Promise<PaymentRow[]> {
  if (rows.length === 0) return [];
  return db
    .insert(msmePayments)
    .values(rows)
    .onConflictDoNothing({
      target: [
        msmePayments.organizationId,
        msmePayments.vendorId,
        msmePayments.paidOn,
        msmePayments.amountPaise,
        msmePayments.reference,
      ],
    })
    .returning();
}

/** Removes a payment of the organisation; the row removed, if any. */
export async function deletePaymentRow(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .delete(msmePayments)
    .where(and(eq(msmePayments.organizationId, organizationId), eq(msmePayments.id, id)))
    .returning();
  return row;
}

/** Every objection of the organisation. */
export async function listObjections(db: Db, organizationId: string): Promise<ObjectionRow[]> {
  return db
    .select()
    .from(msmeObjections)
    .where(eq(msmeObjections.organizationId, organizationId))
    .orderBy(asc(msmeObjections.raisedOn));
}

/** Records an objection. */
export async function insertObjection(
  db: Db,
  row: Omit<typeof msmeObjections.$inferInsert, 'id' | 'createdAt'>,
): Promise<ObjectionRow> {
  const [saved] = await db.insert(msmeObjections).values(row).returning();
  return saved!;
}

/** Marks an objection of the organisation resolved; the row, if any. */
export async function resolveObjectionRow(
  db: Db,
  { organizationId, id, resolvedOn }: { organizationId: string; id: string; resolvedOn: string },
) {
  const [row] = await db
    .update(msmeObjections)
    .set({ resolvedOn })
    .where(and(eq(msmeObjections.organizationId, organizationId), eq(msmeObjections.id, id)))
    .returning();
  return row;
}

/** Whether a document is a read invoice of the organisation. */
export async function invoiceExists(db: Db, organizationId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(
      and(
        eq(documents.organizationId, organizationId),
        eq(documents.id, id),
        sql`${documents.extraction}->>'documentType' = 'invoice'`,
      ),
    );
  return row !== undefined;
}

/** The dates documents of the organisation carry (goods receipts' dates, for acceptance). */
export async function listDocumentDates(
  db: Db,
  organizationId: string,
  ids: string[],
): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: documents.id,
      date: sql<string | null>`${documents.extraction}->'fields'->>'documentDate'`,
    })
    .from(documents)
    .where(and(eq(documents.organizationId, organizationId), inArray(documents.id, ids)));
  return new Map(rows.map((r) => [r.id, r.date]));
}

/** One recorded bank rate. */
export type BankRateRow = typeof msmeBankRates.$inferSelect;

/** The organisation's bank rates, latest effective date first. */
export async function listBankRates(db: Db, organizationId: string): Promise<BankRateRow[]> {
  return db
    .select()
    .from(msmeBankRates)
    .where(eq(msmeBankRates.organizationId, organizationId))
    .orderBy(desc(msmeBankRates.effectiveFrom));
}

/** Records a rate from a day; the same day again replaces that day's rate. */
export async function upsertBankRate(
  db: Db,
  values: { organizationId: string; effectiveFrom: string; bankRatePct: number; userName: string },
): Promise<BankRateRow> {
  const [row] = await db
    .insert(msmeBankRates)
    .values(values)
    .onConflictDoUpdate({
      target: [msmeBankRates.organizationId, msmeBankRates.effectiveFrom],
      set: { bankRatePct: values.bankRatePct, userName: values.userName, createdAt: new Date() },
    })
    .returning();
  return row!;
}

/** Removes one of the organisation's rates (a mistaken entry); undefined when there is none. */
export async function deleteBankRate(
  db: Db,
  organizationId: string,
  id: string,
): Promise<BankRateRow | undefined> {
  const [row] = await db
    .delete(msmeBankRates)
    .where(and(eq(msmeBankRates.organizationId, organizationId), eq(msmeBankRates.id, id)))
    .returning();
  return row;
}
