import { parseIndianAmount } from '@bahi/india';

/**
 * Number reading for table cells. Money goes through `parseIndianAmount` (lakh/crore grouping,
 * ₹/Rs., `/-`, brackets); quantities keep all their decimals (`748.093` kg), which the money
 * parser would round. OCR slips that are unambiguous in a numeric cell are repaired first.
 */

/** A dash alone in a cell: nil. */
const NIL_DASH = /^[-–—]$/;

/** Characters OCR confuses with digits, mapped to the digit they stand for inside a number. */
const OCR_DIGITS: Record<string, string> = {
  O: '0',
  o: '0',
  D: '0',
  Q: '0',
  l: '1',
  I: '1',
  '|': '1',
  i: '1',
  S: '5',
  s: '5',
  B: '8',
  Z: '2',
  z: '2',
  g: '9',
};

/**
 * Repair a token that is clearly meant as a number: letters OCR confuses with digits are mapped
 * only when the token is otherwise made of digits and separators (so `Nos` stays `Nos`).
 */
export function repairNumericToken(token: string): string {
  const t = token.trim();
  const digits = (t.match(/[0-9]/g) ?? []).length;
  if (digits === 0) return t;
  const confusable = [...t].filter((c) => c in OCR_DIGITS).length;
  const other = t.replace(/[0-9.,₹()+\-/%\s]/g, '').length - confusable;
  if (confusable === 0 || other > 0 || confusable > digits) return t;
  return [...t].map((c) => OCR_DIGITS[c] ?? c).join('');
}

/**
 * Parse a quantity or plain number: `1,620` → 1620, `748.093` → 748.093, `12.50` → 12.5,
 * `-` → 0 (a dash cell means nothing/zero). Indian and western grouping both pass; a trailing
 * unit or `%` is not accepted here (callers split those off). Null when not a number.
 */
export function parseQuantity(text: string): number | null {
  // A separator left dangling where OCR split the number ("159,") is not part of it.
  let s = repairNumericToken(text)
    .replace(/\s+/g, '')
    .replace(/([0-9])[,.]$/, '$1');
  if (NIL_DASH.test(s)) return 0;
  s = s.replace(/^(?:₹|rs\.?|inr)/i, '').replace(/\/-$/, '');
  let negative = false;
  const paren = /^\((.*)\)$/.exec(s);
  if (paren) {
    negative = true;
    s = paren[1] ?? '';
  }
  if (/^\(-\)/.test(s)) {
    negative = true;
    s = s.slice(3);
  }
  if (/^[-−]/.test(s)) {
    negative = !negative;
    s = s.slice(1);
  }
  // OCR often reads the grouping comma as a dot: `1.21.191.07` → every dot but the last groups.
  const dots = (s.match(/\./g) ?? []).length;
  if (dots > 1) {
    const last = s.lastIndexOf('.');
    s = `${s.slice(0, last).replace(/\./g, ',')}${s.slice(last)}`;
  }
  const m = /^([0-9]{1,2}(?:,[0-9]{2})*,[0-9]{3}|[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]+))?$/.exec(s);
  if (!m) return null;
  const value = Number(`${(m[1] ?? '').replace(/,/g, '')}.${m[2] ?? '0'}`);
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}

/** Parse a money cell (rupees, at most 2 decimals). Falls back to the OCR-tolerant reader. */
export function parseMoney(text: string): number | null {
  // "570.00/Nos", "570.00 per Kg": a rate printed with its unit.
  const s = text.trim().replace(/\s*(?:\/|per\s+)[A-Za-z.]{1,8}$/i, '');
  if (NIL_DASH.test(s)) return 0;
  const direct = parseIndianAmount(s.replace(/\s+/g, ''));
  if (direct !== null) return direct;
  const q = parseQuantity(s);
  return q === null ? null : Math.round(q * 100) / 100;
}

/**
 * Parse a GST rate cell into the total GST percent: `18%` / `18 %` / `18` → 18,
 * `9%+9%` (CGST + SGST printed together) → 18, `18 + 0 | 0 + 0` (GST + cess, e-invoice print) → 18,
 * `-` / `Nil` / `Exempt` → 0. Null when no rate is readable.
 */
export function parseGstRate(text: string): number | null {
  const s = text.replace(/\s+/g, '').toLowerCase();
  if (s === '') return null;
  // "CGST 9% SGST 9%" in one cell: the total is the sum of the heads.
  if (/cgst/.test(s) && /(?:sgst|utgst)/.test(s)) {
    const nums = [...s.matchAll(/([0-9]+(?:\.[0-9]+)?)%?/g)].map((m) => Number(m[1]));
    if (nums.length === 2) return round3((nums[0] ?? 0) + (nums[1] ?? 0));
  }
  if (NIL_DASH.test(s) || /^(nil|exempt(ed)?|nonegst|na)$/.test(s)) return 0;
  const pair = /^([0-9.]+)%?\+([0-9.]+)%?$/.exec(s);
  if (pair && pair[1] === pair[2]) return round3(Number(pair[1]) * 2);
  const first = /([0-9]+(?:\.[0-9]+)?)/.exec(repairNumericToken(s));
  if (!first) return null;
  const v = Number(first[1]);
  return Number.isFinite(v) && v <= 100 ? v : null;
}

/** Round to 3 decimals (percentages, quantities) without float noise. */
export function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** Round to 2 decimals (rupees). */
export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Whether a token reads as a number (after OCR repair), e.g. `1,510`, `0.00`, `18%`, `-`. */
export function isNumericToken(token: string): boolean {
  const t = repairNumericToken(token).replace(/%$/, '');
  if (t === '') return false;
  return parseQuantity(t) !== null;
}

/** A rupee marker printed as a word of its own before a figure ("Rs. 2,450.00", "₹ 450"). */
export function isCurrencyWord(token: string): boolean {
  return /^(?:rs\.?|₹|inr)$/i.test(token);
}
