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
  // Rows holding any mask bit: most rows of a page have none, and the passes over the mask skip them.
  const marked = new Uint8Array(h);
  markVerticalRuns(data, w, h, t, minV, mask, marked);
  markHorizontalRuns(data, w, h, options.threshold, t, minH, mask, marked);
  // A rule is thin. Thick masked bands are filled areas (a dark header bar, a logo, a stamp)
  // whose content we must not erase.
  dropThickAcrossRows(mask, w, h, maxThick, VERTICAL, marked);
  dropThickDownColumns(mask, w, h, maxThick, HORIZONTAL, marked);
  return eraseMasked(data, w, h, mask, t, marked);
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
 * beside it is darker than `t`. Rows are walked in order, each column's open run kept aside (a
 * column walk strides the whole page per pixel and misses the cache). A run ends at the first
 * light row more than `MAX_GAP` below its last ink, which can only be the row `MAX_GAP + 1` below
 * it: each column with ink is queued for that row, and only queued columns are looked at on light
 * pixels.
 */
function markVerticalRuns(
  data: Uint8Array,
  w: number,
  h: number,
  t: number,
  minV: number,
  mask: Uint8Array,
  marked: Uint8Array,
): void {
  const start = new Int32Array(w).fill(-1);
  const lastInk = new Int32Array(w);
  const inkCount = new Int32Array(w);
  // Columns to check for a run's end, a queue for each of the next MAX_GAP + 2 rows.
  const slots = MAX_GAP + 2;
  const due = Array.from({ length: slots }, () => new Int32Array(w));
  const dueCount = new Int32Array(slots);
  const addInk = (x: number, y: number) => {
    if ((start[x] as number) < 0) {
      start[x] = y;
      inkCount[x] = 1;
    } else inkCount[x] = (inkCount[x] as number) + 1;
    lastInk[x] = y;
    const slot = (y + MAX_GAP + 1) % slots;
    const q = due[slot] as Int32Array;
    q[dueCount[slot] as number] = x;
    dueCount[slot] = (dueCount[slot] as number) + 1;
  };
  for (let y = 0; y <= h; y++) {
    const row = y * w;
    if (y < h) {
      // Ink columns of this row: a dark pixel makes itself and both neighbours ink.
      let next = 0; // first column not yet counted in this row
      for (let x = 0; x < w; x++) {
        if ((data[row + x] as number) >= t) continue;
        for (let k = Math.max(next, x - 1); k <= Math.min(w - 1, x + 1); k++) addInk(k, y);
        next = x + 2;
      }
    }
    const slot = y % slots;
    const q = due[slot] as Int32Array;
    const n = dueCount[slot] as number;
    dueCount[slot] = 0;
    for (let j = 0; j < n; j++) {
      const x = q[j] as number;
      const s = start[x] as number;
      const last = lastInk[x] as number;
      // Queued when it had ink MAX_GAP + 1 rows up; ink since then moved its end on.
      if (s < 0 || last !== y - MAX_GAP - 1) continue;
      const len = last - s + 1;
      if (len >= minV && (inkCount[x] as number) >= len * 0.9) {
        for (let i = s * w + x, r = s; r <= last; i += w, r++)
          if ((data[i] as number) < t) {
            mask[i] = VERTICAL;
            marked[r] = 1;
          }
      }
      start[x] = -1;
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
  marked: Uint8Array,
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
            if ((data[i] as number) < t) {
              mask[i] = (mask[i] as number) | HORIZONTAL;
              marked[y] = 1;
            }
        }
        start = -1;
      }
    }
  }
}

/** Clear `bit` on masked segments of a row wider than `maxThick` (a vertical rule is thin across). */
function dropThickAcrossRows(
  mask: Uint8Array,
  w: number,
  h: number,
  maxThick: number,
  bit: number,
  marked: Uint8Array,
): void {
  for (let y = 0; y < h; y++) {
    if (!marked[y]) continue;
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
function dropThickDownColumns(
  mask: Uint8Array,
  w: number,
  h: number,
  maxThick: number,
  bit: number,
  marked: Uint8Array,
): void {
  const start = new Int32Array(w).fill(-1);
  let open = 0;
  for (let y = 0; y <= h; y++) {
    // A row without marks ends every open segment; with none open, it changes nothing.
    if (y < h && !marked[y] && open === 0) continue;
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const on = y < h && ((mask[row + x] as number) & bit) !== 0;
      const s = start[x] as number;
      if (on && s < 0) {
        start[x] = y;
        open++;
      } else if (!on && s >= 0) {
        if (y - s > maxThick)
          for (let k = s * w + x; k < row + x; k += w) mask[k] = (mask[k] as number) & ~bit;
        start[x] = -1;
        open--;
      }
    }
  }
}

/**
 * Whiten the masked pixels and, as the rule's soft edges, the unmasked pixels beside them (left,
 * right, above, below) still darker than `edge`; returns how many masked pixels there were.
 */
function eraseMasked(
  data: Uint8Array,
  w: number,
  h: number,
  mask: Uint8Array,
  edge: number,
  marked: Uint8Array,
): number {
  let erased = 0;
  for (let y = 0; y < h; y++) {
    if (!marked[y]) continue;
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
