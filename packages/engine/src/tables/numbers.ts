import { parseIndianAmount } from '@bahi/india';

/**
 * Number reading for table cells. Money goes through `parseIndianAmount` (lakh/crore grouping,
 * ₹/Rs., `/-`, brackets); quantities keep all their decimals (`748.093` kg), which the money
 * parser would round. OCR slips that are unambiguous in a numeric cell are repaired first.
 * The small text helpers the table stage shares (digits, spaces, figure shapes) live here too, so
 * each shape is written once.
 */

/** Paise in a rupee: money is kept to two decimals. */
export const PAISE_PER_RUPEE = 100;
/** Quantities are kept to three decimals (grams of a kilogram, litres to the millilitre). */
export const QUANTITY_SCALE = 1000;
/** A percentage is parts of a hundred; no GST rate or discount is more. */
const PERCENT = 100;

/** Dashes that alone in a cell mean nil. */
const NIL_DASHES = '-–—';
/** Words a GST rate cell prints for no tax (spaces removed, lower case). */
const NIL_RATE_WORDS = new Set(['nil', 'exempt', 'exempted', 'nonegst', 'na']);
/** A rupee marker at the start of a figure: "₹", "Rs", "Rs.", "INR". */
const CURRENCY_PREFIX = /^(?:₹|rs\.?|inr)/i;
/** Decimal numbers inside a text ("9", "2.5"), in order. */
const DECIMALS = /[0-9]+(?:\.[0-9]+)?/g;
/** A figure as printed: a digit, then digits and separators ("1,250.00", "12.", "3,"). */
const PLAIN_FIGURE = /^[0-9][0-9.,]*$/;
const DIGIT = /[0-9]/;
const ALL_DIGITS = /^[0-9]+$/;
const NON_DIGITS = /[^0-9]/g;
const SPACES = /\s+/g;
const LETTER_RUNS = /[A-Za-z]+/g;

/** Whether a text holds a digit. */
export function hasDigit(text: string): boolean {
  return DIGIT.test(text);
}

/** Whether a text is digits only (and not empty). */
export function isDigits(text: string): boolean {
  return ALL_DIGITS.test(text);
}

/** The digits of a text, nothing else ("1,250.00" → "125000"). */
export function digitsOf(text: string): string {
  return text.replace(NON_DIGITS, '');
}

/** Length of the longest run of Latin letters in a text (0: none). */
export function letterRun(text: string): number {
  return Math.max(0, ...(text.match(LETTER_RUNS) ?? []).map((r) => r.length));
}

/** How many times a character occurs in a text. */
export function countOf(text: string, char: string): number {
  return text.split(char).length - 1;
}

/** Whether a token is one character, one of `chars` ("%", "+", a border bar). */
export function isLoneChar(token: string, chars: string): boolean {
  return token.length === 1 && chars.includes(token);
}

/** A trailing percent sign dropped ("18%" → "18"). */
export function withoutPercent(text: string): string {
  return text.endsWith('%') ? text.slice(0, -1) : text;
}

/** Runs of whitespace made one space, ends trimmed. */
export function collapseSpaces(text: string): string {
  return text.replace(SPACES, ' ').trim();
}

/** All whitespace removed. */
function stripSpaces(text: string): string {
  return text.replace(SPACES, '');
}

/** Number of words in a text (split at whitespace). */
export function wordCount(text: string): number {
  return text.trim().split(SPACES).length;
}

/** Whether a token is shaped like a printed figure: a digit, then digits, points and commas. */
export function isPlainFigure(token: string): boolean {
  return PLAIN_FIGURE.test(token);
}

