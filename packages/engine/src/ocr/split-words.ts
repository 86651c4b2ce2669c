import type { OcrWord } from './index.ts';
import { type GrayImage, otsuOfHistogram } from './page.ts';
import { FOREIGN_SCRIPT } from './rec-graph.ts';

/** One recognised character: its dictionary text, CTC time step and probability. */
export interface CtcChar {
  ch: string;
  t: number;
  p: number;
}

/**
 * The ink of a line crop: the run of inked rows through its middle (a one-row break allowed for
 * thin strokes), so a neighbour's descenders at the crop's edge do not count, and which columns
 * hold ink within those rows. Null for a crop with no ink.
 */
function lineInk(crop: GrayImage): { top: number; bottom: number; colInk: Uint8Array } | null {
  const { data, width, height } = crop;
  const threshold = cropOtsuThreshold(data);
  // Whether each row holds a dark pixel (the first one found settles it).
  const rowInk = new Uint8Array(height);
  for (let y = 0; y < height; y++)
    for (let i = y * width, end = i + width; i < end; i++)
      if ((data[i] as number) <= threshold) {
        rowInk[y] = 1;
        break;
      }
  let mid = Math.floor(height / 2);
  if (!rowInk[mid]) {
    let best = -1;
    for (let y = 0; y < height; y++)
      if (rowInk[y] && (best < 0 || Math.abs(y - mid) < Math.abs(best - mid))) best = y;
    if (best < 0) return null;
    mid = best;
  }
  let top = mid;
  let bottom = mid;
  while (top > 0 && (rowInk[top - 1] || (top > 1 && rowInk[top - 2]))) top--;
  while (bottom < height - 1 && (rowInk[bottom + 1] || (bottom < height - 2 && rowInk[bottom + 2]))) bottom++;
  const colInk = new Uint8Array(width);
  for (let y = top; y <= bottom; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) if ((data[row + x] as number) <= threshold) colInk[x] = 1;
  }
  return { top, bottom, colInk };
}

/**
 * Cut a recognised line into words. Between two consecutive characters, the widest run of blank
 * ink columns (`lineInk`) is a space when it is wider than `spaceGap` × the line's glyph pitch
 * (more beside a narrow glyph such as a tabular "1"), or when the model itself emitted a space
 * there. Each word's box is its own ink.
 */
export function splitWords(crop: GrayImage, chars: CtcChar[], stepPx: number, spaceGap: number): OcrWord[] {
  const { width } = crop;
  const band = lineInk(crop);
  if (!band) return [];
  const { top, bottom, colInk } = band;
  const kept = chars.filter((c) => c.ch === ' ' || !FOREIGN_SCRIPT.test(c.ch));
  const glyphs = kept.filter((c) => c.ch !== ' ');
  if (glyphs.length === 0) return [];
  let inkStart = 0;
  while (inkStart < width - 1 && !colInk[inkStart]) inkStart++;
  let inkEnd = width - 1;
  while (inkEnd > inkStart && !colInk[inkEnd]) inkEnd--;
  const centre = fitGlyphCentres(colInk, glyphs, stepPx);
  // Blank runs between consecutive glyphs; spaces are the ones wide against the line's pitch.
  const runs: Array<[number, number] | null> = [];
  for (let i = 1; i < glyphs.length; i++)
    runs.push(widestBlankRun(colInk, centre(glyphs[i - 1] as CtcChar), centre(glyphs[i] as CtcChar)));
  // Glyphs the model itself put a space after (by their index among the glyphs).
  const spokenAfter = new Set<number>();
  let glyphIndex = -1;
  for (const c of kept) {
    if (c.ch !== ' ') glyphIndex++;
    else if (glyphIndex >= 0) spokenAfter.add(glyphIndex);
  }
  // Pitch: the distance from one glyph centre to the next, spaces excluded after the first pass.
  const span = centre(glyphs.at(-1) as CtcChar) - centre(glyphs[0] as CtcChar);
  const single = glyphs.length < 2;
  let pitch = single ? inkEnd + 1 - inkStart : Math.max(1, span / (glyphs.length - 1));
  let isSpace: boolean[] = [];
  for (let pass = 0; pass < 2; pass++) {
    isSpace = runs.map((r, i) => {
      if (r === null) return false;
      // Narrow glyphs (a tabular "1", "l", ".") stand in a wide cell: their blank margins are not spaces.
      const pair = [(glyphs[i] as CtcChar).ch, (glyphs[i + 1] as CtcChar).ch];
      const narrow = pair.filter((ch) => NARROW_GLYPH.test(ch)).length;
      // A decimal point or digit-group comma is a dot in a full-width cell: "2 . 5" is 2.5.
      const decimal = pair.some((ch) => /^[.,]$/.test(ch)) && pair.some((ch) => /^\d$/.test(ch)) ? 1 : 0;
      return r[1] - r[0] > (spaceGap + NARROW_ALLOWANCE * (narrow + 2 * decimal)) * pitch;
    });
    const spaced = runs.reduce((a, r, i) => a + (isSpace[i] && r ? r[1] - r[0] : 0), 0);
    if (!single) pitch = Math.max(1, (span - spaced) / (glyphs.length - 1));
  }
  const groups: CtcChar[][] = [];
  const cuts: Array<[number, number]> = [];
  let current: CtcChar[] = [glyphs[0] as CtcChar];
  for (let i = 1; i < glyphs.length; i++) {
    const run = runs[i - 1] ?? null;
    if (isSpace[i - 1] && run) {
      groups.push(current);
      cuts.push(run);
      current = [];
    } else if (spokenAfter.has(i - 1)) {
      // The model heard a space: cut at the widest blank there, or between the glyphs.
      const at = Math.round((centre(glyphs[i - 1] as CtcChar) + centre(glyphs[i] as CtcChar)) / 2);
      groups.push(current);
      cuts.push(run ?? [at, at]);
      current = [];
    }
    current.push(glyphs[i] as CtcChar);
  }
  groups.push(current);
  const words: OcrWord[] = [];
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g] as CtcChar[];
    const from = g === 0 ? 0 : (cuts[g - 1] as [number, number])[1];
    const to = g === groups.length - 1 ? width : (cuts[g] as [number, number])[0];
    // A word's ink lies within a pitch of its outer glyphs (not a logo or rule left of the line).
    let x0 = Math.max(from, Math.floor(centre(group[0] as CtcChar) - pitch));
    while (x0 < to - 1 && !colInk[x0]) x0++;
    let x1 = Math.min(to - 1, Math.ceil(centre(group.at(-1) as CtcChar) + pitch));
    while (x1 > x0 && !colInk[x1]) x1--;
    const text = group.map((c) => c.ch).join('');
    if (!text.trim()) continue;
    words.push({
      text,
      x0,
      y0: top,
      x1: x1 + 1,
      y1: bottom + 1,
      conf: group.reduce((a, c) => a + c.p, 0) / group.length,
    });
  }
  return words;
}

