/**
 * The weights of the totals block in one table: how much each kind of reading of an amount is
 * believed, what the solver adds for a set that adds up, and the tolerances money is compared
 * with. Scores of one set's readings are summed, so they matter only relative to each other:
 * a labelled figure beats an unlabelled one, and a set that adds up with a tax charged gains more
 * than its seven readings can score together.
 */

/** Two amounts agree to the paisa (the engine's one money tolerance, `util.ts`). */
export { PAISA_TOLERANCE } from '../util.ts';

/** Paise in a rupee: amounts are keyed by their value in paise (`toPaise`). */
export const PAISE_PER_RUPEE = 100;

/** Rupees of a value in paise. */
export const rupeesOf = (paise: number): number => paise / PAISE_PER_RUPEE;

/** Percent: GST rates are printed in percent of the taxable value. */
const PERCENT = 100;

/** `rate` percent of `amount` (18 % of 1,500.00 is 270.00). */
export const percentOf = (amount: number, rate: number): number => (amount * rate) / PERCENT;

/** How much a reading of one amount is believed, by where and how it was read. */
export const AMOUNT_SCORE = {
  /** A label that starts its row, with the right-most figure after it. */
  labelFirst: 1,
  /** A label further into its row ("Total: | Rupees … Only | Total Before Tax | 4,50,000.00"). */
  labelInRow: 0.85,
  /** A figure under its label in a row of labels (the e-invoice summary "Tax'ble Amt | CGST Amt"). */
  underLabel: 0.95,
  /** A figure under its heading in a tax summary table's total row. */
  summaryRow: 0.9,
  /** A lone unlabelled figure (Tally's sub-total): kept only when the document then adds up. */
  unlabelled: 0.1,
  /** The sum of a head's per-slab readings ("CGST @ 2.5%" + "CGST @ 9%"). */
  slabSum: 0.6,
  /** Any figure printed on the document, as a witness for a derived value. */
  printed: 0.5,
  /** A missing amount derived from the others and printed somewhere on the document. */
  derivedPrinted: 0.6,
  /** A missing amount derived from the others and backed by the lines' sum or a GST slab. */
  derived: 0.55,
  /** A CGST or SGST half copied from the other (the law has them equal). */
  mirroredHalf: 0.5,
  /** The amount in words standing for the total when no figure states it. */
  fromWords: 0.45,
  /** The lines' sum as the taxable value when the taxes read are exactly a GST slab of it. */
  slabBase: 0.6,
  /** A figure of the one printed triple base + tax = total whose tax is a GST slab of its base. */
  tripleFigure: 0.6,
  /** A figure after a "total tax" or charge label. */
  labelledExtra: 0.9,
  /**
   * An order's value (GST extra) as the lines' sum printed on the page, lines priced before tax:
   * two readings agree, but no label names it, so above the review line and below "sure".
   */
  orderValueFromLines: 0.85,
} as const;

/** Factors a reading's score is multiplied by when it is read in a weaker way. */
export const AMOUNT_SCORE_FACTOR = {
  /** Label and figure in one segment ("IGST 34,549.20"): a little below a figure in its own cell. */
  inLabelSegment: 0.95,
  /** A round-off printed without its sign, read as negative. */
  unsignedRoundOff: 0.9,
  /** A figure labelled a total tried as the taxable value ("A TOTAL … | B IGST … | Total Payable"). */
  totalAsTaxable: 0.5,
} as const;

/** What a total reading gains when the printed amount in words states it. */
export const WORDS_AGREE_BONUS = {
  /** The very figure (48,215.40 and words for 48,215.40). */
  sameFigure: 0.5,
  /** Only its rupees (48,215.40 and words for 48,215): the paise are not stated. */
  sameRupees: 0.3,
} as const;

/** Score thresholds of single readings. */
export const READING = {
  /** At or under it a reading is weak (an unlabelled figure): kept only when the set adds up. */
  weak: 0.2,
  /** A tax head read at least this well is plainly printed: a set without tax contradicts it. */
  plainTax: 0.8,
} as const;

/** What the solver adds to a set's summed scores. */
export const SOLVER_BONUS = {
  /** The set adds up with a tax charged: beats any set that does not add up. */
  addsUpTaxed: 10,
  /** The set adds up without tax (taxable value = total): counts, but less than a taxed sum. */
  addsUpUntaxed: 5,
  /** The total is the sum rounded to the rupee with no round-off printed. */
  silentlyRounded: 9,
  /** As `silentlyRounded`, and the exact sum is printed as a total too: the rounded one is payable. */
  roundedBesideExact: 10.5,
  /** The taxable value equals the lines' sum. */
  taxableIsLineSum: 1,
  /** Nothing adds up: the largest labelled total is the grand total (tie-breaker). */
  largestTotal: 0.05,
  /** CGST and SGST read equal, as the law has them. */
  equalHalves: 0.3,
} as const;

/** How many readings per field the solver tries (the best-scored first). */
export const SOLVER_OPTIONS = {
  total: 5,
  taxableValue: 6,
  /** Each of CGST, SGST, IGST and cess. */
  head: 3,
  roundOff: 3,
  /** Total readings also tried as the taxable value. */
  totalAsTaxable: 3,
} as const;

/** Scores closer than this are equal: the first set found stays best. */
export const SCORE_EPSILON = 1e-9;
