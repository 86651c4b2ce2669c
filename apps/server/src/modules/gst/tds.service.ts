import {
  computeTds,
  isTdsSection,
  TDS_RULES_VERSION,
  type TdsResult,
  type VendorProfile,
} from '@bahi/compliance';
import type { TdsInvoice, TdsMonth, TdsSettings, TdsView } from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordActivity } from '../activity/activity.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import {
  findComplianceSettings,
  listRegisterInvoices,
  listVendorTdsRows,
  saveComplianceSettings,
} from './gst.repo.ts';
import { readRegister } from './gst-match.ts';

/**
 * TDS worked out per purchase invoice with @bahi/compliance over the whole purchase register (thresholds
 * add up per PAN, section and financial year), from the vendors' TDS profiles and the organisation's
 * turnover setting, on every request: a corrected invoice or a changed profile is followed at once. The
 * rules come from the versioned rule file by each invoice's date, so a new year's rule leaves earlier
 * invoices as they were.
 */

type VendorTdsRow = Awaited<ReturnType<typeof listVendorTdsRows>>[number];

/** A vendor's TDS profile as the compliance package reads it. */
export function toVendorProfile(v: VendorTdsRow): VendorProfile | null {
  const pan = v.pan ?? v.gstin?.slice(2, 12);
  if (!pan || !v.gstin) return null;
  const ldc =
    v.ldcSection && isTdsSection(v.ldcSection) && v.ldcRate !== null && v.ldcFrom && v.ldcTo
      ? {
          section: v.ldcSection,
          rate: Number(v.ldcRate),
          from: v.ldcFrom,
          to: v.ldcTo,
          limit: Number(v.ldcLimitPaise ?? 0) / 100,
        }
      : undefined;
  return {
    pan,
    gstin: v.gstin,
    ...(v.tdsSection && isTdsSection(v.tdsSection) ? { section: v.tdsSection } : {}),
    panOperative: v.panOperative,
    ...(ldc ? { ldc } : {}),
  };
}

/** The day TDS deducted in a month (`YYYY-MM`) must be deposited: the 7th of the next month, 30 April for March. */
export function tdsDueDate(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  if (m === 3) return `${y}-04-30`;
  const next = m === 12 ? { y: y + 1, m: 1 } : { y, m: m + 1 };
  return `${next.y}-${String(next.m).padStart(2, '0')}-07`;
}

/** TDS of every invoice of the purchase register (the Tally vouchers book it as their TDS line). */
export async function computeRegisterTds(db: Db, organizationId: string): Promise<TdsInvoice[]> {
  const [invoices, vendorRows, settings] = await Promise.all([
    listRegisterInvoices(db, organizationId),
    listVendorTdsRows(db, organizationId),
    findComplianceSettings(db, organizationId),
  ]);
  const books = readRegister(invoices);
  const bookOf = new Map(books.map((b) => [b.file, b]));
  const meta = new Map(invoices.map((i) => [i.id, i]));
  const results: TdsResult[] = computeTds(books, {
    vendors: vendorRows.map(toVendorProfile).filter((p): p is VendorProfile => p !== null),
    buyerTurnoverAbove10cr: settings?.turnoverAbove10cr ?? false,
  });
  return results.map((r) => {
    const m = meta.get(r.file)!;
    const book = bookOf.get(r.file)!;
    return {
      invoice: { id: m.id, flowId: m.flowId, fileName: m.fileName, approved: m.approved },
      vendorName: book.vendorName,
      vendorPan: r.vendorPan,
      documentNumber: r.documentNumber,
      documentDate: r.documentDate,
      sections: r.sections,
      tds: r.tds,
      netPayable: book.total === null ? null : Math.round(book.total - r.tds * 100) / 100,
    };
  });
}

/** A month's TDS by section, from the invoices dated in it. */
export function summariseMonth(month: string, invoices: TdsInvoice[]): TdsMonth {
  const bySection = new Map<string, { invoices: Set<string>; base: number; tds: number }>();
  for (const inv of invoices)
    for (const s of inv.sections) {
      const acc = bySection.get(s.section) ?? { invoices: new Set(), base: 0, tds: 0 };
      // A section at two rates (a certificate's limit crossed) lists the same base twice: count it once.
      if (!acc.invoices.has(inv.invoice.id)) acc.base += Math.round(s.base * 100);
      acc.invoices.add(inv.invoice.id);
      acc.tds += s.tds;
      bySection.set(s.section, acc);
    }
  const sections = [...bySection.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([section, a]) => ({
      section: section as TdsMonth['sections'][number]['section'],
      invoices: a.invoices.size,
      base: a.base / 100,
      tds: a.tds,
    }));
  const taxed = invoices.filter((i) => i.tds > 0);
  return {
    month,
    dueDate: tdsDueDate(month),
    sections,
    tds: sections.reduce((s, x) => s + x.tds, 0),
    invoices: invoices.length,
    withTds: taxed.length,
    awaitingApproval: taxed.filter((i) => !i.invoice.approved).length,
  };
}

/** `GET /api/tds?month=`: a month's invoices with TDS and the summary by section with its due date. */
export async function getTdsView(db: Db, membership: Membership, month?: string): Promise<TdsView> {
  const [all, settings] = await Promise.all([
    computeRegisterTds(db, membership.organizationId),
    findComplianceSettings(db, membership.organizationId),
  ]);
  const withSections = all.filter((i) => i.sections.length > 0 && i.documentDate);
  const months = [...new Set(withSections.map((i) => i.documentDate!.slice(0, 7)))].sort().reverse();
  const shown = month ?? months[0] ?? null;
  const invoices = shown ? withSections.filter((i) => i.documentDate!.startsWith(shown)) : [];
  return {
    rulesVersion: TDS_RULES_VERSION,
    turnoverAbove10cr: settings?.turnoverAbove10cr ?? false,
    months,
    summary: shown ? summariseMonth(shown, invoices) : null,
    invoices,
  };
}

/** `GET /api/tds/invoices/:id`: one invoice's TDS, with the reason for each section. */
export async function getInvoiceTds(db: Db, membership: Membership, documentId: string): Promise<TdsInvoice> {
  const found = (await computeRegisterTds(db, membership.organizationId)).find(
    (i) => i.invoice.id === documentId,
  );
  if (!found) throw new AppError('not_found', 'This document is not an invoice of your purchase register');
  return found;
}

/** `GET /api/tds/settings`. */
export async function getTdsSettings(db: Db, membership: Membership): Promise<TdsSettings> {
  const row = await findComplianceSettings(db, membership.organizationId);
  return { turnoverAbove10cr: row?.turnoverAbove10cr ?? false };
}

/** `PUT /api/tds/settings`: whether last year's turnover passed ₹10 crore (194Q on goods bought). */
export async function setTdsSettings(
  db: Db,
  { user, membership, input }: { user: SessionUser; membership: Membership; input: TdsSettings },
): Promise<TdsSettings> {
  await saveComplianceSettings(db, membership.organizationId, input);
  await recordActivity(db, {
    organizationId: membership.organizationId,
    kind: 'tds.settings',
    message: `${user.name} set last year's turnover ${input.turnoverAbove10cr ? 'above' : 'within'} ₹10 crore (TDS under 194Q ${input.turnoverAbove10cr ? 'applies' : 'does not apply'})`,
    userId: user.id,
  });
  return input;
}
