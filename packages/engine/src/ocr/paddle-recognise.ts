import sharp from 'sharp';
import type { OcrWord } from './index.ts';
import type { LineBox } from './paddle-detect.ts';
import type { Tuning } from './paddle-options.ts';
import type { GrayImage } from './page.ts';
import { resampleInto } from './resample.ts';
import { type CtcChar, splitWords } from './split-words.ts';

/** The recogniser's input height in pixels. */
const REC_HEIGHT = 48;
/**
 * Lines recognised per inference call. One at a time measured fastest on CPU for lines of ordinary
 * width (a dev page: 6.4 s of recognition against 7.6 s in batches of 8 and 13 s in batches of 32,
 * padded to the widest line). Short lines (a number, a one-word cell) cost mostly a call's fixed
 * part (about 1.6 ms), so those of the same padded width, the very input each would get alone,
 * go together: 5.5 → 4.5 ms a line at 96 pixels in fours, no gain past 128 (2026-11-28, one thread).
 */
const REC_BATCH = 8;
/** Widest padded line that is batched with others of its width. */
const REC_BATCH_MAX_WIDTH = 128;
/** Width of the recogniser's input, padded to its stride. */
const REC_WIDTH_STEP = 8;
/** The recogniser's input value of every grey level (scaled to [-1, 1], as PaddleOCR normalises). */
const REC_LEVELS = Float32Array.from({ length: 256 }, (_, v) => (v / 255 - 0.5) / 0.5);

/** One recogniser inference: each time step's best class and its probability, line after line. */
export type InferLines = (
  x: Float32Array,
  dims: number[],
) => Promise<{ best: Int32Array; prob: Float32Array; steps: number }>;

/** A slanted line turned level: the level image and the map from its pixels back to the crop's. */
interface Straightened {
  image: GrayImage;
  toCrop(x: number, y: number): [number, number];
}

/**
 * Turn a slanted line's crop level about its centre and keep the band the line covers (its grown
 * thickness), so the recogniser sees one level line and not a diagonal through neighbours.
 */
