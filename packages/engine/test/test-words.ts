import type { PageContent, Word } from '../src/types.ts';

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

/**
 * Test support: a one-page layout from lines of text. Cells of a line are separated by two or more
 * spaces and placed 150 points apart; lines are 14 points apart from the top (5-point characters).
 */
export function pageOfLines(lines: string[], source: Word['source'] = 'text'): PageContent {
  const words: Word[] = [];
  lines.forEach((line, i) => {
    line.split(/ {2,}/).forEach((cell, k) => {
      if (cell)
        words.push(
          ...layoutCellWords(20 + 150 * k, 20 + 14 * i, cell, { charWidth: 5, space: 3, height: 10, source }),
        );
    });
  });
  return { page: 1, width: 595, height: 842, words, source };
}

/** Test support: a one-page layout from lines of cells, each line `[y, [x, text]...]` (5-point characters). */
export function pageOfCells(
  lines: Array<[number, ...Array<[number, string]>]>,
  source: 'text' | 'ocr' = 'text',
): PageContent {
  const words: Word[] = [];
  for (const [y, ...cells] of lines)
    for (const [x, text] of cells)
      words.push(...layoutCellWords(x, y, text, { charWidth: 5, space: 3, height: 10, source }));
  return { page: 1, width: 595, height: 842, words, source };
}
