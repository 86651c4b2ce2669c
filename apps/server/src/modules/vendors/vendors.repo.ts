import { isValidGstin } from '@bahi/india';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { AWAITING_REVIEW, COUNTED, VERIFIED } from '../../db/document-trust.ts';
import { vendors } from '../../db/schema/index.ts';

/** One vendor with what its documents say. */
export interface VendorListRow {
  id: string;
  gstin: string | null;
  pan: string | null;
  state_code: string | null;
  name: string;
  display_name: string | null;
  payment_terms_days: number | null;
  msme_udyam: string | null;
  qty_tolerance_pct: string | number | null;
  price_tolerance_pct: string | number | null;
  amount_tolerance_paise: string | number | null;
  no_po_needed: boolean;
  tds_section: string | null;
  pan_operative: boolean;
  ldc_number: string | null;
  ldc_section: string | null;
  ldc_rate: string | number | null;
  ldc_from: string | null;
  ldc_to: string | null;
  ldc_limit_paise: string | number | null;
  names_seen: string[] | null;
  documents: string | number;
  first_date: string | null;
  last_date: string | null;
  invoiced: string | number | null;
  awaiting_total: string | number | null;
  awaiting_invoices: string | number | null;
  onboarded: boolean;
  bank_hold: boolean;
}

/**
 * Records the supplier a document names, by its GSTIN (valid ones only: a misread GSTIN must not become a
 * vendor). Safe to call again and again: the first name seen stays, unless `nameCorrected` (a person typed
 * it on the review screen), which replaces it.
 */
export async function upsertVendorFromDocument(
  db: Db,
  organizationId: string,
  vendor: { gstin: string | null; name: string | null; stateCode: string | null; nameCorrected?: boolean },
): Promise<void> {
  const gstin = vendor.gstin?.replace(/\s+/g, '').toUpperCase() ?? '';
  if (!isValidGstin(gstin)) return;
  const name = vendor.name?.trim() || gstin;
  const insert = db.insert(vendors).values({
    organizationId,
    gstin,
    name,
    pan: gstin.slice(2, 12),
    stateCode: vendor.stateCode ?? gstin.slice(0, 2),
  });
  await (vendor.nameCorrected && vendor.name?.trim()
    ? insert.onConflictDoUpdate({
        target: [vendors.organizationId, vendors.gstin],
        set: { name, updatedAt: sql`now()` },
      })
    : insert.onConflictDoNothing({ target: [vendors.organizationId, vendors.gstin] }));
}

/** The organisation's vendors with their documents' counts, dates, names and invoiced total. */
export async function listVendorRows(db: Db, organizationId: string): Promise<VendorListRow[]> {
  return queryRows<VendorListRow>(
    db,
    sql`select v.id, v.gstin, v.pan, v.state_code, v.name, v.display_name, v.payment_terms_days, v.msme_udyam,
          v.qty_tolerance_pct, v.price_tolerance_pct, v.amount_tolerance_paise, v.no_po_needed,
          v.tds_section, v.pan_operative, v.ldc_number, v.ldc_section, v.ldc_rate,
          to_char(v.ldc_from, 'YYYY-MM-DD') as ldc_from, to_char(v.ldc_to, 'YYYY-MM-DD') as ldc_to, v.ldc_limit_paise,
          a.names_seen, coalesce(a.documents, 0) as documents, a.first_date, a.last_date,
          coalesce(a.invoiced, 0) as invoiced, coalesce(a.awaiting_total, 0) as awaiting_total,
          coalesce(a.awaiting_invoices, 0) as awaiting_invoices,
          v.profile_id is not null as onboarded,
          -- A new bank account waiting for a second person holds the vendor's invoices.
          exists (select 1 from vendor_bank_changes b
            where b.profile_id = v.profile_id and b.status = 'pending') as bank_hold
        from vendors v
        left join lateral (
          select count(*) as documents,
            array_agg(distinct d.extraction->'fields'->>'vendorName')
              filter (where d.extraction->'fields'->>'vendorName' is not null) as names_seen,
            min(d.extraction->'fields'->>'documentDate') as first_date,
            max(d.extraction->'fields'->>'documentDate') as last_date,
            sum(case when ${VERIFIED} and d.extraction->>'documentType' = 'invoice'
                  and jsonb_typeof(d.extraction->'fields'->'total') = 'number'
                then (d.extraction->'fields'->>'total')::numeric end) as invoiced,
            sum(case when ${AWAITING_REVIEW} and d.extraction->>'documentType' = 'invoice'
                  and jsonb_typeof(d.extraction->'fields'->'total') = 'number'
                then (d.extraction->'fields'->>'total')::numeric end) as awaiting_total,
            count(*) filter (where ${AWAITING_REVIEW} and d.extraction->>'documentType' = 'invoice') as awaiting_invoices
          from documents d
          -- Copies held as duplicates count nowhere: not in documents, dates or money.
          where d.organization_id = v.organization_id and ${COUNTED}
            and upper(d.extraction->'fields'->>'vendorGstin') = v.gstin
        ) a on true
        where v.organization_id = ${organizationId}
          -- The organisation itself is never its own supplier (a buyer GSTIN read as the vendor's).
          and not exists (select 1 from organization_gstins g
            where g.organization_id = v.organization_id and upper(g.gstin) = v.gstin)
        order by coalesce(v.display_name, v.name)`,
  );
}

/** A vendor of the organisation, or undefined. */
export async function findVendor(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(vendors)
    .where(and(eq(vendors.organizationId, organizationId), eq(vendors.id, id)));
  return row;
}

/** Set what a person edits. */
export async function updateVendorRow(
  db: Db,
  {
    organizationId,
    id,
    values,
  }: {
    organizationId: string;
    id: string;
    values: Partial<
      Pick<
        typeof vendors.$inferInsert,
        | 'displayName'
        | 'paymentTermsDays'
        | 'msmeUdyam'
        | 'qtyTolerancePct'
        | 'priceTolerancePct'
        | 'amountTolerancePaise'
        | 'noPoNeeded'
        | 'tdsSection'
        | 'panOperative'
        | 'ldcNumber'
        | 'ldcSection'
        | 'ldcRate'
        | 'ldcFrom'
        | 'ldcTo'
        | 'ldcLimitPaise'
      >
    >;
  },
) {
  const [row] = await db
    .update(vendors)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(vendors.organizationId, organizationId), eq(vendors.id, id)))
    .returning();
  return row;
}
