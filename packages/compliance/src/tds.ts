// TDS worked out per purchase invoice (contracts/compliance.md §2, tds/v1). Pure: invoices and
// vendor profiles in, one result per invoice out, in processing order.
import { type BookInvoice, findDuplicates, inProcessingOrder } from './books.ts';
import { isoDate } from './invoice-number.ts';
import { mulDivRound, rateMilli, rupees } from './money.ts';
import {
  rateWithoutPan,
  reasonOf,
  sectionOfLine,
  TDS_SECTIONS,
  type TdsSection,
  tableRate,
  taxableOf,
} from './tds-sections.ts';

/** A lower-deduction certificate (section 197). `limit` in rupees, dates ISO. */
export interface LowerDeductionCertificate {
  section: TdsSection;
  rate: number;
  from: string;
  to: string;
  limit: number;
}

/** What Bahi knows of a vendor for TDS (`--vendors`). */
export interface VendorProfile {
  pan: string;
  gstin?: string;
  section?: TdsSection;
  /** Defaults to true. */
  panOperative?: boolean;
  ldc?: LowerDeductionCertificate;
}

/** Options of the TDS work. */
export interface TdsOptions {
  vendors?: readonly VendorProfile[];
  /** The buyer's turnover passed ₹10 crore last year, so 194Q applies to goods. */
  buyerTurnoverAbove10cr?: boolean;
}

/** One section (at one rate) of an invoice. Amounts in rupees. */
export interface TdsSectionResult {
  section: TdsSection;
  base: number;
  taxable: number;
  rate: number;
  tds: number;
  reason: string;
}

/** The TDS of one invoice. */
export interface TdsResult {
  contract: 'tds/v1';
  file: string;
  documentNumber: string | null;
  documentDate: string | null;
  vendorPan: string | null;
  sections: TdsSectionResult[];
  tds: number;
}

/** Whether a value is one of the sections the contract names. */
export function isTdsSection(v: unknown): v is TdsSection {
  return typeof v === 'string' && (TDS_SECTIONS as readonly string[]).includes(v);
}

/** The profile an invoice belongs to: by its GSTIN, or (a profile without one) by the PAN inside it. */
export function profileFor(inv: BookInvoice, vendors: readonly VendorProfile[]): VendorProfile | null {
  const gstin = inv.vendorGstin;
  if (!gstin) return null;
  const up = (s: string | undefined) => (s ?? '').replace(/\s+/g, '').toUpperCase();
  return (
    vendors.find((v) => up(v.gstin) === gstin) ??
    vendors.find((v) => !v.gstin && up(v.pan) === gstin.slice(2, 12)) ??
    null
  );
}

/** TDS in whole rupees of an amount in paise at a rate in percent, half up. */
function tdsRupees(taxable: number, rate: number): number {
  return mulDivRound(taxable, rateMilli(rate), 100 * 100 * 1000);
}

interface Ledger {
  aggregate: number;
  taxedBefore: number;
}

/** The running totals a year's invoices build up, per payee, section and financial year. */
class Books {
  private readonly totals = new Map<string, Ledger>();
  private readonly certificateUse = new Map<string, number>();
  get(key: string): Ledger {
    const found = this.totals.get(key);
    if (found) return found;
    const fresh = { aggregate: 0, taxedBefore: 0 };
    this.totals.set(key, fresh);
    return fresh;
  }
  certificateUsed(key: string): number {
    return this.certificateUse.get(key) ?? 0;
  }
  useCertificate(key: string, paise: number): void {
    this.certificateUse.set(key, this.certificateUsed(key) + paise);
  }
}

/** Sum of line bases per section, in paise; an invoice without lines is one line of its taxable value. */
function basesOf(inv: BookInvoice, profile: VendorProfile | null, flag: boolean): Map<TdsSection, number> {
  const lines = inv.lines.length
    ? inv.lines
    : [{ hsnSac: null, amount: inv.taxableValue ?? 0, gstRate: null }];
  const bases = new Map<TdsSection, number>();
  for (const line of lines) {
    const section = sectionOfLine(line.hsnSac, profile?.section ?? null, flag, inv.documentDate);
    if (section) bases.set(section, (bases.get(section) ?? 0) + line.amount);
  }
  return bases;
}

