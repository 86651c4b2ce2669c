// GSTR-2B matching (contracts/compliance.md §1, gstr2b/v1): purchase books against the 2B
// documents, rule by rule in passes. Pure and deterministic whatever the order of the books.
import { type BookInvoice, findDuplicates, inProcessingOrder } from './books.ts';
import type { Gstr2bDocument } from './gstr2b-read.ts';
import { daysBetween } from './invoice-number.ts';
import { rupees } from './money.ts';

/** Status of a book invoice. */
export type BooksStatus =
  | 'matched'
  | 'matched_within_tolerance'
  | 'mismatch'
  | 'probable_match'
  | 'missing_in_2b'
  | 'duplicate_in_books';

/** The suggested action on the Invoice Management System (Bahi never suggests `reject`). */
export type ImsAction = 'accept' | 'pending' | 'none';

/** A field that differs between books and 2B, in the books' formats. */
export interface Difference {
  field:
    | 'documentDate'
    | 'taxableValue'
    | 'igst'
    | 'cgst'
    | 'sgst'
    | 'cess'
    | 'placeOfSupply'
    | 'vendorGstin'
    | 'documentNumber';
  books: string | number | null;
  gstr2b: string | number | null;
}

/** The claimed 2B document. */
export interface MatchRef {
  ctin: string;
  inum: string;
  dt: string;
  period: string;
}

/** One line per book invoice. */
export interface BooksRow {
  contract: 'gstr2b/v1';
  kind: 'books';
  file: string;
  vendorGstin: string | null;
  documentNumber: string | null;
  documentDate: string | null;
  status: BooksStatus;
  ims: ImsAction;
  match: MatchRef | null;
  differences: Difference[];
  itcAvailable: boolean | null;
  itcReason?: string | null;
}

/** One line per 2B document no book invoice claimed. */
export interface UnclaimedRow {
  contract: 'gstr2b/v1';
  kind: 'gstr2b';
  status: 'missing_in_books';
  ims: 'pending';
  match: MatchRef;
  taxableValue: number;
  igst: number;
  cgst: number;
  sgst: number;
  cess: number;
}

/** Options of a match. */
export interface Gstr2bOptions {
  /** Tolerance per amount (taxable value, IGST, CGST, SGST, cess) in rupees; default ₹1.00. */
  toleranceRupees?: number;
}

/** The contract's default amount tolerance, in rupees. */
export const DEFAULT_GSTR2B_TOLERANCE = 1;

const AMOUNTS = ['taxableValue', 'igst', 'cgst', 'sgst', 'cess'] as const;
const booksAmount = (inv: BookInvoice, k: (typeof AMOUNTS)[number]) =>
  k === 'taxableValue' ? (inv.taxableValue ?? 0) : inv[k];
const panOf = (gstin: string) => gstin.slice(2, 12);
const totalTax = (x: { igst: number; cgst: number; sgst: number; cess: number }) =>
  x.igst + x.cgst + x.sgst + x.cess;

/** Fields that differ (amounts beyond the tolerance); documentNumber only when asked (rule 4). */
function differencesOf(
  inv: BookInvoice,
  doc: Gstr2bDocument,
  tol: number,
  withNumber: boolean,
): Difference[] {
  const out: Difference[] = [];
  if (inv.documentDate !== doc.dt)
    out.push({ field: 'documentDate', books: inv.documentDate, gstr2b: doc.dt });
  for (const k of AMOUNTS) {
    const a = booksAmount(inv, k);
    if (Math.abs(a - doc[k]) > tol) out.push({ field: k, books: rupees(a), gstr2b: rupees(doc[k]) });
  }
  if (inv.placeOfSupply && doc.pos && inv.placeOfSupply !== doc.pos)
    out.push({ field: 'placeOfSupply', books: inv.placeOfSupply, gstr2b: doc.pos });
  if (inv.vendorGstin !== doc.ctin)
    out.push({ field: 'vendorGstin', books: inv.vendorGstin, gstr2b: doc.ctin });
  if (withNumber) out.push({ field: 'documentNumber', books: inv.documentNumber, gstr2b: doc.inum });
  return out;
}

type Rule = 1 | 2 | 3 | 4;

/** Whether a 2B document is a candidate for a book invoice under a rule. */
function fits(rule: Rule, inv: BookInvoice, doc: Gstr2bDocument, tol: number): boolean {
  const gstin = inv.vendorGstin!;
  const date = inv.documentDate;
  switch (rule) {
    case 1:
      return doc.ctin === gstin && doc.numberKey === inv.numberKey && doc.financialYear === inv.financialYear;
    case 2:
      return (
        doc.ctin === gstin &&
        doc.numberKey === inv.numberKey &&
        !!date &&
        Math.abs(daysBetween(date, doc.dt)) <= 60
      );
    case 3:
      return (
        doc.ctin !== gstin &&
        panOf(doc.ctin) === panOf(gstin) &&
        doc.numberKey === inv.numberKey &&
        doc.financialYear === inv.financialYear
      );
    case 4:
      return (
        doc.ctin === gstin &&
        doc.financialYear === inv.financialYear &&
        doc.numberKey !== inv.numberKey &&
        !!date &&
        Math.abs(daysBetween(date, doc.dt)) <= 10 &&
        Math.abs((inv.taxableValue ?? 0) - doc.taxableValue) <= tol &&
        Math.abs(totalTax(inv) - totalTax(doc)) <= tol
      );
  }
}

