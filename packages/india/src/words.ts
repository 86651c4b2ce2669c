/**
 * Amounts in words, Indian system (thousand, lakh = 1,00,000, crore = 1,00,00,000), as printed
 * under the total of a GST invoice: 'Rupees One Lakh Twenty Three Thousand Four Hundred Fifty Six
 * and Seventy Eight Paise Only'. Used to cross-check the numeric total read from a document.
 */

import { toPaise } from './numbers.ts';

const ONES = [
  'Zero',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
] as const;
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'] as const;

/** 0–99 in words ('Seventy Eight'). */
function spellBelowHundred(n: number): string {
  if (n < 20) return ONES[n]!;
  const tens = TENS[Math.floor(n / 10)]!;
  return n % 10 === 0 ? tens : `${tens} ${ONES[n % 10]}`;
}

/** A positive whole number in Indian words; crores above 99 recurse ('One Lakh Crore'). */
function spellWhole(n: number): string {
  const parts: string[] = [];
  const crore = Math.floor(n / 10_000_000);
  let rest = n % 10_000_000;
  if (crore > 0) parts.push(`${spellWhole(crore)} Crore`);
  const lakh = Math.floor(rest / 100_000);
  rest %= 100_000;
  if (lakh > 0) parts.push(`${spellBelowHundred(lakh)} Lakh`);
  const thousand = Math.floor(rest / 1000);
  rest %= 1000;
  if (thousand > 0) parts.push(`${spellBelowHundred(thousand)} Thousand`);
  const hundred = Math.floor(rest / 100);
  rest %= 100;
  if (hundred > 0) parts.push(`${ONES[hundred]} Hundred`);
  if (rest > 0) parts.push(spellBelowHundred(rest));
  return parts.join(' ');
}

/**
 * An amount in Indian words: 123456.78 → 'Rupees One Lakh Twenty Three Thousand Four Hundred
 * Fifty Six and Seventy Eight Paise Only'; 0 → 'Rupees Zero Only'; 0.5 → 'Rupees Zero and Fifty
 * Paise Only'. Rounded to the paisa first; negative amounts are prefixed 'Minus'.
 */
export function amountToWords(value: number): string {
  const paise = toPaise(value);
  const abs = Math.abs(paise);
  if (abs > Number.MAX_SAFE_INTEGER) throw new RangeError(`Amount too large for words: ${value}`);
  const rupees = Math.floor(abs / 100);
  const fraction = abs % 100;
  const rupeeWords = rupees === 0 ? 'Zero' : spellWhole(rupees);
  const paiseWords = fraction === 0 ? '' : ` and ${spellBelowHundred(fraction)} Paise`;
  return `${paise < 0 ? 'Minus ' : ''}Rupees ${rupeeWords}${paiseWords} Only`;
}

// Word values, including spellings and OCR slips seen on real invoices (Fourty, Ninty, Lac).
const UNIT_WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  nil: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  ninteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fourty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  ninty: 90,
};

const SCALE_WORDS: Readonly<Record<string, number>> = {
  thousand: 1_000,
  thousands: 1_000,
  lakh: 100_000,
  lakhs: 100_000,
  lac: 100_000,
  lacs: 100_000,
  million: 1_000_000,
  millions: 1_000_000,
  crore: 10_000_000,
  crores: 10_000_000,
  billion: 1_000_000_000,
  billions: 1_000_000_000,
};

const PAISE_WORDS = new Set(['paise', 'paisa', 'paisas', 'ps']);

type Token =
  | { kind: 'unit'; value: number }
  | { kind: 'hundred' }
  | { kind: 'scale'; value: number }
  | { kind: 'paise' }
  | { kind: 'other' };

function classifyWord(word: string): Token {
  const unit = UNIT_WORDS[word];
  if (unit !== undefined) return { kind: 'unit', value: unit };
  if (word === 'hundred' || word === 'hundreds') return { kind: 'hundred' };
  const scale = SCALE_WORDS[word];
  if (scale !== undefined) return { kind: 'scale', value: scale };
  if (PAISE_WORDS.has(word)) return { kind: 'paise' };
  return { kind: 'other' };
}

/**
 * The lower-case words of an amount in words. Number words some software prints run together
 * ("FortyTwo Thousand TwentyNine") come apart: at a capital inside a word, and where a run of
 * letters is made only of number words ("twentysix").
 */
function splitAmountWords(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w !== '')
    .flatMap((w) => (classifyWord(w).kind === 'other' ? (splitNumberRun(w) ?? [w]) : [w]));
}

/** "twentysix" → ["twenty", "six"]: a run made wholly of number words, longest first; else null. */
function splitNumberRun(run: string): string[] | null {
  if (run.length < 6) return null;
  for (let cut = run.length - 3; cut >= 3; cut--) {
    const head = run.slice(0, cut);
    if (classifyWord(head).kind === 'other') continue;
    const rest = run.slice(cut);
    if (classifyWord(rest).kind !== 'other') return [head, rest];
    const tail = splitNumberRun(rest);
    if (tail) return [head, ...tail];
  }
  return null;
}

