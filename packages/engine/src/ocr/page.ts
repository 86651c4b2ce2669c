import sharp from 'sharp';
import type { OcrProvider, PageContent, Word } from '../types.ts';
import type { TesseractRecognizeOptions } from './index.ts';
import { removeRuledLines } from './lines.ts';
import { cleanBackground, invertDarkBands } from './page-bands.ts';
import { estimateSkewAngle } from './page-skew.ts';
import {
  applyTable,
  greyHistogram,
  normaliseTable,
  otsuThreshold,
  sparsePageStretch,
  stretchAsNormalise,
} from './page-stretch.ts';
import { rotateGray } from './rotate.ts';

export { cleanBackground, invertDarkBands } from './page-bands.ts';
export { estimateSkewAngle } from './page-skew.ts';
export {
  applyTable,
  greyHistogram,
  normaliseTable,
  otsuOfHistogram,
  otsuThreshold,
  sparsePageStretch,
} from './page-stretch.ts';

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