/**
 * Where each glyph's centre is on the crop. A CTC time step maps to `stepPx` crop pixels, but the
 * frame a glyph fires in is early or late by a frame or so; the offset and scale that put the glyph
 * centres nearest to ink are found by a small grid search (a logo or rule beside the text has no
 * glyph and so does not pull the fit).
 */
function fitGlyphCentres(colInk: Uint8Array, glyphs: CtcChar[], stepPx: number): (c: CtcChar) => number {
  const width = colInk.length;
  // Distance of every column to the nearest inked column.
  const dist = new Float64Array(width).fill(width);
  let last = -width;
  for (let x = 0; x < width; x++) {
    if (colInk[x]) last = x;
    dist[x] = x - last;
  }
  last = 2 * width;
  for (let x = width - 1; x >= 0; x--) {
    if (colInk[x]) last = x;
    dist[x] = Math.min(dist[x] as number, last - x);
  }
  const ts = Float64Array.from(glyphs, (g) => g.t);
  let bestA = 0.5 * stepPx;
  let bestB = stepPx;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let sb = 0.9; sb <= 1.1001; sb += 0.02) {
    const b = stepPx * sb;
    for (let a = -1.5 * stepPx; a <= 2.5 * stepPx; a += Math.max(0.5, stepPx / 8)) {
      // Distances are whole columns, so the partial sum is exact; once it reaches the best cost
      // this mapping cannot win (the tie-break terms only add), and the rest is skipped.
      let cost = 0;
      for (let i = 0; i < ts.length && cost < bestCost; i++) {
        const x = Math.round(a + (ts[i] as number) * b);
        cost += x < 0 || x >= width ? width : (dist[x] as number);
      }
      if (cost >= bestCost) continue;
      // Prefer the plain mapping when several fit equally well.
      cost += 0.01 * Math.abs(sb - 1) + 0.001 * Math.abs(a - 0.5 * stepPx);
      if (cost < bestCost) {
        bestA = a;
        bestB = b;
        bestCost = cost;
      }
    }
  }
  return (c) => Math.min(width - 1, Math.max(0, Math.round(bestA + c.t * bestB)));
}

/** Glyphs much narrower than their advance; a gap beside one needs to be wider to be a space. */
const NARROW_GLYPH = /^[1Iil|!]$/;
/** Extra share of the pitch a gap beside each narrow glyph must have to be a space. */
const NARROW_ALLOWANCE = 0.25;

/** The widest run of blank columns strictly between two x positions, as [start, end). */
function widestBlankRun(colInk: Uint8Array, from: number, to: number): [number, number] | null {
  let best: [number, number] | null = null;
  let start = -1;
  for (let x = from + 1; x < to; x++) {
    if (!colInk[x]) {
      if (start < 0) start = x;
      if (!best || x + 1 - start > best[1] - best[0]) best = [start, x + 1];
    } else start = -1;
  }
  return best;
}

/**
 * Otsu's threshold of a line crop: the same level as the page's `otsuThreshold`, with the
 * histogram counted in integers and no mask made (a page cuts some hundred crops).
 */
export function cropOtsuThreshold(data: Uint8Array): number {
  const hist = new Int32Array(256);
  for (let i = 0; i < data.length; i++) {
    const v = data[i] as number;
    hist[v] = (hist[v] as number) + 1;
  }
  return otsuOfHistogram(hist, data.length);
}
