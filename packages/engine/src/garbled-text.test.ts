import { describe, expect, it } from 'vitest';
import { countGarbledWords, replaceGarbledWords } from './extract.ts';
import type { Word } from './types.ts';

const word = (text: string, x0: number, source: Word['source'] = 'text'): Word => ({
  text,
  x0,
  y0: 100,
  x1: x0 + 40,
  y1: 110,
  page: 1,
  source,
  conf: source === 'text' ? 1 : 0.9,
});

describe('a text layer whose font cannot name its figures', () => {
  const layer = [word('Sub', 300), word('Total', 345), word('\uFFFD\uFFFD\uFFFD\uFFFD', 500)];

  it('counts the garbled words', () => {
    expect(countGarbledWords({ page: 1, width: 595, height: 842, words: layer, source: 'text' })).toBe(1);
  });

  it('takes OCR words only where a garbled word stands, keeping the clean text as printed', () => {
    const ocr = [word('Sub', 301, 'ocr'), word('2,640.00', 502, 'ocr'), word('LOGO', 20, 'ocr')];
    const out = replaceGarbledWords(layer, ocr);
    expect(out.map((w) => `${w.text}/${w.source}`)).toEqual(['Sub/text', 'Total/text', '2,640.00/ocr']);
  });
});