function statusOf(rule: Rule, inv: BookInvoice, doc: Gstr2bDocument, tol: number): BooksStatus {
  if (rule === 4) return 'probable_match';
  if (rule !== 1) return 'mismatch';
  const posDiffers = !!inv.placeOfSupply && !!doc.pos && inv.placeOfSupply !== doc.pos;
  if (inv.documentDate !== doc.dt || posDiffers) return 'mismatch';
  const gaps = AMOUNTS.map((k) => Math.abs(booksAmount(inv, k) - doc[k]));
  if (gaps.every((g) => g === 0)) return 'matched';
  return gaps.every((g) => g <= tol) ? 'matched_within_tolerance' : 'mismatch';
}

const IMS: Record<BooksStatus, ImsAction> = {
  matched: 'accept',
  matched_within_tolerance: 'accept',
  mismatch: 'pending',
  probable_match: 'pending',
  missing_in_2b: 'none',
  duplicate_in_books: 'none',
};

const refOf = (doc: Gstr2bDocument): MatchRef => ({
  ctin: doc.ctin,
  inum: doc.inum,
  dt: doc.dt,
  period: doc.period,
});

/** Which document each book invoice claims, and by which rule. */
function claim(books: BookInvoice[], docs: readonly Gstr2bDocument[], dups: Set<BookInvoice>, tol: number) {
  const claims = new Map<BookInvoice, { doc: Gstr2bDocument; rule: Rule }>();
  const taken = new Set<Gstr2bDocument>();
  const order = inProcessingOrder(books).filter((b) => !dups.has(b) && b.vendorGstin && b.numberKey);
  for (const rule of [1, 2, 3, 4] as const) {
    for (const inv of order) {
      if (claims.has(inv)) continue;
      const found = docs.filter((d) => !taken.has(d) && fits(rule, inv, d, tol));
      // Rule 4 is a guess: it claims only when the guess is unique.
      const doc = rule === 4 ? (found.length === 1 ? found[0] : undefined) : found[0];
      if (!doc) continue;
      claims.set(inv, { doc, rule });
      taken.add(doc);
    }
  }
  return { claims, taken };
}

/**
 * Match purchase books with GSTR-2B documents (as read by `readGstr2bFiles`, in 2B file and row
 * order). Returns one row per book invoice in the order given, then one per unclaimed document.
 */
export function matchGstr2b(
  books: readonly BookInvoice[],
  docs: readonly Gstr2bDocument[],
  options: Gstr2bOptions = {},
): Array<BooksRow | UnclaimedRow> {
  const tol = Math.round((options.toleranceRupees ?? DEFAULT_GSTR2B_TOLERANCE) * 100);
  const dups = findDuplicates(books);
  const { claims, taken } = claim([...books], docs, dups, tol);
  const rows: Array<BooksRow | UnclaimedRow> = books.map((inv) => {
    const c = claims.get(inv);
    const status: BooksStatus = dups.has(inv)
      ? 'duplicate_in_books'
      : c
        ? statusOf(c.rule, inv, c.doc, tol)
        : 'missing_in_2b';
    const row: BooksRow = {
      contract: 'gstr2b/v1',
      kind: 'books',
      file: inv.file,
      vendorGstin: inv.vendorGstin,
      documentNumber: inv.documentNumber,
      documentDate: inv.documentDate,
      status,
      ims: IMS[status],
      match: c ? refOf(c.doc) : null,
      differences:
        c && (status === 'mismatch' || status === 'probable_match')
          ? differencesOf(inv, c.doc, tol, c.rule === 4)
          : [],
      itcAvailable: c ? c.doc.itcAvailable : null,
    };
    if (c && !c.doc.itcAvailable) row.itcReason = c.doc.itcReason;
    return row;
  });
  for (const doc of docs) {
    if (taken.has(doc)) continue;
    rows.push({
      contract: 'gstr2b/v1',
      kind: 'gstr2b',
      status: 'missing_in_books',
      ims: 'pending',
      match: refOf(doc),
      taxableValue: rupees(doc.taxableValue),
      igst: rupees(doc.igst),
      cgst: rupees(doc.cgst),
      sgst: rupees(doc.sgst),
      cess: rupees(doc.cess),
    });
  }
  return rows;
}

/**
 * A pair a person linked (the books' invoice and a 2B document they say is the same): its status by
 * rule 1's test whatever the keys say — `matched`, `matched_within_tolerance` or `mismatch` — and the
 * fields that differ (the number too, when its key differs).
 */
export function compareLinked(
  inv: BookInvoice,
  doc: Gstr2bDocument,
  options: Gstr2bOptions = {},
): { status: 'matched' | 'matched_within_tolerance' | 'mismatch'; differences: Difference[] } {
  const tol = Math.round((options.toleranceRupees ?? DEFAULT_GSTR2B_TOLERANCE) * 100);
  const status = statusOf(1, inv, doc, tol) as 'matched' | 'matched_within_tolerance' | 'mismatch';
  const sameGstin = inv.vendorGstin === doc.ctin;
  return {
    status: sameGstin ? status : 'mismatch',
    differences: differencesOf(inv, doc, tol, inv.numberKey !== doc.numberKey),
  };
}
