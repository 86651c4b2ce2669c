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

// OCR confusions between look-alike glyphs, both ways. Positions that must be digits get the
// digit reading; positions that must be letters get the letter reading.
const LETTER_TO_DIGIT: Readonly<Record<string, string>> = {
  O: '0',
  D: '0',
  Q: '0',
  I: '1',
  L: '1',
  S: '5',
  B: '8',
  Z: '2',
  G: '6',
};
const DIGIT_TO_LETTER: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '5': 'S',
  '8': 'B',
  '2': 'Z',
  '6': 'G',
};

/** Which characters a GSTIN position allows: d digit, l letter, e entity (1-9A-Z), z 'Z', a any. */
const POSITION_CLASS = 'ddlllllddddleza';

/**
 * Repair an OCR-read GSTIN: fix look-alike characters (O/0, I/1, S/5, B/8, Z/2, G/6) where the
 * position demands a digit or a letter, and try both readings where either is allowed (entity
 * number and check character). Returns the repaired GSTIN only when exactly one variant passes
 * every check (including the checksum), because guessing between two valid numbers would book
 * an invoice against the wrong supplier; otherwise null.
 */
export function repairGstin(candidate: string): string | null {
  const value = candidate.toUpperCase().replace(/[^0-9A-Z]/g, '');
  if (value.length !== 15) return null;
  if (isValidGstin(value)) return value;

  const options: string[][] = [];
  for (let i = 0; i < 15; i++) {
    const ch = value[i]!;
    const cls = POSITION_CLASS[i]!;
    const set = new Set<string>();
    if (cls === 'd') {
      set.add(/[0-9]/.test(ch) ? ch : (LETTER_TO_DIGIT[ch] ?? ch));
    } else if (cls === 'l') {
      set.add(/[A-Z]/.test(ch) ? ch : (DIGIT_TO_LETTER[ch] ?? ch));
    } else if (cls === 'z') {
      set.add(ch === '2' ? 'Z' : ch);
    } else {
      set.add(ch);
      const alt = /[0-9]/.test(ch) ? DIGIT_TO_LETTER[ch] : LETTER_TO_DIGIT[ch];
      if (alt !== undefined && !(cls === 'e' && alt === '0')) set.add(alt);
    }
    options.push([...set]);
  }

  const found = new Set<string>();
  const walk = (i: number, prefix: string): void => {
    if (found.size > 1) return;
    if (i === 15) {
      if (isValidGstin(prefix)) found.add(prefix);
      return;
    }
    for (const ch of options[i]!) walk(i + 1, prefix + ch);
  };
  walk(0, '');
  return found.size === 1 ? [...found][0]! : null;
}