async function straighten(
  crop: GrayImage,
  slant: { degrees: number; thickness: number },
): Promise<Straightened> {
  const { data, info } = await sharp(crop.data, {
    raw: { width: crop.width, height: crop.height, channels: 1 },
  })
    .rotate(-slant.degrees, { background: '#ffffff' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const turned: GrayImage = {
    data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height),
    width: info.width,
    height: info.height,
  };
  // A little over the grown thickness: the moments of a short, ragged region understate it.
  const band = Math.max(2, Math.min(turned.height, Math.round(1.2 * slant.thickness)));
  const top = Math.max(0, Math.round((turned.height - band) / 2));
  const image = cropGray(turned, {
    x0: 0,
    y0: top,
    x1: turned.width,
    y1: Math.min(turned.height, top + band),
  });
  const rad = (slant.degrees * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  return {
    image,
    toCrop(x, y) {
      // Level image → turned canvas → about the centre, back by +degrees → crop.
      const u = x - turned.width / 2;
      const v = y + top - turned.height / 2;
      return [crop.width / 2 + u * cos - v * sin, crop.height / 2 + u * sin + v * cos];
    },
  };
}

/** Copy a rectangle out of a grey image. */
function cropGray(gray: GrayImage, b: LineBox): GrayImage {
  const width = b.x1 - b.x0;
  const height = b.y1 - b.y0;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const from = (b.y0 + y) * gray.width + b.x0;
    data.set(gray.data.subarray(from, from + width), y * width);
  }
  return { data, width, height };
}

/** A line's recogniser input width: its width at the input height, padded to the stride. */
function paddedWidth(it: { width: number }): number {
  return Math.ceil(it.width / REC_WIDTH_STEP) * REC_WIDTH_STEP;
}

/**
 * Lines (in order of width) in inference batches: short ones of the same padded width together,
 * up to `REC_BATCH`; every other line alone.
 */
export function recBatches<T extends { width: number }>(items: T[]): T[][] {
  const batches: T[][] = [];
  for (const it of items) {
    const last = batches.at(-1);
    const w = paddedWidth(it);
    const joins =
      last && last.length < REC_BATCH && w <= REC_BATCH_MAX_WIDTH && paddedWidth(last[0] as T) === w;
    if (joins) last.push(it);
    else batches.push([it]);
  }
  return batches;
}

/** Recognise every line (in order of width, short ones in batches) and cut each into words. */
export async function recogniseLines(
  gray: GrayImage,
  boxes: LineBox[],
  dictionary: string[],
  o: Tuning,
  infer: InferLines,
): Promise<OcrWord[]> {
  const prepared = boxes
    .filter((b) => b.x1 - b.x0 >= 2 && b.y1 - b.y0 >= 2)
    // Upright text only: a region much taller than wide is a vertical stamp or a rule.
    .filter((b) => b.y1 - b.y0 <= 1.5 * (b.x1 - b.x0))
    .map((b) => ({ box: b, crop: cropGray(gray, b), turn: null as Straightened | null }));
  for (const it of prepared) {
    if (!it.box.slant) continue;
    it.turn = await straighten(it.crop, it.box.slant);
    it.crop = it.turn.image;
  }
  const items = prepared
    .map((it) => ({
      ...it,
      width: Math.max(8, Math.round((o.recWidthScale * REC_HEIGHT * it.crop.width) / it.crop.height)),
    }))
    .sort((a, b) => a.width - b.width);
  const folded = foldedDictionary(dictionary);
  const words: OcrWord[] = [];
  for (const batch of recBatches(items)) {
    const maxWidth = paddedWidth(batch[0] as (typeof batch)[number]);
    const plane = REC_HEIGHT * maxWidth;
    // Zero after normalisation is mid-grey: the padding PaddleOCR itself uses. One channel: the
    // graph reads grey (`rec-graph.ts`).
    const x = new Float32Array(batch.length * plane);
    for (let j = 0; j < batch.length; j++) {
      const it = batch[j] as (typeof batch)[number];
      resampleInto(it.crop, it.width, REC_HEIGHT, {
        data: x,
        offset: j * plane,
        stride: maxWidth,
        levels: REC_LEVELS,
      });
    }
    const out = await infer(x, [batch.length, 1, REC_HEIGHT, maxWidth]);
    const { steps } = out;
    for (let j = 0; j < batch.length; j++) {
      const it = batch[j] as (typeof batch)[number];
      const chars = decodeCtc(out.best, out.prob, j, steps, folded);
      // Crop pixels per CTC time step.
      const stepPx = (maxWidth / steps) * (it.crop.width / it.width);
      for (const w of splitWords(it.crop, chars, stepPx, o.spaceGap)) {
        // A straightened line's word goes back where it stands on the page: its centre turned
        // back, its upright size kept.
        const cx = (w.x0 + w.x1) / 2;
        const cy = (w.y0 + w.y1) / 2;
        const [bx, by] = it.turn ? it.turn.toCrop(cx, cy) : [cx, cy];
        const dx = bx - cx;
        const dy = by - cy;
        words.push({
          ...w,
          x0: w.x0 + dx + it.box.x0,
          x1: w.x1 + dx + it.box.x0,
          y0: w.y0 + dy + it.box.y0,
          y1: w.y1 + dy + it.box.y0,
        });
      }
    }
  }
  return words;
}

/** Dictionaries already folded, by the array the provider loaded. */
const foldedDictionaries = new WeakMap<string[], string[]>();

/** The dictionary with every entry NFKC-folded, made once per dictionary (not once per character). */
function foldedDictionary(dictionary: string[]): string[] {
  let folded = foldedDictionaries.get(dictionary);
  if (!folded) {
    // NFKC folds the model's full-width forms ("（", "：") into ASCII.
    folded = dictionary.map((ch) => ch.normalize('NFKC'));
    foldedDictionaries.set(dictionary, folded);
  }
  return folded;
}

/**
 * Greedy CTC decoding of one line from each time step's best class and its probability: repeats
 * merged, blanks dropped (`dictionary` already folded).
 */
function decodeCtc(
  classes: Int32Array,
  probs: Float32Array,
  line: number,
  steps: number,
  dictionary: string[],
) {
  const chars: CtcChar[] = [];
  let prev = 0;
  for (let t = 0; t < steps; t++) {
    const best = classes[line * steps + t] as number;
    if (best !== 0 && best !== prev) {
      chars.push({ ch: dictionary[best] ?? '', t, p: probs[line * steps + t] as number });
    }
    prev = best;
  }
  return chars;
}
