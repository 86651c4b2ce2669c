// Purchase invoices ("books") read from extraction/v1 results into one exact shape that the
// GSTR-2B match, TDS and Tally vouchers share: amounts in paise, the number key, the financial year.
import { stateCodeFromText } from '@bahi/india';
import { financialYear, isoDate, isoFromPortalDate, normaliseInvoiceNumber } from './invoice-number.ts';
import { paiseOf } from './money.ts';

/** The parts of an `extraction/v1` result read here. */
export interface ExtractionLike {
  file: string;
  documentType?: string | null;
  fields: Record<string, unknown>;
  lineItems?: Array<Record<string, unknown>> | null;
  error?: unknown;
}

/** One invoice line: its taxable amount in paise, HSN/SAC and GST rate as printed. */
export interface BookLine {
  hsnSac: string | null;
  amount: number;
  gstRate: number | null;
}

/** A purchase invoice as the compliance work reads it. Amounts in paise. */
export interface BookInvoice {
  file: string;
  vendorName: string | null;
  /** Upper case, spaces removed; null for an unregistered supplier. */
  vendorGstin: string | null;
  vendorStateCode: string | null;
  buyerStateCode: string | null;
  placeOfSupply: string | null;
  /** As printed. */
  documentNumber: string | null;
  /** {@link normaliseInvoiceNumber} of the number ('' without one). */
  numberKey: string;
  documentDate: string | null;
  /** First calendar year of the document date's financial year; null without a date. */
  financialYear: number | null;
  /** Null when the invoice does not show it (then 0 for matching). */
  taxableValue: number | null;
  igst: number;
  cgst: number;
  sgst: number;
  cess: number;
  roundOff: number | null;
  total: number | null;
  lines: BookLine[];
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** Two-digit state code of `07`, `7` or `Delhi (07)`; null when none can be read. */
export function stateCode(value: unknown): string | null {
  if (typeof value === 'number' && Number.isInteger(value)) return stateCodeFromText(String(value));
  const t = text(value);
  return t ? stateCodeFromText(t) : null;
}

/** A GSTIN as compared: upper case without spaces; null when empty. */
export function cleanGstin(value: unknown): string | null {
  const t = text(value);
  return t ? t.replace(/\s+/g, '').toUpperCase() : null;
}

function numberOrNull(v: unknown): number | null {
  const n = typeof v === 'string' ? Number(v.replace('%', '').trim()) : v;
  return typeof n === 'number' && Number.isFinite(n) && (typeof v !== 'string' || v.trim() !== '') ? n : null;
}

/** Read one extraction result as a book invoice. */
export function readBookInvoice(doc: ExtractionLike): BookInvoice {
  const f = doc.fields ?? {};
  const documentNumber = text(f.documentNumber);
  // extraction/v1 dates are ISO; a hand-made result may carry the Indian DD-MM-YYYY.
  const documentDate = isoDate(f.documentDate) ?? isoFromPortalDate(f.documentDate);
  const gstin = cleanGstin(f.vendorGstin);
  const lines: BookLine[] = [];
  for (const line of doc.lineItems ?? []) {
    const amount = paiseOf(line.amount);
    if (amount === null) continue;
    const hsn = line.hsnSac;
    lines.push({
      hsnSac: typeof hsn === 'number' ? String(hsn) : text(hsn),
      amount,
      gstRate: numberOrNull(line.gstRate),
    });
  }
  return {
    file: doc.file,
    vendorName: text(f.vendorName),
    vendorGstin: gstin,
    vendorStateCode: stateCode(f.vendorStateCode) ?? (gstin ? stateCode(gstin.slice(0, 2)) : null),
    buyerStateCode: stateCode(f.buyerStateCode) ?? stateCode(cleanGstin(f.buyerGstin)?.slice(0, 2)),
    placeOfSupply: stateCode(f.placeOfSupply),
    documentNumber,
    numberKey: documentNumber ? normaliseInvoiceNumber(documentNumber) : '',
    documentDate,
    financialYear: documentDate ? financialYear(documentDate) : null,
    taxableValue: paiseOf(f.taxableValue),
    igst: paiseOf(f.igst) ?? 0,
    cgst: paiseOf(f.cgst) ?? 0,
    sgst: paiseOf(f.sgst) ?? 0,
    cess: paiseOf(f.cess) ?? 0,
    roundOff: paiseOf(f.roundOff),
    total: paiseOf(f.total),
    lines,
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The contract's processing order: document date (undated last), then number key, then file;
 * vendor GSTIN, the number as printed and at last the whole content break what is left of a tie.
 */
export function compareBooks(a: BookInvoice, b: BookInvoice): number {
  return (
    cmp(a.documentDate ?? '9999-99-99', b.documentDate ?? '9999-99-99') ||
    cmp(a.numberKey, b.numberKey) ||
    cmp(a.file, b.file) ||
    cmp(a.vendorGstin ?? '', b.vendorGstin ?? '') ||
    cmp(a.documentNumber ?? '', b.documentNumber ?? '') ||
    // Two results under one file name: their content decides, never the order they came in.
    cmp(JSON.stringify(a), JSON.stringify(b))
  );
}

/** The invoices in processing order (a new array). */
export function inProcessingOrder(invoices: readonly BookInvoice[]): BookInvoice[] {
  return [...invoices].sort(compareBooks);
}

/**
 * Identity of a supplier's document: GSTIN, number key and financial year. Null for an
 * unregistered supplier, or without a number or a date: such an invoice is nobody's duplicate.
 */
export function documentIdentity(inv: BookInvoice): string | null {
  if (!inv.vendorGstin || !inv.numberKey || inv.financialYear === null) return null;
  return `${inv.vendorGstin}|${inv.numberKey}|${inv.financialYear}`;
}

/** The invoices that repeat an earlier one (processing order) of the same identity: `duplicate_in_books`. */
export function findDuplicates(invoices: readonly BookInvoice[]): Set<BookInvoice> {
  const seen = new Set<string>();
  const dups = new Set<BookInvoice>();
  for (const inv of inProcessingOrder(invoices)) {
    const id = documentIdentity(inv);
    if (id === null) continue;
    if (seen.has(id)) dups.add(inv);
    else seen.add(id);
  }
  return dups;
}
