/**
 * One printed figure for all the GST charged ("Total Tax 1,800.00", "Total Tax Amount 9,450.00",
 * "GST Amount 3,240.50"). Many invoices print it instead of, or beside, the heads: with it the
 * totals block can add up (taxable + tax + cess + round-off = total) where the heads were not read,
 * and the heads follow from the supply — IGST between states, equal CGST and SGST within one.
 */
import { roundMoney, toPaise } from '@bahi/india';
import type { Layout, Segment } from '../layout.ts';
import { AMOUNT_SCORE, rupeesOf, PAISA_TOLERANCE as TOL } from './amount-weights.ts';
import { type AmountField, isPercent, moneyOf, taxesAreSlabOf } from './amounts.ts';
import { type Candidate, candidateFrom } from './header.ts';
import { matchStart } from './labels.ts';
import { CHARGE_LABELS, TAX_TOTAL_LABELS } from './vocabulary.ts';

/** Every "total tax" figure on the document: a label with the right-most figure after it on its line. */
export function collectTaxTotals(layout: Layout, skip: (s: Segment) => boolean): Candidate[] {
  return labelledFigures(layout, skip, TAX_TOTAL_LABELS, 'taxTotal');
}

/**
 * The sum of the charges a totals block adds after the taxes ("Shipping Charges", "Freight",
 * "Adjustment"), one figure per labelled row outside the item table; 0 when none is printed.
 */
export function sumOfCharges(layout: Layout, skip: (s: Segment) => boolean): number {
  const found = labelledFigures(layout, skip, CHARGE_LABELS, 'charge');
  return roundMoney(found.reduce((a, c) => a + Number(c.value), 0));
}

/** Figures after a label of `labels`, one per labelled segment, outside the item table. */
function labelledFigures(
  layout: Layout,
  skip: (s: Segment) => boolean,
  labels: RegExp[],
  field: string,
): Candidate[] {
  const out: Candidate[] = [];
  for (const line of layout.lines) {
    // Inside an item table "Tax Amount" is a column heading over each line's own tax.
    if (line.segments.some(skip)) continue;
    line.segments.forEach((s, k) => {
      const end = matchStart(s.text, labels);
      if (end === null) return;
      const rest = s.text.slice(end).replace(/^[\s:*=-]+/, '');
      const own = rest ? moneyOf({ ...s, text: rest }) : null;
      const figure = line.segments
        .slice(k + 1)
        .filter((x) => !isPercent(x.text) && moneyOf(x) !== null)
        .at(own === null ? 0 : -1);
      const seg = own === null ? figure : s;
      const value = own ?? (figure ? moneyOf(figure) : null);
      if (!seg || value === null || value <= 0) return;
      const span = { value, start: 0, end: seg.text.length };
      out.push({ ...candidateFrom(field, seg, span, 0, AMOUNT_SCORE.labelledExtra), value });
    });
  }
  return out;
}

type Values = Partial<Record<AmountField, Candidate>>;

const num = (c: Candidate | undefined) => (c ? Number(c.value) : 0);

/**
 * Complete a totals block that does not add up with a "total tax" figure: the taxable value, the
 * total or the heads missing are derived where taxable + tax + cess + round-off = total holds, and a
 * derived taxable value or total must be printed on the document (or the tax be a GST slab of it).
 * Heads already read must sum to the figure; missing heads are filled only when the supply is known
 * (CGST and SGST in equal halves within a state, IGST between states). Changes `values` in place;
 * returns whether the block now adds up.
 */
export function completeFromTaxTotal(
  values: Values,
  taxTotals: Candidate[],
  printed: Map<number, Candidate>,
  supply: 'intra' | 'inter' | null,
): boolean {
  for (const taxTotal of taxTotals) {
    const tax = Number(taxTotal.value);
    const plan = planWith(values, tax, printed);
    if (!plan) continue;
    const heads = headsFor(values, tax, supply, taxTotal);
    if (!heads) continue;
    Object.assign(values, plan, heads);
    return true;
  }
  return false;
}

/** The taxable value or total to add (or none) so that the block adds up with `tax`; null when it cannot. */
function planWith(values: Values, tax: number, printed: Map<number, Candidate>): Values | null {
  const { taxableValue: tv, total: t } = values;
  const extras = num(values.cess) + num(values.roundOff);
  const seen = (v: number, field: AmountField) => {
    const c = printed.get(toPaise(v));
    return c && v > 0 ? { ...c, field, value: roundMoney(v), score: AMOUNT_SCORE.derivedPrinted } : null;
  };
  if (tv && t) return Math.abs(roundMoney(num(tv) + tax + extras) - num(t)) <= TOL ? {} : null;
  if (t) {
    const base = roundMoney(num(t) - tax - extras);
    const backed = seen(base, 'taxableValue');
    if (backed) return { taxableValue: backed };
    // Not printed: only a tax that is exactly a GST slab of the remainder vouches for it.
    const slab = { ...t, field: 'taxableValue', value: base, score: AMOUNT_SCORE.derived };
    return base > 0 && taxesAreSlabOf(base, null, null, { ...t, value: tax }) ? { taxableValue: slab } : null;
  }
  if (tv) {
    const backed = seen(roundMoney(num(tv) + tax + extras), 'total');
    return backed ? { total: backed } : null;
  }
  return null;
}

/** The heads to add (possibly none) so they agree with `tax`; null when the heads read contradict it. */
function headsFor(
  values: Values,
  tax: number,
  supply: 'intra' | 'inter' | null,
  from: Candidate,
): Values | null {
  const { cgst, sgst, igst } = values;
  const read = num(cgst) + num(sgst) + num(igst);
  if (cgst || sgst || igst) {
    if (Math.abs(read - tax) <= TOL) return {};
    // One half of the pair read: the other half is the rest, when it is equal.
    const half = cgst ?? sgst;
    if (half && !igst && !(cgst && sgst) && Math.abs(2 * num(half) - tax) <= TOL)
      return cgst
        ? { sgst: { ...cgst, field: 'sgst', score: AMOUNT_SCORE.mirroredHalf } }
        : { cgst: { ...sgst!, field: 'cgst', score: AMOUNT_SCORE.mirroredHalf } };
    return null;
  }
  const head = (field: AmountField, value: number): Candidate => ({
    ...from,
    field,
    value,
    score: AMOUNT_SCORE.derived,
  });
  if (supply === 'inter') return { igst: head('igst', tax) };
  const paise = toPaise(tax);
  if (supply === 'intra' && paise % 2 === 0)
    return { cgst: head('cgst', rupeesOf(paise / 2)), sgst: head('sgst', rupeesOf(paise / 2)) };
  // The supply is not known: the block adds up, the heads stay unread.
  return {};
}