/** Words that may stand in an amount in words besides the number words themselves. */
const AMOUNT_CONNECTORS = new Set([
  'rupees',
  'rupee',
  'rs',
  'inr',
  'indian',
  'only',
  'and',
  'minus',
  'negative',
]);

/**
 * Whether an amount in words reads cleanly: every word is a number word, a scale, paise or a
 * connector (Rupees, and, Only), and no number word is repeated back to back ('Eight Eight
 * Thousand Thousand' is a garbled OCR reading, not a figure). Callers trust only clean readings.
 */
export function isCleanAmountInWords(text: string): boolean {
  const words = splitAmountWords(text);
  // Words before the first and after the last number word are the label and what follows.
  const isNumber = (w: string) => classifyWord(w).kind !== 'other';
  const first = words.findIndex(isNumber);
  const last = words.findLastIndex((w) => isNumber(w) || w === 'only');
  if (first < 0) return false;
  let prev = '';
  for (const w of words.slice(first, last + 1)) {
    const kind = classifyWord(w).kind;
    if (kind === 'other' && !AMOUNT_CONNECTORS.has(w)) return false;
    if (kind !== 'other' && w === prev) return false;
    prev = w;
  }
  return true;
}

/**
 * Value of a run of number tokens. Scales nest: a scale word multiplies everything smaller
 * that came before it, so 'One Lakh Crore' is 10^12 and 'One Thousand Two Hundred Crore' is
 * 1200 crore, while 'Twelve Crore Thirty Four Lakh' adds up as usual.
 */
function evaluateTokens(tokens: readonly Token[]): number | null {
  const segments: Array<{ value: number; scale: number }> = [];
  let current = 0;
  let seen = false;
  for (const t of tokens) {
    if (t.kind === 'unit') {
      current += t.value;
      seen = true;
    } else if (t.kind === 'hundred') {
      current = (current === 0 ? 1 : current) * 100;
      seen = true;
    } else if (t.kind === 'scale') {
      let smaller = current;
      while (segments.length > 0 && segments[segments.length - 1]!.scale < t.value) {
        smaller += segments.pop()!.value;
      }
      segments.push({ value: (smaller === 0 ? 1 : smaller) * t.value, scale: t.value });
      current = 0;
      seen = true;
    }
  }
  if (!seen) return null;
  return segments.reduce((sum, s) => sum + s.value, current);
}

/**
 * Read an amount written in words, tolerant of how invoices print it: 'INR One Lakh Twenty-Three
 * Thousand … Only', 'Rupees … and Paise Forty', 'Indian Rupee … Only', 'Rs. … Only', 'Lakhs',
 * 'Crores', 'and', hyphens, any case. Words that are not number words are ignored. Paise may be
 * written before ('and Paise Forty') or after ('Forty Paise') their number. Null when the text
 * contains no number words.
 */
export function parseAmountInWords(text: string): number | null {
  const words = splitAmountWords(text);
  const tokens = words.map(classifyWord);

  const paiseAt = tokens.findIndex((t) => t.kind === 'paise');
  let rupeeTokens: Token[] = tokens;
  let paiseTokens: Token[] = [];
  if (paiseAt !== -1) {
    // 'Seventy Eight Paise': walk back over units only (never across 'hundred' or a scale),
    // so 'Five Hundred Fifty Paise' is 500 rupees and 50 paise.
    let start = paiseAt;
    while (start > 0 && tokens[start - 1]!.kind === 'unit') start--;
    if (start < paiseAt) {
      rupeeTokens = tokens.slice(0, start);
      paiseTokens = tokens.slice(start, paiseAt);
    } else {
      // 'and Paise Forty Only': the number follows the word.
      let end = paiseAt + 1;
      // Take every number word that follows, so 'Paise One Hundred' is caught as invalid
      // rather than read as one paisa.
      while (end < tokens.length && ['unit', 'hundred', 'scale'].includes(tokens[end]!.kind)) end++;
      rupeeTokens = tokens.slice(0, paiseAt);
      paiseTokens = tokens.slice(paiseAt + 1, end);
    }
  }

  if (paiseAt === -1) {
    // 'Sixty Five Rupees Forty Eight' (the word Paise on a line of its own, or left out): units
    // after a 'Rupees' that closes a number are its paise.
    const rupeeWordAt = words.findIndex(
      (w, i) => (w === 'rupees' || w === 'rupee') && i > 0 && tokens[i - 1]!.kind !== 'other',
    );
    const after = rupeeWordAt === -1 ? [] : tokens.slice(rupeeWordAt + 1).filter((t) => t.kind !== 'other');
    if (after.length > 0 && after.every((t) => t.kind === 'unit')) {
      rupeeTokens = tokens.slice(0, rupeeWordAt);
      paiseTokens = after;
    }
  }
  const rupees = evaluateTokens(rupeeTokens);
  const paise = evaluateTokens(paiseTokens);
  if (rupees === null && paise === null) return null;
  if (paise !== null && paise > 99) return null;
  const negative = words[0] === 'minus' || words[0] === 'negative';
  const total = ((rupees ?? 0) * 100 + (paise ?? 0)) / 100;
  return negative ? -total : total;
}
