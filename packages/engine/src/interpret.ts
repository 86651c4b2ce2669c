import { isValidGstin, roundMoney, stateByCode } from '@bahi/india';
import { findAmountInWords, runChecks } from './checks.ts';
import { PAISA_TOLERANCE as TOL } from './fields/amount-weights.ts';
import { AMOUNT_FIELDS } from './fields/amounts.ts';
import { type Candidate, extractLabelledFields } from './fields/header.ts';
import { extractParties, MISSPELT_STATE_CONFIDENCE, type Party } from './fields/parties.ts';
import {
  buyerStateFromSupply,
  findGstinCandidates,
  resolvePartyGstins,
  SOLE_GSTIN_CONFIDENCE,
} from './fields/party-gstins.ts';
import {
  isAddressNotName,
  isNeverAPartyName,
  looksLikeAddress,
  nameAgreesWithGstin,
} from './fields/party-names.ts';
import { solveMoney, sumOfLineAmounts } from './interpret-money.ts';
import { buildLayout, type Layout, type Segment } from './layout.ts';
import { profileOf } from './profiles/index.ts';
import type { EinvoiceQr } from './qr/index.ts';
import type { CheckResult, FieldValue, LineItem, Provenance } from './result.ts';
import { extractLineItems, type LineItemsResult } from './tables/index.ts';
import type { DocumentType, PageContent } from './types.ts';

/** What the confidence rules decided about a document's values, and from what. */
export interface ConfidenceEvidence {
  type: DocumentType;
  fields: Record<string, FieldValue>;
  provenance: Record<string, Provenance>;
  checks: CheckResult[];
  /** Confidence after the rules (`settleConfidence`). */
  rule: Record<string, number>;
  /** The chosen candidate's own score, before any rule raised or capped it. */
  raw: Record<string, number>;
  /** Fields whose labelled readings disagree. */
  disputed: Set<string>;
  /** The totals block adds up with a tax charged. */
  amountsAddUp: boolean;
}

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
  /** What the confidence rules saw (the learned model of `bench/confidence/` is fitted on it). */
  evidence: ConfidenceEvidence;
}

/**
 * Confidences the rules give or cap a value at (the review line is 0.8; "sure" is 0.9 and up).
 * Vouching rules rank by how directly they state the figure: the words and the QR state it, the
 * lines and the tax sum derive it.
 */
const CONFIDENCE = {
  /** A state code read from a valid GSTIN's first two digits. */
  stateFromGstin: 0.9,
  /** A state code read from a GSTIN that fails its check character. */
  stateFromBadGstin: 0.5,
  /** The contract's default currency, INR, when the document names none. */
  defaultCurrency: 0.9,
  /** A field of an e-invoice QR whose signature was verified. */
  signedQr: 0.99,
  /** A field of an e-invoice QR whose signature could not be verified. */
  unsignedQr: 0.93,
  /** A total the amount in words states to the paisa. */
  totalInWords: 0.99,
  /** A taxable value the lines sum to. */
  taxableFromLines: 0.97,
  /** A total the taxable value and the taxes charged sum to. */
  totalFromTaxes: 0.97,
  /** Every amount of a totals block that adds up with a tax charged. */
  blockAddsUp: 0.98,
  /** A field whose check failed. */
  failedCheck: 0.5,
  /** A name whose GSTIN's PAN says another kind of holder. */
  nameConflictsGstin: 0.5,
  /** A name that reads like a line of an address. */
  nameLikeAddress: 0.6,
  /** Both parties read with one GSTIN: one of them is the other's. */
  sameGstinTwice: 0.5,
} as const;

