import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPdf, readPageWords } from './text.ts';

const corpus = new URL('../../../../../shared/corpus/dev/', import.meta.url);

describe('readPageWords', () => {
  it('reads words with top-left boxes inside the page', () => {
    const doc = openPdf(readFileSync(new URL('invoice-001.pdf', corpus)));
    const page = readPageWords(doc.loadPage(0), 1);
    expect(page.words.length).toBeGreaterThan(50);
    for (const w of page.words) {
      expect(w.text.trim()).toBe(w.text);
      expect(w.x0).toBeLessThanOrEqual(w.x1);
      expect(w.y1).toBeLessThanOrEqual(page.height + 1);
    }
    expect(page.words.some((w) => /^\d{2}[A-Z]{5}\d{4}[A-Z]\d[A-Z\d]{2}$/.test(w.text))).toBe(true);
  });
});
