import { roundMoney, supplyTypeFor, toPaise } from '@bahi/india';
import { wordsStateTotal } from './checks.ts';
import { completeFromTriple } from './fields/amount-triples.ts';
import {
  AMOUNT_SCORE,
  PAISE_PER_RUPEE,
  PAISA_TOLERANCE as TOL,
  WORDS_AGREE_BONUS,
} from './fields/amount-weights.ts';
import {
  collectAmountCandidates,
  completeFromLines,
  completeTaxableFromSlab,
  moneyOf,
  printedAmounts,
  solveAmounts,
} from './fields/amounts.ts';
import type { Candidate } from './fields/header.ts';
import type { Party } from './fields/parties.ts';
import {
  applyDocumentGstRate,
  deriveDocumentGstRate,
  doubleHalfRates,
  findDocumentGstRate,
} from './fields/tax-rates.ts';
import { collectTaxTotals, completeFromTaxTotal, sumOfCharges } from './fields/tax-total.ts';
import { boxOf, type Layout, type Segment } from './layout.ts';
import type { MoneyRules } from './profiles/index.ts';
import { impliedLineRate } from './tables/implied-rate.ts';
import type { LineItemsResult } from './tables/index.ts';

/** What the money stage reads from and writes into (`chosen` gets the header amounts). */
export interface MoneyContext {
  layout: Layout;
  skip: (s: Segment) => boolean;
  tables: LineItemsResult;
  chosen: Map<string, Candidate>;
  parties: { vendor: Party; buyer: Party };
  /** The printed amount in words and the line it is on. */
  words: { value: number; line: number } | null;
  money: MoneyRules;
}

/**
 * The header amounts of a document whose type carries money: every candidate gathered, the set
 * that satisfies the GST arithmetic chosen, gaps completed from the lines, tax totals or a GST slab,
 * then the lines' rates settled from the document's. Returns whether the amounts add up, the
 * charges printed after the lines (shipping, packing) that belong to the taxable value, and whether
 * the taxable value is the lines' sum itself, read under no label (the lines then do not confirm it).
 */
export function solveMoney(ctx: MoneyContext): {
  consistent: boolean;
  charges: number;
  taxableFromLines: boolean;
} {
  const { layout, skip, tables, chosen, parties, words, money } = ctx;
  const cands = collectAmountCandidates(layout, skip);
  const printed = printedAmounts(layout);
  if (words) weighAmountInWords(cands, printed, words, layout);
  for (const list of cands.values()) list.sort((a, b) => b.score - a.score);
  const amounts = tables.lineItems.map((l) => l.amount).filter((a): a is number => typeof a === 'number');
  const lineSum = amounts.length ? roundMoney(amounts.reduce((a, b) => a + b, 0)) : null;
  const taxTotals = collectTaxTotals(layout, skip);
  const charges = sumOfCharges(layout, skip);
  const solved = solveAmounts(cands, lineSum, printed, taxTotals.length > 0, charges);
  if (money.taxMayBeExtra) completeTaxExtraTotals(solved.values, layout, tables.lineItems, printed);
  let consistent = solved.consistent;
  if (!consistent) {
    const supplier = parties.vendor.stateCode?.value;
    const pos = chosen.get('placeOfSupply')?.value ?? parties.buyer.stateCode?.value;
    const supply =
      typeof supplier === 'string' && typeof pos === 'string' ? supplyTypeFor(supplier, pos) : null;
    consistent =
      completeFromLines(solved.values, lineSum, printed, supply) ||
      completeFromTaxTotal(solved.values, taxTotals, printed, supply) ||
      completeFromTriple(solved.values, printed, cands.get('total') ?? [], supply) ||
      completeTaxableFromSlab(solved.values, lineSum);
    if (!consistent) completeOtherHalf(solved.values, layout);
  }
  for (const [f, c] of Object.entries(solved.values)) if (c) chosen.set(f, { ...c, field: f });
  const taxable = solved.values.taxableValue?.value;
  if (consistent && typeof taxable === 'number') rescaleLinesToTaxable(tables.lineItems, taxable);
  settleLineRates(ctx, solved.values, typeof taxable === 'number' ? taxable : lineSum, printed.keys());
  return { consistent, charges, taxableFromLines: derivedFromLines(taxable, lineSum, cands) };
}

/**
 * Whether a taxable value equal to the lines' sum was put there by arithmetic: no figure labelled
 * a taxable value or a total reads it. The lines are then its only source, and their check
 * cannot vouch for it a second time.
 */
function derivedFromLines(
  taxable: Candidate['value'] | undefined,
  lineSum: number | null,
  cands: Map<string, Candidate[]>,
): boolean {
  if (typeof taxable !== 'number' || lineSum === null || Math.abs(taxable - lineSum) > TOL) return false;
  const read = [...(cands.get('taxableValue') ?? []), ...(cands.get('total') ?? [])];
  return !read.some((c) => Math.abs(Number(c.value) - taxable) <= TOL);
}

