import { isCleanAmountInWords, parseAmountInWords, roundMoney, validateGstin } from '@bahi/india';
import { PAISA_TOLERANCE as TOL } from './fields/amount-weights.ts';
import type { Layout, Line, Segment } from './layout.ts';
import { wordPhrases } from './phrases.ts';
import { type MoneyRules, profileOf } from './profiles/index.ts';
import type { CheckResult, FieldValue } from './result.ts';
import type { DocumentType } from './types.ts';

const num = (v: FieldValue | undefined): number | null => (typeof v === 'number' ? v : null);
const str = (v: FieldValue | undefined): string | null => (typeof v === 'string' && v ? v : null);

/** The number words below a hundred: an amount in words names at least one of them. */
const UNIT_WORDS = [
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
];
/** Any number word of an amount in words. */
const NUMBER_WORD = wordPhrases([
  ...UNIT_WORDS,
  'hundred',
  'thousand',
  'thousands',
  'lakh',
  'lakhs',
  'crore',
  'crores',
]);
/** A scale word: a line that holds one may hold an amount in words. */
const SCALE_WORD = wordPhrases(['lakh', 'lakhs', 'crore', 'crores', 'thousand', 'hundred']);
/** The "only" that ends an amount in words. */
const ONLY_WORD = wordPhrases(['only']);
const TAX_WORD = wordPhrases(['tax']);
const TAX_AMOUNT_WORDS = wordPhrases(['tax amount']);
/**
 * The amount in words in a text: its first number word below a hundred with what leads up to it
 * (back to a colon), through "only" or the end of the text.
 */
const AMOUNT_IN_WORDS = new RegExp(String.raw`[^:]*?\b(?:${UNIT_WORDS.join('|')})\b.*?(?:\bonly\b|$)`, 'i');
/** How far (pt) the amount in words' column reaches past its first and last segment. */
const WORDS_COLUMN_SLACK = 20;
/** Quantities balance when they agree to this (they are printed to three decimals at most). */
const QUANTITY_SLACK = 1e-6;

/**
 * The segments of a line from its first to its last segment holding number words (and "only"):
 * cells beside the words on either side ("7 Payment Terms 30 Days" | "Rs. Thirty Four Lakh…")
 * are other columns.
 */
function wordsSegments(line: Line): Segment[] {
  const idx = line.segments.map((s, k) => (NUMBER_WORD.test(s.text) ? k : -1)).filter((k) => k >= 0);
  if (!idx.length) return line.segments;
  let first = idx[0]!;
  let last = idx[idx.length - 1]!;
  // A label cell just before the words ("Amount in words:", "Rupees") belongs to them.
  if (first > 0 && /(?:words|rupees|inr|rs\.?)\s*:?\s*$/i.test(line.segments[first - 1]!.text)) first--;
  if (/^\s*only\b/i.test(line.segments[last + 1]?.text ?? '')) last++;
  return line.segments.slice(first, last + 1);
}

/** The text of the amount in words on its first line, without columns to its right. */
function wordsColumnText(line: Line): string {
  return wordsSegments(line)
    .map((s) => s.text)
    .join(' ');
}

/** The amount in words' column: from its first segment to a little right of its last. */
function wordsColumn(line: Line): [number, number] {
  const segs = wordsSegments(line);
  return [
    (segs[0]?.x0 ?? 0) - WORDS_COLUMN_SLACK,
    (segs[segs.length - 1]?.x1 ?? Number.POSITIVE_INFINITY) + WORDS_COLUMN_SLACK,
  ];
}

/** The printed amount in words ("INR One Lakh ... Only"), ignoring a tax-amount-in-words line. */
/**
 * Whether an amount in words states `total`: the same figure, or its rupees when the words give
 * no paise ("Four Lakh Fifty Six Thousand Seven Hundred Eighty Nine Only" for 4,56,789.50, as many ERPs print).
 */
export function wordsStateTotal(words: number, total: number): boolean {
  if (Math.abs(words - total) <= TOL) return true;
  return Number.isInteger(words) && total > 0 && Math.trunc(total) === words;
}

