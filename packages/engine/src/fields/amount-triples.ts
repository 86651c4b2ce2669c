/**
 * The totals block by arithmetic alone, for prints whose labels were lost (a Tally sub-total and
 * tax printed without their row labels, a scan that dropped them): three figures printed on the
 * document where base + tax = total to the paisa and the tax is exactly a GST slab of the base
 * cannot be a coincidence. The total must be the largest figure printed (a line's own base, tax
 * and amount satisfy the same sums, but never with the document's largest figure), or one a label
 * calls the total.
 */
import { roundMoney, toPaise } from '@bahi/india';
import { AMOUNT_SCORE, rupeesOf, PAISA_TOLERANCE as TOL } from './amount-weights.ts';
import type { AmountField } from './amounts.ts';
import { AMOUNT_FIELDS, taxesAreSlabOf } from './amounts.ts';
import type { Candidate } from './header.ts';

type Values = Partial<Record<AmountField, Candidate>>;

/**
 * Replace a totals block that does not add up by the printed triple base + tax = total, when
 * exactly one such triple ends at the largest printed figure or at a labelled total. Heads follow
 * the print and the supply: CGST and SGST when both halves are printed (and the supply is not
 * between states), else IGST unless the supply is within one state.
 * Changes `values` in place; returns whether it did.
 */
export function completeFromTriple(
  values: Values,
  printed: Map<number, Candidate>,
  labelledTotals: Candidate[],
  supply: 'intra' | 'inter' | null,
): boolean {
  const amounts = [...printed.keys()].filter((k) => k > 0).sort((a, b) => b - a);
  const largest = amounts[0];
  if (largest === undefined) return false;
  const totals = new Set([largest, ...labelledTotals.map((c) => toPaise(Number(c.value)))]);
  const found: Array<{ base: number; tax: number; total: number }> = [];
  for (const total of totals) {
    if (!printed.has(total)) continue;
    for (const base of amounts) {
      const tax = total - base;
      if (tax <= 0 || tax >= base || !printed.has(tax)) continue;
      const taxC = { ...printed.get(tax)!, value: rupeesOf(tax) };
      if (taxesAreSlabOf(rupeesOf(base), null, null, taxC)) found.push({ base, tax, total });
    }
  }
  if (found.length !== 1) return false;
  const { base, tax, total } = found[0]!;
  const at = (k: number, field: AmountField): Candidate => ({
    ...printed.get(k)!,
    field,
    value: roundMoney(rupeesOf(k)),
    score: AMOUNT_SCORE.tripleFigure,
  });
  for (const f of AMOUNT_FIELDS) delete values[f];
  values.taxableValue = at(base, 'taxableValue');
  values.total = at(total, 'total');
  // Within a state the law has CGST and SGST printed apart: halves printed are those heads; a
  // tax printed only whole is IGST unless the supply is known to be within one state.
  const halves = tax % 2 === 0 && printed.has(tax / 2);
  if (halves && supply !== 'inter') {
    values.cgst = at(tax / 2, 'cgst');
    values.sgst = at(tax / 2, 'sgst');
  } else if (supply !== 'intra') values.igst = at(tax, 'igst');
  return Math.abs(roundMoney(rupeesOf(base + tax)) - rupeesOf(total)) <= TOL;
}
