import sharp from 'sharp';

// Contrast stretch of a page (sharp's `normalise()` as a table of grey levels), grey histograms and Otsu's threshold.

/** Darkest share of pixels sharp's `normalise` takes as the ink level (and brightest as the paper). */
const STRETCH_SHARE = 0.01;
/** The ink level of a sparse page: small enough that a page with a footer line still has that much ink. */
const SPARSE_INK_SHARE = 0.001;
/** Most a stretch may multiply contrast: a faded scan needs about 2, a blank page's grain would ask for 10. */
const MAX_STRETCH_GAIN = 3;

/** How many pixels of each grey level an image has (`channels` bytes a pixel, grey in each). */
export function greyHistogram(data: Uint8Array, channels = 1): Uint32Array {
  const histogram = new Uint32Array(256);
  if (channels !== 1) {
    // An indexed loop: iterating a typed array of a few million pixels with for…of is several times slower.
    for (let i = 0; i < data.length; i += channels) {
      const v = data[i] as number;
      histogram[v] = (histogram[v] as number) + 1;
    }
    return histogram;
  }
  // Four counts kept apart and summed at the end: a page is long runs of one grey level (paper),
  // and one count bumped pixel after pixel waits on its own last store.
  const h1 = new Uint32Array(256);
  const h2 = new Uint32Array(256);
  const h3 = new Uint32Array(256);
  const end = data.length - (data.length % 4);
  for (let i = 0; i < end; i += 4) {
    const a = data[i] as number;
    const b = data[i + 1] as number;
    const c = data[i + 2] as number;
    const d = data[i + 3] as number;
    histogram[a] = (histogram[a] as number) + 1;
    h1[b] = (h1[b] as number) + 1;
    h2[c] = (h2[c] as number) + 1;
    h3[d] = (h3[d] as number) + 1;
  }
  for (let i = end; i < data.length; i++) {
    const v = data[i] as number;
    histogram[v] = (histogram[v] as number) + 1;
  }
  for (let v = 0; v < 256; v++)
    histogram[v] = (histogram[v] as number) + (h1[v] as number) + (h2[v] as number) + (h3[v] as number);
  return histogram;
}

/**
 * Rows of each of the two stretch levels in {@link normaliseTable}'s probe image (256 pixels a row):
 * enough that its one ramp of grey levels is under 1 % of the probe (it must not move a percentile).
 */
const PROBE_ROWS = 128;

/** The LAB lightness (0–100) of every grey level, as libvips converts grey to LAB. */
let greyLightness: Promise<Float32Array> | undefined;
/** Tables already made, by their two lightness levels (a run's pages share a few pairs). */
const stretchTables = new Map<string, Promise<Uint8Array>>();

/**
 * sharp's `normalise()` of a grey page as a 256-entry lookup table, the same pixels exactly (tested
 * on the dev scans). `normalise` converts every pixel to LAB, stretches the lightness L linearly
 * between two of its levels and converts back: a third of page preparation's time, though the
 * result depends only on the grey level and those two levels. libvips takes them from a histogram
 * of whole L values (truncated) as long as the brightest one present: the first level whose running
 * count, rescaled to that length and truncated, is more than 1 % (and 99 %) of the length. That
 * makes the dark level lie a little over 1 % of the pixels in (2 % on a white page) and the light
 * one the page's brightest. L rises with the grey level, so the page's grey histogram gives both.
 * A small probe image of those two grey levels (half its pixels each) and one ramp of the grey
 * levels up to the light one has the same two levels; sharp normalises it, and the ramp's row is
 * the table (grey levels above the light one stretch past white). An earlier table from a sample
 * of the page moved the stretch by up to 9 grey levels on a phone photo: this uses the page's
 * whole histogram.
 */
export async function normaliseTable(histogram: Uint32Array): Promise<Uint8Array> {
  greyLightness ??= lightnessOfGreys();
  const lightness = await greyLightness;
  const bin = (g: number) => Math.trunc(lightness[g] as number);
  const counts = new Float64Array(101);
  let total = 0;
  let top = 0;
  for (let g = 0; g < 256; g++) {
    const n = histogram[g] as number;
    if (n === 0) continue;
    counts[bin(g)] = (counts[bin(g)] as number) + n;
    total += n;
    top = Math.max(top, bin(g));
  }
  const length = top + 1;
  // libvips scales the running counts in single-precision floats (then truncates): a page of
  // 2,878,500 pixels has its full count scaled to 99.99999, not 100, so it has no 99 % level and
  // the stretch's light end is one past the histogram's end.
  const scale = Math.fround((length - 1) / total);
  const level = (percent: number) => {
    let seen = 0;
    for (let b = 0; b < length; b++) {
      seen += counts[b] as number;
      if (Math.trunc(Math.fround(Math.fround(seen) * scale)) > (percent / 100) * length) return b;
    }
    return length;
  };
  const lo = level(1);
  const hi = level(99);
  // libvips leaves an image whose two levels are this close as it is.
  if (total === 0 || Math.abs(hi - lo) <= 1) return Uint8Array.from({ length: 256 }, (_, g) => g);
  const key = `${lo}-${hi}-${top}`;
  let table = stretchTables.get(key);
  if (!table) {
    table = probeStretch(lightness, lo, hi, top);
    stretchTables.set(key, table);
  }
  return table;
}

/**
 * Normalise a probe whose stretch levels are the lightness levels `lo` and `hi` (see
 * {@link normaliseTable}); `hi` may be one past the page's lightest level (`top`), which the probe
 * then reproduces through the same float rounding, by its pixel count.
 */
