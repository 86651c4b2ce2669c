import { gstSlabsOn } from '@bahi/india';
import type { Layout, Segment } from '../layout.ts';
import { PAISE_PER_RUPEE, percentOf, rupeesOf } from './amount-weights.ts';

/** The 6 % of a few goods (bricks under their special scheme), kept out of the slabs below. */
const BRICK_SCHEME_RATE = 6;

/**
 * Total GST rates (CGST + SGST, or IGST) charged on Indian goods and services, in percent, from
 * `@bahi/india`. A percentage outside this list beside a tax head is not a GST rate (a discount, a
 * TDS rate). Nil is left out (no rate to spread or derive), and so is the brick scheme's 6 %: a
 * "6 %" beside a tax head is all but always the CGST half of 12 %.
 */
export const GST_RATE_SLABS: readonly number[] = gstSlabsOn().filter((r) => r > 0 && r !== BRICK_SCHEME_RATE);

type Head = 'cgst' | 'sgst' | 'igst' | 'gst';

const HEAD = String.raw`(c|s|ut|i)?\s?gst`;
/** A rate as printed, its figure captured: "9%", "2.5 %", "18.00%". */
const RATE = String.raw`(\d{1,2}(?:\.\d{1,2})?)\s?%`;
/** "CGST @ 9%", "Add CGST (9%)", "IGST 18 %", "Output SGST@9.00%". */
const HEAD_THEN_RATE = new RegExp(String.raw`\b${HEAD}\b[^%\d\n]{0,12}?${RATE}`, 'gi');
/** "GST extra as applicable, current rate is 18%": a plain GST rate stated in a sentence of terms. */
const GST_IN_TERMS = new RegExp(String.raw`\bgst\b[^.%\d]{0,40}?\b${RATE}`, 'gi');
/** A cell holding only a percentage ("18%", "9.00 %"). */
const PERCENT_CELL = new RegExp(String.raw`^@?\s?${RATE}$`);
/** Lines above a rate cell in which its tax head's heading is looked for. */
const HEADING_LINES = 3;
/** A heading stands over a rate cell when their centres are this close (pt)… */
const HEADING_CENTRE_REACH = 50;
/** …or when it overlaps the cell widened by this much (pt) on either side. */
const HEADING_EDGE_SLACK = 10;
/**
 * How close the taxes must be to a slab of the taxable value for the slab to be the document's
 * rate: per-line rounding moves the tax by a rupee at most per few lines, which 0.5 % covers.
 */
const DERIVED_RATE_MATCH = { rupees: 1, shareOfTax: 0.005 };
/** How close the taxes must be to the document's printed rate of the taxable value (1 %). */
const PRINTED_RATE_MATCH = { rupees: 1, shareOfTax: 0.01 };
/** A bill discount explains the shortfall exactly to the rounding of the taxes (0.1 %, 10 paise). */
const DISCOUNT_MATCH = { rupees: 0.1, shareOfTax: 0.001 };
/** Column headings of the tax heads in an HSN / tax summary table. */
const HEAD_WORDS: Array<[RegExp, Head]> = [
  [/\b(?:cgst|central tax)\b/i, 'cgst'],
  [/\b(?:sgst|utgst|state tax|ut tax|state\/ut tax)\b/i, 'sgst'],
  [/\b(?:igst|integrated tax)\b/i, 'igst'],
];

/**
 * Percentages in a tax summary table: a cell holding only a rate, under a tax head's column
 * heading ("IGST" over "Rate" over "18%"; Tally's "Central Tax | Rate 9%") within three lines.
 */
function ratesUnderHeads(layout: Layout, skip: (s: Segment) => boolean): Array<{ head: Head; rate: number }> {
  const out: Array<{ head: Head; rate: number }> = [];
  for (const seg of layout.segments) {
    if (skip(seg)) continue;
    const m = PERCENT_CELL.exec(seg.text.trim());
    if (!m) continue;
    const cx = (seg.x0 + seg.x1) / 2;
    search: for (let k = seg.line - 1; k >= Math.max(0, seg.line - HEADING_LINES); k--) {
      const line = layout.lines[k]!;
      if (line.page !== seg.page) break;
      for (const above of line.segments) {
        if (
          Math.abs((above.x0 + above.x1) / 2 - cx) > HEADING_CENTRE_REACH &&
          (above.x1 < seg.x0 - HEADING_EDGE_SLACK || above.x0 > seg.x1 + HEADING_EDGE_SLACK)
        )
          continue;
        const head = HEAD_WORDS.find(([re]) => re.test(above.text))?.[1];
        if (head) {
          out.push({ head, rate: Number(m[1]) });
          break search;
        }
      }
    }
  }
  return out;
}

/** "9% CGST", "9.00 % SGST". */
const RATE_THEN_HEAD = new RegExp(String.raw`${RATE}\s?(?:of\s)?${HEAD}\b`, 'gi');

function headOf(prefix: string | undefined): Head {
  const p = (prefix ?? '').toLowerCase();
  if (p === 'c') return 'cgst';
  if (p === 's' || p === 'ut') return 'sgst';
  if (p === 'i') return 'igst';
  return 'gst';
}

