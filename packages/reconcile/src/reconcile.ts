// The three-way match of `contracts/reconciliation.md` (v1): extraction results in, one result per
// invoice and per purchase order out. Pure: no I/O, no clock, deterministic whatever the input order.

/** The parts of an `extraction/v1` result the match reads. */
export interface MatchDocument {
  file: string;
  documentType: string | null;
  fields: Record<string, unknown>;
  lineItems: Array<Record<string, unknown>>;
  error?: unknown;
}

/** Tolerances of a match: quantity and price in percent, amount in rupees per line. */
export interface Tolerances {
  qtyPct: number;
  pricePct: number;
  amountRupees: number;
}

/** Tolerances with some fields replaced (fields left undefined keep the defaults). */
export function applyTolerances(defaults: Tolerances, own: Partial<Tolerances> | undefined): Tolerances {
  return {
    qtyPct: own?.qtyPct ?? defaults.qtyPct,
    pricePct: own?.pricePct ?? defaults.pricePct,
    amountRupees: own?.amountRupees ?? defaults.amountRupees,
  };
}

/** Options of a match beyond the tolerances. */
export interface MatchOptions {
  /** Tolerances agreed with particular vendors (by GSTIN, upper case), each field replacing the default. */
  vendorTolerances?: ReadonlyMap<string, Partial<Tolerances>>;
  /**
   * A person's duplicate decisions by file, replacing the contract's rule for the invoices named: `true`
   * a copy (bills nothing, whatever its date), `false` not a copy. A decided invoice is never the earlier
   * copy that makes another a duplicate. Absent (the `bahi reconcile` command): the rule alone decides.
   */
  duplicates?: ReadonlyMap<string, boolean>;
}

/** The contract's defaults: quantity 0 %, price 2 %, ₹1.00 per line. */
export const DEFAULT_TOLERANCES: Tolerances = { qtyPct: 0, pricePct: 2, amountRupees: 1 };

/** A reason an invoice is not matched, with the invoice line it concerns (absent for the whole document). */
export interface Reason {
  code:
    | 'no_po'
    | 'vendor_mismatch'
    | 'no_receipt'
    | 'over_billed'
    | 'price_variance'
    | 'unmatched_line'
    | 'amount_mismatch'
    | 'duplicate_invoice';
  line?: number;
  message: string;
}

/** One invoice line as matched. */
export interface InvoiceLineResult {
  line: number;
  poLine: number | null;
  status: 'matched' | 'matched_within_tolerance' | 'exception';
  billed: number | null;
  received: number | null;
  alreadyBilled: number | null;
  poRate: number | null;
  rate: number | null;
}

/** The result for one invoice. */
export interface InvoiceResult {
  contract: 'reconciliation/v1';
  kind: 'invoice';
  file: string;
  documentNumber: string | null;
  vendorGstin: string | null;
  poNumber: string | null;
  matchedPo: string | null;
  matchedGrns: string[];
  status: 'matched' | 'matched_within_tolerance' | 'exception';
  shouldBePaid: 'yes' | 'no' | 'exception';
  reasons: Reason[];
  lines: InvoiceLineResult[];
}