/** `percent` % of `base`. */
export function percentOf(base: number, percent: number): number {
  return (base * percent) / PERCENT;
}

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
  const digits = digitsOf(t).length;
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
  let s = stripSpaces(repairNumericToken(text)).replace(/([0-9])[,.]$/, '$1');
  if (isLoneChar(s, NIL_DASHES)) return 0;
  s = s.replace(CURRENCY_PREFIX, '');
  if (s.endsWith('/-')) s = s.slice(0, -2);
  let negative = false;
  if (s.length >= 2 && s.startsWith('(') && s.endsWith(')')) {
    negative = true;
    s = s.slice(1, -1);
  }
  if (s.startsWith('(-)')) {
    negative = true;
    s = s.slice('(-)'.length);
  }
  if (s.startsWith('-') || s.startsWith('−')) {
    negative = !negative;
    s = s.slice(1);
  }
  // OCR often reads the grouping comma as a dot: `1.21.191.07` → every dot but the last groups.
  if (countOf(s, '.') > 1) {
    const last = s.lastIndexOf('.');
    s = `${s.slice(0, last).replaceAll('.', ',')}${s.slice(last)}`;
  }
  const m = /^([0-9]{1,2}(?:,[0-9]{2})*,[0-9]{3}|[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]+))?$/.exec(s);
  if (!m) return null;
  const value = Number(`${(m[1] ?? '').replaceAll(',', '')}.${m[2] ?? '0'}`);
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}

/** Parse a money cell (rupees, at most 2 decimals). Falls back to the OCR-tolerant reader. */
export function parseMoney(text: string): number | null {
  // "570.00/Nos", "570.00 per Kg": a rate printed with its unit.
  const s = text.trim().replace(/\s*(?:\/|per\s+)[A-Za-z.]{1,8}$/i, '');
  if (isLoneChar(s, NIL_DASHES)) return 0;
  const direct = parseIndianAmount(stripSpaces(s));
  if (direct !== null) return direct;
  const q = parseQuantity(s);
  return q === null ? null : round2(q);
}

/**
 * Parse a GST rate cell into the total GST percent: `18%` / `18 %` / `18` → 18,
 * `9%+9%` (CGST + SGST printed together) → 18, `18 + 0 | 0 + 0` (GST + cess, e-invoice print) → 18,
 * `-` / `Nil` / `Exempt` → 0. Null when no rate is readable.
 */
export function parseGstRate(text: string): number | null {
  const s = stripSpaces(text).toLowerCase();
  if (s === '') return null;
  // "CGST 9% SGST 9%" in one cell: the total is the sum of the heads.
  if (s.includes('cgst') && (s.includes('sgst') || s.includes('utgst'))) {
    const nums = (s.match(DECIMALS) ?? []).map(Number);
    if (nums.length === 2) return round3((nums[0] ?? 0) + (nums[1] ?? 0));
  }
  if (isLoneChar(s, NIL_DASHES) || NIL_RATE_WORDS.has(s)) return 0;
  const pair = /^([0-9.]+)%?\+([0-9.]+)%?$/.exec(s);
  if (pair && pair[1] === pair[2]) return round3(Number(pair[1]) * 2);
  const first = repairNumericToken(s).match(DECIMALS)?.[0];
  if (first === undefined) return null;
  const v = Number(first);
  return Number.isFinite(v) && v <= PERCENT ? v : null;
}

/** Round to 3 decimals (percentages, quantities) without float noise. */
export function round3(n: number): number {
  return Math.round(n * QUANTITY_SCALE) / QUANTITY_SCALE;
}

/** Round to 2 decimals (rupees). */
export function round2(n: number): number {
  return Math.round(n * PAISE_PER_RUPEE) / PAISE_PER_RUPEE;
}

/** Whether a token reads as a number (after OCR repair), e.g. `1,510`, `0.00`, `18%`, `-`. */
export function isNumericToken(token: string): boolean {
  const t = withoutPercent(repairNumericToken(token));
  if (t === '') return false;
  return parseQuantity(t) !== null;
}

/** A rupee marker printed as a word of its own before a figure ("Rs. 2,450.00", "₹ 450"). */
export function isCurrencyWord(token: string): boolean {
  return token !== '' && token.replace(CURRENCY_PREFIX, '') === '';
}
