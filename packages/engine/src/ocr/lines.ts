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
  const minV = Math.max(8, Math.round((options.minVertical ?? 0.3) * options.dpi));
  const minH = Math.max(8, Math.round((options.minHorizontal ?? 1) * options.dpi));
  const maxThick = Math.max(3, Math.round(0.035 * options.dpi));
  // One mask, a bit for each direction: a pixel may lie on both a vertical and a horizontal rule.
  const mask = new Uint8Array(w * h);
  markVerticalRuns(data, w, h, t, minV, mask);
  markHorizontalRuns(data, w, h, options.threshold, t, minH, mask);
  // A rule is thin. Thick masked bands are filled areas (a dark header bar, a logo, a stamp)
  // whose content we must not erase.
  dropThickAcrossRows(mask, w, h, maxThick, VERTICAL);
  dropThickDownColumns(mask, w, h, maxThick, HORIZONTAL);
  return eraseMasked(data, w, h, mask, t);
}

/** Mask bit of a pixel on a vertical rule. */
const VERTICAL = 1;
/** Mask bit of a pixel on a horizontal rule. */
const HORIZONTAL = 2;
/** Longest light gap a run bridges: text strokes in a row are broken by letter gaps, a rule only by scan specks. */
const MAX_GAP = 1;

/**
 * Mark the vertical runs at least `minV` long and 90 % ink. A rule residually tilted by a fraction
 * of a degree wanders across neighbouring columns, so a pixel counts as ink when it or a pixel
 * beside it is darker than `t`. Rows are walked in order with each column's open run kept aside
 * (a column walk strides the whole page per pixel and misses the cache).
 */
function markVerticalRuns(
  data: Uint8Array,
  w: number,
  h: number,
  t: number,
  minV: number,
  mask: Uint8Array,
): void {
  const start = new Int32Array(w).fill(-1);
  const lastInk = new Int32Array(w);
  const inkCount = new Int32Array(w);
  for (let y = 0; y <= h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      let ink = false;
      if (y < h) {
        const i = row + x;
        const left = x > 0 ? (data[i - 1] as number) : 255;
        const right = x < w - 1 ? (data[i + 1] as number) : 255;
        ink = (data[i] as number) < t || left < t || right < t;
      }
      const s = start[x] as number;
      if (ink) {
        if (s < 0) {
          start[x] = y;
          inkCount[x] = 1;
        } else inkCount[x] = (inkCount[x] as number) + 1;
        lastInk[x] = y;
      } else if (s >= 0 && y - (lastInk[x] as number) > MAX_GAP) {
        const last = lastInk[x] as number;
        const len = last - s + 1;
        if (len >= minV && (inkCount[x] as number) >= len * 0.9)
          for (let i = s * w + x; i <= last * w + x; i += w) if ((data[i] as number) < t) mask[i] = VERTICAL;
        start[x] = -1;
      }
    }
  }
}

/**
 * Mark the horizontal runs at least `minH` long and 95 % ink. Strict here (`strict`, the ink
 * threshold): with the lenient one the blurred lower halves of a text line merge into one long
 * "rule". Horizontal rules also do less harm (they are not read as glyphs).
 */
function markHorizontalRuns(
  data: Uint8Array,
  w: number,
  h: number,
  strict: number,
  t: number,
  minH: number,
  mask: Uint8Array,
): void {
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let start = -1;
    let lastInk = -1;
    let inkCount = 0;
    for (let x = 0; x <= w; x++) {
      const ink = x < w && (data[row + x] as number) < strict;
      if (ink) {
        if (start < 0) {
          start = x;
          inkCount = 0;
        }
        lastInk = x;
        inkCount++;
      } else if (start >= 0 && x - lastInk > MAX_GAP) {
        const len = lastInk - start + 1;
        if (len >= minH && inkCount >= len * 0.95) {
          for (let i = row + start; i <= row + lastInk; i++)
            if ((data[i] as number) < t) mask[i] = (mask[i] as number) | HORIZONTAL;
        }
        start = -1;
      }
    }
  }
}

/** Clear `bit` on masked segments of a row wider than `maxThick` (a vertical rule is thin across). */
function dropThickAcrossRows(mask: Uint8Array, w: number, h: number, maxThick: number, bit: number): void {
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let start = -1;
    for (let x = 0; x <= w; x++) {
      const on = x < w && ((mask[row + x] as number) & bit) !== 0;
      if (on && start < 0) start = x;
      else if (!on && start >= 0) {
        if (x - start > maxThick)
          for (let k = row + start; k < row + x; k++) mask[k] = (mask[k] as number) & ~bit;
        start = -1;
      }
    }
  }
}

/**
 * Clear `bit` on masked segments of a column taller than `maxThick` (a horizontal rule is thin
 * down the page), walking rows in order with each column's open segment kept aside.
 */
function dropThickDownColumns(mask: Uint8Array, w: number, h: number, maxThick: number, bit: number): void {
  const start = new Int32Array(w).fill(-1);
  for (let y = 0; y <= h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const on = y < h && ((mask[row + x] as number) & bit) !== 0;
      const s = start[x] as number;
      if (on && s < 0) start[x] = y;
      else if (!on && s >= 0) {
        if (y - s > maxThick)
          for (let k = s * w + x; k < row + x; k += w) mask[k] = (mask[k] as number) & ~bit;
        start[x] = -1;
      }
    }
  }
}

/**
 * Whiten the masked pixels and, as the rule's soft edges, the unmasked pixels beside them (left,
 * right, above, below) still darker than `edge`; returns how many masked pixels there were.
 */
function eraseMasked(data: Uint8Array, w: number, h: number, mask: Uint8Array, edge: number): number {
  let erased = 0;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const i = row + x;
      if (mask[i] === 0) continue;
      data[i] = 255;
      erased++;
      if (x > 0 && mask[i - 1] === 0 && (data[i - 1] as number) < edge) data[i - 1] = 255;
      if (x < w - 1 && mask[i + 1] === 0 && (data[i + 1] as number) < edge) data[i + 1] = 255;
      if (y > 0 && mask[i - w] === 0 && (data[i - w] as number) < edge) data[i - w] = 255;
      if (y < h - 1 && mask[i + w] === 0 && (data[i + w] as number) < edge) data[i + w] = 255;
    }
  }
  return erased;
}
