import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { devFixtures } from '../../test/dev-fixtures.ts';
import { stextExports } from './mupdf-module.ts';
import { openPdf, readPageWords } from './text.ts';

describe('readPageWords', () => {
  it('reads words with top-left boxes inside the page', () => {
    const doc = openPdf(readFileSync(new URL('invoice-001.pdf', devFixtures)));
    const page = readPageWords(doc.loadPage(0), 1);
    expect(page.words.length).toBeGreaterThan(50);
    for (const w of page.words) {
      expect(w.text.trim()).toBe(w.text);
      expect(w.x0).toBeLessThanOrEqual(w.x1);
      expect(w.y1).toBeLessThanOrEqual(page.height + 1);
    }
    expect(page.words.some((w) => /^\d{2}[A-Z]{5}\d{4}[A-Z]\d[A-Z\d]{2}$/.test(w.text))).toBe(true);
  });

  it("reads the same words through mupdf's WASM exports as through StructuredText.walk()", () => {
    // The exports are reachable here: this module graph loads pdf/text.ts before mupdf.
    expect(stextExports()).not.toBeNull();
    // One text-layer fixture of each family at hand (modern, e-invoice, Tally, two- and three-page ones).
    for (const name of ['invoice-001.pdf', 'invoice-009.pdf', 'invoice-024.pdf', 'grn-010.pdf']) {
      const doc = openPdf(readFileSync(new URL(name, devFixtures)));
      for (let i = 0; i < doc.countPages(); i++) {
        const page = doc.loadPage(i);
        expect(readPageWords(page, i + 1)).toEqual(readPageWords(page, i + 1, { viaWalk: true }));
      }
    }
  });
});
