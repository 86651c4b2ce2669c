import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import Tesseract from 'tesseract.js';
import type { OcrProvider, Word } from '../types.ts';

/** A recognised word in image pixel coordinates. */
export type OcrWord = Omit<Word, 'page' | 'source'>;

/** Options a caller may pass to the Tesseract provider's `recognize`. */
export interface TesseractRecognizeOptions {
  /** Abandon the job: a queued job never starts; a running one's result is discarded. */
  signal?: AbortSignal;
  /**
   * Resolution of the image. Tesseract sizes its noise and line-finding thresholds by it;
   * images without a usable header (PGM) would otherwise be treated as 70 dpi.
   */
  dpi?: number;
}

/** The Tesseract OCR provider: an {@link OcrProvider} with a fixed pool of WASM workers. */
export interface TesseractOcrProvider extends OcrProvider {
  recognize(image: Uint8Array, options?: TesseractRecognizeOptions): Promise<OcrWord[]>;
  /** Number of workers in the pool. */
  readonly workers: number;
}

const require = createRequire(import.meta.url);

/**
 * Folder holding `eng.traineddata.gz` (the "best_int" LSTM model: the accurate model, quantised
 * to integers so it runs nearly as fast as "fast"). Resolved from the installed npm package so
 * tesseract.js reads it from disk instead of fetching it from a CDN.
 */
export function resolveEnglishModelPath(): string {
  const pkg = require.resolve('@tesseract.js-data/eng/package.json');
  return path.join(path.dirname(pkg), '4.0.0_best_int');
}

/**
 * Tesseract parameters for business documents.
 * - PSM 3 (automatic page segmentation): the default single-block mode merges table columns
 *   and drops cells.
 * - preserve_interword_spaces keeps the gaps between table cells visible in line text.
 * - No character whitelist: invoices carry ₹, %, /, – and free text.
 */
const TESSERACT_PARAMS: Partial<Tesseract.WorkerParams> = {
  tessedit_pageseg_mode: Tesseract.PSM.AUTO,
  preserve_interword_spaces: '1',
  // Tesseract prints diagnostics ("Detected 28 diacritics") to stderr, which would corrupt a
  // CLI's output streams; route them to the WASM file system's /dev/null.
  debug_file: '/dev/null',
};

/** LSTM engine only: the legacy engine is slower and not in the best_int model. */
const OEM_LSTM_ONLY = 1;

interface Job {
  image: Uint8Array;
  dpi: number | undefined;
  signal: AbortSignal | undefined;
  resolve: (words: OcrWord[]) => void;
  reject: (err: unknown) => void;
  started: boolean;
  onAbort?: () => void;
}

/**
 * Create the OCR provider: `workers` tesseract.js workers (default one per core) created once
 * and reused across documents. Jobs queue until a worker is free. Works offline: the model is
 * read from node_modules and never cached to disk.
 */
export async function createTesseractOcr(options?: {
  workers?: number;
  /** Extra Tesseract parameters (for tuning), applied over the defaults. */
  parameters?: Record<string, string>;
  /** Tesseract init-only parameters, e.g. `load_system_dawg: '0'` (for tuning). */
  initParameters?: Record<string, string>;
}): Promise<TesseractOcrProvider> {
  const count = Math.max(1, Math.floor(options?.workers ?? os.availableParallelism()));
  const langPath = resolveEnglishModelPath();
  const workers = await Promise.all(
    Array.from({ length: count }, async () => {
      const worker = await Tesseract.createWorker(
        'eng',
        OEM_LSTM_ONLY,
        {
          langPath,
          gzip: true,
          // 'none': never look for or write a cached copy in the working directory.
          cacheMethod: 'none',
        },
        options?.initParameters,
      );
      await worker.setParameters({ ...TESSERACT_PARAMS, ...options?.parameters });
      return worker;
    }),
  );
  const idle = [...workers];
  const queue: Job[] = [];
  let closed = false;

  const pump = () => {
    while (idle.length > 0 && queue.length > 0) {
      const job = queue.shift() as Job;
      const worker = idle.pop() as Tesseract.Worker;
      job.started = true;
      runJob(worker, job).finally(() => {
        idle.push(worker);
        pump();
      });
    }
  };

  const runJob = async (worker: Tesseract.Worker, job: Job) => {
    try {
      const params: Record<string, string> = {};
      if (job.dpi) params.user_defined_dpi = String(Math.round(job.dpi));
      // TSV, not the JSON block tree: it carries every word's box and confidence and is a
      // fraction of the size to build in WASM and copy across the worker boundary.
      const { data } = await worker.recognize(job.image, params as Partial<Tesseract.RecognizeOptions>, {
        text: false,
        tsv: true,
      });
      job.resolve(parseTsvWords(data.tsv ?? ''));
    } catch (err) {
      job.reject(err instanceof Error ? err : new Error(String(err)));
    } finally {
      if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    }
  };

  return {
    workers: count,
    recognize(image, opts) {
      if (closed) return Promise.reject(new Error('OCR provider is closed'));
      const signal = opts?.signal;
      if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
      return new Promise<OcrWord[]>((resolve, reject) => {
        const job: Job = { image, dpi: opts?.dpi, signal, resolve, reject, started: false };
        if (signal) {
          job.onAbort = () => {
            const i = queue.indexOf(job);
            if (i >= 0) queue.splice(i, 1);
            // A running WASM job cannot be interrupted; its result is simply dropped.
            reject(signal.reason ?? new Error('aborted'));
          };
          signal.addEventListener('abort', job.onAbort, { once: true });
        }
        queue.push(job);
        pump();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('OCR provider closed'));
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/**
 * Parse Tesseract TSV output into words. Columns: level, page, block, par, line, word,
 * left, top, width, height, conf, text; level 5 rows are words. Confidence becomes 0..1.
 */
export function parseTsvWords(tsv: string): OcrWord[] {
  const words: OcrWord[] = [];
  for (const line of tsv.split('\n')) {
    if (!line.startsWith('5\t')) continue;
    const cols = line.split('\t');
    if (cols.length < 12) continue;
    // Text may itself contain a tab only in pathological output; rejoin the tail to be safe.
    const text = cols.slice(11).join('\t').trim();
    if (!text) continue;
    const left = Number(cols[6]);
    const top = Number(cols[7]);
    const width = Number(cols[8]);
    const height = Number(cols[9]);
    const conf = Number(cols[10]);
    words.push({
      text,
      x0: left,
      y0: top,
      x1: left + width,
      y1: top + height,
      conf: Number.isFinite(conf) && conf >= 0 ? Math.min(1, conf / 100) : 0,
    });
  }
  return words;
}
