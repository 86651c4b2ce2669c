import type { GrayImage } from './page.ts';

/** Options of {@link removeRuledLines}. */
export interface RuledLineOptions {
  /** Resolution of the image; line lengths are set in inches through it. */
  dpi: number;
  /** Grey level below which a pixel is ink. */
  threshold: number;
  /** Shortest vertical run that counts as a ruled line, inches (a 10 pt digit is ~0.1 in tall). */
  minVertical?: number;
  /** Shortest horizontal run that counts as a ruled line, inches. */
  minHorizontal?: number;
}

/**
 * Erase table rules (long horizontal and vertical ink runs) in place, returning how many pixels
 * were whitened. Boxed invoices draw a grid round every cell; Tesseract reads the vertical rules
 * as `|`, `[`, `]` or even `1` glued onto the amounts beside them (`39,022.00` became
 * `139,022.00]`), and long rules confuse its line finding. Runs may bridge one- or two-pixel
 * gaps so scan noise does not split a rule into short pieces. Pixels flanking a rule that are
 * still darker than mid-grey (its anti-aliased edge) go too.
 */
export function removeRuledLines(img: GrayImage, options: RuledLineOptions): number {
  const { width: w, height: h, data } = img;
  // Rules are often printed thinner and greyer than text, and blur lightens them further:
  // detect them with a lenient threshold halfway between the ink threshold and white.
  const t = Math.min(250, options.threshold + (255 - options.threshold) / 2);
  const edge = t;
  const minV = Math.max(8, Math.round((options.minVertical ?? 0.3) * options.dpi));
  const minH = Math.max(8, Math.round((options.minHorizontal ?? 1) * options.dpi));
  // Text strokes in a row are broken by letter gaps; a rule is solid apart from scan specks.
  const maxGap = 1;
  const maxThick = Math.max(3, Math.round(0.035 * options.dpi));
  const vertical = new Uint8Array(w * h);
  const horizontal = new Uint8Array(w * h);

  // Vertical runs, column by column.
  for (let x = 0; x < w; x++) {
    let start = -1;
    let lastInk = -1;
    let inkCount = 0;
    for (let y = 0; y <= h; y++) {
      // A rule residually tilted by a fraction of a degree wanders across neighbouring columns.
      const ink = y < h && darkest3(data, y * w + x, x > 0 ? 1 : 0, x < w - 1 ? 1 : 0) < t;
      if (ink) {
        if (start < 0) {
          start = y;
          inkCount = 0;
        }
        lastInk = y;
        inkCount++;
      } else if (start >= 0 && y - lastInk > maxGap) {
        const len = lastInk - start + 1;
        if (len >= minV && inkCount >= len * 0.9) {
          for (let yy = start; yy <= lastInk; yy++)
            if ((data[yy * w + x] as number) < t) vertical[yy * w + x] = 1;
        }
        start = -1;
      }
    }
  }
  // Horizontal runs, row by row.
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let start = -1;
    let lastInk = -1;
    let inkCount = 0;
    for (let x = 0; x <= w; x++) {
      // Strict here: with a lenient threshold the blurred lower halves of a text line merge
      // into one long "rule". Horizontal rules also do less harm (they are not read as glyphs).
      const ink = x < w && (data[row + x] as number) < options.threshold;
      if (ink) {
        if (start < 0) {
          start = x;
          inkCount = 0;
        }
        lastInk = x;
        inkCount++;
      } else if (start >= 0 && x - lastInk > maxGap) {
        const len = lastInk - start + 1;
        if (len >= minH && inkCount >= len * 0.95) {
          for (let xx = start; xx <= lastInk; xx++)
            if ((data[row + xx] as number) < t) horizontal[row + xx] = 1;
        }
        start = -1;
      }
    }
  }
  // A rule is thin. Thick masked bands are filled areas (a dark header bar, a logo, a stamp)
  // whose content we must not erase.
  dropThick(vertical, w, h, maxThick, 'row');
  dropThick(horizontal, w, h, maxThick, 'column');
  const mask = vertical;
  for (let i = 0; i < mask.length; i++) mask[i] = (mask[i] as number) | (horizontal[i] as number);
  let erased = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!mask[i]) continue;
      data[i] = 255;
      erased++;
      // Soft edges of the rule, one pixel either side in both directions.
      for (const j of [i - 1, i + 1, i - w, i + w]) {
        if (j >= 0 && j < data.length && !mask[j] && (data[j] as number) < edge) {
          const jx = j % w;
          if (Math.abs(jx - x) <= 1) data[j] = 255;
        }
      }
    }
  }
  return erased;
}

/**
 * Clear masked segments wider than `maxThick` measured across the rule: along rows for vertical
 * rules, along columns for horizontal ones.
 */
function dropThick(mask: Uint8Array, w: number, h: number, maxThick: number, across: 'row' | 'column'): void {
  const outer = across === 'row' ? h : w;
  const inner = across === 'row' ? w : h;
  for (let o = 0; o < outer; o++) {
    let start = -1;
    for (let i = 0; i <= inner; i++) {
      const idx = across === 'row' ? o * w + i : i * w + o;
      const on = i < inner && mask[idx] === 1;
      if (on && start < 0) start = i;
      else if (!on && start >= 0) {
        if (i - start > maxThick) {
          for (let k = start; k < i; k++) mask[across === 'row' ? o * w + k : k * w + o] = 0;
        }
        start = -1;
      }
    }
  }
}

/** Darkest of a pixel and its two neighbours `before` and `after` elements away (0 = none). */
function darkest3(data: Uint8Array, i: number, before: number, after: number): number {
  const a = data[i] as number;
  const b = data[i - before] as number;
  const c = data[i + after] as number;
  return Math.min(a, b, c);
}
