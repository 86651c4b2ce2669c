import type { Word } from '../types.ts';
import { median } from '../util.ts';
import {
  CELL_GAP,
  CELL_GAP_SPACES,
  CELL_LINE_TOLERANCE,
  DEFAULT_WORD_HEIGHT,
  MIN_CELL_GAP,
  OCR_LINE_TOLERANCE,
  SPACE_GAP_MAX,
  TEXT_LINE_TOLERANCE,
} from './weights.ts';

/**
 * Page geometry for tables: words grouped into visual lines, and lines cut into chunks (runs of
 * words close enough to be one cell's content).
 */

/** One visual line of words, left to right. */
export interface Line {
  words: Word[];
  y0: number;
  y1: number;
  /** Vertical centre. */
  yc: number;
  /** Typical word height on the line. */
  h: number;
  /** Typical width of a space between words on this page (0 when unknown). */
  space: number;
}

/** A run of words on one line with no cell-sized gap inside. */
export interface Chunk {
  words: Word[];
  x0: number;
  x1: number;
  text: string;
}

/** Build a line from words (sorts them left to right). */
export function makeLine(words: Word[], space = 0): Line {
  const ws = [...words].sort((a, b) => a.x0 - b.x0);
  const y0 = Math.min(...ws.map((w) => w.y0));
  const y1 = Math.max(...ws.map((w) => w.y1));
  const h = median(ws.map((w) => w.y1 - w.y0));
  return { words: ws, y0, y1, yc: median(ws.map((w) => (w.y0 + w.y1) / 2)), h, space };
}

/**
 * Group words into visual lines by vertical centre. The tolerance is a fraction of the typical
 * word height: tight enough that the lines of a vertically centred cell (description above and
 * below the numbers) stay apart, loose enough for OCR baseline jitter.
 */
export function groupLines(words: Word[], tolerance = TEXT_LINE_TOLERANCE): Line[] {
  if (words.length === 0) return [];
  const hMed = median(words.map((w) => w.y1 - w.y0)) || DEFAULT_WORD_HEIGHT;
  const tol = hMed * tolerance;
  const sorted = [...words].sort((a, b) => (a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2 || a.x0 - b.x0);
  const groups: Word[][] = [];
  let cur: Word[] = [];
  let curYc = 0;
  for (const w of sorted) {
    const yc = (w.y0 + w.y1) / 2;
    if (cur.length > 0 && Math.abs(yc - curYc) > tol) {
      groups.push(cur);
      cur = [];
    }
    cur.push(w);
    // Running mean keeps a long line from drifting with each word.
    curYc = cur.reduce((s, x) => s + (x.y0 + x.y1) / 2, 0) / cur.length;
  }
  if (cur.length > 0) groups.push(cur);
  const space = estimateSpace(groups, hMed);
  return groups.map((g) => makeLine(g, space));
}

/**
 * The typical gap between words of running text on a page: the median of the small gaps between
 * neighbouring words on a line. Fonts and renderers differ, so chunking scales with it.
 */
function estimateSpace(groups: Word[][], hMed: number): number {
  const gaps: number[] = [];
  for (const g of groups) {
    const ws = [...g].sort((a, b) => a.x0 - b.x0);
    for (let i = 1; i < ws.length; i++) {
      const gap = (ws[i] as Word).x0 - (ws[i - 1] as Word).x1;
      if (gap > 0 && gap < hMed * SPACE_GAP_MAX) gaps.push(gap);
    }
  }
  return median(gaps);
}

/**
 * Cut a line into chunks at horizontal gaps wider than `gapFactor` × word height. Within a cell,
 * words are a space apart (~0.25 em); neighbouring cells are further apart.
 */
export function chunkLine(line: Line, gapFactor = CELL_GAP): Chunk[] {
  const chunks: Chunk[] = [];
  const maxGap = Math.max(MIN_CELL_GAP, line.h * gapFactor, line.space * CELL_GAP_SPACES);
  let cur: Word[] = [];
  const flush = () => {
    if (cur.length === 0) return;
    chunks.push({
      words: cur,
      x0: Math.min(...cur.map((w) => w.x0)),
      x1: Math.max(...cur.map((w) => w.x1)),
      text: cur.map((w) => w.text).join(' '),
    });
    cur = [];
  };
  for (const w of line.words) {
    const last = cur[cur.length - 1];
    if (last && w.x0 - last.x1 > maxGap) flush();
    cur.push(w);
  }
  flush();
  return chunks;
}

/** Horizontal overlap of two ranges (negative: the gap between them). */
export function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.min(a1, b1) - Math.max(a0, b0);
}

/** Order words as read inside one cell: sub-lines top to bottom, words left to right. */
export function readingOrder(words: Word[]): Word[][] {
  return groupLines(words, CELL_LINE_TOLERANCE).map((l) => l.words);
}

/** The lines of a page's words, with the tolerance its source needs (OCR or text layer). */
export function pageLines(words: Word[], source: 'text' | 'ocr'): Line[] {
  return groupLines(words, source === 'ocr' ? OCR_LINE_TOLERANCE : TEXT_LINE_TOLERANCE);
}
