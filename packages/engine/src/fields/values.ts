import {
  findDates,
  GSTIN_PATTERN,
  isValidGstin,
  parseIndianAmount,
  repairGstin,
  roundMoney,
  stateCodeFromText,
} from '@bahi/india';
import type { ValueKind } from './vocabulary.ts';

/** A value recognised inside a piece of text, with the character span it came from. */
export interface ParsedValue {
  value: string | number;
  /** Character offsets of the value inside the text it was read from. */
  start: number;
  end: number;
}

/** Characters in a GSTIN: two of state code, ten of PAN, entity number, "Z", check character. */
export const GSTIN_LENGTH = 15;

/** Characters a run read as a GSTIN may hold at most: OCR adds stray marks and the odd extra character. */
const GSTIN_RUN_MAX = 18;

/** Letters a GSTIN-like run needs: a GSTIN has seven, a run with fewer is a number (an account, an IRN part). */
const GSTIN_MIN_LETTERS = 4;

/** Every run of white space as one space. */
export function collapseSpaces(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/** The text with its white space taken out. */
export function withoutSpaces(text: string): string {
  return text.replace(/\s+/g, '');
}

/** How many ASCII letters the text holds. */
export function countLetters(text: string): number {
  return (text.match(/[A-Za-z]/g) ?? []).length;
}

/**
 * Find GSTINs in text. Each token of 15–18 characters (OCR adds stray marks and the odd extra
 * character) is taken as printed when it passes the checksum, else repaired for OCR confusions by
 * `repairGstin` (look-alikes by position, one similar-letter swap or inserted character at most)
 * when exactly one reading passes (flagged `repaired`). Checksum-failing tokens of the exact shape come last, flagged,
 * so checks can report them rather than silently dropping a printed value.
 */
export function findGstins(text: string): Array<ParsedValue & { valid: boolean; repaired?: boolean }> {
  const valid: Array<ParsedValue & { valid: boolean; repaired?: boolean }> = [];
  const invalid: Array<ParsedValue & { valid: boolean }> = [];
  // Runs of the characters a GSTIN is printed or misread with (a bracket for J, a bar for I);
  // labels glued on by punctuation ("GSTIN-29...", "No.29...") fall away as separate runs.
  const tokens = [...text.matchAll(/[A-Za-z0-9)|\]!]+/g)].map((m) => ({ t: m[0], start: m.index ?? 0 }));
  const tryToken = (token: string, start: number): boolean => {
    if (token.length < GSTIN_LENGTH || token.length > GSTIN_RUN_MAX) return false;
    if (countLetters(token) < GSTIN_MIN_LETTERS) return false;
    const upper = token.toUpperCase();
    if (upper.length === GSTIN_LENGTH && isValidGstin(upper)) {
      valid.push({ value: upper, start, end: start + GSTIN_LENGTH, valid: true });
      return true;
    }
    const fixed = repairGstin(token);
    const plain = plainGstinReading(upper);
    // A repair more than one glyph away from the plain reading by position is a guess at another
    // number ("27C0RPP…N1ZQ" turned "27CDRPP…NTZQ"): the plain reading is kept, failing.
    const guess = !!fixed && !!plain && slipsBetween(plain, fixed) > 1;
    if (fixed && !guess) {
      valid.push({ value: fixed, start, end: start + token.length, valid: true, repaired: true });
      return true;
    }
    const failing = GSTIN_PATTERN.test(upper)
      ? upper
      : guess && plain && GSTIN_PATTERN.test(plain)
        ? plain
        : null;
    if (failing) invalid.push({ value: failing, start, end: start + GSTIN_LENGTH, valid: false });
    return false;
  };
  tokens.forEach((tok, k) => {
    if (tryToken(tok.t, tok.start)) return;
    // OCR splits a GSTIN with a stray space ("29AABCT 1332L1ZA"): try it joined to the next run.
    const next = tokens[k + 1];
    if (tok.t.length < GSTIN_LENGTH && next && text.slice(tok.start + tok.t.length, next.start) === ' ')
      tryToken(tok.t + next.t, tok.start);
  });
  return [...valid, ...invalid];
}

/** What each of a GSTIN's 15 places holds: digit (d), letter (L), either (a), the fixed Z. */
const GSTIN_SLOTS = 'ddLLLLLddddLaZa';

/** OCR's look-alikes: a digit's letter in a letter's place, a letter's digit in a digit's place. */
const LETTER_OF: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '5': 'S',
  '8': 'B',
  '2': 'Z',
  '6': 'G',
};
const DIGIT_OF: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(LETTER_OF).map(([d, l]) => [l, d]),
);

