import { describe, expect, it } from 'vitest';
import { otsuThreshold } from './page.ts';
import { cropOtsuThreshold, splitWords } from './split-words.ts';

/** Deterministic pseudo-random grey levels: paper near white, some ink near black. */
function speckled(n: number, seed: number, inkShare: number): Uint8Array {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  return Uint8Array.from({ length: n }, () =>
    next() < inkShare ? Math.floor(next() * 90) : 160 + Math.floor(next() * 96),
  );
}

describe('cropOtsuThreshold', () => {
  it('is the page threshold exactly, on crops of every kind', () => {
    const crops = [
      speckled(30 * 400, 1, 0.1),
      speckled(28 * 90, 7, 0.3),
      speckled(12 * 12, 3, 0.02),
      new Uint8Array(300).fill(255),
      Uint8Array.from({ length: 256 }, (_, i) => i),
      Uint8Array.from({ length: 100 }, (_, i) => (i % 2 ? 0 : 255)),
    ];
    for (const c of crops) expect(cropOtsuThreshold(c)).toBe(otsuThreshold(c));
  });
});

describe('splitWords glyph fit', () => {
  it('places glyphs that fire a frame late on their own ink', () => {
    // Ten glyphs 8 px wide on a 12 px pitch, two words; every glyph fires one step late.
    const width = 150;
    const height = 24;
    const data = new Uint8Array(width * height).fill(255);
    const starts = [2, 14, 26, 38, 50, 86, 98, 110, 122, 134];
    for (const x0 of starts) for (let y = 6; y < 18; y++) data.fill(0, y * width + x0, y * width + x0 + 8);
    const chars = 'ABCDEFGHIJ'.split('').map((ch, i) => ({ ch, t: (i < 5 ? i : i + 2) + 1, p: 0.9 }));
    const words = splitWords({ data, width, height }, chars, 12, 0.42);
    expect(words.map((w) => [w.text, w.x0, w.x1])).toEqual([
      ['ABCDE', 2, 58],
      ['FGHIJ', 86, 142],
    ]);
  });
});