/**
 * One GST half read and the other not (its label misread: "C.G.S.I"), with the block not adding
 * up: the row right above or below the half's row ends in the same figure. CGST and SGST are equal
 * by law and printed in adjacent rows, so that row is the other half; with nothing else to confirm
 * it, it stays below the review line. Changes `values` in place.
 */
function completeOtherHalf(values: Partial<Record<string, Candidate>>, layout: Layout): void {
  if (values.igst?.value || (values.cgst && values.sgst) || (!values.cgst && !values.sgst)) return;
  const half = (values.cgst ?? values.sgst)!;
  const value = Number(half.value);
  if (!(value > 0)) return;
  const [, top, , bottom] = half.bbox;
  const at = layout.lines.findIndex((l) => l.page === half.page && l.y0 <= bottom && l.y1 >= top);
  if (at < 0) return;
  const endsInHalf = (k: number) => {
    const line = layout.lines[k];
    const last = line?.page === half.page ? line.segments.at(-1) : undefined;
    return !!last && line !== layout.lines[at] && moneyOf(last) === value;
  };
  const other = [at - 1, at + 1].filter(endsInHalf);
  if (other.length !== 1) return;
  const row = layout.lines[other[0]!]!.segments.at(-1)!;
  const field = values.cgst ? 'sgst' : 'cgst';
  values[field] = { ...half, field, bbox: boxOf(row.words), score: AMOUNT_SCORE.mirroredHalf };
}

/**
 * A total that equals the amount in words is the one the document means; when no figure reads as
 * that total (a misread rupee sign or digit), the words themselves are a reading.
 */
function weighAmountInWords(
  cands: Map<string, Candidate[]>,
  printed: Map<number, Candidate>,
  words: { value: number; line: number },
  layout: Layout,
): void {
  const totals = cands.get('total') ?? [];
  let agreed = false;
  for (const c of totals)
    if (wordsStateTotal(words.value, Number(c.value))) {
      // The very figure beats one that only shares its rupees (48,215.40 vs words "48,215").
      c.score +=
        Math.abs(words.value - Number(c.value)) <= TOL
          ? WORDS_AGREE_BONUS.sameFigure
          : WORDS_AGREE_BONUS.sameRupees;
      agreed = true;
    }
  const line = layout.lines[words.line]!;
  const fromWords: Candidate = {
    field: 'total',
    value: words.value,
    page: line.page,
    bbox: boxOf(line.words),
    source: line.words[0]?.source ?? 'text',
    score: AMOUNT_SCORE.fromWords,
  };
  if (!agreed) cands.set('total', [...totals, fromWords]);
  const key = toPaise(words.value);
  if (!printed.has(key)) printed.set(key, fromWords);
}