/** A 15-character reading with each look-alike read as its place wants it; null for another length. */
function plainGstinReading(upper: string): string | null {
  if (upper.length !== GSTIN_SLOTS.length) return null;
  return [...upper]
    .map((c, i) => {
      const slot = GSTIN_SLOTS[i];
      if (slot === 'd') return DIGIT_OF[c] ?? c;
      if (slot === 'L') return LETTER_OF[c] ?? c;
      return slot === 'Z' && c === '2' ? 'Z' : c;
    })
    .join('');
}

/** Places where two readings of equal length differ. */
function slipsBetween(a: string, b: string): number {
  return [...a].filter((c, i) => c !== b[i]).length;
}

const VEHICLE_RE = /\b([A-Z]{2})[\s-]?(\d{1,2})[\s-]?([A-Z]{0,3})[\s-]?(\d{3,4})\b/;
const CURRENCY_RE = /\b(INR|USD|EUR|GBP|AED|SGD|JPY|CNY|AUD|CAD|CHF)\b/;

/** OCR's look-alikes for hex digits in an IRN: none of these letters is a hex digit. */
const IRN_LOOKALIKES: Readonly<Record<string, string>> = { l: '1', i: '1', '|': '1', o: '0', s: '5', z: '2' };

/**
 * Undo OCR slips inside printed dates, keeping the text's length where it can (so spans still
 * point at the printed words): the letter O of "Oct" read as a zero ("26-0ct-25", "0ctober"), a
 * numeric date spaced around its separators ("17 / 03 / 2021"), a zero read as
 * the letter O among the digits ("O4-09-2025", "14-O8-2025"), a border read as a fifth year digit,
 * a month name that lost its first letter; and a date printed month first ("03/27/2019").
 */
export function repairOcrDateText(text: string): string {
  return (
    text
      .replace(/(?<=\d ?[-/.]? ?|^|\s)0ct(?=ober\b| ?[-/.]? ?\d)/gi, 'Oct')
      // A numeric date OCR spaced around its separators ("17 / 03 / 2021"): closed up, padded after.
      // One printed month first, as software made for US paper does ("03/27/2019"), when its
      // second number can only be the day: turned day first.
      .replace(/\b(\d{1,2}) ?([-/.]) ?(\d{1,2}) ?\2 ?((?:19|20)\d{2})\b/g, (m, d, sep, mo, y) => {
        const monthFirst = Number(mo) > MONTHS && Number(d) <= MONTHS;
        return (monthFirst ? `${mo}${sep}${d}${sep}${y}` : `${d}${sep}${mo}${sep}${y}`).padEnd(m.length);
      })
      .replace(/(?<![A-Za-z])[Oo](?=\d[-/.]\d)|(?<=\d[-/.])[Oo](?=\d)|(?<=\d)[Oo](?=[-/.]\d)/g, '0')
      // A cell border read as a fifth digit of the year ("05-03-20211").
      .replace(/(?<=\b\d{1,2}[-/.]\d{1,2}[-/.](?:19|20)\d{2})[1lI|](?![\dA-Za-z])/g, ' ')
      // A month name that lost its capital ("19-ul-2017"): each month's last two letters are its own.
      // This one slip lengthens the text by a letter.
      .replace(
        /(?<=\b\d{1,2}[-/. ])(an|eb|ar|pr|ay|un|ul|ug|ep|ct|ov|ec)(?=[-/. ](?:19|20)?\d{2}\b)/g,
        (m) => MONTH_BY_TAIL[m] ?? m,
      )
  );
}

/** Months in a year: a date's number above it is a day. */
const MONTHS = 12;

/** The three-letter month whose last two letters these are. */
const MONTH_BY_TAIL: Record<string, string> = Object.fromEntries(
  ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].map((m) => [
    m.slice(1),
    m,
  ]),
);

