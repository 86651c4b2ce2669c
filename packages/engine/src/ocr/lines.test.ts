import { describe, expect, it } from 'vitest';
import { removeRuledLines } from './lines.ts';
import type { GrayImage } from './page.ts';

/** A white `w × h` page. */
const blank = (w: number, h: number): GrayImage => ({
  data: new Uint8Array(w * h).fill(255),
  width: w,
  height: h,
});

/** Paint a rectangle of one grey level. */
function fill(img: GrayImage, x0: number, y0: number, x1: number, y1: number, v: number): void {
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) img.data[y * img.width + x] = v;
}

const at = (img: GrayImage, x: number, y: number) => img.data[y * img.width + x];

describe('removeRuledLines', () => {
  // 100 dpi: a vertical rule is at least 30 px, a horizontal one 100 px; a rule is at most 4 px thick.
  const options = { dpi: 100, threshold: 128 };

  it('erases a thin grey vertical rule and keeps the short strokes beside it', () => {
    const img = blank(80, 120);
    fill(img, 20, 10, 20, 109, 0);
    fill(img, 21, 10, 21, 109, 170); // greyer half, lighter than ink but under the lenient threshold
    fill(img, 30, 50, 32, 65, 0); // a digit's stroke, shorter than a rule
    const erased = removeRuledLines(img, options);
    expect(erased).toBe(200);
    expect(at(img, 20, 60)).toBe(255);
    expect(at(img, 21, 60)).toBe(255);
    expect(at(img, 31, 60)).toBe(0);
  });

  it('bridges a one-pixel gap in a rule but not a longer one', () => {
    const img = blank(60, 120);
    fill(img, 10, 0, 10, 49, 0);
    fill(img, 10, 51, 10, 99, 0); // one-pixel speck gap: one rule of 100
    fill(img, 40, 0, 40, 24, 0);
    fill(img, 40, 28, 40, 52, 0); // three-pixel gap: two runs of 25, each too short
    removeRuledLines(img, options);
    expect(at(img, 10, 20)).toBe(255);
    expect(at(img, 10, 80)).toBe(255);
    expect(at(img, 40, 10)).toBe(0);
    expect(at(img, 40, 40)).toBe(0);
  });

  it('erases a horizontal rule with its soft edge and keeps a thick dark bar', () => {
    const img = blank(200, 60);
    fill(img, 10, 10, 189, 10, 0);
    fill(img, 10, 11, 189, 11, 160); // anti-aliased edge: not ink, yet under the lenient threshold
    fill(img, 10, 30, 189, 45, 0); // a filled header bar: 16 rows thick
    const erased = removeRuledLines(img, options);
    expect(erased).toBe(180);
    expect(at(img, 100, 10)).toBe(255);
    expect(at(img, 100, 11)).toBe(255);
    expect(at(img, 100, 38)).toBe(0);
  });

  it('follows a rule tilted across neighbouring columns', () => {
    const img = blank(40, 140);
    // One column over every 40 rows: a rule left tilted by a fraction of a degree.
    for (let y = 0; y < 120; y++) img.data[y * 40 + 10 + Math.floor(y / 40)] = 0;
    removeRuledLines(img, options);
    for (let y = 0; y < 120; y++) expect(at(img, 10 + Math.floor(y / 40), y)).toBe(255);
  });
});