export function findAmountInWords(layout: Layout): { value: number; line: number } | null {
  const lines = layout.lines;
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.text;
    if (!SCALE_WORD.test(t)) continue;
    // "Tax Amount (in words)" states the tax, not the total.
    const prev = lines[i - 1]?.text ?? '';
    if (
      TAX_WORD.test(t.split(':')[0] ?? '') ||
      (TAX_AMOUNT_WORDS.test(prev) && prev.toLowerCase().includes('in words'))
    )
      continue;
    let text = wordsColumnText(lines[i]!);
    const [colStart, colEnd] = wordsColumn(lines[i]!);
    // Words OCR could not read that go on below the last number word ("Two Thousand Seven Hundred
    // Twenty" over "Foutr Sevcn"): the reading may stop short of the amount.
    let cutShort = false;
    // The words wrap onto the next lines of their own column; a totals column beside them
    // ("Gross Amount 2311.86") is not part of them.
    for (let k = 1; k <= 2 && !ONLY_WORD.test(text) && lines[i + k]; k++) {
      const next = lines[i + k]!;
      if (next.page !== lines[i]!.page) break;
      const own = next.segments
        .filter((s) => s.x0 < colEnd && s.x1 > colStart)
        .map((s) => s.text)
        .join(' ');
      if (!NUMBER_WORD.test(own) && !ONLY_WORD.test(own)) {
        cutShort =
          next.words[0]?.source === 'ocr' &&
          k === 1 &&
          /^[A-Za-z]{3,}(?:\s+[A-Za-z]{3,}){0,3}$/.test(own.trim());
        break;
      }
      text += ` ${own}`;
    }
    const m = AMOUNT_IN_WORDS.exec(text.replace(/^.*?(?:in words|chargeable)\s*\)?\s*:?/i, ''));
    // On a scan the words are believed only when every word OCR read is a number word: a garbled
    // reading ("Eight Eight Thousand Thousand Hundre") is no evidence for or against the total.
    const ocr = lines[i]!.words[0]?.source === 'ocr';
    // The first amount in words is the invoice's; one further down (after an HSN summary) is the
    // tax's. When the first cannot be read cleanly there is no reading, not the next one.
    if (m && ocr && (cutShort || !isCleanAmountInWords(m[0]))) return null;
    const value = m ? parseAmountInWords(m[0]) : null;
    if (value !== null && value > 0) return { value, line: i };
  }
  return null;
}

/**
 * Run the contract's checks over the chosen fields and lines. Every check that could run is
 * reported, passed or failed, so a reviewer sees why a document needs attention.
 */
export function runChecks(
  type: DocumentType,
  fields: Record<string, FieldValue>,
  lineItems: Array<Record<string, unknown>>,
  wordsAmount: number | null,
): CheckResult[] {
  const checks: CheckResult[] = [];
  checkGstins(fields, checks);
  const profile = profileOf(type);
  if (profile.money) checkMoney(fields, lineItems, wordsAmount, profile.money, checks);
  if (profile.lines.kind === 'receipt') checkReceiptQuantities(lineItems, checks);
  return checks;
}

/** Each party's GSTIN: its format, its check character, and the state code beside it. */
function checkGstins(fields: Record<string, FieldValue>, checks: CheckResult[]): void {
  for (const [gField, sField] of [
    ['vendorGstin', 'vendorStateCode'],
    ['buyerGstin', 'buyerStateCode'],
  ] as const) {
    const g = str(fields[gField]);
    if (!g) continue;
    const v = validateGstin(g);
    const formatOk = v.ok || v.problem === 'checksum';
    checks.push({
      code: 'gstin_format',
      field: gField,
      ok: formatOk,
      message: formatOk ? '' : v.ok ? '' : v.message,
    });
    if (formatOk)
      checks.push({
        code: 'gstin_checksum',
        field: gField,
        ok: v.ok,
        message: v.ok ? '' : `check character of ${g} does not match`,
      });
    const sc = str(fields[sField]);
    if (sc)
      checks.push({
        code: 'state_code_matches_gstin',
        field: sField,
        ok: g.slice(0, 2) === sc,
        message:
          g.slice(0, 2) === sc
            ? ''
            : `state code ${sc} but GSTIN ${g} is registered in state ${g.slice(0, 2)}`,
      });
  }
}

