import type { GrayImage } from './page.ts';

/**
 * Separable resampling of grey pixels in JavaScript, as sharp (libvips) resizes by default: a
 * shrink with a Lanczos-3 kernel widened by the factor (thin strokes are averaged, not dropped),
 * pixel centres aligned; an enlargement with a Catmull-Rom cubic on libvips' own grid (output
 * pixel o reads input o ÷ scale − ½). Measured against sharp on bands of a dev page: within a
 * grey level or so on average. The recogniser reads every text line resized to its input height:
 * some 90 small resizes a page, where sharp's per-call cost (a libvips pipeline, a trip through
 * its thread pool) was most of the work.
 */

/** Lobes of the Lanczos kernel. */
const LOBES = 3;

function lanczos(x: number): number {
  if (x === 0) return 1;
  if (x <= -LOBES || x >= LOBES) return 0;
  const px = Math.PI * x;
  return (LOBES * Math.sin(px) * Math.sin(px / LOBES)) / (px * px);
}

/** Catmull-Rom cubic (a = −½), the interpolation libvips enlarges with. */
function cubic(t: number): number {
  const x = Math.abs(t);
  if (x < 1) return 1.5 * x * x * x - 2.5 * x * x + 1;
  if (x < 2) return -0.5 * x * x * x + 2.5 * x * x - 4 * x + 2;
  return 0;
}

/**
 * Taps of every output position along one axis: `count` input indices (clamped to the image, so
 * the inner loops need no bounds) and normalised weights per output. Taps whose weight is zero for
 * every output are left out: adding zero changes no sum, so the pixels stay the same.
 */
interface Taps {
  count: number;
  index: Int32Array;
  weights: Float32Array;
}

/**
 * Axes' taps kept: enough for a page's few dozen line heights. Widths seldom repeat, so the cache
 * stays small (a wide line's taps are tens of kilobytes).
 */
const TAPS_CACHE_SIZE = 64;
const tapsCache = new Map<string, Taps>();

/** The taps from `inSize` to `outSize`, made once for each pair. */
function taps(inSize: number, outSize: number): Taps {
  const key = `${inSize}:${outSize}`;
  let t = tapsCache.get(key);
  if (!t) {
    if (tapsCache.size >= TAPS_CACHE_SIZE) tapsCache.clear();
    t = makeTaps(inSize, outSize);
    tapsCache.set(key, t);
  }
  return t;
}

function makeTaps(inSize: number, outSize: number): Taps {
  // An axis of the same size is left as it is (sharp does not resample it either).
  if (inSize === outSize)
    return {
      count: 1,
      index: Int32Array.from({ length: outSize }, (_, o) => o),
      weights: new Float32Array(outSize).fill(1),
    };
  const scale = outSize / inSize;
  const shrink = scale < 1;
  if (!shrink) return enlargeTaps(inSize, outSize, scale);
  const support = LOBES / scale;
  const full = Math.ceil(2 * support) + 1;
  const first = new Int32Array(outSize);
  const all = new Float32Array(outSize * full);
  for (let o = 0; o < outSize; o++) {
    const centre = (o + 0.5) / scale - 0.5;
    const start = Math.floor(centre - support) + 1;
    first[o] = start;
    let sum = 0;
    for (let k = 0; k < full; k++) {
      const w = lanczos((start + k - centre) * scale);
      all[o * full + k] = w;
      sum += w;
    }
    for (let k = 0; k < full; k++) all[o * full + k] = (all[o * full + k] as number) / sum;
  }
  // The tap positions that carry weight for some output.
  let from = full;
  let to = 0;
  for (let o = 0; o < outSize; o++)
    for (let k = 0; k < full; k++)
      if (all[o * full + k] !== 0) {
        from = Math.min(from, k);
        to = Math.max(to, k + 1);
      }
  if (to <= from) to = from + 1;
  const count = to - from;
  const index = new Int32Array(outSize * count);
  const weights = new Float32Array(outSize * count);
  for (let o = 0; o < outSize; o++)
    for (let k = 0; k < count; k++) {
      index[o * count + k] = Math.min(inSize - 1, Math.max(0, (first[o] as number) + from + k));
      weights[o * count + k] = all[o * full + from + k] as number;
    }
  return { count, index, weights };
}

/**
 * A sum rounded to a grey level: `Math.round` clamped to 0–255, by adding one half and truncating
 * (V8's `Math.round` is several times slower here). The same for every value: from 0.5 up, v + ½
 * is exact or rounds to a value with the same whole part.
 */
export function toByte(v: number): number {
  return v < 0.5 ? 0 : v >= 254.5 ? 255 : (v + 0.5) | 0;
}

/**
 * An enlargement's taps: the cubic's four (its fifth lies two or more pixels off and weighs
 * nothing, so the normalising sum is the same without it).
 */