/** Fields of a QR that must fill the header for it to count as read from the QR. */
const QR_HEADER_FIELDS = 3;
/** Confidences are reported in hundredths. */
const CONFIDENCE_STEPS = 100;

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
  const tables = readTables(pages, type, warnings);
  const layout = buildLayout(pages);
  const skip = (s: Segment) =>
    tables.regions.some((r) => r.page === s.page && s.y0 >= r.y0 - 1 && s.y1 <= r.y1 + 1);

  const chosen = new Map<string, Candidate>();
  const labelled = extractLabelledFields(layout, type, skip);
  for (const [field, list] of labelled) if (list[0]) chosen.set(field, list[0]);
  const parties = readParties(layout, type, skip, tables, warnings, chosen.get('placeOfSupply'));
  putParty(chosen, 'vendor', parties.vendor);
  putParty(chosen, 'buyer', parties.buyer);

  const words = findAmountInWords(layout);
  const money = profileOf(type).money;
  const solved = money
    ? solveMoney({ layout, skip, tables, chosen, parties, words, money })
    : { consistent: false, charges: 0, taxableFromLines: false };

  const { fields, provenance, confidence } = headerOf(type, chosen);
  const checks: CheckResult[] = [];
  const headerFromQr =
    qr && qr.signatureValid !== false ? applyQr(qr, { fields, provenance, confidence }, checks) : false;

  const lineItems: LineItem[] = tables.lineItems.map((l, i) => {
    const prov = tables.lineProvenance[i];
    return prov && Object.keys(prov).length
      ? ({ ...l, provenance: prov } as LineItem)
      : ({ ...l } as LineItem);
  });
  checks.unshift(...runChecks(type, fields, tables.lineItems, words?.value ?? null));
  const raw = { ...confidence };
  const disputed = disputedFields(labelled, chosen);
  const amountsAddUp = settleConfidence(
    { fields, confidence, provenance, checks, warnings },
    {
      amountsConsistent: solved.consistent,
      wordsAmount: words?.value ?? null,
      lines: tables.lineItems,
      charges: solved.charges,
      taxableFromLines: solved.taxableFromLines,
    },
    disputed,
  );
  const evidence: ConfidenceEvidence = {
    type,
    fields,
    provenance,
    checks,
    rule: { ...confidence },
    raw,
    disputed,
    amountsAddUp,
  };
  return {
    evidence,
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

/** The line items, or none with a warning when the tables stage fails (the header is still read). */
function readTables(pages: PageContent[], type: DocumentType, warnings: string[]): LineItemsResult {
  try {
    return extractLineItems(pages, type);
  } catch (e) {
    warnings.push(`line items could not be read: ${(e as Error).message}`);
    return { lineItems: [], lineProvenance: [], regions: [] };
  }
}

/**
 * Vendor and buyer: their blocks, then every GSTIN on the page as a candidate — the party each
 * belongs to comes from its label, the heading over its column, or the letterhead, and both parties
 * are chosen together.
 */
function readParties(
  layout: Layout,
  type: DocumentType,
  skip: (s: Segment) => boolean,
  tables: LineItemsResult,
  warnings: string[],
  placeOfSupply?: Candidate,
): { vendor: Party; buyer: Party } {
  const found = extractParties(layout, type, skip);
  // Copies: the resolver below completes them (a shared empty party must stay empty).
  const parties = { vendor: { ...found.vendor }, buyer: { ...found.buyer } };
  const tableTop = (page: number) =>
    Math.min(Number.POSITIVE_INFINITY, ...tables.regions.filter((r) => r.page === page).map((r) => r.y0));
  const candidates = findGstinCandidates(layout, type, skip, tableTop);
  const gstins = resolvePartyGstins(
    { vendor: parties.vendor.gstin, buyer: parties.buyer.gstin },
    candidates,
    type,
  );
  parties.vendor.gstin = gstins.vendor;
  parties.buyer.gstin = gstins.buyer;
  for (const p of [parties.vendor, parties.buyer]) {
    // No state printed in the block: a GSTIN's first two digits are its registration's state.
    const code = typeof p.gstin?.value === 'string' ? p.gstin.value.slice(0, 2) : '';
    if (!p.gstin || !stateByCode(code)) continue;
    // A GSTIN given to its party by a rule alone (the one GSTIN printed): its state no surer.
    const byRule = p.gstin.score <= SOLE_GSTIN_CONFIDENCE;
    const valid = isValidGstin(String(p.gstin.value));
    const score = !valid ? CONFIDENCE.stateFromBadGstin : byRule ? p.gstin.score : CONFIDENCE.stateFromGstin;
    // A state the block prints stands, unless it is the GSTIN's own read from a misspelt name.
    const misspelt = p.stateCode?.value === code && p.stateCode.score <= MISSPELT_STATE_CONFIDENCE;
    if (p.stateCode && !(misspelt && score > p.stateCode.score)) continue;
    p.stateCode = { ...p.gstin, value: code, score };
  }
  parties.buyer.stateCode ??= buyerStateFromSupply(parties.buyer, gstins.vendor, candidates, placeOfSupply);
  // A label or copy marker, or an address line, read where a name should be is no name: empty
  // beats wrong.
  for (const p of [parties.vendor, parties.buyer]) {
    const name = p.name ? String(p.name.value) : '';
    if (name && isNeverAPartyName(name)) {
      warnings.push(`"${name}" was read as a party's name but is a label, not a name`);
      p.name = null;
    } else if (name && isAddressNotName(name)) {
      warnings.push(`"${name}" was read as a party's name but is a line of an address`);
      p.name = null;
    }
  }
  return parties;
}

/** A party's name, GSTIN, address and state as the `vendor…`/`buyer…` header fields. */
function putParty(chosen: Map<string, Candidate>, prefix: 'vendor' | 'buyer', p: Party): void {
  if (p.name) chosen.set(`${prefix}Name`, { ...p.name, field: `${prefix}Name` });
  if (p.gstin) chosen.set(`${prefix}Gstin`, { ...p.gstin, field: `${prefix}Gstin` });
  if (p.address) chosen.set(`${prefix}Address`, { ...p.address, field: `${prefix}Address` });
  if (p.stateCode) chosen.set(`${prefix}StateCode`, { ...p.stateCode, field: `${prefix}StateCode` });
}

type Header = Pick<Interpretation, 'fields' | 'provenance' | 'confidence'>;

/** The type's header fields from the chosen candidates (money rounded to paise; INR by default). */
function headerOf(type: DocumentType, chosen: Map<string, Candidate>): Header {
  const fields: Record<string, FieldValue> = {};
  const provenance: Record<string, Provenance> = {};
  const confidence: Record<string, number> = {};
  for (const f of profileOf(type).headerFields) {
    const c = chosen.get(f);
    fields[f] = c ? (typeof c.value === 'number' ? roundMoney(c.value) : c.value) : null;
    if (c) {
      provenance[f] = { page: c.page, bbox: c.bbox, source: c.source };
      confidence[f] = c.score;
    }
  }
  if (fields.currency === null) {
    // The contract's default: INR unless the document says otherwise.
    fields.currency = 'INR';
    confidence.currency = CONFIDENCE.defaultCurrency;
  }
  return { fields, provenance, confidence };
}

/**
 * The e-invoice QR, the most trusted source, over the printed header; a mismatch is a check.
 * Returns whether the header came from the QR (three fields or more).
 */
function applyQr(qr: QrReading, header: Header, checks: CheckResult[]): boolean {
  const { fields, provenance, confidence } = header;
  const p = qr.payload;
  const fromQr: Array<[string, FieldValue | undefined]> = [
    ['vendorGstin', p.SellerGstin],
    ['buyerGstin', p.BuyerGstin],
    ['documentNumber', p.DocNo],
    ['documentDate', qr.docDate],
    ['total', typeof p.TotInvVal === 'number' ? roundMoney(p.TotInvVal) : undefined],
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
    const badGstin = f.endsWith('Gstin') && !isValidGstin(String(v));
    if (badGstin && typeof printed === 'string' && isValidGstin(printed)) continue;
    fields[f] = v;
    provenance[f] = { page: qr.page, bbox: qr.bbox ?? [0, 0, 0, 0], source: 'qr' };
    confidence[f] = qr.signatureValid ? CONFIDENCE.signedQr : CONFIDENCE.unsignedQr;
    used++;
  }
  checks.push({
    code: 'qr_matches_printed',
    field: null,
    ok: mismatches.length === 0,
    message: mismatches.join('; '),
  });
  return used >= QR_HEADER_FIELDS;
}

/**
 * Final confidences: raised where a rule of the document vouches for a value, capped where nothing
 * corroborates it, refuted amounts withheld, all rounded to two places. Returns whether the totals
 * block adds up with a tax charged.
 */
function settleConfidence(
  result: Pick<Interpretation, 'fields' | 'confidence' | 'provenance' | 'checks' | 'warnings'>,
  evidence: {
    amountsConsistent: boolean;
    wordsAmount: number | null;
    lines: Array<Record<string, unknown>>;
    /** Charges printed after the lines (shipping, packing): part of the taxable value. */
    charges: number;
    /** The taxable value is the lines' sum, read under no label: the lines do not confirm it. */
    taxableFromLines: boolean;
  },
  disputed: Set<string>,
): boolean {
  const { fields, confidence, provenance, checks } = result;
  const { amountsConsistent, wordsAmount } = evidence;
  // A set adds up for real only when a tax makes the sum (taxable = total adds up trivially).
  const taxCharged = ['cgst', 'sgst', 'igst'].some((f) => typeof fields[f] === 'number' && fields[f] > 0);
  // Words that state only the rupees of a total with paise agree with it, but do not vouch for it.
  const wordsExact =
    typeof fields.total === 'number' && wordsAmount !== null && Math.abs(wordsAmount - fields.total) <= TOL;
  const vouched = calibrateConfidence(confidence, provenance, checks, {
    amountsConsistent,
    taxCharged,
    wordsExact,
    taxableFromLines: evidence.taxableFromLines,
  });
  requireCorroboration(fields, confidence, { provenance, checks, vouched, disputed });
  if (!(amountsConsistent && taxCharged))
    withholdRefutedAmounts(result, {
      wordsAmount,
      lineSum: sumOfLineAmounts(evidence.lines),
      charges: evidence.charges,
    });
  for (const k of Object.keys(confidence))
    confidence[k] = Math.round(Math.min(1, confidence[k]!) * CONFIDENCE_STEPS) / CONFIDENCE_STEPS;
  return amountsConsistent && taxCharged;
}

/**
 * A wrong figure costs a finance team more than an empty one. In a totals block that does not add
 * up, a total the printed amount in words contradicts, or a taxable value read by OCR that its
 * lines contradict, is not given: the field stays empty, the failed check stays on the document,
 * and a warning says what was read.
 */
function withholdRefutedAmounts(
  result: Pick<Interpretation, 'fields' | 'confidence' | 'provenance' | 'checks' | 'warnings'>,
  evidence: { wordsAmount: number | null; lineSum: number | null; charges: number },
): void {
  const { fields, confidence, provenance, checks, warnings } = result;
  const { wordsAmount, lineSum, charges } = evidence;
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
    Math.abs(lineSum - total) <= TOL;
  // Lines that with the charges printed under them (shipping, packing) make the taxable value miss
  // no figure of it: the taxable value includes the charges (the check still asks for review).
  const withCharges =
    typeof taxable === 'number' &&
    lineSum !== null &&
    charges > 0 &&
    Math.abs(lineSum + charges - taxable) <= TOL;
  if (
    typeof taxable === 'number' &&
    byLines &&
    !grossLines &&
    !withCharges &&
    provenance.taxableValue?.source === 'ocr'
  )
    withhold('taxableValue', taxable, byLines.message);
}

/** Below the review line (0.8): a value no second source confirms goes to a person. */
const UNCONFIRMED = 0.75;
/** A labelled reading another label on the page contradicts. */
const DISPUTED = 0.7;
/**
 * How close a rival labelled reading's score must come for the field to be disputed: any rival
 * at all for free text (no check settles it), a near tie for the rest.
 */
const DISPUTE_MARGIN = { freeText: 0.5, checked: 0.05 };

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
    const margin = FREE_TEXT.has(field) ? DISPUTE_MARGIN.freeText : DISPUTE_MARGIN.checked;
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
    if (agreement === 'conflict') cap(`${prefix}Name`, CONFIDENCE.nameConflictsGstin);
    if (agreement === 'unlikely') cap(`${prefix}Name`, UNCONFIRMED);
    if (looksLikeAddress(name)) cap(`${prefix}Name`, CONFIDENCE.nameLikeAddress);
  }

  for (const f of disputed) cap(f, DISPUTED);
  // No one invoices their own GSTIN (a branch transfer crosses GSTINs): one of the two readings
  // belongs to the other party, and which one is a person's call.
  if (typeof fields.vendorGstin === 'string' && fields.vendorGstin === fields.buyerGstin) {
    cap('vendorGstin', CONFIDENCE.sameGstinTwice);
    cap('buyerGstin', CONFIDENCE.sameGstinTwice);
  }
}

