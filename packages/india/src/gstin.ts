/**
 * GSTIN (Goods and Services Tax Identification Number) and PAN rules.
 *
 * A regular taxpayer's GSTIN is 15 characters: 2-digit state code, the holder's 10-character PAN,
 * an entity number (1–9, then A–Z), the letter Z, and a check character computed with the
 * Luhn mod-36 algorithm over the first 14 characters.
 */

import { stateByCode } from './states.ts';

/** The regular-taxpayer GSTIN shape (does not check the state code or the check character). */
export const GSTIN_PATTERN: RegExp = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Why a GSTIN was rejected, in the order the checks run. */
export type GstinProblem = 'length' | 'format' | 'state_code' | 'checksum';

/** Outcome of {@link validateGstin}: the parts of a valid GSTIN, or the first problem found. */
export type GstinValidation =
  | { ok: true; stateCode: string; pan: string }
  | { ok: false; problem: GstinProblem; message: string };

/**
 * What a user typed into a GSTIN box, cleaned as they type: upper-case, anything that is not a
 * letter or digit dropped (spaces, dashes, pasted labels' punctuation), at most 15 characters.
 */
export function normalizeGstinInput(raw: string): string {
  return raw
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .slice(0, 15);
}

/**
 * The check character for the first 14 characters of a GSTIN (Luhn mod 36): map 0-9A-Z to 0..35,
 * multiply by factors alternating 1, 2 from the left, add (product div 36 + product mod 36),
 * check = (36 − sum mod 36) mod 36. Throws on input that is not 14 characters of 0-9A-Z,
 * because a check character for anything else would be meaningless.
 */
