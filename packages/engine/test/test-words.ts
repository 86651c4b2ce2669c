import type { Word } from '../src/types.ts';

/** How synthetic words are drawn: a fixed-pitch "font" and where the words come from. */
export interface WordMetrics {
  /** Width of one character (points). */
  charWidth: number;
  /** Gap between two words of a cell (points). */
  space: number;
  /** Height of a word box (points). */
  height: number;
  page?: number;
  source?: Word['source'];
  conf?: number;
}

/**
 * Test support: lays a cell's text out as words from `x` on the line at `y`, left to right, like a PDF
 * text layer or OCR word boxes with the given metrics. Shared by the engine's layout-level unit tests.
 */
export function layoutCellWords(x: number, y: number, text: string, metrics: WordMetrics): Word[] {
  const { charWidth, space, height, page = 1, source = 'text', conf = 1 } = metrics;
  const words: Word[] = [];
  let cx = x;
  for (const t of text.split(' ')) {
    words.push({ text: t, x0: cx, y0: y, x1: cx + t.length * charWidth, y1: y + height, page, source, conf });
    cx += t.length * charWidth + space;
  }
  return words;
}