async function probeStretch(
  lightness: Float32Array,
  lo: number,
  hi: number,
  top: number,
): Promise<Uint8Array> {
  let darkGrey = -1;
  let lightGrey = -1;
  let lastGrey = 0;
  for (let g = 0; g < 256; g++) {
    const b = Math.trunc(lightness[g] as number);
    if (b === lo && darkGrey < 0) darkGrey = g;
    if (b === Math.min(hi, top) && lightGrey < 0) lightGrey = g;
    if (b <= top) lastGrey = g;
  }
  // The probe's full count must scale to its last level (light end `top`) or fall short of it
  // (light end past `top`), as the page's did.
  const rows = 1 + 2 * PROBE_ROWS;
  let width = 256;
  const reachesTop = (pixels: number) =>
    Math.trunc(Math.fround(Math.fround(pixels) * Math.fround(top / pixels))) >= top;
  while (reachesTop(width * rows) !== hi <= top) {
    width++;
    if (width > 1024) throw new Error('no probe size reproduces the stretch');
  }
  const probe = new Uint8Array(width * rows).fill(lightGrey);
  for (let g = 0; g < 256; g++) probe[g] = Math.min(g, lastGrey);
  probe.fill(darkGrey, width, width * (1 + PROBE_ROWS));
  const out = await sharp(probe, { raw: { width, height: rows, channels: 1 } })
    .normalise()
    .grayscale()
    .raw()
    .toBuffer();
  return Uint8Array.from({ length: 256 }, (_, g) => (g > lastGrey ? 255 : (out[g] as number)));
}

/** LAB lightness of the 256 grey levels, from libvips itself (its own conversion, float rounding and all). */
async function lightnessOfGreys(): Promise<Float32Array> {
  const ramp = Uint8Array.from({ length: 256 }, (_, g) => g);
  const { data, info } = await sharp(ramp, { raw: { width: 256, height: 1, channels: 1 } })
    .toColourspace('lab')
    .raw({ depth: 'float' })
    .toBuffer({ resolveWithObject: true });
  const lab = new Float32Array(data.buffer, data.byteOffset, data.length / 4);
  return Float32Array.from({ length: 256 }, (_, g) => lab[g * info.channels] as number);
}

/**
 * Grey pixels (`channels` bytes a pixel, grey in each: sharp's rotation gives three) through sharp's
 * `normalise()` stretch, as a table.
 */
export async function stretchAsNormalise(data: Uint8Array, channels = 1): Promise<Uint8Array> {
  return applyTable(data, await normaliseTable(greyHistogram(data, channels)));
}

/** Map every pixel through a 256-entry table (a new buffer). */
export function applyTable(data: Uint8Array, table: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = table[data[i] as number] as number;
  return out;
}

/**
 * The contrast stretch of a sparse page (`out = gain × in + offset`), or null for a page of print,
 * which sharp's `normalise` stretches from its darkest 1 % of pixels (the ink) to its brightest 1 %
 * (the paper). On a sparse page (a last page with a footer, a receipt) the darkest 1 % is still
 * paper, and stretching it turned the paper's grain into black speckle that OCR then spent seconds
 * reading as words. A page is sparse when its 1 % level sits far nearer the paper than its 0.1 %
 * level, or when nothing on it is much darker than its paper (a blank page); its ink is then the
 * darkest 0.1 %, and the gain is capped so a blank page stays blank.
 */
export function sparsePageStretch(
  data: Uint8Array,
  histogram: Uint32Array = greyHistogram(data),
): { gain: number; offset: number } | null {
  const level = (share: number, fromDark: boolean) => {
    const want = share * data.length;
    let seen = 0;
    for (let k = 0; k < 256; k++) {
      const v = fromDark ? k : 255 - k;
      seen += histogram[v] as number;
      if (seen > want) return v;
    }
    return fromDark ? 255 : 0;
  };
  const paper = level(STRETCH_SHARE, false);
  const ink = level(SPARSE_INK_SHARE, true);
  // A page with ink darker than its paper by a quarter of the range and enough of it is print; a
  // page without (blank, or grain only) is stretched no more than the cap.
  const faint = paper - ink < 64;
  if (!faint && paper - level(STRETCH_SHARE, true) >= 0.5 * (paper - ink)) return null;
  const gain = paper - ink < 8 ? 1 : Math.min(MAX_STRETCH_GAIN, 255 / (paper - ink));
  // Anchored at the paper: a capped stretch still whitens the paper and leaves ink dark.
  return { gain, offset: 255 - gain * paper };
}

/** Otsu's threshold of an 8-bit image: the grey level that best separates ink from paper. */
export function otsuThreshold(data: Uint8Array, histogram: Uint32Array = greyHistogram(data)): number {
  return otsuOfHistogram(histogram, data.length);
}

/** Otsu's threshold from a grey histogram of `total` pixels (see {@link otsuThreshold}). */
export function otsuOfHistogram(hist: Uint32Array | Int32Array, total: number): number {
  let sumAll = 0;
  for (let t = 0; t < 256; t++) sumAll += t * (hist[t] as number);
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let bestVar = -1;
  for (let t = 0; t < 256; t++) {
    wB += hist[t] as number;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * (hist[t] as number);
    const mB = sumB / wB;
    const mF = (sumAll - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > bestVar) {
      bestVar = between;
      best = t;
    }
  }
  return best + 0.5;
}
