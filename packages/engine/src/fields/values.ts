import { findDates, isValidGstin, parseIndianAmount, repairGstin, stateCodeFromText } from '@bahi/india';
import type { ValueKind } from './vocabulary.ts';

/** A value recognised inside a piece of text, with the character span it came from. */
export interface ParsedValue {
  value: string | number;
  /** Character offsets of the value inside the text it was read from. */
  start: number;
  end: number;
}

const GSTIN_LOOSE = /\b[0-9OIlSBZG]{2}[A-Z0-9]{5}[0-9OIlSBZG]{4}[A-Z0-9][A-Z0-9]{3}\b/g;

/**
 * Find GSTINs in text. Exact checksum-valid matches first; otherwise 15-character look-alikes
 * repaired for OCR confusions (O/0, I/1, S/5, B/8...) by `repairGstin` when exactly one variant
 * passes the checksum. Returns checksum-failing exact-format ones last, flagged, so checks can
 * report them rather than silently dropping a printed value.
 */
export function findGstins(text: string): Array<ParsedValue & { valid: boolean }> {
  const out: Array<ParsedValue & { valid: boolean }> = [];
  const upper = text.toUpperCase();
  // OCR splits a GSTIN with stray spaces rarely; join only within a token run of 15 chars.
  for (const m of upper.matchAll(GSTIN_LOOSE)) {
    const raw = m[0];
    const start = m.index ?? 0;
    if (isValidGstin(raw)) out.push({ value: raw, start, end: start + 15, valid: true });
    else {
      const fixed = repairGstin(raw);
      if (fixed) out.push({ value: fixed, start, end: start + 15, valid: true });
      else if (/^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/.test(raw))
        out.push({ value: raw, start, end: start + 15, valid: false });
    }
  }
  if (!out.length) {
    // OCR sometimes inserts a stray character: try each 16-character run with one character dropped.
    for (const m of upper.matchAll(/\b[0-9A-Z]{16}\b/g)) {
      const raw = m[0];
      const fixes = new Set<string>();
      for (let i = 2; i < 16; i++) {
        const cand = raw.slice(0, i) + raw.slice(i + 1);
        const ok = isValidGstin(cand) ? cand : repairGstin(cand);
        if (ok) fixes.add(ok);
      }
      if (fixes.size === 1) {
        const start = m.index ?? 0;
        out.push({ value: [...fixes][0]!, start, end: start + 16, valid: true });
      }
    }
  }
  return out;
}

const VEHICLE_RE = /\b([A-Z]{2})[\s-]?(\d{1,2})[\s-]?([A-Z]{0,3})[\s-]?(\d{3,4})\b/;
const CURRENCY_RE = /\b(INR|USD|EUR|GBP|AED|SGD|JPY|CNY|AUD|CAD|CHF)\b/;

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
      const d = findDates(text)[0];
      return d ? { value: d.iso, start: offset + d.index, end: offset + d.index + d.length } : null;
    }
    case 'money': {
      const m = /\(?-?\)?\s*(?:rs\.?|inr|₹)?\s*-?[\d,]+(?:\.\d+)?/i.exec(text);
      if (!m) return null;
      const v = parseIndianAmount(m[0].replace(/\(-\)/, '-'));
      return v === null ? null : { value: v, start: offset + m.index, end: offset + m.index + m[0].length };
    }
    case 'docno': {
      // First token carrying a digit; a document number never is a bare date or a label word.
      const m = /^\s*(?:no\.?\s*|#\s*)?([A-Za-z0-9][A-Za-z0-9/\-_.]*[A-Za-z0-9]|\d)/.exec(text);
      if (!m?.[1] || !/\d/.test(m[1])) return null;
      const token = m[1];
      if (/^\d{1,2}[-/.][A-Za-z0-9]{1,3}[-/.]\d{2,4}$/.test(token) && findDates(token).length) return null;
      const start = offset + m.index + m[0].length - token.length;
      return { value: token, start, end: start + token.length };
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
      const hex = text
        .replace(/\s+/g, '')
        .toLowerCase()
        .replace(/[li|]/g, '1')
        .replace(/o/g, '0')
        .replace(/s/g, '5')
        .replace(/z/g, '2');
      const m = /(?:^|[^0-9a-z])([0-9a-f]{64})(?![0-9a-z])/.exec(hex) ?? /^([0-9a-f]{64})$/.exec(hex);
      if (m?.[1]) return { value: m[1], start: offset, end: offset + text.length };
      return null;
    }
    case 'ack': {
      const m = /\b\d{10,20}\b/.exec(text);
      return m ? { value: m[0], start: offset + m.index, end: offset + m.index + m[0].length } : null;
    }
    case 'eway': {
      const m = /\b(\d{4})\s?(\d{4})\s?(\d{4})\b/.exec(text);
      return m
        ? { value: `${m[1]}${m[2]}${m[3]}`, start: offset + m.index, end: offset + m.index + m[0].length }
        : null;
    }
    case 'vehicle': {
      const m = VEHICLE_RE.exec(text.toUpperCase());
      if (!m) return null;
      return {
        value: `${m[1]}${m[2]}${m[3]}${m[4]}`,
        start: offset + m.index,
        end: offset + m.index + m[0].length,
      };
    }
    case 'currency': {
      const m = CURRENCY_RE.exec(text.toUpperCase());
      return m ? { value: m[1]!, start: offset + m.index, end: offset + m.index + m[0].length } : null;
    }
    case 'text': {
      const t = text.replace(/\s+/g, ' ').trim();
      return t ? { value: t, start: offset, end: offset + text.length } : null;
    }
  }
}
