import type { Layout, Segment } from '../layout.ts';

/**
 * Total GST rates (CGST + SGST, or IGST) in force on Indian goods and services, in percent. A
 * percentage outside this list beside a tax head is not a GST rate (a discount, a TDS rate).
 */
export const GST_RATE_SLABS: readonly number[] = [0.1, 0.25, 1.5, 3, 5, 6, 7.5, 12, 18, 28, 40];

type Head = 'cgst' | 'sgst' | 'igst' | 'gst';

const HEAD = String.raw`(c|s|ut|i)?\s?gst`;
/** "CGST @ 9%", "Add CGST (9%)", "IGST 18 %", "Output SGST@9.00%". */
const HEAD_THEN_RATE = new RegExp(String.raw`\b${HEAD}\b[^%\d\n]{0,12}?(\d{1,2}(?:\.\d{1,2})?)\s?%`, 'gi');
/** "9% CGST", "9.00 % SGST". */
const RATE_THEN_HEAD = new RegExp(String.raw`(\d{1,2}(?:\.\d{1,2})?)\s?%\s?(?:of\s)?${HEAD}\b`, 'gi');

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
  }
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
 * Give every line without a rate the document's single GST rate, when one applies: no line shows
 * another rate, and when the totals are known, the taxes are that rate of the taxable value.
 * Returns whether lines were filled.
 */
export function applyDocumentGstRate(
  lines: Array<Record<string, unknown>>,
  rate: number | null,
  totals: { taxable: number | null; tax: number | null },
): boolean {
  if (rate === null || !lines.length) return false;
  if (lines.some((l) => typeof l.gstRate === 'number' && l.gstRate !== rate)) return false;
  const { taxable, tax } = totals;
  if (taxable !== null && tax !== null && taxable > 0) {
    const expected = (taxable * rate) / 100;
    if (Math.abs(expected - tax) > Math.max(1, 0.01 * expected)) return false;
  }
  let filled = false;
  for (const l of lines)
    if (l.gstRate === null || l.gstRate === undefined) {
      l.gstRate = rate;
      filled = true;
    }
  return filled;
}