function enlargeTaps(inSize: number, outSize: number, scale: number): Taps {
  const index = new Int32Array(outSize * 4);
  const weights = new Float32Array(outSize * 4);
  const last = inSize - 1;
  for (let o = 0, b = 0; o < outSize; o++, b += 4) {
    const centre = o / scale - 0.5;
    const start = Math.floor(centre - 2) + 1;
    const w0 = cubic(start - centre);
    const w1 = cubic(start + 1 - centre);
    const w2 = cubic(start + 2 - centre);
    const w3 = cubic(start + 3 - centre);
    const sum = w0 + w1 + w2 + w3;
    // Each weight single precision before and after the division, as the general taps.
    weights[b] = Math.fround(w0) / sum;
    weights[b + 1] = Math.fround(w1) / sum;
    weights[b + 2] = Math.fround(w2) / sum;
    weights[b + 3] = Math.fround(w3) / sum;
    for (let k = 0; k < 4; k++) index[b + k] = Math.min(last, Math.max(0, start + k));
  }
  return { count: 4, index, weights };
}

/** The rows pass's buffer, kept between calls (a page resizes some hundred lines). */
let scratch = new Float32Array(0);
/** The columns pass's sums of one output row. */
let rowSums = new Float64Array(0);

/** Every grey level as itself. */
const IDENTITY = Float32Array.from({ length: 256 }, (_, v) => v);

/** Resize a grey image to `width` × `height` (a new buffer). */
export function resampleGray(gray: GrayImage, width: number, height: number): Uint8Array {
  const out = new Float32Array(width * height);
  resampleInto(gray, width, height, { data: out, offset: 0, stride: width, levels: IDENTITY });
  return Uint8Array.from(out);
}

/**
 * Where resized pixels go: each pixel's grey level looked up in `levels` (a model's input scale),
 * output row y at `offset` + y × `stride` of `data`. Writing there directly saves a pass over
 * the bytes.
 */
export interface LevelSink {
  data: Float32Array;
  offset: number;
  stride: number;
  levels: Float32Array;
}

/** Resize a grey image to `width` × `height` into `sink`. */
export function resampleInto(gray: GrayImage, width: number, height: number, sink: LevelSink): void {
  const { data, width: w0, height: h0 } = gray;
  const tx = taps(w0, width);
  const ty = taps(h0, height);
  // Rows first: h0 × width floats (rounded to single precision, as always), then columns into the sink.
  if (scratch.length < h0 * width) scratch = new Float32Array(Math.max(h0 * width, 2 * scratch.length));
  const mid = scratch;
  const { count: cx, index: ix, weights: wx } = tx;
  for (let y = 0; y < h0; y++) {
    const row = y * w0;
    const to = y * width;
    if (cx === 4) {
      // An enlargement's four taps, unrolled (most lines are enlarged): the same sums in the same order.
      for (let x = 0, b = 0; x < width; x++, b += 4)
        mid[to + x] =
          (wx[b] as number) * (data[row + (ix[b] as number)] as number) +
          (wx[b + 1] as number) * (data[row + (ix[b + 1] as number)] as number) +
          (wx[b + 2] as number) * (data[row + (ix[b + 2] as number)] as number) +
          (wx[b + 3] as number) * (data[row + (ix[b + 3] as number)] as number);
      continue;
    }
    for (let x = 0; x < width; x++) {
      const base = x * cx;
      let acc = 0;
      for (let k = 0; k < cx; k++)
        acc += (wx[base + k] as number) * (data[row + (ix[base + k] as number)] as number);
      mid[to + x] = acc;
    }
  }
  if (rowSums.length < width) rowSums = new Float64Array(Math.max(width, 2 * rowSums.length));
  const acc = rowSums;
  const { count: cy, index: iy, weights: wy } = ty;
  const { data: out, levels } = sink;
  for (let y = 0; y < height; y++) {
    const to = sink.offset + y * sink.stride;
    if (cy === 4) {
      const b = y * 4;
      const w0 = wy[b] as number;
      const w1 = wy[b + 1] as number;
      const w2 = wy[b + 2] as number;
      const w3 = wy[b + 3] as number;
      const r0 = (iy[b] as number) * width;
      const r1 = (iy[b + 1] as number) * width;
      const r2 = (iy[b + 2] as number) * width;
      const r3 = (iy[b + 3] as number) * width;
      for (let x = 0; x < width; x++) {
        const v =
          w0 * (mid[r0 + x] as number) +
          w1 * (mid[r1 + x] as number) +
          w2 * (mid[r2 + x] as number) +
          w3 * (mid[r3 + x] as number);
        out[to + x] = levels[toByte(v)] as number;
      }
      continue;
    }
    // Each sum adds its taps in the same order as a per-pixel loop would: the same doubles.
    acc.fill(0, 0, width);
    for (let k = 0; k < cy; k++) {
      const w = wy[y * cy + k] as number;
      const from = (iy[y * cy + k] as number) * width;
      for (let x = 0; x < width; x++) acc[x] = (acc[x] as number) + w * (mid[from + x] as number);
    }
    for (let x = 0; x < width; x++) {
      const v = acc[x] as number;
      out[to + x] = levels[toByte(v)] as number;
    }
  }
}
