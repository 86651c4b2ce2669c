import type { Vendor, VendorTds, VendorUpdate } from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../jobs/registry.ts';
import { AppError } from '../../lib/app-error.ts';
import { UUID_RE } from '../../lib/ids.ts';
import { recordActivity } from '../activity/activity.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { refreshFlowOutputs } from '../flows/flow-outputs.ts';
import { listGstins } from '../organizations/organizations.repo.ts';
import {
  findVendor,
  listVendorRows,
  updateVendorRow,
  upsertVendorFromDocument,
  type VendorListRow,
} from './vendors.repo.ts';

function toVendor(row: VendorListRow): Vendor {
  const namesSeen = (row.names_seen ?? []).filter(Boolean).sort();
  return {
    id: row.id,
    gstin: row.gstin,
    pan: row.pan,
    stateCode: row.state_code,
    name: row.display_name ?? row.name,
    displayName: row.display_name,
    namesSeen,
    paymentTermsDays: row.payment_terms_days,
    msmeUdyam: row.msme_udyam,
    tolerances: {
      qtyPct: row.qty_tolerance_pct === null ? null : Number(row.qty_tolerance_pct),
      pricePct: row.price_tolerance_pct === null ? null : Number(row.price_tolerance_pct),
      amountRupees: row.amount_tolerance_paise === null ? null : Number(row.amount_tolerance_paise) / 100,
    },
    documents: Number(row.documents),
    firstDocumentDate: row.first_date,
    lastDocumentDate: row.last_date,
    invoicedTotal: Math.round(Number(row.invoiced ?? 0) * 100) / 100,
    awaitingReviewTotal: Math.round(Number(row.awaiting_total ?? 0) * 100) / 100,
    awaitingReviewInvoices: Number(row.awaiting_invoices ?? 0),
    noPoNeeded: row.no_po_needed,
    tds: toVendorTds(row),
    onboarded: Boolean(row.onboarded),
    bankHold: Boolean(row.bank_hold),
  };
}

/** The TDS profile columns as the API gives them (money in rupees from paise). */
function toVendorTds(row: VendorListRow): VendorTds {
  const ldc =
    row.ldc_section && row.ldc_rate !== null && row.ldc_from && row.ldc_to && row.ldc_limit_paise !== null
      ? {
          number: row.ldc_number,
          section: row.ldc_section as NonNullable<VendorTds['ldc']>['section'],
          rate: Number(row.ldc_rate),
          from: row.ldc_from,
          to: row.ldc_to,
          limitRupees: Number(row.ldc_limit_paise) / 100,
        }
      : null;
  return { section: row.tds_section as VendorTds['section'], panOperative: row.pan_operative, ldc };
}

/** The TDS profile as the vendors table stores it. */
function tdsColumns(tds: VendorTds) {
  return {
    tdsSection: tds.section,
    panOperative: tds.panOperative,
    ldcNumber: tds.ldc?.number ?? null,
    ldcSection: tds.ldc?.section ?? null,
    ldcRate: tds.ldc?.rate ?? null,
    ldcFrom: tds.ldc?.from ?? null,
    ldcTo: tds.ldc?.to ?? null,
    ldcLimitPaise: tds.ldc ? Math.round(tds.ldc.limitRupees * 100) : null,
  };
}

/** `GET /api/vendors`: the vendor master, built from the documents the organisation's flows read. */
export async function listVendors(db: Db, membership: Membership): Promise<Vendor[]> {
  return (await listVendorRows(db, membership.organizationId)).map(toVendor);
}

/** `PATCH /api/vendors/:id`: display name, agreed payment days, MSME (Udyam) registration. */
export async function updateVendor(
  db: Db,
  {
    user,
    membership,
    id,
    input,
    jobs,
  }: {
    user: SessionUser;
    membership: Membership;
    id: string;
    input: VendorUpdate;
    /** Sends the rewrite of the invoice flows' outputs (absent in tests without a queue). */
    jobs?: JobSender | undefined;
  },
): Promise<Vendor> {
  const existing = UUID_RE.test(id) ? await findVendor(db, membership.organizationId, id) : undefined;
  if (!existing) throw new AppError('not_found', 'No such vendor');
  await updateVendorRow(db, {
    organizationId: membership.organizationId,
    id,
    values: {
      ...(input.displayName !== undefined ? { displayName: input.displayName || null } : {}),
      ...(input.paymentTermsDays !== undefined ? { paymentTermsDays: input.paymentTermsDays } : {}),
      ...(input.msmeUdyam !== undefined ? { msmeUdyam: input.msmeUdyam } : {}),
      ...(input.noPoNeeded !== undefined ? { noPoNeeded: input.noPoNeeded } : {}),
      ...(input.tolerances
        ? {
            qtyTolerancePct: input.tolerances.qtyPct,
            priceTolerancePct: input.tolerances.pricePct,
            amountTolerancePaise:
              input.tolerances.amountRupees === null ? null : Math.round(input.tolerances.amountRupees * 100),
          }
        : {}),
      ...(input.tds ? tdsColumns(input.tds) : {}),
    },
  });
  // Invoice flows' "Matches" tabs change with it.
  await refreshFlowOutputs({ db, jobs }, membership.organizationId);
  await recordActivity(db, {
    organizationId: membership.organizationId,
    kind: 'vendor.updated',
    message: `${user.name} updated vendor ${existing.displayName ?? existing.name}`,
    userId: user.id,
  });
  await recordAudit(db, {
    organizationId: membership.organizationId,
    kind: 'vendor.updated',
    actor: user,
    summary: `${user.name} updated vendor ${existing.displayName ?? existing.name}`,
    details: { vendorId: id, changes: input },
  });
  const row = (await listVendorRows(db, membership.organizationId)).find((r) => r.id === id)!;
  return toVendor(row);
}

/**
 * The vendor master learns the supplier of a verified document: one read with every check passed, or one
 * a person approved (`corrected` then lists the fields they typed, so a corrected name renames the vendor).
 * Never the organisation itself: a buyer's GSTIN read where the vendor's should be is not a supplier.
 */
export async function learnVendorFromDocument(
  db: Db,
  {
    organizationId,
    extraction,
    corrected,
  }: {
    organizationId: string;
    extraction: { fields?: Record<string, unknown> } | null;
    corrected: readonly string[];
  },
): Promise<void> {
  const fields = extraction?.fields ?? {};
  const text = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : null);
  const gstin = text('vendorGstin')?.replace(/\s+/g, '').toUpperCase() ?? null;
  if (!gstin) return;
  const own = await listGstins(db, organizationId);
  if (own.some((g) => g.gstin.toUpperCase() === gstin)) return;
  await upsertVendorFromDocument(db, organizationId, {
    gstin,
    name: text('vendorName'),
    stateCode: text('vendorStateCode'),
    nameCorrected: corrected.includes('vendorName'),
  });
}
