import sharp from 'sharp';
import type { OcrProvider, PageContent, Word } from '../types.ts';
import type { TesseractRecognizeOptions } from './index.ts';
import { removeRuledLines } from './lines.ts';
import { rotateGray } from './rotate.ts';

/** Raw 8-bit grey pixels, row-major, `width * height` bytes. */
export interface GrayImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Knobs of the OCR pre-processing; the defaults are what measured best on the dev scans. */
export interface PreprocessOptions {
  /** Images below this resolution are upscaled to `targetDpi` (Tesseract wants ~20 px x-height). */
  minDpi: number;
  /** Resolution images are resampled to when outside [minDpi, maxDpi]. */
  targetDpi: number;
  /** Images above this resolution (phone photos) are downscaled: more pixels only cost time. */
  maxDpi: number;
  /** Largest skew searched for, in degrees. */
  maxSkew: number;
  /** Skips rotating for smaller skews (interpolation blurs glyphs for no gain). */
  minSkew: number;
  /** Stretch contrast (faded scans, grey paper). */
  normalise: boolean;
  /** Median filter size against salt-and-pepper noise; 0 disables. */
  median: number;
  /** Erase table rules before OCR (see `removeRuledLines`). */
  removeLines: boolean;
  /**
   * Whiten the background against a local estimate of the paper (see `cleanBackground`): evens
   * out photo lighting and removes scan noise, keeping text grey levels for the LSTM.
   */
  clean: boolean;
  /** Turn light print on dark bands (coloured table headers) into dark print on light (see `invertDarkBands`). */
  invertBands: boolean;
}

/**
 * Default pre-processing settings, from `dev-ocr-recall.ts` on the dev scans: 170–200 dpi scans
 * read as well or better at their own resolution (and upscaling them costs ~80% more OCR time),
 * while 150 dpi scans and 120–140 dpi photos gain from upscaling; 225 dpi read as well as 300.
 */
export const DEFAULT_PREPROCESS: PreprocessOptions = {
  minDpi: 160,
  targetDpi: 225,
  maxDpi: 400,
  maxSkew: 5,
  minSkew: 0.15,
  normalise: true,
  median: 0,
  removeLines: true,
  clean: true,
  invertBands: true,
};

/** Most pixels a page image is upscaled to for OCR: memory stays bounded whatever the page's size. */
export const MAX_OCR_PIXELS = 40_000_000;

/** Options of {@link ocrPageImage}. */
export interface OcrPageOptions {
  /** 1-based page number stamped on every word. */
  pageNumber: number;
  /** Resolution of `image`; word boxes are converted to points with it. */
  dpi: number;
  /** When set, `image` is raw 8-bit grey pixels of this size instead of an encoded image. */
  raw?: { width: number; height: number };
  /** Abandon the OCR job. */
  signal?: AbortSignal;
  /** Override pre-processing settings (for tuning). */
  preprocess?: Partial<PreprocessOptions>;
}

/** Result of {@link preprocessPage}: the image handed to OCR and how it maps back to the input. */
export interface PreprocessedPage {
  /** The image OCR sees (de-skewed, resampled). */
  image: GrayImage;
  /** Skew that was removed, degrees clockwise. */
  angle: number;
  /** Pixels of `image` per pixel of the input. */
  scale: number;
  /** Resolution of `image`. */
  dpi: number;
}

/**
 * OCR one page image into a {@link PageContent}: greyscale, contrast stretch, de-skew,
 * upscale low-resolution images, whiten the background, erase table rules, recognise, and convert word boxes to PDF points of the de-skewed page.
 * The de-skewed page keeps the input's size (rotation is about the centre, corners cropped),
 * so the page width and height in points are those of the input at `dpi`.
 */
export async function ocrPageImage(
  ocr: OcrProvider,
  image: Uint8Array,
  options: OcrPageOptions,
): Promise<PageContent> {
  const dpi = options.dpi > 0 ? options.dpi : 200;
  const gray = await decodeGray(image, options.raw);
  const pre = await preprocessPage(gray, dpi, { ...ocr.preprocess, ...options.preprocess });
  const recognizeOptions: TesseractRecognizeOptions = { signal: options.signal, dpi: pre.dpi };
  const raw = await ocr.recognize(encodePgm(pre.image), recognizeOptions);
  // image px → input px (÷ scale) → points (× 72 / dpi).
  const k = 72 / dpi / pre.scale;
  const words: Word[] = [];
  for (const w of raw) {
    if (!keepWord(w.text, w.conf)) continue;
    words.push({
      text: w.text,
      x0: round2(w.x0 * k),
      y0: round2(w.y0 * k),
      x1: round2(w.x1 * k),
      y1: round2(w.y1 * k),
      page: options.pageNumber,
      source: 'ocr',
      conf: w.conf,
    });
  }
  return {
    page: options.pageNumber,
    width: round2((gray.width * 72) / dpi),
    height: round2((gray.height * 72) / dpi),
    words,
    source: 'ocr',
  };
}

