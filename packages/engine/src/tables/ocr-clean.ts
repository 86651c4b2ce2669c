import type { Word } from '../types.ts';
import { hasDigit, isPlainFigure, parseQuantity, withoutPercent } from './numbers.ts';
import { UNIT_WORD } from './vocabulary.ts';
import { BRACKETED_AMOUNT_CHARS, STROKED_AMOUNT_CHARS, UNIT_CUT_GAP } from './weights.ts';

/** Glyphs OCR reads for a cell border: a word is cut where one stands. */
const BORDER_GLYPHS = '|[]{}¦';

/**
 * OCR of ruled tables reads cell borders as glyphs: `73181500|`, `[1,950.00`, `54,600.00f`,
 * `0.00(2,07,100.00|` (two cells joined through a border). Before table reading, OCR words are cut
 * at border glyphs and numeric tokens lose border debris, so cells and numbers come out clean.
 * Text-layer words are returned untouched.
 */
export function cleanOcrWords(words: Word[]): Word[] {
  const out: Word[] = [];
  for (const w of words) {
    if (w.source !== 'ocr') {
      out.push(w);
      continue;
    }
    for (const piece of splitAtBorders(w)) {
      const text = stripNumericDebris(piece.text);
      if (text === '') continue;
      out.push(...splitNumberUnit({ ...piece, text }));
    }
  }
  return out;
}

/** Cut a word where a border glyph sits (`|`, `[`, `]`, `{`, `}`, or `(` between two numbers). */
function splitAtBorders(w: Word): Word[] {
  const t = w.text;
  const cuts: Array<[number, number]> = [];
  let start = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t[i] as string;
    const border = BORDER_GLYPHS.includes(c);
    // "0.00(2,07,100.00": a bracket glued between two numbers is a border, not a negative sign.
    const gluedParen = c === '(' && hasDigit(t[i - 1] ?? '') && hasDigit(t[i + 1] ?? '') && !t.includes(')');
    if (border || gluedParen) {
      if (i > start) cuts.push([start, i]);
      start = i + 1;
    }
  }
  if (start < t.length) cuts.push([start, t.length]);
  if (cuts.length === 1 && cuts[0]?.[0] === 0 && cuts[0]?.[1] === t.length) return [w];
  const perChar = (w.x1 - w.x0) / Math.max(1, t.length);
  return cuts.map(([a, b]) => ({
    ...w,
    text: t.slice(a, b),
    x0: w.x0 + a * perChar,
    x1: w.x0 + b * perChar,
  }));
}

/**
 * Drop border debris glued to a number: `54,600.00f` → `54,600.00`, `(2,07,100.00` → `2,07,100.00`,
 * `0.00;` → `0.00`. Letters that are part of a token (`M12`, `2RS`, `18W`) and inch marks stay.
 */
function stripNumericDebris(text: string): string {
  if (!hasDigit(text)) return text;
  // A trailing comma stays: OCR splits "1, 26, 046. 02" at separators and the cell reader glues
  // the pieces back on it.
  let t = text.replace(/^[[{|'`,;:!]+/, '').replace(/[\]}|'`;:!]+$/, '');
  // A lone bracket beside an amount ("(2,07,100.00", "5,300.00)", "9885535)") is a border; beside
  // a short plain number it is text: "(50 Kg Bag)", "(Roll of 1000)".
  if (/^\([0-9][0-9,]*\.[0-9]{2}$/.test(t)) t = t.slice(1);
  const closed = t.slice(0, -1);
  if (
    t.endsWith(')') &&
    isPlainFigure(closed) &&
    (closed.includes(',') || closed.includes('.') || t.length > BRACKETED_AMOUNT_CHARS || t.startsWith('0'))
  )
    t = closed;
  // A letter glued after a 2-decimal amount is a border stroke read as f, l, j or I.
  if (/^[0-9][0-9.,]*\.[0-9]{2}[fljI1]$/.test(t) && t.length > STROKED_AMOUNT_CHARS) t = t.slice(0, -1);
  if (t === text) return text;
  return parseQuantity(withoutPercent(t)) !== null || isPlainFigure(withoutPercent(t)) ? t : text;
}

/**
 * Cut `2MT` into `2` and `MT` when the tail is a known unit, keeping each part's share of the box.
 * A unit in brackets (`25(NOS)`, a quantity cell printing "25 (NOS)" without the space) loses them.
 */
function splitNumberUnit(w: Word): Word[] {
  const g = /^(?<num>[0-9][0-9.,]*)(?<open>\(?)(?<unit>[A-Za-z][A-Za-z.]{0,6})(?<close>\)?)$/.exec(
    w.text,
  )?.groups;
  if (!g || Boolean(g.open) !== Boolean(g.close)) return [w];
  const num = g.num ?? '';
  const unit = g.unit ?? '';
  if (!UNIT_WORD.test(unit) || parseQuantity(num) === null) return [w];
  const perChar = (w.x1 - w.x0) / w.text.length;
  const cut = w.x0 + num.length * perChar;
  return [
    { ...w, text: num, x1: cut },
    { ...w, text: unit, x0: cut + perChar * UNIT_CUT_GAP },
  ];
}