interface SectionContext {
  inv: BookInvoice;
  profile: VendorProfile | null;
  pan: string | null;
  key: string;
  books: Books;
  duplicate: boolean;
}

function sectionResults(ctx: SectionContext, section: TdsSection, base: number): TdsSectionResult[] {
  const { inv, profile, pan, books } = ctx;
  const noPan = !pan || profile?.panOperative === false;
  const date = inv.documentDate;
  const normalRate = noPan ? rateWithoutPan(section, pan, date) : tableRate(section, pan, date);
  const entry = (taxable: number, rate: number, reason: string): TdsSectionResult => ({
    section,
    base: rupees(base),
    taxable: rupees(taxable),
    rate,
    tds: tdsRupees(taxable, rate),
    reason,
  });
  if (ctx.duplicate)
    return [entry(0, normalRate, 'a second copy of an invoice already in the books: counted once')];
  const totals = books.get(`${ctx.key}|${section}|${inv.financialYear}`);
  const aggregate = totals.aggregate + base;
  const taxable = taxableOf(section, base, aggregate, totals.taxedBefore, date);
  totals.aggregate = aggregate;
  totals.taxedBefore += taxable;
  let reason = reasonOf(section, base, aggregate, taxable, date);
  if (noPan) reason += pan ? '; PAN inoperative: higher rate' : '; no PAN: higher rate';
  const ldc = profile?.ldc;
  if (
    ldc &&
    ldc.section === section &&
    date &&
    isoDate(ldc.from) &&
    isoDate(ldc.to) &&
    ldc.from <= date &&
    date <= ldc.to
  ) {
    const useKey = `${ctx.key}|${section}|${inv.financialYear}|ldc`;
    const room = Math.max(0, Math.round(ldc.limit * 100) - books.certificateUsed(useKey));
    const atCertificate = Math.min(taxable, room);
    books.useCertificate(useKey, atCertificate);
    const out: TdsSectionResult[] = [];
    if (atCertificate > 0) out.push(entry(atCertificate, ldc.rate, `${reason}; lower-deduction certificate`));
    if (taxable - atCertificate > 0 || atCertificate === 0)
      out.push(
        entry(
          taxable - atCertificate,
          normalRate,
          atCertificate > 0 ? `${reason}; beyond the certificate's limit` : reason,
        ),
      );
    return out;
  }
  return [entry(taxable, normalRate, reason)];
}

/**
 * TDS of each purchase invoice, in processing order (document date, number key, file). Amounts
 * accumulate per vendor PAN (without one: vendor name), section and financial year; a copy booked
 * twice is listed with nothing taxed and counts towards no aggregate.
 */
export function computeTds(invoices: readonly BookInvoice[], options: TdsOptions = {}): TdsResult[] {
  const vendors = options.vendors ?? [];
  const flag = options.buyerTurnoverAbove10cr ?? false;
  const dups = findDuplicates(invoices);
  const books = new Books();
  return inProcessingOrder(invoices).map((inv) => {
    const profile = profileFor(inv, vendors);
    const pan = profile?.pan?.trim().toUpperCase() || inv.vendorGstin?.slice(2, 12) || null;
    const key = pan ? `pan:${pan}` : `name:${(inv.vendorName ?? inv.file).toUpperCase()}`;
    const ctx: SectionContext = { inv, profile, pan, key, books, duplicate: dups.has(inv) };
    const bases = basesOf(inv, profile, flag);
    const sections = [...bases.keys()]
      .sort()
      .flatMap((section) => sectionResults(ctx, section, bases.get(section)!));
    return {
      contract: 'tds/v1',
      file: inv.file,
      documentNumber: inv.documentNumber,
      documentDate: inv.documentDate,
      vendorPan: pan,
      sections,
      tds: sections.reduce((s, x) => s + x.tds, 0),
    };
  });
}
