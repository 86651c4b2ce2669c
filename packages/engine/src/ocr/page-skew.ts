import type { GrayImage } from './page.ts';
import { otsuThreshold } from './page-stretch.ts';

// Skew estimate of a text page by projection profiles.

/**
 * Estimate the skew of a text page in degrees (positive = content rotated clockwise, the
 * convention of sharp's `rotate`). Projection-profile method: on a ~1000 px wide binarised copy,
 * project the ink onto the vertical axis for each candidate angle; when the angle matches the
 * text lines, ink piles into few rows and the profile is sharpest (largest sum of squared
 * differences between neighbouring rows). Coarse search, then a fine search around the best.
 */
export function estimateSkewAngle(gray: GrayImage, options?: { maxAngle?: number }): number {
  const maxAngle = options?.maxAngle ?? 5;
  const factor = Math.max(1, Math.round(gray.width / 1000));
  const w = Math.floor(gray.width / factor);
  const h = Math.floor(gray.height / factor);
  if (w < 20 || h < 20) return 0;
  const small = factor === 1 ? gray.data : boxDownscale(gray, factor, w, h);
  const threshold = otsuThreshold(small);
  const ink = tallInkRemoved(small, w, h, threshold);
  const runs = inkRuns(ink, w, h);
  // A page that is mostly ink (a photo, a dark border) or blank has no text lines to align.
  if (runs.points < 200 || runs.points > w * h * 0.5) return 0;
  const diag = Math.ceil(Math.hypot(w, h)) + 2;
  const bins = new Int32Array(diag * 2);
  const score = (deg: number): number => profileSharpness(runs, deg, bins, diag);
  const search = (from: number, to: number, step: number): number => {
    let best = 0;
    let bestScore = -1;
    for (let a = from; a <= to + 1e-9; a += step) {
      const s = score(a);
      if (s > bestScore) {
        bestScore = s;
        best = a;
      }
    }
    return best;
  };
  const coarse = search(-maxAngle, maxAngle, 0.25);
  const fine = search(coarse - 0.25, coarse + 0.25, 0.05);
  return Math.round(fine * 100) / 100;
}

/** Horizontal runs of ink pixels, as coordinates relative to the page centre. */
interface InkRuns {
  /** x of each run's first pixel. */
  x0: Float64Array;
  /** y of each run. */
  y: Float64Array;
  /** Pixels in each run. */
  length: Int32Array;
  /** Pixels in all runs. */
  points: number;
}

/** The runs of set pixels of a `w × h` mask, row by row, about the centre (so rotation does not shift them). */
function inkRuns(ink: Uint8Array, w: number, h: number): InkRuns {
  let n = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0, i = y * w; x < w; x++, i++) if (ink[i] && (x === 0 || !ink[i - 1])) n++;
  const runs: InkRuns = {
    x0: new Float64Array(n),
    y: new Float64Array(n),
    length: new Int32Array(n),
    points: 0,
  };
  const cx = w / 2;
  const cy = h / 2;
  let k = 0;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let x = 0;
    while (x < w) {
      if (!ink[row + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < w && ink[row + x]) x++;
      runs.x0[k] = start - cx;
      runs.y[k] = y - cy;
      runs.length[k] = x - start;
      runs.points += x - start;
      k++;
    }
  }
  return runs;
}

/**
 * How sharply ink piles into rows once the page is rotated by `-deg`: the sum of squared
 * differences between neighbouring rows of the projection profile. `bins` is scratch, `offset`
 * shifts rows about the centre to non-negative bins. Each pixel's row is rounded from its own
 * rotated y; a run whose two ends round to one row lies wholly in it (the rotated y is monotonic
 * along a run, in floating point too), which spares the pixels between.
 */
function profileSharpness(runs: InkRuns, deg: number, bins: Int32Array, offset: number): number {
  const rad = (deg * Math.PI) / 180;
  const sin = Math.sin(rad);
  const cos = Math.cos(rad);
  bins.fill(0);
  const { x0, y, length } = runs;
  for (let r = 0; r < x0.length; r++) {
    const ry = (y[r] as number) * cos;
    const first = x0[r] as number;
    const n = length[r] as number;
    // y of the point after rotating the page by -deg (undoing a clockwise skew of deg).
    const b0 = Math.round(ry - first * sin) + offset;
    const b1 = Math.round(ry - (first + n - 1) * sin) + offset;
    if (b0 === b1) {
      bins[b0] = (bins[b0] as number) + n;
      continue;
    }
    for (let k = 0; k < n; k++) {
      const b = Math.round(ry - (first + k) * sin) + offset;
      bins[b] = (bins[b] as number) + 1;
    }
  }
  let s = 0;
  for (let i = 1; i < bins.length; i++) {
    const d = (bins[i] as number) - (bins[i - 1] as number);
    s += d * d;
  }
  return s;
}

/** Box-downscale by averaging `factor × factor` cells, so thin strokes survive as darker cells. */
function boxDownscale(gray: GrayImage, factor: number, w: number, h: number): Uint8Array {
  const small = new Uint8Array(w * h);
  const area = factor * factor;
  const src = gray.data;
  if (factor === 2) {
    // Most pages (1500–2500 px wide): the 2 × 2 cells summed straight from their two rows.
    for (let y = 0; y < h; y++) {
      const top = 2 * y * gray.width;
      const bottom = top + gray.width;
      const out = y * w;
      for (let x = 0, i = 0; x < w; x++, i += 2)
        small[out + x] =
          ((src[top + i] as number) +
            (src[top + i + 1] as number) +
            (src[bottom + i] as number) +
            (src[bottom + i + 1] as number)) >>
          2;
    }
    return small;
  }
  const sums = new Uint32Array(w);
  for (let y = 0; y < h; y++) {
    sums.fill(0);
    // Row by row through the source, adding each run of `factor` pixels into its cell.
    for (let dy = 0; dy < factor; dy++) {
      const row = (y * factor + dy) * gray.width;
      for (let x = 0; x < w; x++) {
        let sum = 0;
        const from = row + x * factor;
        for (let dx = 0; dx < factor; dx++) sum += src[from + dx] as number;
        sums[x] = (sums[x] as number) + sum;
      }
    }
    const out = y * w;
    for (let x = 0; x < w; x++) small[out + x] = (sums[x] as number) / area;
  }
  return small;
}

/**
 * The ink of a small page image without its tall dark areas: a phone photo's table or floor around
 * the paper, and vertical rules, run down the page far longer than a line of print is tall. Left in,
 * they outweigh the text lines in the projection profile and hold the angle at the photo's frame.
 */
function tallInkRemoved(small: Uint8Array, w: number, h: number, threshold: number): Uint8Array {
  const ink = new Uint8Array(w * h);
  // A heading line is at most ~3 % of a page's height; the surround of a photo is many times that.
  const tallest = Math.max(8, Math.round(0.03 * h));
  // Rows in order, each column's open dark run kept aside (a column walk misses the cache).
  const start = new Int32Array(w).fill(-1);
  for (let y = 0; y <= h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const dark = y < h && (small[row + x] as number) < threshold;
      const s = start[x] as number;
      if (dark) {
        if (s < 0) start[x] = y;
      } else if (s >= 0) {
        if (y - s <= tallest) for (let i = s * w + x; i < row + x; i += w) ink[i] = 1;
        start[x] = -1;
      }
    }
  }
  return ink;
}
