import { isValidGstin, roundMoney, stateByCode, supplyTypeFor } from '@bahi/india';
import { findAmountInWords, runChecks, wordsStateTotal } from './checks.ts';
import { completeFromTriple } from './fields/amount-triples.ts';
import {
  collectAmountCandidates,
  completeFromLines,
  completeTaxableFromSlab,
  printedAmounts,
  solveAmounts,
} from './fields/amounts.ts';
import { type Candidate, extractLabelledFields } from './fields/header.ts';
import { extractParties, type Party } from './fields/parties.ts';
import { findGstinCandidates, resolvePartyGstins } from './fields/party-gstins.ts';
import { isNeverAPartyName, looksLikeAddress, nameAgreesWithGstin } from './fields/party-names.ts';
import {
  applyDocumentGstRate,
  deriveDocumentGstRate,
  doubleHalfRates,
  findDocumentGstRate,
} from './fields/tax-rates.ts';
import { collectTaxTotals, completeFromTaxTotal, sumOfCharges } from './fields/tax-total.ts';
import { boxOf, buildLayout, type Layout, type Segment } from './layout.ts';
import { profileOf } from './profiles/index.ts';
import type { EinvoiceQr } from './qr/index.ts';
import type { CheckResult, FieldValue, LineItem, Provenance } from './result.ts';
import { extractLineItems, type LineItemsResult } from './tables/index.ts';
import type { DocumentType, PageContent } from './types.ts';

/** A decoded e-invoice QR with the page it was found on and its date in ISO form. */
export type QrReading = EinvoiceQr & { page: number; docDate: string | null };