/** The result for one purchase order. */
export interface PoResult {
  contract: 'reconciliation/v1';
  kind: 'po';
  file: string;
  documentNumber: string | null;
  vendorGstin: string | null;
  receipt: 'none' | 'partial' | 'full' | 'over';
  billing: 'none' | 'partial' | 'full' | 'over';
  lines: Array<{ line: number; ordered: number; received: number; billed: number }>;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const paise = (value: number) => Math.round(value * 100) / 100;

/**
 * A document number for matching: case, spaces and separators ignored, leading zeros of each number
 * dropped ("po/25-26/0323" and "PO 25/26/323" are one number).
 */
export function normalizeDocumentNumber(value: string): string {
  return (
    value
      .toUpperCase()
      // Letters running into digits ("PO25") split as if a separator stood there ("PO 25", "PO/25").
      .replace(/([A-Z])(?=\d)/g, '$1 ')
      .split(/[-/_.\\#:\s]+/)
      .filter(Boolean)
      .map((part) => part.replace(/^0+(?=\d)/, ''))
      .join('/')
  );
}

/** Words of a description for matching: case, punctuation and spacing ignored. */
function normalizeDescription(value: unknown): string {
  return (text(value) ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const normalizeUnit = (value: unknown) => (text(value) ?? '').toLowerCase().replace(/[^a-z]/g, '');
const normalizeHsn = (value: unknown) => (text(value) ?? String(value ?? '')).replace(/\D/g, '');

/** The PAN inside a GSTIN (characters 3–12), to tell one vendor registered in several states. */
const panOf = (gstin: string | null) =>
  gstin && gstin.length >= 12 ? gstin.slice(2, 12).toUpperCase() : null;

/** The financial year (April–March) a date falls in, for duplicate numbers. */
function financialYear(date: string | null): string {
  const m = date ? /^(\d{4})-(\d{2})/.exec(date) : null;
  if (!m) return '';
  const year = Number(m[1]);
  return String(Number(m[2]) >= 4 ? year : year - 1);
}

interface PoLine {
  index: number;
  description: string;
  hsn: string;
  unit: string;
  ordered: number;
  rate: number | null;
  received: number;
  billed: number;
}

/**
 * The line of `candidates` an item matches, by HSN/SAC, description and unit (the first unused one that
 * agrees on description, else on HSN and unit), or undefined.
 */
function findLine(
  item: Record<string, unknown>,
  candidates: PoLine[],
  used: Set<number>,
  useHsn: boolean,
): PoLine | undefined {
  const description = normalizeDescription(item.description);
  const unit = normalizeUnit(item.unit);
  const hsn = normalizeHsn(item.hsnSac);
  const free = candidates.filter((c) => !used.has(c.index));
  const unitFits = (c: PoLine) => !unit || !c.unit || c.unit === unit;
  const hsnFits = (c: PoLine) => !useHsn || !hsn || !c.hsn || c.hsn === hsn;
  return (
    free.find((c) => description !== '' && c.description === description && unitFits(c) && hsnFits(c)) ??
    free.find((c) => useHsn && hsn !== '' && c.hsn === hsn && unit !== '' && c.unit === unit)
  );
}

/** Compares per-line quantities with ordered ones: none, over, full or partial. */
function compareWithOrdered(lines: PoLine[], pick: (l: PoLine) => number): PoResult['receipt'] {
  if (lines.every((l) => pick(l) === 0)) return 'none';
  if (lines.some((l) => pick(l) > l.ordered + 1e-9)) return 'over';
  if (lines.every((l) => Math.abs(pick(l) - l.ordered) < 1e-9)) return 'full';
  return 'partial';
}

/** The purchase orders of a batch: by number, their lines (with what was received and billed), their GRNs. */
interface PoBook {
  pos: MatchDocument[];
  poByNumber: Map<string, MatchDocument>;
  poLines: Map<MatchDocument, PoLine[]>;
  grnsOfPo: Map<MatchDocument, MatchDocument[]>;
}

/**
 * Matches every invoice to its purchase order and goods receipts, as `contracts/reconciliation.md`
 * defines: invoices in input order, then purchase orders in input order.
 */
export function reconcileDocuments(
  documents: MatchDocument[],
  defaults: Tolerances = DEFAULT_TOLERANCES,
  options: MatchOptions = {},
): Array<InvoiceResult | PoResult> {
  const readable = documents.filter((d) => !d.error && d.documentType);
  const pos = readable.filter((d) => d.documentType === 'po');
  const grns = readable.filter((d) => d.documentType === 'grn');
  const invoices = readable.filter((d) => d.documentType === 'invoice');
  const book = indexPurchaseOrders(pos);
  adoptUnnumberedPos(book, [...grns, ...invoices]);
  applyReceipts(book, grns);

  const seen = new Set<string>();
  const results = new Map<MatchDocument, InvoiceResult>();
  for (const invoice of billingOrder(invoices))
    results.set(invoice, matchInvoice(invoice, { book, defaults, options, seen }));
  const poResults = pos.map((po) => poResultOf(po, book.poLines.get(po)!));
  return [...invoices.map((i) => results.get(i)!), ...poResults];
}

/** Purchase orders by normalised number (the first of two with one number wins, in input order). */
function indexPurchaseOrders(pos: MatchDocument[]): PoBook {
  const book: PoBook = { pos, poByNumber: new Map(), poLines: new Map(), grnsOfPo: new Map() };
  for (const po of pos) {
    const number = text(po.fields.documentNumber);
    if (number && !book.poByNumber.has(normalizeDocumentNumber(number)))
      book.poByNumber.set(normalizeDocumentNumber(number), po);
    book.poLines.set(
      po,
      po.lineItems.map((item, index) => ({
        index,
        description: normalizeDescription(item.description),
        hsn: normalizeHsn(item.hsnSac),
        unit: normalizeUnit(item.unit),
        ordered: num(item.quantity) ?? num(item.orderedQuantity) ?? 0,
        rate: num(item.rate),
        received: 0,
        billed: 0,
      })),
    );
    book.grnsOfPo.set(po, []);
  }
  return book;
}

/** The PO a printed number names (also written with or without a trailing "/1"). */
function findPo(book: PoBook, number: string | null): MatchDocument | undefined {
  if (!number) return undefined;
  const key = normalizeDocumentNumber(number);
  return (
    book.poByNumber.get(key) ??
    book.poByNumber.get(key.replace(/\/1$/, '')) ??
    book.poByNumber.get(`${key}/1`)
  );
}

/** Two documents of one vendor: the same GSTIN, or GSTINs of one PAN. */
function sameVendor(a: MatchDocument, b: MatchDocument): boolean {
  const x = text(a.fields.vendorGstin)?.toUpperCase() ?? null;
  const y = text(b.fields.vendorGstin)?.toUpperCase() ?? null;
  return x !== null && y !== null && (x === y || panOf(x) === panOf(y));
}

/**
 * A PO whose own number could not be read (a poor scan) takes the number its GRNs and invoices print,
 * when it is the single unnumbered PO of their vendor that has every one of their lines.
 */
function adoptUnnumberedPos(book: PoBook, documents: MatchDocument[]): void {
  const unnumbered = book.pos.filter((p) => !text(p.fields.documentNumber));
  for (const doc of documents) {
    const number = text(doc.fields.poNumber);
    if (!number || findPo(book, number)) continue;
    const fits = unnumbered.filter((candidate) => {
      if (!sameVendor(candidate, doc)) return false;
      const used = new Set<number>();
      return doc.lineItems.every((item) => {
        const line = findLine(item, book.poLines.get(candidate)!, used, doc.documentType === 'invoice');
        if (line) used.add(line.index);
        return line !== undefined;
      });
    });
    if (fits.length === 1) book.poByNumber.set(normalizeDocumentNumber(number), fits[0]!);
  }
}

/** Each GRN's accepted quantities onto its PO's lines. */
function applyReceipts(book: PoBook, grns: MatchDocument[]): void {
  for (const grn of grns) {
    const po = findPo(book, text(grn.fields.poNumber));
    if (!po) continue;
    book.grnsOfPo.get(po)!.push(grn);
    const lines = book.poLines.get(po)!;
    const used = new Set<number>();
    grn.lineItems.forEach((item, i) => {
      // By description and unit (and HSN/SAC where the GRN prints it), then by position.
      const line = findLine(item, lines, used, true) ?? (lines[i] && !used.has(i) ? lines[i] : undefined);
      if (!line) return;
      used.add(line.index);
      line.received += num(item.acceptedQuantity) ?? num(item.receivedQuantity) ?? 0;
    });
  }
}

/** Invoices apply in order of document date, then number, then file name. */
function billingOrder(invoices: MatchDocument[]): MatchDocument[] {
  return [...invoices].sort((a, b) => {
    const key = (d: MatchDocument) => [
      text(d.fields.documentDate) ?? '',
      text(d.fields.documentNumber) ?? '',
      d.file,
    ];
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
}

/** What matching one invoice reads and updates: the POs, the tolerances, the invoices already seen. */
interface InvoiceMatch {
  book: PoBook;
  defaults: Tolerances;
  options: MatchOptions;
  /** Vendor, number and financial year of every invoice matched so far. */
  seen: Set<string>;
}

/** One invoice against its PO (named, or the single open one of its vendor that fits) and receipts. */
function matchInvoice(invoice: MatchDocument, ctx: InvoiceMatch): InvoiceResult {
  const { book, options, seen } = ctx;
  const f = invoice.fields;
  const documentNumber = text(f.documentNumber);
  const vendorGstin = text(f.vendorGstin)?.toUpperCase() ?? null;
  // A vendor's own tolerances, where the organisation set them, replace the defaults field by field.
  const tolerances = applyTolerances(
    ctx.defaults,
    vendorGstin ? options.vendorTolerances?.get(vendorGstin) : undefined,
  );
  const poNumber = text(f.poNumber);
  const reasons: Reason[] = [];
  const duplicateKey = documentNumber
    ? `${vendorGstin ?? text(f.vendorName)?.toLowerCase() ?? ''}|${normalizeDocumentNumber(documentNumber)}|${financialYear(text(f.documentDate))}`
    : null;
  const decided = options.duplicates?.get(invoice.file);
  const duplicate = decided ?? (duplicateKey !== null && seen.has(duplicateKey));
  if (duplicateKey && decided === undefined) seen.add(duplicateKey);
  if (duplicate)
    reasons.push({
      code: 'duplicate_invoice',
      message: `Invoice ${documentNumber} from this vendor was already received`,
    });

  const po = findPo(book, poNumber) ?? (poNumber ? undefined : openPoThatFits(book, invoice, tolerances));
  const lines: InvoiceLineResult[] = [];
  let exact = true;
  if (!po) {
    reasons.push({
      code: 'no_po',
      message: poNumber
        ? `No purchase order ${poNumber} among the documents`
        : 'The invoice names no purchase order',
    });
    for (const [i, item] of invoice.lineItems.entries())
      lines.push({
        line: i + 1,
        poLine: null,
        status: 'exception',
        billed: num(item.quantity),
        received: null,
        alreadyBilled: null,
        poRate: null,
        rate: num(item.rate),
      });
  } else {
    const poGstin = text(po.fields.vendorGstin)?.toUpperCase() ?? null;
    if (vendorGstin && poGstin && vendorGstin !== poGstin)
      reasons.push({
        code: 'vendor_mismatch',
        message: `The purchase order is to ${poGstin}, the invoice is from ${vendorGstin}`,
      });
    const candidates = book.poLines.get(po)!;
    const used = new Set<number>();
    invoice.lineItems.forEach((item, i) => {
      const line = matchInvoiceLine(item, i + 1, { candidates, used, duplicate, tolerances });
      lines.push(line.result);
      reasons.push(...line.reasons);
      if (!line.exact) exact = false;
    });
  }
  const status = reasons.length > 0 ? 'exception' : exact ? 'matched' : 'matched_within_tolerance';
  const notPaid = reasons.some((r) => r.code === 'duplicate_invoice' || r.code === 'no_po');
  return {
    contract: 'reconciliation/v1',
    kind: 'invoice',
    file: invoice.file,
    documentNumber,
    vendorGstin,
    poNumber,
    matchedPo: po?.file ?? null,
    matchedGrns: po ? book.grnsOfPo.get(po)!.map((g) => g.file) : [],
    status,
    shouldBePaid: status === 'exception' ? (notPaid ? 'no' : 'exception') : 'yes',
    reasons,
    lines,
  };
}

/** No PO named: the single open PO of this vendor whose remaining value fits the invoice. */
function openPoThatFits(
  book: PoBook,
  invoice: MatchDocument,
  tolerances: Tolerances,
): MatchDocument | undefined {
  const total = num(invoice.fields.taxableValue) ?? num(invoice.fields.total);
  const fits = book.pos.filter((candidate) => {
    if (!sameVendor(candidate, invoice)) return false;
    const remaining = book.poLines
      .get(candidate)!
      .reduce((sum, l) => sum + Math.max(0, l.ordered - l.billed) * (l.rate ?? 0), 0);
    return total !== null && remaining + tolerances.amountRupees >= total;
  });
  return fits.length === 1 ? fits[0] : undefined;
}

/**
 * One invoice line against its PO line: quantity against what was received and already billed, rate
 * against the PO's, amount against quantity × rate − discount, each within the tolerances.
 */
function matchInvoiceLine(
  item: Record<string, unknown>,
  lineNo: number,
  ctx: { candidates: PoLine[]; used: Set<number>; duplicate: boolean; tolerances: Tolerances },
): { result: InvoiceLineResult; reasons: Reason[]; exact: boolean } {
  const { candidates, used, duplicate, tolerances } = ctx;
  const billed = num(item.quantity) ?? 0;
  const rate = num(item.rate);
  const poLine = findLine(item, candidates, used, true);
  if (!poLine)
    return {
      result: {
        line: lineNo,
        poLine: null,
        status: 'exception',
        billed,
        received: null,
        alreadyBilled: null,
        poRate: null,
        rate,
      },
      reasons: [{ code: 'unmatched_line', line: lineNo, message: 'No purchase order line has this item' }],
      exact: true,
    };
  used.add(poLine.index);
  const alreadyBilled = poLine.billed;
  const lineReasons: Reason[] = [];
  let lineExact = true;
  if (!duplicate) {
    if (poLine.received === 0) {
      lineReasons.push({
        code: 'no_receipt',
        line: lineNo,
        message: 'Nothing was received on this purchase order line',
      });
    } else {
      const available = poLine.received - alreadyBilled;
      const allowance = (available * tolerances.qtyPct) / 100;
      if (billed > available + allowance + 1e-9)
        lineReasons.push({
          code: 'over_billed',
          line: lineNo,
          message: `Billed ${billed}, received ${poLine.received}, already billed ${alreadyBilled}`,
        });
      else if (Math.abs(billed - available) > 1e-9 && billed > available) lineExact = false;
    }
    poLine.billed += billed;
  }
  if (rate !== null && poLine.rate !== null && poLine.rate > 0) {
    const diffPct = (Math.abs(rate - poLine.rate) / poLine.rate) * 100;
    if (diffPct > tolerances.pricePct + 1e-9)
      lineReasons.push({
        code: 'price_variance',
        line: lineNo,
        message: `Rate ${rate} against ${poLine.rate} on the purchase order`,
      });
    else if (Math.abs(rate - poLine.rate) >= 0.005) lineExact = false;
  }
  const amount = num(item.amount);
  if (amount !== null && rate !== null) {
    const expected = paise(billed * rate - (num(item.discount) ?? 0));
    const diff = Math.abs(paise(amount) - expected);
    if (diff > tolerances.amountRupees + 1e-9)
      lineReasons.push({
        code: 'amount_mismatch',
        line: lineNo,
        message: `Amount ${amount}, quantity × rate − discount is ${expected}`,
      });
    else if (diff >= 0.005) lineExact = false;
  }
  return {
    result: {
      line: lineNo,
      poLine: poLine.index + 1,
      status: lineReasons.length > 0 ? 'exception' : lineExact ? 'matched' : 'matched_within_tolerance',
      billed,
      received: poLine.received,
      alreadyBilled,
      poRate: poLine.rate,
      rate,
    },
    reasons: lineReasons.filter((r) => !duplicate || r.code !== 'over_billed'),
    exact: lineExact,
  };
}

/** A purchase order's receipt and billing state, line by line. */
function poResultOf(po: MatchDocument, lines: PoLine[]): PoResult {
  return {
    contract: 'reconciliation/v1',
    kind: 'po',
    file: po.file,
    documentNumber: text(po.fields.documentNumber),
    vendorGstin: text(po.fields.vendorGstin)?.toUpperCase() ?? null,
    receipt: compareWithOrdered(lines, (l) => l.received),
    billing: compareWithOrdered(lines, (l) => l.billed),
    lines: lines.map((l) => ({
      line: l.index + 1,
      ordered: l.ordered,
      received: l.received,
      billed: l.billed,
    })),
  };
}