/**
 * The single GST rate a document's tax rows print, or null. Tax rows outside the line-item table
 * ("CGST @ 9%", "SGST @ 9%" → 18; "IGST 18%" → 18) are read; a document whose tax rows print
 * more than one rate, or a CGST rate without its equal SGST rate, has no single rate.
 */
export function findDocumentGstRate(layout: Layout, skip: (s: Segment) => boolean): number | null {
  const rates: Record<Head, Set<number>> = {
    cgst: new Set(),
    sgst: new Set(),
    igst: new Set(),
    gst: new Set(),
  };
  for (const seg of layout.segments) {
    if (skip(seg)) continue;
    // "S.G.S.T" and "C. G. S. T." are the same heads.
    const text = seg.text.replace(
      /\b(?:([CSI]|UT)\.?\s?)?G\.\s?S\.\s?T\b\.?/gi,
      (_, p: string | undefined) => `${p ?? ''}GST`,
    );
    for (const m of text.matchAll(HEAD_THEN_RATE)) rates[headOf(m[1])].add(Number(m[2]));
    for (const m of text.matchAll(RATE_THEN_HEAD)) rates[headOf(m[2])].add(Number(m[1]));
    for (const m of text.matchAll(GST_IN_TERMS)) rates.gst.add(Number(m[1]));
  }
  for (const r of ratesUnderHeads(layout, skip)) rates[r.head].add(r.rate);
  const only = (s: Set<number>) => (s.size === 1 ? [...s][0]! : null);
  const c = only(rates.cgst);
  const s = only(rates.sgst);
  const i = only(rates.igst);
  let rate: number | null = null;
  if (rates.cgst.size || rates.sgst.size) {
    if (c === null || s === null || c !== s || rates.igst.size > 0) return null;
    rate = c + s;
  } else if (rates.igst.size) rate = i;
  else rate = only(rates.gst);
  return rate !== null && GST_RATE_SLABS.includes(rate) ? rate : null;
}

/**
 * The GST rate the document's taxes are of its taxable value, when that is one slab: 270.00 of
 * 1,500.00 is 18 %. A mix of rates averages to a figure between slabs, so a slab here means one rate
 * (the one blind spot, 0 % and 28 % lines averaging to a slab, needs a deliberate mix of both).
 */
export function deriveDocumentGstRate(taxable: number | null, tax: number | null): number | null {
  if (taxable === null || tax === null || taxable <= 0 || tax <= 0) return null;
  for (const slab of GST_RATE_SLABS) {
    const expected = percentOf(taxable, slab);
    if (
      Math.abs(expected - tax) <=
      Math.max(DERIVED_RATE_MATCH.rupees, DERIVED_RATE_MATCH.shareOfTax * expected)
    )
      return slab;
  }
  return null;
}

/**
 * Give every line without a rate the document's single GST rate, when one applies: no line shows
 * another rate, and when the totals are known, the taxes are that rate of the taxable value (or of
 * it less a printed discount; `printed` holds the document's figures in paise).
 * Returns whether lines were filled.
 */
export function applyDocumentGstRate(
  lines: Array<Record<string, unknown>>,
  rate: number | null,
  totals: { taxable: number | null; tax: number | null },
  printed: Iterable<number> = [],
): boolean {
  if (rate === null || !lines.length) return false;
  if (lines.some((l) => typeof l.gstRate === 'number' && l.gstRate !== rate)) return false;
  const { taxable, tax } = totals;
  if (taxable !== null && tax !== null && taxable > 0) {
    const expected = percentOf(taxable, rate);
    const slack = Math.max(PRINTED_RATE_MATCH.rupees, PRINTED_RATE_MATCH.shareOfTax * expected);
    // A discount on the whole bill ("Discount @ 2% … 586.57") lowers the base the tax is of: the
    // shortfall is then the rate of a figure the document prints.
    const shortfall = expected - tax;
    const discounted =
      shortfall > slack &&
      [...printed].some(
        // Exact to the rounding of the taxes, not the 1 % the plain check allows.
        (paise) =>
          paise < taxable * PAISE_PER_RUPEE &&
          Math.abs(percentOf(rupeesOf(paise), rate) - shortfall) <=
            Math.max(DISCOUNT_MATCH.rupees, DISCOUNT_MATCH.shareOfTax * expected),
      );
    if (Math.abs(shortfall) > slack && !discounted) return false;
  }
  let filled = false;
  for (const l of lines)
    if (l.gstRate === null || l.gstRate === undefined) {
      l.gstRate = rate;
      filled = true;
    }
  return filled;
}

/**
 * A line's rate read from a per-head column ("9% | CGST" with "9% | SGST" under it) is half its
 * GST rate. On an intra-state document (CGST and SGST charged, or the place of supply in the
 * supplier's state; no IGST) a line rate that is no GST rate while its double is (9 → 18,
 * 2.5 → 5, 6 → 12, 14 → 28) is the CGST half: doubled.
 */
export function doubleHalfRates(lines: Array<Record<string, unknown>>, intraState: boolean): number {
  if (!intraState) return 0;
  let changed = 0;
  for (const l of lines) {
    const r = l.gstRate;
    if (typeof r !== 'number' || GST_RATE_SLABS.includes(r) || !GST_RATE_SLABS.includes(2 * r)) continue;
    l.gstRate = 2 * r;
    changed++;
  }
  return changed;
}