/** What interpretation of a document's pages produced. */
export interface Interpretation {
  fields: Record<string, FieldValue>;
  lineItems: LineItem[];
  checks: CheckResult[];
  confidence: Record<string, number>;
  provenance: Record<string, Provenance>;
  warnings: string[];
  headerFromQr: boolean;
  /** The printed amount in words, when one was read (the checks compare it to the total). */
  wordsAmount: number | null;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Interpret a document's words: line items (tables stage), labelled header fields, parties,
 * the totals block solved so it adds up, the e-invoice QR as the most trusted source, then checks.
 */
export function interpretDocument(
  pages: PageContent[],
  type: DocumentType,
  qr: QrReading | null,
): Interpretation {
  const warnings: string[] = [];
  let tables: LineItemsResult = { lineItems: [], lineProvenance: [], regions: [] };
  try {
    tables = extractLineItems(pages, type);
  } catch (e) {
    warnings.push(`line items could not be read: ${(e as Error).message}`);
  }
  const layout = buildLayout(pages);
  const skip = (s: Segment) =>
    tables.regions.some((r) => r.page === s.page && s.y0 >= r.y0 - 1 && s.y1 <= r.y1 + 1);

  const chosen = new Map<string, Candidate>();
  const labelled = extractLabelledFields(layout, type, skip);
  for (const [field, list] of labelled) if (list[0]) chosen.set(field, list[0]);

  const found = extractParties(layout, type, skip);
  // Copies: the resolver below completes them (a shared empty party must stay empty).
  const parties = { vendor: { ...found.vendor }, buyer: { ...found.buyer } };
  // Every GSTIN on the page is a candidate; the party each belongs to comes from its label, the
  // heading over its column, or the letterhead, and both parties are chosen together.
  const tableTop = (page: number) =>
    Math.min(Number.POSITIVE_INFINITY, ...tables.regions.filter((r) => r.page === page).map((r) => r.y0));
  const gstins = resolvePartyGstins(
    { vendor: parties.vendor.gstin, buyer: parties.buyer.gstin },
    findGstinCandidates(layout, type, skip, tableTop),
    type,
  );
  parties.vendor.gstin = gstins.vendor;
  parties.buyer.gstin = gstins.buyer;
  for (const p of [parties.vendor, parties.buyer]) {
    // No state printed in the block: a GSTIN's first two digits are its registration's state.
    const code = typeof p.gstin?.value === 'string' ? p.gstin.value.slice(0, 2) : '';
    if (p.stateCode || !p.gstin || !stateByCode(code)) continue;
    p.stateCode = { ...p.gstin, value: code, score: isValidGstin(String(p.gstin.value)) ? 0.9 : 0.5 };
  }
  // A label or copy marker read where a name should be is no name: empty beats wrong.
  for (const p of [parties.vendor, parties.buyer])
    if (p.name && isNeverAPartyName(String(p.name.value))) {
      warnings.push(`"${p.name.value}" was read as a party's name but is a label, not a name`);
      p.name = null;
    }
  const putParty = (prefix: 'vendor' | 'buyer', p: Party) => {
    if (p.name) chosen.set(`${prefix}Name`, { ...p.name, field: `${prefix}Name` });
    if (p.gstin) chosen.set(`${prefix}Gstin`, { ...p.gstin, field: `${prefix}Gstin` });
    if (p.address) chosen.set(`${prefix}Address`, { ...p.address, field: `${prefix}Address` });
    if (p.stateCode) chosen.set(`${prefix}StateCode`, { ...p.stateCode, field: `${prefix}StateCode` });
  };
  putParty('vendor', parties.vendor);
  putParty('buyer', parties.buyer);

  let amountsConsistent = false;
  const words = findAmountInWords(layout);
  const money = profileOf(type).money;
  if (money) {
    const cands = collectAmountCandidates(layout, skip);
    const printed = printedAmounts(layout);
    if (words) {
      // A total that equals the amount in words is the one the document means; when no figure
      // reads as that total (a misread rupee sign or digit), the words themselves are a reading.
      const totals = cands.get('total') ?? [];
      let agreed = false;
      for (const c of totals)
        if (wordsStateTotal(words.value, Number(c.value))) {
          // The very figure beats one that only shares its rupees (48,215.40 vs words "48,215").
          c.score += Math.abs(words.value - Number(c.value)) <= 0.011 ? 0.5 : 0.3;
          agreed = true;
        }
      const line = layout.lines[words.line]!;
      const fromWords: Candidate = {
        field: 'total',
        value: words.value,
        page: line.page,
        bbox: boxOf(line.words),
        source: line.words[0]?.source ?? 'text',
        score: 0.45,
      };
      if (!agreed) cands.set('total', [...totals, fromWords]);
      const key = Math.round(words.value * 100);
      if (!printed.has(key)) printed.set(key, fromWords);
    }
    for (const list of cands.values()) list.sort((a, b) => b.score - a.score);
    const amounts = tables.lineItems.map((l) => l.amount).filter((a): a is number => typeof a === 'number');
    const lineSum = amounts.length ? roundMoney(amounts.reduce((a, b) => a + b, 0)) : null;
    const taxTotals = collectTaxTotals(layout, skip);
    const charges = sumOfCharges(layout, skip);
    const solved = solveAmounts(cands, lineSum, printed, taxTotals.length > 0, charges);
    if (money.taxMayBeExtra) completeTaxExtraTotals(solved.values, layout);
    amountsConsistent = solved.consistent;
    if (!amountsConsistent) {
      const supplier = parties.vendor.stateCode?.value;
      const pos = chosen.get('placeOfSupply')?.value ?? parties.buyer.stateCode?.value;
      const supply =
        typeof supplier === 'string' && typeof pos === 'string' ? supplyTypeFor(supplier, pos) : null;
      amountsConsistent =
        completeFromLines(solved.values, lineSum, printed, supply) ||
        completeFromTaxTotal(solved.values, taxTotals, printed, supply) ||
        completeFromTriple(solved.values, printed, cands.get('total') ?? [], supply) ||
        completeTaxableFromSlab(solved.values, lineSum);
    }
    for (const [f, c] of Object.entries(solved.values)) if (c) chosen.set(f, { ...c, field: f });
    const taxable = solved.values.taxableValue?.value;
    if (amountsConsistent && typeof taxable === 'number') rescaleLinesToTaxable(tables.lineItems, taxable);
    // Lines without their own rate take the document's single printed rate ("CGST @ 9%" + "SGST @ 9%").
    const head = (f: 'cgst' | 'sgst' | 'igst') => {
      const v = solved.values[f]?.value;
      return typeof v === 'number' ? v : null;
    };
    const heads = [head('cgst'), head('sgst'), head('igst')];
    const tax = heads.some((v) => v !== null) ? heads.reduce<number>((a, v) => a + (v ?? 0), 0) : null;
    // Intra-state by the taxes charged, or by the place of supply in the supplier's own state.
    const pos = chosen.get('placeOfSupply')?.value;
    const vendorState = parties.vendor.stateCode?.value;
    const intraState =
      (head('igst') ?? 0) === 0 &&
      ((!!head('cgst') && !!head('sgst')) || (typeof pos === 'string' && pos === vendorState));
    doubleHalfRates(tables.lineItems, intraState);
    const base = typeof taxable === 'number' ? taxable : lineSum;
    // A printed rate first; else the slab the taxes are of the taxable value (an accident elsewhere).
    const documentRate = findDocumentGstRate(layout, skip) ?? deriveDocumentGstRate(base, tax);
    applyDocumentGstRate(tables.lineItems, documentRate, { taxable: base, tax }, printed.keys());
  }

  const fields: Record<string, FieldValue> = {};
  const provenance: Record<string, Provenance> = {};
  const confidence: Record<string, number> = {};
  for (const f of profileOf(type).headerFields) {
    const c = chosen.get(f);
    fields[f] = c ? (typeof c.value === 'number' ? round2(c.value) : c.value) : null;
    if (c) {
      provenance[f] = { page: c.page, bbox: c.bbox, source: c.source };
      confidence[f] = c.score;
    }
  }
  if (fields.currency === null) {
    // The contract's default: INR unless the document says otherwise.
    fields.currency = 'INR';
    confidence.currency = 0.9;
  }

  const checks: CheckResult[] = [];
  let headerFromQr = false;
  if (qr && qr.signatureValid !== false) {
    const p = qr.payload;
    const fromQr: Array<[string, FieldValue | undefined]> = [
      ['vendorGstin', p.SellerGstin],
      ['buyerGstin', p.BuyerGstin],
      ['documentNumber', p.DocNo],
      ['documentDate', qr.docDate],
      ['total', typeof p.TotInvVal === 'number' ? round2(p.TotInvVal) : undefined],
      ['irn', p.Irn?.toLowerCase()],
    ];
    const mismatches: string[] = [];
    let used = 0;
    for (const [f, v] of fromQr) {
      if (v === undefined || v === null || v === '') continue;
      const printed = fields[f];
      if (printed !== null && printed !== undefined && String(printed) !== String(v))
        mismatches.push(`${f}: QR ${v}, printed ${printed}`);
      // A QR GSTIN that fails its own check character (a test QR, a generator's placeholder)
      // does not replace a valid printed one; the mismatch above still reports it.
      const badGstin = /Gstin$/.test(f) && !isValidGstin(String(v));
      if (badGstin && typeof printed === 'string' && isValidGstin(printed)) continue;
      fields[f] = v;
      provenance[f] = { page: qr.page, bbox: qr.bbox ?? [0, 0, 0, 0], source: 'qr' };
      confidence[f] = qr.signatureValid ? 0.99 : 0.93;
      used++;
    }
    headerFromQr = used >= 3;
    checks.push({
      code: 'qr_matches_printed',
      field: null,
      ok: mismatches.length === 0,
      message: mismatches.join('; '),
    });
  }

  const lineItems: LineItem[] = tables.lineItems.map((l, i) => {
    const prov = tables.lineProvenance[i];
    return prov && Object.keys(prov).length
      ? ({ ...l, provenance: prov } as LineItem)
      : ({ ...l } as LineItem);
  });
  checks.unshift(...runChecks(type, fields, tables.lineItems, words?.value ?? null));

  // A set adds up for real only when a tax makes the sum (taxable = total adds up trivially).
  const taxCharged = ['cgst', 'sgst', 'igst'].some((f) => typeof fields[f] === 'number' && fields[f] > 0);
  // Words that state only the rupees of a total with paise agree with it, but do not vouch for it.
  const wordsExact =
    typeof fields.total === 'number' && words !== null && Math.abs(words.value - fields.total) <= 0.011;
  const vouched = calibrateConfidence(confidence, provenance, checks, {
    amountsConsistent,
    taxCharged,
    wordsExact,
  });
  requireCorroboration(fields, confidence, {
    provenance,
    checks,
    vouched,
    disputed: disputedFields(labelled, chosen),
  });
  if (!(amountsConsistent && taxCharged))
    withholdRefutedAmounts(
      { fields, confidence, provenance, checks, warnings },
      { wordsAmount: words?.value ?? null, lineSum: sumOfLines(tables.lineItems) },
    );
  for (const k of Object.keys(confidence))
    confidence[k] = Math.round(Math.min(1, confidence[k]!) * 100) / 100;
  return {
    fields,
    lineItems,
    checks,
    confidence,
    provenance,
    warnings,
    headerFromQr,
    wordsAmount: words?.value ?? null,
  };
}

/**
 * A wrong figure costs a finance team more than an empty one. In a totals block that does not add
 * up, a total the printed amount in words contradicts, or a taxable value read by OCR that its
 * lines contradict, is not given: the field stays empty, the failed check stays on the document,
 * and a warning says what was read.
 */
function withholdRefutedAmounts(
  result: Pick<Interpretation, 'fields' | 'confidence' | 'provenance' | 'checks' | 'warnings'>,
  evidence: { wordsAmount: number | null; lineSum: number | null },
): void {
  const { fields, confidence, provenance, checks, warnings } = result;
  const { wordsAmount, lineSum } = evidence;
  const refutedBy = (f: string, code: string) =>
    checks.find((c) => c.field === f && c.code === code && !c.ok);
  const withhold = (f: string, value: number, why: string) => {
    fields[f] = null;
    delete confidence[f];
    delete provenance[f];
    warnings.push(`${f} left empty: ${value} was read, but ${why}`);
  };
  // The total against the amount in words, from any source: the words state the invoice value.
  // Words under half the figure are another amount in words (the tax's) or a line cut short.
  const total = fields.total;
  const byWords = refutedBy('total', 'amount_in_words_matches_total');
  if (typeof total === 'number' && byWords && wordsAmount !== null && wordsAmount >= total / 2)
    withhold('total', total, byWords.message);
  // An OCR taxable value against the lines. (Taxes that do not add up to the total say one of
  // the figures is wrong, not which: no figure is withheld for that.)
  const taxable = fields.taxableValue;
  const byLines = refutedBy('taxableValue', 'lines_sum_to_taxable_value');
  // Lines that sum to the total carry their tax (an "Amount" column after the tax columns): they
  // say nothing against a taxable value below the total.
  const grossLines =
    typeof total === 'number' &&
    typeof taxable === 'number' &&
    taxable < total &&
    lineSum !== null &&
    Math.abs(lineSum - total) <= 0.011;
  if (typeof taxable === 'number' && byLines && !grossLines && provenance.taxableValue?.source === 'ocr')
    withhold('taxableValue', taxable, byLines.message);
}

/** The sum of the lines' amounts when every line has one. */
function sumOfLines(lines: Array<Record<string, unknown>>): number | null {
  const amounts = lines.map((l) => l.amount);
  if (!amounts.length || !amounts.every((a): a is number => typeof a === 'number')) return null;
  return roundMoney(amounts.reduce((a, b) => a + b, 0));
}

/** Below the review line (0.8): a value no second source confirms goes to a person. */
const UNCONFIRMED = 0.75;
/** A labelled reading another label on the page contradicts. */
const DISPUTED = 0.7;

/**
 * Two labelled readings of one field with different values and nearly the same standing: the
 * document says two things, and which one is meant is a person's call.
 */
function disputedFields(labelled: Map<string, Candidate[]>, chosen: Map<string, Candidate>): Set<string> {
  const out = new Set<string>();
  for (const [field, list] of labelled) {
    const pick = chosen.get(field);
    if (!pick || list[0] !== pick) continue;
    const norm = (v: unknown) =>
      String(v)
        .replace(/[\s.,-]/g, '')
        .toLowerCase();
    const rival = list.find((c) => norm(c.value) !== norm(pick.value));
    // Free text (payment terms) has no check digit or sum to settle two labelled readings: any
    // second wording a label gives leaves it for a person.
    const margin = FREE_TEXT.test(field) ? 0.5 : 0.05;
    if (rival && rival.score >= pick.score - margin) out.add(field);
  }
  return out;
}

/**
 * "OK" must mean right. A money figure is written without review only when a second source
 * confirms it: the amount in words, the QR, the lines, or a totals block that adds up with a tax
 * actually charged (`calibrateConfidence` marks those). Any other amount — a total read from the
 * biggest labelled figure, a tax head in a block that does not add up — stays below the review
 * line. So does a name whose GSTIN's PAN says another kind of holder, and a field whose labels
 * disagree.
 */
function requireCorroboration(
  fields: Record<string, FieldValue>,
  confidence: Record<string, number>,
  evidence: {
    provenance: Record<string, Provenance>;
    checks: CheckResult[];
    /** Fields a rule of the document vouched for (`calibrateConfidence`). */
    vouched: Set<string>;
    disputed: Set<string>;
  },
): void {
  const { provenance, checks, vouched, disputed } = evidence;
  const passed = (code: string) => checks.some((c) => c.code === code && c.ok);
  const cap = (f: string, to: number) => {
    if (f in confidence) confidence[f] = Math.min(confidence[f]!, to);
  };
  const linesAddUp = passed('lines_sum_to_taxable_value');
  const totalAddsUp = passed('taxes_sum_to_total');
  for (const f of AMOUNT_KEYS) {
    if (!(f in confidence) || provenance[f]?.source === 'qr' || vouched.has(f)) continue;
    // Without tax: the lines make the taxable value, and taxable value and total agree.
    if ((f === 'taxableValue' || f === 'total') && linesAddUp && totalAddsUp) continue;
    if (f === 'taxableValue' && linesAddUp) continue;
    cap(f, UNCONFIRMED);
  }
  for (const prefix of ['vendor', 'buyer']) {
    const name = fields[`${prefix}Name`];
    const gstin = fields[`${prefix}Gstin`];
    if (typeof name !== 'string') continue;
    const agreement = typeof gstin === 'string' ? nameAgreesWithGstin(name, gstin) : 'unknown';
    if (agreement === 'conflict') cap(`${prefix}Name`, 0.5);
    if (agreement === 'unlikely') cap(`${prefix}Name`, UNCONFIRMED);
    if (looksLikeAddress(name)) cap(`${prefix}Name`, 0.6);
  }

  for (const f of disputed) cap(f, DISPUTED);
  // No one invoices their own GSTIN (a branch transfer crosses GSTINs): one of the two readings
  // belongs to the other party, and which one is a person's call.
  if (typeof fields.vendorGstin === 'string' && fields.vendorGstin === fields.buyerGstin) {
    cap('vendorGstin', 0.5);
    cap('buyerGstin', 0.5);
  }
}

/** Money fields of the totals block. */
const AMOUNT_KEYS = ['taxableValue', 'cgst', 'sgst', 'igst', 'cess', 'roundOff', 'total'];
/** Free-text fields: nothing on the document can confirm them, so they are never "sure". */
const FREE_TEXT = /^(?:vendorName|buyerName|vendorAddress|buyerAddress|paymentTerms)$/;
/**
 * The highest confidence of a value no rule vouches for. Read from a scan, it is below the review
 * line: OCR slips a character in a number or a name often enough that a person looks first (on
 * unseen scans a fifth of names were misread). Free text from a text layer may pass.
 */
const UNVOUCHED_OCR = 0.75;
const UNVOUCHED_TEXT = 0.85;

/**
 * Confidence means something: a value is "sure" (≥ 0.9) only when its reading is clean or a rule of
 * the document vouches for it. A failed check lowers its field to 0.5. The amount in words, the
 * lines summing to the taxable value, and totals that add up with a tax actually charged vouch
 * for the amounts; a set that "adds up" only because taxable value and total are the same figure
 * vouches for nothing. A GSTIN's check character shows it is a GSTIN, not whose it is, so it does
 * not raise a party's GSTIN. Values read by OCR and free text stay below 0.9 unless vouched for.
 */
function calibrateConfidence(
  confidence: Record<string, number>,
  provenance: Record<string, Provenance>,
  checks: CheckResult[],
  facts: { amountsConsistent: boolean; taxCharged: boolean; wordsExact: boolean },
): Set<string> {
  const { amountsConsistent, taxCharged, wordsExact } = facts;
  const vouched = new Set<string>();
  const raise = (f: string, to: number) => {
    if (!(f in confidence)) return;
    confidence[f] = Math.max(confidence[f]!, to);
    vouched.add(f);
  };
  for (const c of checks) {
    if (!c.field || !(c.field in confidence) || !c.ok) continue;
    if (c.code === 'amount_in_words_matches_total') {
      if (wordsExact) raise('total', 0.99);
    } else if (c.code === 'lines_sum_to_taxable_value') raise('taxableValue', 0.97);
    else if (c.code === 'taxes_sum_to_total' && taxCharged) raise('total', 0.97);
  }
  if (amountsConsistent && taxCharged) for (const f of AMOUNT_KEYS) raise(f, 0.98);
  // A failed check outweighs any other evidence for its field. A totals block that does not add
  // up says one of its figures is wrong, not which: none of them stays sure (but the QR's).
  for (const c of checks) {
    if (c.ok || !c.field || !(c.field in confidence)) continue;
    confidence[c.field] = Math.min(confidence[c.field]!, 0.5);
    vouched.delete(c.field);
    if (c.code === 'taxes_sum_to_total')
      for (const f of ['taxableValue', 'cgst', 'sgst', 'igst', 'cess', 'roundOff'])
        if (f in confidence && provenance[f]?.source !== 'qr') {
          confidence[f] = Math.min(confidence[f]!, UNCONFIRMED);
          vouched.delete(f);
        }
  }
  for (const [f, p] of Object.entries(provenance)) {
    if (p.source === 'qr' || vouched.has(f) || !(f in confidence)) continue;
    if (p.source === 'ocr') confidence[f] = Math.min(confidence[f]!, UNVOUCHED_OCR);
    if (FREE_TEXT.test(f)) confidence[f] = Math.min(confidence[f]!, UNVOUCHED_TEXT);
  }
  return vouched;
}

/** "GST extra as applicable", "Taxes extra", "plus GST": the order's value leaves tax to the invoice. */
const TAX_EXTRA =
  /\b(?:gst|taxes|tax|igst|cgst)\b[^.]{0,20}\b(?:extra|additional|excluded)\b|\b(?:plus|\+)\s*(?:gst|taxes)\b|\bexclusive of (?:gst|taxes)\b/i;

/** A row carrying one tax amount: "GST (₹) 36000.00", "Total Tax Amount 1,234.00", "Tax : 540". */
const TAX_AMOUNT_ROW =
  /^\s*(?:total |add )?(?:gst|tax)(?: amount| amt)?\b[^%\d]{0,12}[₹\s:]*[1-9][\d,]*(?:\.\d{1,2})?\s*$/i;

/**
 * A purchase order that computes no tax because GST is charged extra prints one pre-tax total:
 * it is both the taxable value and the order's total (the contract's reading of such POs). Only
 * when the order says so and no tax amount was read.
 */
function completeTaxExtraTotals(values: Partial<Record<string, Candidate>>, layout: Layout): void {
  if (values.cgst || values.sgst || values.igst) return;
  const tv = values.taxableValue;
  const total = values.total;
  if ((tv && total) || (!tv && !total)) return;
  if (!layout.lines.some((l) => TAX_EXTRA.test(l.text))) return;
  // A tax amount printed as one figure ("GST (₹)  36000.00") means the tax was computed after all.
  if (layout.lines.some((l) => TAX_AMOUNT_ROW.test(l.text))) return;
  if (tv) values.total = { ...tv, field: 'total' };
  else if (total) values.taxableValue = { ...total, field: 'taxableValue' };
}

/**
 * OCR drops decimal points: a line read as 1260000 × 4.28 = 5392800 adds up by itself but is 100
 * times the printed 12.60 × 4280 = 53928. When the document's totals add up and its taxable value
 * is known, lines whose amounts are off by a power of ten (at most two lines) are scaled so that
 * the lines sum to the taxable value, and their rate and quantity re-read to match. Only a unique
 * repair is applied.
 */
export function rescaleLinesToTaxable(lines: Array<Record<string, unknown>>, taxable: number): boolean {
  const amounts = lines.map((l) => l.amount);
  if (!amounts.length || !amounts.every((a): a is number => typeof a === 'number')) return false;
  const sum = amounts.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - taxable) <= 0.011) return false;
  const scales = [10, 100, 1000];
  const fixes: Array<Array<[number, number]>> = [];
  const near = (x: number) => Math.abs(x - taxable) <= 0.011;
  amounts.forEach((a, i) => {
    for (const s of scales) if (near(sum - a + a / s)) fixes.push([[i, s]]);
  });
  for (let i = 0; i < amounts.length; i++)
    for (let j = i + 1; j < amounts.length; j++)
      for (const si of scales)
        for (const sj of scales) {
          const a = amounts[i]!;
          const b = amounts[j]!;
          if (near(sum - a - b + a / si + b / sj))
            fixes.push([
              [i, si],
              [j, sj],
            ]);
        }
  if (fixes.length !== 1) return false;
  for (const [i, s] of fixes[0]!) {
    const line = lines[i]!;
    const amount = roundMoney((line.amount as number) / s);
    line.amount = amount;
    const q = typeof line.quantity === 'number' ? line.quantity : null;
    const r = typeof line.rate === 'number' ? line.rate : null;
    const d = typeof line.discount === 'number' ? line.discount : 0;
    if (q === null || r === null) continue;
    // The fewest powers of ten moved that give the new amount, a rate's (a money figure that lost
    // its decimal point, like the amount) before a quantity's; both must stay printable values.
    let best: { q: number; r: number; moves: number } | null = null;
    for (let qe = -3; qe <= 3; qe++)
      for (let re = -5; re <= 3; re++) {
        const q2 = q * 10 ** qe;
        const r2 = r * 10 ** re;
        if (
          Math.abs(q2 * 1000 - Math.round(q2 * 1000)) > 1e-6 ||
          Math.abs(r2 * 100 - Math.round(r2 * 100)) > 1e-6
        )
          continue;
        if (Math.abs(q2 * r2 - d - amount) > 0.011 + amount * 1e-6) continue;
        const moves = 1.5 * Math.abs(qe) + Math.abs(re);
        if (!best || moves < best.moves) best = { q: Math.round(q2 * 1000) / 1000, r: roundMoney(r2), moves };
      }
    if (best) {
      line.quantity = best.q;
      line.rate = best.r;
    }
  }
  return true;
}