export function computeGstinCheckChar(first14: string): string {
  const body = first14.toUpperCase();
  if (!/^[0-9A-Z]{14}$/.test(body)) {
    throw new Error(`computeGstinCheckChar needs 14 characters of 0-9A-Z, got "${first14}"`);
  }
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = ALPHABET.indexOf(body[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return ALPHABET[(36 - (sum % 36)) % 36]!;
}

/**
 * Check a GSTIN: length, shape, state code (must be on the GST list: 00, 39, 40 are rejected),
 * then the check character. Surrounding whitespace and lower case are tolerated; anything else
 * is reported so the user can fix it. Messages are written for people, not logs.
 */
export function validateGstin(gstin: string): GstinValidation {
  const value = gstin.trim().toUpperCase();
  if (value.length !== 15) {
    return {
      ok: false,
      problem: 'length',
      message: `A GSTIN has 15 characters; this one has ${value.length}.`,
    };
  }
  if (!GSTIN_PATTERN.test(value)) {
    return { ok: false, problem: 'format', message: describeFormatProblem(value) };
  }
  const stateCode = value.slice(0, 2);
  if (stateByCode(stateCode) === undefined) {
    return {
      ok: false,
      problem: 'state_code',
      message: `"${stateCode}" is not a GST state code (valid codes are 01–38, 97 and 99).`,
    };
  }
  if (computeGstinCheckChar(value.slice(0, 14)) !== value[14]) {
    return {
      ok: false,
      problem: 'checksum',
      message: 'The check character (last character) does not match; a character is probably mistyped.',
    };
  }
  return { ok: true, stateCode, pan: value.slice(2, 12) };
}

/** Point at the first character that breaks the GSTIN shape, so the message is actionable. */
function describeFormatProblem(value: string): string {
  const rules: ReadonlyArray<readonly [RegExp, string]> = [
    [/^[0-9]{2}/, 'start with a 2-digit state code'],
    [/^.{2}[A-Z]{5}/, 'have five letters in positions 3–7 (start of the PAN)'],
    [/^.{7}[0-9]{4}/, 'have four digits in positions 8–11'],
    [/^.{11}[A-Z]/, 'have a letter in position 12 (end of the PAN)'],
    [/^.{12}[1-9A-Z]/, 'have an entity number (1–9 or A–Z) in position 13'],
    [/^.{13}Z/, 'have the letter Z in position 14'],
  ];
  for (const [pattern, rule] of rules) {
    if (!pattern.test(value)) return `A GSTIN must ${rule}.`;
  }
  return 'A GSTIN may contain only digits and capital letters.';
}

/** True when {@link validateGstin} accepts the GSTIN. */
export function isValidGstin(gstin: string): boolean {
  return validateGstin(gstin).ok;
}

/** The PAN embedded in a valid GSTIN (characters 3–12); null when the GSTIN is not valid. */
export function panFromGstin(gstin: string): string | null {
  const result = validateGstin(gstin);
  return result.ok ? result.pan : null;
}

/**
 * PAN shape AAAAA9999A where the 4th character is the holder type: P person, C company, H HUF,
 * F firm/LLP, A association of persons, T trust, B body of individuals, L local authority,
 * J artificial juridical person, G government.
 */
export function isValidPan(pan: string): boolean {
  return /^[A-Z]{3}[PCHFATBLJG][A-Z][0-9]{4}[A-Z]$/.test(pan.trim().toUpperCase());
}

/** What the 4th character of a PAN says about its holder. */
export const PAN_HOLDER_TYPES: Readonly<Record<string, string>> = Object.freeze({
  P: 'an individual',
  C: 'a company',
  H: 'a Hindu undivided family',
  F: 'a firm or LLP',
  A: 'an association of persons',
  T: 'a trust',
  B: 'a body of individuals',
  L: 'a local authority',
  J: 'an artificial juridical person',
  G: 'a government body',
});

/** The holder type letter of a PAN (its 4th character) and its words; null when the PAN is not valid. */
export function panHolderType(pan: string): { code: string; label: string } | null {
  const clean = pan.trim().toUpperCase();
  if (!isValidPan(clean)) return null;
  const code = clean[3]!;
  return { code, label: PAN_HOLDER_TYPES[code]! };
}

// OCR confusions between look-alike glyphs, with a cost: a position that must hold a digit takes
// the digit reading of a letter or mark, a position that must hold a letter the letter reading of
// a digit or mark. Usual confusions cost 0.2, rarer ones 0.4; the checksum decides among them.
const DIGIT_READINGS: Readonly<Record<string, ReadonlyArray<readonly [string, number]>>> = {
  O: [['0', 0.2]],
  o: [['0', 0.2]],
  D: [['0', 0.2]],
  Q: [['0', 0.2]],
  U: [['0', 0.4]],
  I: [['1', 0.2]],
  l: [['1', 0.2]],
  L: [['1', 0.2]],
  i: [['1', 0.2]],
  '|': [['1', 0.2]],
  '!': [['1', 0.2]],
  ']': [['1', 0.2]],
  T: [
    ['1', 0.4],
    ['7', 0.4],
  ],
  S: [['5', 0.2]],
  s: [['5', 0.2]],
  B: [['8', 0.2]],
  Z: [['2', 0.2]],
  z: [['2', 0.2]],
  G: [['6', 0.2]],
  b: [['6', 0.2]],
  g: [['9', 0.2]],
  q: [['9', 0.2]],
  A: [['4', 0.4]],
  d: [
    ['4', 0.4],
    ['0', 0.4],
  ],
};
const LETTER_READINGS: Readonly<Record<string, ReadonlyArray<readonly [string, number]>>> = {
  '0': [
    ['O', 0.2],
    ['D', 0.4],
    ['Q', 0.4],
  ],
  '1': [
    ['I', 0.2],
    ['L', 0.4],
    ['T', 0.4],
    ['J', 0.4],
  ],
  '2': [['Z', 0.2]],
  '4': [['A', 0.4]],
  '5': [['S', 0.2]],
  '6': [['G', 0.2]],
  '7': [['T', 0.4]],
  '8': [['B', 0.2]],
  ')': [['J', 0.2]],
  ']': [['J', 0.2]],
  '|': [['I', 0.2]],
  '!': [['I', 0.2]],
};
// Letters OCR confuses with other letters: not forced by the position, so each costs a full change.
const LETTER_SWAPS: Readonly<Record<string, readonly string[]>> = {
  O: ['Q', 'D'],
  Q: ['O'],
  D: ['O'],
  U: ['V'],
  V: ['U', 'Y'],
  Y: ['V'],
};
/** Characters a GSTIN is printed with. */
const ALNUM = /^[0-9A-Z]$/;
/** PAN holder types (4th character of a PAN, 6th of a GSTIN). */
const PAN_HOLDER = /^[PCHFATBLJG]$/;
/**
 * Most total change a repair may need: one full change plus a little. Measured on valid GSTINs
 * with one random wrong character, a larger budget mostly adds wrong repairs (a different valid
 * GSTIN), while the OCR slips seen on scans (look-alikes, a glyph read twice, O/Q, U/V) fit in it.
 */
const MAX_COST = 1.3;

/** True when OCR could read one glyph as both characters (S/5, O/0, z/Z, )/J, 7/T...). */
function looksAlike(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  if (a.toUpperCase() === b.toUpperCase()) return true;
  const reads = (x: string, y: string) =>
    [...(DIGIT_READINGS[x] ?? []), ...(LETTER_READINGS[x] ?? [])].some(([r]) => r === y.toUpperCase());
  return reads(a, b) || reads(b, a);
}

/** Which characters a GSTIN position allows: d digit, l letter, e entity (1-9A-Z), z 'Z', a any. */
const POSITION_CLASS = 'ddlllllddddleza';

/** Readings of one printed character at a GSTIN position, each with its cost. */
function readingsAt(ch: string, cls: string): Array<readonly [string, number]> {
  const up = ch.toUpperCase();
  const out: Array<readonly [string, number]> = [];
  const add = (c: string, cost: number) => {
    if (!out.some(([x]) => x === c)) out.push([c, cost]);
  };
  const digits = DIGIT_READINGS[ch] ?? DIGIT_READINGS[up] ?? [];
  const letters = LETTER_READINGS[ch] ?? [];
  if (cls === 'd') {
    if (/[0-9]/.test(ch)) add(ch, 0);
    for (const [d, k] of digits) add(d, k);
  } else if (cls === 'l') {
    if (/[A-Z]/.test(up)) add(up, 0);
    for (const [l, k] of letters) add(l, k);
    for (const l of /[A-Z]/.test(up) ? (LETTER_SWAPS[up] ?? []) : []) add(l, 1);
  } else if (cls === 'z') {
    if (up === 'Z') add('Z', 0);
    else if (ch === '2') add('Z', 0.2);
    else if (ch === '7') add('Z', 0.4);
  } else {
    // Entity number and check character: a digit or a letter, so both readings are plausible; a
    // character that already fits is read otherwise only at a surcharge (nothing forces it).
    const fits = ALNUM.test(up) && !(cls === 'e' && up === '0');
    const surcharge = fits ? 0.3 : 0;
    if (fits) add(up, 0);
    for (const [d, k] of digits) if (!(cls === 'e' && d === '0')) add(d, k + surcharge);
    for (const [l, k] of letters) add(l, k + surcharge);
    if (cls === 'a') for (const l of LETTER_SWAPS[up] ?? []) add(l, 1);
  }
  return out;
}

/**
 * Repair an OCR-read GSTIN. Look-alike characters are read by position (O/0, I/1, S/5, B/8, Z/2,
 * G/6, `)`/J...: a digit slot takes the digit reading, a letter slot the letter reading; the
 * entity number and check character may be either), stray marks are dropped, and at most one
 * full change is allowed: a letter read as a similar letter (O/Q, U/V) or one extra character
 * dropped (OCR sometimes inserts one). Every change has a cost; candidates must pass every check,
 * including the mod-36 check character and a valid PAN holder type. The cheapest candidate is
 * returned only when no other valid reading comes close, because guessing between two valid numbers
 * would book an invoice against the wrong supplier. Otherwise null.
 */
export function repairGstin(candidate: string): string | null {
  const raw = candidate.replace(/\s+/g, '');
  if (raw.length < 15 || raw.length > 18) return null;
  const upper = raw.toUpperCase();
  if (upper.length === 15 && isValidGstin(upper)) return upper;

  const found = new Map<string, number>();
  const walk = (i: number, pos: number, prefix: string, cost: number): void => {
    if (cost > MAX_COST + 1e-9) return;
    const left = raw.length - i;
    const need = 15 - pos;
    if (need === 0) {
      // Trailing marks may be dropped; trailing characters may not (a longer token is not a GSTIN).
      if (/^[^0-9A-Za-z]*$/.test(raw.slice(i)) && isValidGstin(prefix) && PAN_HOLDER.test(prefix[5]!)) {
        const prev = found.get(prefix);
        if (prev === undefined || cost < prev) found.set(prefix, cost);
      }
      return;
    }
    if (left < need) return;
    const ch = raw[i]!;
    // Drop this character: nearly free for a stray mark; OCR's usual insertion is one glyph read
    // twice ("S5", "0O", "7T", ")J"), so a character beside its look-alike costs less than another.
    if (left > need) {
      const twin = looksAlike(ch, raw[i - 1]) || looksAlike(ch, raw[i + 1]);
      walk(i + 1, pos, prefix, cost + (/[0-9A-Za-z]/.test(ch) ? (twin ? 0.5 : 1.2) : 0.1));
    }
    for (const [c, k] of readingsAt(ch, POSITION_CLASS[pos]!)) walk(i + 1, pos + 1, prefix + c, cost + k);
  };
  walk(0, 0, '', 0);
  const ranked = [...found].sort((a, b) => a[1] - b[1]);
  const [best, next] = ranked;
  if (!best) return null;
  // A rival reading that costs about as much makes the choice a guess.
  return next && next[1] - best[1] < 0.3 ? null : best[0];
}
