import { isValidGstin, STATES, stateByCode, stateCodeFromText } from '@bahi/india';
import { editDistance } from '../util.ts';
import type { Candidate } from './header.ts';
import { lowerWords } from './ocr-words.ts';
import { STATE_IN_ADDRESS } from './party-weights.ts';

/**
 * The state a party's address names: its last parts ("…, Karnataka"), the state
 * of its own GSTIN named with an OCR slip, or a long state name misspelt by one letter.
 */

/** The state named in the last parts of an address line (or of the lines joined), or null. */
export function stateFromAddress(lines: string[]): string | null {
  // Lines joined with a space: a state name may wrap ("Dadra and Nagar" / "Haveli and Daman and Diu").
  const joined = lines.join(' ');
  for (const chunk of [joined, ...lines.slice().reverse()]) {
    const parts = chunk
      .split(/,|\s-\s|\s–\s/)
      .map((p) =>
        p
          .replace(/\b\d{3} ?\d{3}\b/g, '')
          .replace(/^[\s\-–]+|[\s\-–]+$/g, '')
          .trim(),
      )
      .filter((p) => p && /^[A-Za-z &.()]+$/.test(p));
    for (let j = parts.length - 1; j >= Math.max(0, parts.length - STATE_IN_ADDRESS.lastParts); j--) {
      const code = stateCodeFromText(parts[j]!);
      if (code && parts[j]!.length > 2) return code;
    }
  }
  return null;
}

/**
 * The state of the party's own GSTIN when its address names that state with an OCR slip
 * ("Tami Nadu"): the GSTIN vouches for which state is meant, the address that it is printed.
 */
export function stateOfGstinInAddress(gstin: Candidate | null, lines: string[]): string | null {
  const code = typeof gstin?.value === 'string' && isValidGstin(gstin.value) ? gstin.value.slice(0, 2) : null;
  const state = code ? stateByCode(code) : undefined;
  if (!state || !lines.length) return null;
  const slips = Math.max(1, Math.floor(state.name.length / STATE_IN_ADDRESS.lettersPerSlip));
  return namedLoosely(state.name, lines, slips) ? state.code : null;
}

/** Whether the address lines name a state within `allowed` OCR slips. */
function namedLoosely(stateName: string, lines: string[], allowed: number): boolean {
  const name = stateName.toLowerCase();
  const words = lowerWords(lines.join(' '));
  const n = name.split(' ').length;
  for (let i = 0; i + n <= words.length; i++)
    if (editDistance(words.slice(i, i + n).join(' '), name, allowed) <= allowed) return true;
  return false;
}

/** How far a state read from a misspelt name, with nothing else for it, is trusted: review. */
export const MISSPELT_STATE_CONFIDENCE = 0.6;

/** Letters a state's name needs before a one-letter slip in it is still that state alone. */
const LOOSE_NAME_LETTERS = 8;

/**
 * The state an address names with one letter off ("Karnatka"): only long names, and only when
 * exactly one state is that close, so a slip never turns one state into another.
 */
export function misspeltStateInAddress(lines: string[]): string | null {
  if (!lines.length) return null;
  const close = STATES.filter(
    (st) => !st.historical && st.name.length >= LOOSE_NAME_LETTERS && namedLoosely(st.name, lines, 1),
  );
  return close.length === 1 ? close[0]!.code : null;
}