/** The GST arithmetic: tax heads for the place of supply, lines, taxes and words against the totals. */
function checkMoney(
  fields: Record<string, FieldValue>,
  lineItems: Array<Record<string, unknown>>,
  wordsAmount: number | null,
  money: MoneyRules,
  checks: CheckResult[],
): void {
  const supplier = str(fields.vendorStateCode) ?? str(fields.vendorGstin)?.slice(0, 2) ?? null;
  const pos =
    str(fields.placeOfSupply) ?? str(fields.buyerStateCode) ?? str(fields.buyerGstin)?.slice(0, 2) ?? null;
  const cgst = num(fields.cgst) ?? 0;
  const sgst = num(fields.sgst) ?? 0;
  const igst = num(fields.igst) ?? 0;
  if (supplier && pos && cgst + sgst + igst > 0) {
    const intra = supplier === pos;
    const ok = intra ? igst === 0 && cgst > 0 && sgst > 0 : cgst === 0 && sgst === 0 && igst > 0;
    checks.push({
      code: 'tax_type_matches_place_of_supply',
      field: intra ? 'cgst' : 'igst',
      ok,
      message: ok
        ? ''
        : intra
          ? `supplier state ${supplier} = place of supply ${pos}: expected CGST + SGST`
          : `supplier state ${supplier} ≠ place of supply ${pos}: expected IGST`,
    });
  }
  const taxable = num(fields.taxableValue);
  const amounts = lineItems.map((l) => l.amount).filter((a): a is number => typeof a === 'number');
  if (taxable !== null && amounts.length && amounts.length === lineItems.length) {
    const sum = roundMoney(amounts.reduce((a, b) => a + b, 0));
    const ok = Math.abs(sum - taxable) <= TOL;
    checks.push({
      code: 'lines_sum_to_taxable_value',
      field: 'taxableValue',
      ok,
      message: ok ? '' : `line amounts sum to ${sum}, taxable value is ${taxable}`,
    });
  }
  const total = num(fields.total);
  if (total !== null && taxable !== null) {
    const sum = roundMoney(
      taxable +
        cgst +
        sgst +
        igst +
        (num(fields.cess) ?? 0) +
        (money.roundOffInTotal ? (num(fields.roundOff) ?? 0) : 0),
    );
    const ok =
      Math.abs(sum - total) <= TOL || (money.totalMayBeRounded && Math.abs(Math.round(sum) - total) <= TOL);
    checks.push({
      code: 'taxes_sum_to_total',
      field: 'total',
      ok,
      message: ok ? '' : `taxable value + taxes = ${sum}, total is ${total}`,
    });
  }
  if (total !== null && wordsAmount !== null) {
    const ok = wordsStateTotal(wordsAmount, total);
    checks.push({
      code: 'amount_in_words_matches_total',
      field: 'total',
      ok,
      message: ok ? '' : `amount in words is ${wordsAmount}, total is ${total}`,
    });
  }
}

/** A goods receipt's lines: accepted + rejected = received. */
function checkReceiptQuantities(lineItems: Array<Record<string, unknown>>, checks: CheckResult[]): void {
  lineItems.forEach((l, i) => {
    const rec = typeof l.receivedQuantity === 'number' ? l.receivedQuantity : null;
    const acc = typeof l.acceptedQuantity === 'number' ? l.acceptedQuantity : null;
    const rej = typeof l.rejectedQuantity === 'number' ? l.rejectedQuantity : 0;
    if (rec === null || acc === null) return;
    const ok = Math.abs(acc + rej - rec) < QUANTITY_SLACK;
    checks.push({
      code: 'grn_quantities_balance',
      field: `lineItems[${i}]`,
      ok,
      message: ok ? '' : `line ${i + 1}: accepted ${acc} + rejected ${rej} ≠ received ${rec}`,
    });
  });
}

/** The checks {@link runChecks} computes from fields and lines alone; the others (the QR's) need the document. */
const FIELD_CHECKS = new Set<CheckResult['code']>([
  'gstin_format',
  'gstin_checksum',
  'state_code_matches_gstin',
  'tax_type_matches_place_of_supply',
  'lines_sum_to_taxable_value',
  'taxes_sum_to_total',
  'amount_in_words_matches_total',
  'grn_quantities_balance',
]);

/**
 * The amount in words the document prints, as the engine read it: the total it matched, or the
 * figure its failed check names. Null when the document prints none (no such check ran).
 */
export function readWordsAmount(result: {
  fields: Record<string, FieldValue>;
  checks: CheckResult[];
}): number | null {
  const check = result.checks.find((c) => c.code === 'amount_in_words_matches_total');
  if (!check) return null;
  if (check.ok) return num(result.fields.total);
  const m = /^amount in words is (-?\d+(?:\.\d+)?),/.exec(check.message);
  return m ? Number(m[1]) : null;
}

/**
 * The checks of a document after a person corrected its values: the field checks run again on the
 * corrected fields and lines (the amount in words as the engine read it from the paper, from the
 * result as extracted), the document-only checks (the QR against the print) kept as they were.
 */
export function recheckResult(
  extracted: { documentType: DocumentType | null; fields: Record<string, FieldValue>; checks: CheckResult[] },
  fields: Record<string, FieldValue>,
  lineItems: Array<Record<string, unknown>>,
): CheckResult[] {
  if (!extracted.documentType) return extracted.checks;
  const fresh = runChecks(extracted.documentType, fields, lineItems, readWordsAmount(extracted));
  return [...fresh, ...extracted.checks.filter((c) => !FIELD_CHECKS.has(c.code))];
}
