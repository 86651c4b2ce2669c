import { parseIndianAmount } from '@bahi/india';

/**
 * Amounts as OCR reads them in a totals block. The printed forms are regular (Indian or western
 * digit groups, two decimals, an optional ₹/Rs.), so the usual OCR slips can be undone without
 * guessing digits:
 * - the rupee sign read as a look-alike glyph: `X15,91,234.00`, `¥13,24,850.00`, `£ 19,28,164.16`;
 * - grouping commas read as dots: `20,76.633.18`, `6.25,575.76` (every separator but a last one
 *   followed by exactly two digits groups);
 * - the decimal point read as a space: `47,891 48`, `1,55,194 .58`;
 * - `o`/`O` for a zero inside the figure: `(-)o.21`.
 * The result must still have valid digit groups, so a figure with a lost or extra digit
 * (`1,565,194.58`) stays unread instead of becoming a wrong number.
 */

/** Glyphs OCR produces for the rupee sign `₹` in front of an amount. */
const RUPEE_LOOKALIKES = /^(?:[Xx¥£€$%&*<?F=]|Rs\.?|INR|₹)\s*/;

/** A run of white space (global: for `replace` and `split` alike). */
export const SPACE_RUN = /\s+/g;

/** Whether a text holds a decimal point or a grouping separator. */
const hasSeparator = (t: string) => t.includes('.') || t.includes(',');

/** Normalise an OCR-read money token to the printed form `parseIndianAmount` reads, or null. */
export function normalizeOcrAmount(raw: string): string | null {
  let s = raw.trim().replace(/\s*\/-$/, '');
  let sign = '';
  const neg = /^(?:\(\s*[-−]\s*\)|[-−])\s*/.exec(s);
  if (neg) {
    sign = '-';
    s = s.slice(neg[0].length);
  }
  s = s.replace(RUPEE_LOOKALIKES, '');
  if (!sign && (s.startsWith('-') || s.startsWith('−'))) {
    sign = '-';
    s = s.slice(1);
  }
  // Zeros read as the letter o, only between or beside digits and separators.
  s = s.replace(/[oO](?=[\d.,]|$)|(?<=[\d.,])[oO]/g, '0');
  // A decimal point read as a space (or a space before it): "47,891 48", "1,55,194 .58".
  s = s.replace(/^([\d.,]*\d)\s+\.?\s*(\d{2})$/, '$1.$2').replace(SPACE_RUN, '');
  // Digits and separators only, with a digit among them.
  if (!/^[\d.,]*\d[\d.,]*$/.test(s)) return null;
  // Separators: a last one followed by exactly two digits is the decimal point; the rest group.
  const last = Math.max(s.lastIndexOf('.'), s.lastIndexOf(','));
  let whole = s;
  let fraction = '';
  if (last >= 0 && s.length - last - 1 === 2) {
    whole = s.slice(0, last);
    fraction = s.slice(last + 1);
    // A comma before two final digits is a decimal point only when the figure also groups.
    if (s[last] === ',' && !hasSeparator(whole)) return null;
  } else if (/\.\d+$/.test(s) && !hasSeparator(s.slice(0, s.lastIndexOf('.')))) {
    // "0.5", "12.125": a plain decimal.
    return `${sign}${s}`;
  }
  const grouped = whole.replaceAll('.', ',');
  if (grouped.includes(',') && !/^\d{1,2}(,\d{2})*,\d{3}$|^\d{1,3}(,\d{3})+$/.test(grouped)) return null;
  // A figure never starts with a zero group ("0,72,790" is a misread, not 72,790). (`whole` holds
  // only digits and separators: a reading here is empty or digit groups.)
  if (grouped === '' || /^0\d*,/.test(grouped)) return null;
  return `${sign}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** Read an OCR money token, or null when it is not one amount. */
export function parseOcrAmount(raw: string): number | null {
  const direct = parseIndianAmount(raw);
  if (direct !== null) return direct;
  const n = normalizeOcrAmount(raw);
  return n === null ? null : parseIndianAmount(n);
}