/**
 * Drop what is almost surely noise: specks recognised as lone punctuation with low confidence.
 * Real one-character tokens (a `-` discount cell, `1` quantity) survive because they are
 * recognised with high confidence.
 */
function keepWord(text: string, conf: number): boolean {
  if (/[\p{L}\p{N}₹]/u.test(text)) return true;
  return conf >= 0.5;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Decode any image sharp reads (or wrap raw grey pixels) into a dense grey buffer. */
export async function decodeGray(
  image: Uint8Array,
  raw?: { width: number; height: number },
): Promise<GrayImage> {
  if (raw) {
    if (image.length !== raw.width * raw.height)
      throw new Error('raw grey image size does not match width × height');
    return { data: image, width: raw.width, height: raw.height };
  }
  const { data, info } = await sharp(image, { autoOrient: true })
    .flatten({ background: '#ffffff' })
    .grayscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height),
    width: info.width,
    height: info.height,
  };
}

/** Encode grey pixels as binary PGM: Tesseract's Leptonica reads it with no decompression cost. */
export function encodePgm(img: GrayImage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${img.width} ${img.height}\n255\n`);
  const out = new Uint8Array(header.length + img.data.length);
  out.set(header, 0);
  out.set(img.data, header.length);
  return out;
}

/**
 * The steps of {@link preprocessPage}, named as each ends (for profiling): skew estimate; stretch,
 * rotation and resampling; dark band inversion; background whitening; rule erasing.
 */
export type PreprocessStep = 'skew' | 'resample' | 'bands' | 'clean' | 'lines';

/**
 * Prepare a page for OCR: contrast stretch, optional median filter, de-skew (rotation about
 * the centre, cropped back to the original size so page geometry is unchanged) and resampling
 * into [minDpi, maxDpi].
 */
export async function preprocessPage(
  gray: GrayImage,
  dpi: number,
  overrides?: Partial<PreprocessOptions>,
  onStep?: (step: PreprocessStep) => void,
): Promise<PreprocessedPage> {
  const opts = { ...DEFAULT_PREPROCESS, ...overrides };
  const angle = estimateSkewAngle(gray, { maxAngle: opts.maxSkew });
  onStep?.('skew');
  const rotate = Math.abs(angle) >= opts.minSkew;
  let scale = 1;
  if (dpi < opts.minDpi || dpi > opts.maxDpi) scale = opts.targetDpi / dpi;
  // Never upscale past the OCR raster cap (a huge page rendered at low resolution, a wide image).
  scale = Math.min(scale, Math.max(1, Math.sqrt(MAX_OCR_PIXELS / (gray.width * gray.height))));
  const outW = Math.max(1, Math.round(gray.width * scale));
  const outH = Math.max(1, Math.round(gray.height * scale));
  const rawInput = { raw: { width: gray.width, height: gray.height, channels: 1 as const } };

  // A sparse page gets its own bounded stretch; a page of print sharp's `normalise()`, as a table of
  // the same grey levels. sharp stretches after rotating and resizing (its pipeline's fixed order),
  // from the histogram of that image, so the table is made from and applied to the same image.
  const histogram = greyHistogram(gray.data);
  const sparse = opts.normalise ? sparsePageStretch(gray.data, histogram) : null;
  const stretch = opts.normalise && !sparse;
  let image: GrayImage;
  // The prepared image's histogram where it came for free (for the bands' threshold).
  let prepared: Uint32Array | undefined;
  if (!sparse && opts.median === 0 && !rotate && scale === 1) {
    // Nothing for sharp to do: the stretch is a table over the page's own histogram.
    const table = stretch ? await normaliseTable(histogram) : IDENTITY_TABLE;
    image = { data: applyTable(gray.data, table), width: gray.width, height: gray.height };
    prepared = mapHistogram(histogram, table);
  } else if (!sparse && opts.median === 0 && rotate) {
    ({ image, histogram: prepared } = await rotatePage(gray, angle, stretch));
    if (scale !== 1) {
      image = await resizeGray(image, outW, outH, scale);
      prepared = undefined;
    }
  } else {
    let pipeline = sharp(gray.data, rawInput);
    if (sparse) pipeline = pipeline.linear(sparse.gain, sparse.offset);
    if (opts.median > 0) pipeline = pipeline.median(opts.median);
    if (rotate) {
      // sharp rotates clockwise for positive angles; undo the measured skew. Rotation grows the
      // canvas, so materialise it and cut the centre back out.
      // One channel out: rotation hands back three equal ones, three times the pixels to stretch.
      const rotated = await pipeline
        .rotate(-angle, { background: { r: 255, g: 255, b: 255 } })
        .extractChannel(0)
        .raw()
        .toBuffer({ resolveWithObject: true });
      const canvas = stretch ? await stretchAsNormalise(rotated.data, rotated.info.channels) : rotated.data;
      const left = Math.max(0, Math.round((rotated.info.width - gray.width) / 2));
      const top = Math.max(0, Math.round((rotated.info.height - gray.height) / 2));
      pipeline = sharp(canvas, {
        raw: { width: rotated.info.width, height: rotated.info.height, channels: rotated.info.channels },
      })
        .extract({ left, top, width: gray.width, height: gray.height })
        .grayscale();
    }
    if (scale !== 1)
      pipeline = pipeline.resize(outW, outH, { kernel: scale > 1 ? 'cubic' : 'lanczos3', fit: 'fill' });
    const { data, info } = await pipeline.grayscale().raw().toBuffer({ resolveWithObject: true });
    const pixels = new Uint8Array(data.buffer, data.byteOffset, info.width * info.height);
    if (stretch && !rotate) {
      // In place: sharp's buffer is ours, and a second page-sized one costs its page faults.
      const histogram = greyHistogram(pixels);
      const table = await normaliseTable(histogram);
      for (let i = 0; i < pixels.length; i++) pixels[i] = table[pixels[i] as number] as number;
      prepared = mapHistogram(histogram, table);
    }
    image = { data: pixels, width: info.width, height: info.height };
  }
  onStep?.('resample');
  if (opts.invertBands) invertDarkBands(image, dpi * scale, otsuThreshold(image.data, prepared));
  onStep?.('bands');
  // Cleaning writes every pixel and counts the grey levels as it goes, for the rules' threshold.
  const cleaned = opts.clean ? await cleanBackground(image, dpi * scale) : greyHistogram(image.data);
  onStep?.('clean');
  if (opts.removeLines)
    removeRuledLines(image, { dpi: dpi * scale, threshold: otsuThreshold(image.data, cleaned) });
  onStep?.('lines');
  return {
    image,
    angle: rotate ? angle : 0,
    scale,
    dpi: dpi * scale,
  };
}

/** The table that leaves every grey level as it is. */
const IDENTITY_TABLE = Uint8Array.from({ length: 256 }, (_, g) => g);

/**
 * De-skew a page: rotate it by `-angle` as sharp would (see {@link rotateGray}), onto a grown white
 * canvas cut back to the page's size about the centre, then stretch it as sharp's `normalise()`
 * would, from the whole canvas's histogram (see {@link normaliseTable}).
 */
async function rotatePage(
  gray: GrayImage,
  angle: number,
  stretch: boolean,
): Promise<{ image: GrayImage; histogram: Uint32Array }> {
  const { image, histogram, cropHistogram } = rotateGray(gray, -angle);
  if (!stretch) return { image, histogram: cropHistogram };
  const table = await normaliseTable(histogram);
  const data = image.data;
  for (let i = 0; i < data.length; i++) data[i] = table[data[i] as number] as number;
  return { image, histogram: mapHistogram(cropHistogram, table) };
}

/** The histogram of an image once its grey levels go through `table`. */
function mapHistogram(histogram: Uint32Array, table: Uint8Array): Uint32Array {
  const out = new Uint32Array(256);
  for (let g = 0; g < 256; g++) {
    const to = table[g] as number;
    out[to] = (out[to] as number) + (histogram[g] as number);
  }
  return out;
}

/** Resample grey pixels to `w × h` with sharp: cubic up, Lanczos down. */
async function resizeGray(img: GrayImage, w: number, h: number, scale: number): Promise<GrayImage> {
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 1 } })
    .resize(w, h, { kernel: scale > 1 ? 'cubic' : 'lanczos3', fit: 'fill' })
    .grayscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height),
    width: info.width,
    height: info.height,
  };
}

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
async function stretchAsNormalise(data: Uint8Array, channels = 1): Promise<Uint8Array> {
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

/**
 * Invert the dark bands of a page in place, so their light print reads as dark print on paper.
 * Table headers, totals rows and letterheads are often printed white on a coloured band; the
 * background cleaning below would whiten band and print alike, and Tesseract reads inverted text
 * poorly. A band row is crossed by a long run (≥ 0.8 in) that is mostly ink (≥ 55 %, light gaps
 * up to 0.08 in for the print on it); rows whose runs line up make a band at least 0.06 in tall
 * that is mostly ink as a whole (≥ 60 %, not solid) with solid ground above and below its print,
 * inverted as one rectangle so the print on it stays whole. Words of bold black type, ruled lines
 * and page frames are none of these. Returns the number of pixels inverted.
 */
export function invertDarkBands(img: GrayImage, dpi: number, threshold = otsuThreshold(img.data)): number {
  const { data, width, height } = img;
  const gap = Math.max(2, Math.round(0.08 * dpi));
  const minRun = Math.round(0.8 * dpi);
  const minRows = Math.max(3, Math.round(0.06 * dpi));
  interface Run {
    y: number;
    x0: number;
    x1: number;
  }
  const runs: Run[] = [];
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let x = 0;
    while (x < width) {
      while (x < width && (data[row + x] as number) >= threshold) x++;
      if (x >= width) break;
      const start = x;
      let last = x;
      let ink = 0;
      while (x < width && x - last <= gap) {
        if ((data[row + x] as number) < threshold) {
          last = x;
          ink++;
        }
        x++;
      }
      const length = last - start + 1;
      if (length >= minRun && ink >= 0.55 * length) runs.push({ y, x0: start, x1: last });
      x = last + 1;
    }
  }
  // Group runs into bands: a run joins a band whose last run sits a few rows up and overlaps it.
  const bands: Run[][] = [];
  const open: Run[][] = [];
  for (const r of runs) {
    const band = open.find((b) => {
      const last = b[b.length - 1]!;
      const overlap = Math.min(last.x1, r.x1) - Math.max(last.x0, r.x0);
      return r.y - last.y <= minRows && overlap > 0.5 * Math.min(last.x1 - last.x0, r.x1 - r.x0);
    });
    if (band) band.push(r);
    else {
      const b = [r];
      open.push(b);
      bands.push(b);
    }
    // Bands that ended well above this row take no more runs.
    for (let k = open.length - 1; k >= 0; k--)
      if (r.y - open[k]![open[k]!.length - 1]!.y > minRows) open.splice(k, 1);
  }
  let inverted = 0;
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rowInk = (y: number, x0: number, x1: number) => {
    let n = 0;
    for (let i = y * width + x0; i <= y * width + x1; i++) if ((data[i] as number) < threshold) n++;
    return n / (x1 - x0 + 1);
  };
  for (const b of bands) {
    const x0 = median(b.map((r) => r.x0));
    const x1 = median(b.map((r) => r.x1));
    // Rows of print just above or below the band joined it through their runs: trim them.
    let y0 = b[0]!.y;
    let y1 = b[b.length - 1]!.y;
    while (y0 < y1 && rowInk(y0, x0, x1) < 0.6) y0++;
    while (y1 > y0 && rowInk(y1, x0, x1) < 0.6) y1--;
    if (y1 - y0 + 1 < minRows) continue;
    if (!printedBand(img, { x0, x1, y0, y1 }, threshold)) continue;
    // A band has solid ground above and below its print; a word of bold type does not.
    const third = Math.max(1, Math.floor((y1 - y0 + 1) / 3));
    const solidRows = (from: number, to: number) => {
      let n = 0;
      for (let y = from; y <= to; y++) if (rowInk(y, x0, x1) >= 0.97) n++;
      return n;
    };
    if (solidRows(y0, y0 + third - 1) < 2 || solidRows(y1 - third + 1, y1) < 2) continue;
    for (let y = y0; y <= y1; y++)
      for (let i = y * width + x0; i <= y * width + x1; i++) data[i] = 255 - (data[i] as number);
    inverted += (y1 - y0 + 1) * (x1 - x0 + 1);
  }
  return inverted;
}

/**
 * Whether a rectangle is a band with print on it: over the whole of it mostly ink (rows of bold
 * type between rules are not), far lighter print on it than its ground (white on navy; paper in a
 * photo's shadow holds dark print and only a few pixels just above the threshold), and some print
 * at all: a solid bar (a page frame, a thick rule) has none. A phone photo blurs white type thin,
 * so print is counted against the band's own ground, not the page's threshold.
 */
function printedBand(
  img: GrayImage,
  r: { x0: number; x1: number; y0: number; y1: number },
  threshold: number,
): boolean {
  const { data, width } = img;
  let ink = 0;
  let groundSum = 0;
  let printSum = 0;
  for (let y = r.y0; y <= r.y1; y++)
    for (let i = y * width + r.x0; i <= y * width + r.x1; i++) {
      const v = data[i] as number;
      if (v < threshold) {
        ink++;
        groundSum += v;
      } else printSum += v;
    }
  const area = (r.y1 - r.y0 + 1) * (r.x1 - r.x0 + 1);
  if (ink < 0.6 * area || ink === area) return false;
  const ground = groundSum / ink;
  if (printSum / (area - ink) - ground < 90) return false;
  let print = 0;
  for (let y = r.y0; y <= r.y1; y++)
    for (let i = y * width + r.x0; i <= y * width + r.x1; i++)
      if ((data[i] as number) >= ground + BAND_PRINT_LIFT) print++;
  return print >= 0.005 * area;
}

/** How much lighter than a band's ground its print is at least (a blurred white stroke's core). */
const BAND_PRINT_LIFT = 60;

/**
 * Divide the page by a local estimate of the paper brightness and whiten everything close to it,
 * in place. Scans come with grey paper and speckle noise, photos with uneven light; Tesseract's
 * global Otsu threshold turns both into specks that break its line finding (a noisy table row
 * came out as "Shet D0 mum foplx"). Text keeps its grey levels, rescaled against the local
 * paper, so the LSTM still sees anti-aliased strokes.
 */
export async function cleanBackground(img: GrayImage, dpi: number): Promise<Uint32Array> {
  const { width, height, data } = img;
  const raw = { raw: { width, height, channels: 1 as const } };
  // Paper estimate: a wide blur (~0.1 in) is dominated by the background between strokes.
  const sigma = Math.max(3, 0.1 * dpi);
  const [paper, smooth] = await Promise.all([
    sharp(data, raw).blur(sigma).extractChannel(0).raw().toBuffer(),
    // A light blur removes single-pixel noise before the background test.
    sharp(data, raw)
      .blur(0.6 + dpi / 600)
      .extractChannel(0)
      .raw()
      .toBuffer(),
  ]);
  const { paperFrom, scaled } = cleanTables();
  const histogram = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) {
    const bg = paper[i] as number;
    const v =
      (smooth[i] as number) >= (paperFrom[bg] as number)
        ? 255
        : (scaled[(bg << 8) | (data[i] as number)] as number);
    data[i] = v;
    histogram[v] = (histogram[v] as number) + 1;
  }
  return histogram;
}

/** Tables of {@link cleanBackground}, made on first use. */
let cleanTableCache: { paperFrom: Uint16Array; scaled: Uint8Array } | undefined;

/**
 * For each local paper level `bg` (0 taken as 1): the lightest smoothed level still ink (`paperFrom`,
 * the first level within 12 % of the paper), and every grey level stretched against it (`scaled`,
 * 256 entries a paper level): the per-pixel arithmetic done once.
 */
function cleanTables(): { paperFrom: Uint16Array; scaled: Uint8Array } {
  if (cleanTableCache) return cleanTableCache;
  const paperFrom = new Uint16Array(256);
  const scaled = new Uint8Array(256 * 256);
  for (let level = 0; level < 256; level++) {
    const bg = Math.max(1, level);
    let from = 0;
    // Within 12% of the local paper is paper; darker is ink, stretched against the paper.
    while (from < 256 && !(from >= bg * 0.88)) from++;
    paperFrom[level] = from;
    for (let g = 0; g < 256; g++) scaled[(level << 8) | g] = Math.min(255, Math.round((g * 255) / bg));
  }
  cleanTableCache = { paperFrom, scaled };
  return cleanTableCache;
}