/** Strip leading separators that sit between a label and its value (": ", "# ", "- "). */
export function stripLeadingSeparators(text: string): { text: string; offset: number } {
  const m = /^(?:[\s:#=]|[-–.](?=\s))+/.exec(text);
  const cut = m ? m[0].length : 0;
  return { text: text.slice(cut), offset: cut };
}

/**
 * Read a value of a kind from the text that follows a label (or a neighbouring cell).
 * Returns null when the text does not hold such a value: callers then try the next candidate
 * position (the cell to the right, the line below) instead of guessing.
 */
export function parseValue(kind: ValueKind, raw: string): ParsedValue | null {
  const { text, offset } = stripLeadingSeparators(raw);
  if (!text.trim()) return null;
  switch (kind) {
    case 'date': {
      // OCR slips keep their length, so a date found in the repaired text has the same span.
      const d = findDates(text)[0] ?? findDates(repairOcrDateText(text))[0];
      return d ? { value: d.iso, start: offset + d.index, end: offset + d.index + d.length } : null;
    }
    case 'money': {
      const m = /\(?-?\)?\s*(?:rs\.?|inr|₹)?\s*-?[\d,]+(?:\.\d+)?/i.exec(text);
      if (!m) return null;
      const v = parseIndianAmount(m[0].replace('(-)', '-'));
      // A total is booked in paise: a figure printed to a tenth of a paisa (358.262, a per-item
      // tax computed unrounded) is the amount rounded to paise.
      return v === null
        ? null
        : { value: roundMoney(v), start: offset + m.index, end: offset + m.index + m[0].length };
    }
    case 'docno': {
      // First token carrying a digit; a document number never is a bare date or a label word.
      // Spaces printed around a separator belong to the number ("KT - 7", "VKPL/25-26/PO- 61"), as
      // does a short capital prefix set apart from its digits ("ABC 000417"). OCR splits a letter
      // prefix before its separator ("K VT/23-24/088"), or after an underscore: its parts are joined.
      const m =
        /^\s*(?:[:\-–]\s*)?(?:no\.?\s*|#\s*)?([A-Z]{2,5} (?=\d{3,}\b)[0-9]+|(?:[A-Z] (?=[A-Z]{1,4}[/-]\d))?[A-Za-z0-9](?:[A-Za-z0-9_.]|[/-](?: (?=\d))?| [/-] ?(?=[A-Za-z0-9])|_ (?=[A-Za-z0-9]))*[A-Za-z0-9]|\d)/.exec(
          text,
        );
      if (!m?.[1] || !/\d/.test(m[1])) return null;
      // An underscore never ends a number: OCR set the space after it ("BLR_ WFLD2015…").
      const joined = m[1].replaceAll('_ ', '_');
      const token = /^[A-Z] [A-Z]/.test(joined) ? joined.replace(' ', '') : joined;
      if (/^\d{1,2}[-/.][A-Za-z0-9]{1,3}[-/.]\d{2,4}$/.test(token) && findDates(token).length) return null;
      const start = offset + m.index + m[0].length - m[1].length;
      return { value: token, start, end: start + m[1].length };
    }
    case 'gstin': {
      const g = findGstins(text)[0];
      return g ? { ...g, start: offset + g.start, end: offset + g.end } : null;
    }
    case 'state': {
      const code = stateCodeFromText(text);
      return code ? { value: code, start: offset, end: offset + text.length } : null;
    }
    case 'irn': {
      // OCR confuses 1/l/i, 0/o, 5/s, 2/z inside the 64 hex digits; none of those letters is hex.
      const hex = [...withoutSpaces(text).toLowerCase()].map((c) => IRN_LOOKALIKES[c] ?? c).join('');
      // The 64 digits alone, or set off from other letters and digits.
      const m = /(?:^|[^0-9a-z])([0-9a-f]{64})(?![0-9a-z])/.exec(hex);
      if (m?.[1]) return { value: m[1], start: offset, end: offset + text.length };
      return null;
    }
    case 'ack': {
      const m = /\b\d{10,20}\b/.exec(text);
      return m ? { value: m[0], start: offset + m.index, end: offset + m.index + m[0].length } : null;
    }
    case 'eway': {
      // Twelve digits, printed in groups of four.
      const m = /\b(\d{4})\s?(\d{4})\s?(\d{4})\b/.exec(text);
      return m
        ? { value: m.slice(1).join(''), start: offset + m.index, end: offset + m.index + m[0].length }
        : null;
    }
    case 'vehicle': {
      const m = VEHICLE_RE.exec(text.toUpperCase());
      if (!m) return null;
      // State, district, series and number, written without the spaces or dashes between them.
      return { value: m.slice(1).join(''), start: offset + m.index, end: offset + m.index + m[0].length };
    }
    case 'currency': {
      const m = CURRENCY_RE.exec(text.toUpperCase());
      return m ? { value: m[1]!, start: offset + m.index, end: offset + m.index + m[0].length } : null;
    }
    case 'text': {
      const t = collapseSpaces(text).trim();
      return t ? { value: t, start: offset, end: offset + text.length } : null;
    }
  }
}