/** Money fields of the totals block. */
const AMOUNT_KEYS: readonly string[] = AMOUNT_FIELDS;
/** Free-text fields: nothing on the document can confirm them, so they are never "sure". */
const FREE_TEXT = new Set(['vendorName', 'buyerName', 'vendorAddress', 'buyerAddress', 'paymentTerms']);
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
  facts: { amountsConsistent: boolean; taxCharged: boolean; wordsExact: boolean; taxableFromLines: boolean },
): Set<string> {
  const { amountsConsistent, taxCharged, wordsExact, taxableFromLines } = facts;
  const vouched = new Set<string>();
  const raise = (f: string, to: number) => {
    if (!(f in confidence)) return;
    confidence[f] = Math.max(confidence[f]!, to);
    vouched.add(f);
  };
  for (const c of checks) {
    if (!c.field || !(c.field in confidence) || !c.ok) continue;
    if (c.code === 'amount_in_words_matches_total') {
      if (wordsExact) raise('total', CONFIDENCE.totalInWords);
    } else if (c.code === 'lines_sum_to_taxable_value') {
      // A taxable value that is the lines' sum is not confirmed by the lines a second time.
      if (!taxableFromLines) raise('taxableValue', CONFIDENCE.taxableFromLines);
    } else if (c.code === 'taxes_sum_to_total' && taxCharged) raise('total', CONFIDENCE.totalFromTaxes);
  }
  if (amountsConsistent && taxCharged) for (const f of AMOUNT_KEYS) raise(f, CONFIDENCE.blockAddsUp);
  // A failed check outweighs any other evidence for its field. A totals block that does not add
  // up says one of its figures is wrong, not which: none of them stays sure (but the QR's).
  for (const c of checks) {
    if (c.ok || !c.field || !(c.field in confidence)) continue;
    confidence[c.field] = Math.min(confidence[c.field]!, CONFIDENCE.failedCheck);
    vouched.delete(c.field);
    if (c.code === 'taxes_sum_to_total')
      for (const f of AMOUNT_KEYS.filter((k) => k !== 'total'))
        if (f in confidence && provenance[f]?.source !== 'qr') {
          confidence[f] = Math.min(confidence[f]!, UNCONFIRMED);
          vouched.delete(f);
        }
  }
  for (const [f, p] of Object.entries(provenance)) {
    if (p.source === 'qr' || vouched.has(f) || !(f in confidence)) continue;
    if (p.source === 'ocr') confidence[f] = Math.min(confidence[f]!, UNVOUCHED_OCR);
    if (FREE_TEXT.has(f)) confidence[f] = Math.min(confidence[f]!, UNVOUCHED_TEXT);
  }
  return vouched;
}