/** Lines without their own rate take the document's single printed rate ("CGST @ 9%" + "SGST @ 9%"). */
function settleLineRates(
  ctx: MoneyContext,
  values: Partial<Record<string, Candidate>>,
  base: number | null,
  printedKeys: Iterable<number>,
): void {
  const { layout, skip, tables, chosen, parties } = ctx;
  const head = (f: 'cgst' | 'sgst' | 'igst') => {
    const v = values[f]?.value;
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
  // A printed rate first; else the slab the taxes are of the taxable value (an accident elsewhere);
  // else the slab whose taxes on the lines' amounts the document prints.
  const documentRate =
    findDocumentGstRate(layout, skip) ??
    deriveDocumentGstRate(base, tax) ??
    impliedLineRate(tables.lineItems, layout);
  applyDocumentGstRate(tables.lineItems, documentRate, { taxable: base, tax }, printedKeys);
}

/** "GST extra as applicable", "Taxes extra", "plus GST": the order's value leaves tax to the invoice. */
const TAX_EXTRA =
  /\b(?:gst|taxes|tax|igst|cgst)\b[^.]{0,20}\b(?:extra|additional|excluded)\b|\b(?:plus|\+)\s*(?:gst|taxes)\b|\bexclusive of (?:gst|taxes)\b/i;

/** A row carrying one tax amount: "GST (₹) 36000.00", "Total Tax Amount 1,234.00", "Tax : 540". */
const TAX_AMOUNT_ROW =
  /^\s*(?:total |add )?(?:gst|tax)(?: amount| amt)?\b[^%\d]{0,12}[₹\s:]*[1-9][\d,]*(?:\.\d{1,2})?\s*$/i;

/**
 * A purchase order that computes no tax prints one pre-tax value: it is both the taxable value and
 * the order's total (the contract's reading of such POs). It computes none when the order says GST
 * is extra, or when its total is the sum of lines priced before tax (quantity × rate − discount);
 * and never when a tax amount was read. An order that says GST is extra and prints no total at
 * all has the lines' sum as its value, when the page prints that sum (a single line's amount is).
 */
function completeTaxExtraTotals(
  values: Partial<Record<string, Candidate>>,
  layout: Layout,
  lines: Array<Record<string, unknown>>,
  printed: Map<number, Candidate>,
): void {
  if (values.cgst || values.sgst || values.igst) return;
  // A tax amount printed as one figure ("GST (₹)  36000.00") means the tax was computed after all.
  if (layout.lines.some((l) => TAX_AMOUNT_ROW.test(l.text))) return;
  const tv = values.taxableValue;
  const total = values.total;
  const extra = layout.lines.some((l) => TAX_EXTRA.test(l.text));
  const lineSum = sumOfLineAmounts(lines);
  if (tv && !total && extra) values.total = { ...tv, field: 'total' };
  else if (total && !tv && (extra || (sameMoney(total.value, lineSum) && pricedBeforeTax(lines))))
    values.taxableValue = { ...total, field: 'taxableValue' };
  else if (!tv && !total && extra && lineSum !== null && lineSum > 0) {
    const seen = printed.get(toPaise(lineSum));
    if (!seen) return;
    // Not read under a label: below "sure"; below the review line unless the lines' own
    // quantity × rate confirm their amounts.
    const score = pricedBeforeTax(lines) ? AMOUNT_SCORE.orderValueFromLines : AMOUNT_SCORE.derived;
    const fromLines = { ...seen, value: lineSum, score };
    values.taxableValue = { ...fromLines, field: 'taxableValue' };
    values.total = { ...fromLines, field: 'total' };
  }
}

/** The sum of the lines' amounts when every line has one. */
export function sumOfLineAmounts(lines: Array<Record<string, unknown>>): number | null {
  const amounts = lines.map((l) => l.amount);
  if (!amounts.length || !amounts.every((a): a is number => typeof a === 'number')) return null;
  return roundMoney(amounts.reduce((a, b) => a + b, 0));
}

/** Two amounts the same to the paisa. */
const sameMoney = (a: unknown, b: number | null) =>
  typeof a === 'number' && b !== null && Math.abs(a - b) <= TOL;

/**
 * Lines priced before tax: every line that prints a quantity and a rate has them make its amount
 * (less its discount), and at least one does. An amount column that carries the tax fails it.
 */
function pricedBeforeTax(lines: Array<Record<string, unknown>>): boolean {
  const priced = lines.filter((l) => typeof l.quantity === 'number' && typeof l.rate === 'number');
  return (
    priced.length > 0 &&
    priced.every((l) => {
      const net =
        (l.quantity as number) * (l.rate as number) - (typeof l.discount === 'number' ? l.discount : 0);
      return sameMoney(l.amount, roundMoney(net));
    })
  );
}

/** Powers of ten a line's amount may be off by (a decimal point lost before one to three places). */
const DECIMAL_SHIFTS = [10, 100, 1000];
/** The base of those shifts: OCR loses decimal points, so figures are off by powers of ten. */
const DECIMAL_BASE = 10;
/** The powers of ten a quantity is tried at, to give a rescaled line's amount. */
const QUANTITY_EXPONENTS = { min: -3, max: 3 };
/** The powers of ten a rate is tried at (a rate is money, whose decimal point OCR loses too). */
const RATE_EXPONENTS = { min: -5, max: 3 };
/** Quantities are printed to at most three decimals. */
const QUANTITY_SCALE = 1000;
/** Float slack when checking that a product is printable or equals an amount. */
const FLOAT_SLACK = 1e-6;
/** Moving a quantity's decimal point counts more than a rate's: OCR loses money's points more often. */
const QUANTITY_MOVE_COST = 1.5;

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
  if (Math.abs(sum - taxable) <= TOL) return false;
  const scales = DECIMAL_SHIFTS;
  const fixes: Array<Array<[number, number]>> = [];
  const near = (x: number) => Math.abs(x - taxable) <= TOL;
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
    for (let qe = QUANTITY_EXPONENTS.min; qe <= QUANTITY_EXPONENTS.max; qe++)
      for (let re = RATE_EXPONENTS.min; re <= RATE_EXPONENTS.max; re++) {
        const q2 = q * DECIMAL_BASE ** qe;
        const r2 = r * DECIMAL_BASE ** re;
        if (!printable(q2, QUANTITY_SCALE) || !printable(r2, PAISE_PER_RUPEE)) continue;
        if (Math.abs(q2 * r2 - d - amount) > TOL + amount * FLOAT_SLACK) continue;
        const moves = QUANTITY_MOVE_COST * Math.abs(qe) + Math.abs(re);
        if (!best || moves < best.moves)
          best = { q: Math.round(q2 * QUANTITY_SCALE) / QUANTITY_SCALE, r: roundMoney(r2), moves };
      }
    if (best) {
      line.quantity = best.q;
      line.rate = best.r;
    }
  }
  return true;
}

/** Whether a value is printable in steps of 1/`scale` (to three decimals for 1000). */
const printable = (v: number, scale: number) => Math.abs(v * scale - Math.round(v * scale)) <= FLOAT_SLACK;
