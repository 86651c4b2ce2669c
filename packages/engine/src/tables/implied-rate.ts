import { GST_RATE_SLABS } from '../fields/tax-rates.ts';
import type { Layout } from '../layout.ts';
import { PAISE_END } from './fields.ts';
import { parseMoney, percentOf } from './numbers.ts';
import { normaliseLabel, TAX_WORD } from './vocabulary.ts';

/** One paisa in rupees: each line's tax is rounded to it, so the sums may be off by that much a line. */
const PAISA = 0.01;

/** A printed figure in rupees and paise ("31.95", "2,736.00") and the text of its line. */
interface Figure {
  value: number;
  line: string;
}

function figuresOf(layout: Layout): Figure[] {
  const out: Figure[] = [];
  for (const line of layout.lines) {
    for (const w of line.words) {
      const text = w.text.trim();
      // Printed with its paise: a computed amount, not a count or a code.
      if (!PAISE_END.test(text)) continue;
      const value = parseMoney(text);
      if (value !== null && value > 0) out.push({ value, line: line.text });
    }
  }
  return out;
}

/**
 * The one GST slab the document's printed taxes are of its lines' amounts, read from the
 * arithmetic alone when no rate is legible (a receipt's "S . G . S . T @9%" in OCR pieces, a
 * tax printed under an item): the lines' amounts add up to a base, and for one slab its half is
 * printed twice (CGST and SGST), its half and its whole are printed, or its whole is printed on a
 * line naming a tax. Each line's tax is rounded to the paisa, so a paisa a line of slack.
 * Figures equal to a line's own amount or rate are no witness. Null unless exactly one slab fits.
 */
export function impliedLineRate(lines: Array<Record<string, unknown>>, layout: Layout): number | null {
  if (!lines.length || lines.some((l) => typeof l.amount !== 'number')) return null;
  if (lines.some((l) => typeof l.gstRate === 'number')) return null;
  const base = lines.reduce((s, l) => s + (l.amount as number), 0);
  const own = new Set(lines.flatMap((l) => [l.amount, l.rate]).filter((v) => typeof v === 'number'));
  const figures = figuresOf(layout).filter((f) => !own.has(f.value));
  const slack = PAISA * (lines.length + 1);
  const fits = GST_RATE_SLABS.filter((slab) => {
    const whole = percentOf(base, slab);
    if (whole / 2 < 1) return false;
    const near = (f: Figure, v: number, tol: number) => Math.abs(f.value - v) <= tol;
    const halves = figures.filter((f) => near(f, whole / 2, slack)).length;
    const wholes = figures.filter((f) => near(f, whole, 2 * slack));
    return (
      halves >= 2 ||
      (halves >= 1 && wholes.length >= 1) ||
      wholes.some((f) => TAX_WORD.test(normaliseLabel(f.line)))
    );
  });
  return fits.length === 1 ? fits[0]! : null;
}
