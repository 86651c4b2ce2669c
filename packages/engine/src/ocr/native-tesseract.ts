import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { OcrProvider } from '../types.ts';
import {
  type OcrWord,
  parseTsvWords,
  resolveEnglishModelPath,
  type TesseractRecognizeOptions,
} from './index.ts';
import { hasNativeTesseract } from './native-program.ts';

/**
 * Tesseract as a native program (Debian's `tesseract-ocr` package), one process per page with one
 * thread: the same LSTM engine tesseract.js compiles to WebAssembly, at native speed. It reads the
 * same English `best_int` model from the npm package (unpacked once into a cache folder), so the
 * words match the WASM provider's and only the speed differs.
 */

/** Which English model the native program loads. */
export type NativeTesseractModel = 'best_int' | 'system';

/** Options of {@link createNativeTesseractOcr}. */
export interface NativeTesseractOptions {
  /** Pages recognised at once, one single-threaded process each (default: one per core). */
  workers?: number;
  /**
   * `best_int` (default): the npm package's accurate model; `system`: the model the Debian package
   * installed (tessdata "fast": quicker, less accurate).
   */
  model?: NativeTesseractModel;
  /** The program to run (default `tesseract` on the PATH). */
  command?: string;
  /** Folder the npm model is unpacked into (default: the system's temporary folder). */
  cacheDir?: string;
}

/**
 * Unpack the npm package's `eng.traineddata.gz` once into `cacheDir` and return that folder. The
 * file is written under a temporary name and renamed, so concurrent workers never read half a model.
 */
export function unpackEnglishModel(cacheDir = path.join(os.tmpdir(), 'bahi-tessdata')): string {
  const source = path.join(resolveEnglishModelPath(), 'eng.traineddata.gz');
  // Keyed by size: a newer package version unpacks beside the old one instead of being shadowed by it.
  const dir = path.join(cacheDir, `best_int-${statSync(source).size}`);
  const target = path.join(dir, 'eng.traineddata');
  if (existsSync(target)) return dir;
  mkdirSync(dir, { recursive: true });
  const partial = `${target}.${process.pid}.${Date.now()}.part`;
  // Read only when not yet unpacked: every worker thread creates a provider.
  writeFileSync(partial, gunzipSync(readFileSync(source)));
  renameSync(partial, target);
  return dir;
}

/**
 * Create the native Tesseract provider. Throws a clear error when the program is missing (the server
 * checks that when a worker starts, `assertOcrProviderAvailable`).
 */
export async function createNativeTesseractOcr(
  options: NativeTesseractOptions = {},
): Promise<
  OcrProvider & { recognize(image: Uint8Array, options?: TesseractRecognizeOptions): Promise<OcrWord[]> }
> {
  const command = options.command ?? 'tesseract';
  if (!hasNativeTesseract(command))
    throw new Error(
      `The native OCR program "${command}" is not installed (Debian: apt-get install tesseract-ocr tesseract-ocr-eng)`,
    );
  const tessdata = options.model === 'system' ? null : unpackEnglishModel(options.cacheDir);
  const limit = Math.max(1, Math.floor(options.workers ?? os.availableParallelism()));
  let running = 0;
  const waiting: Array<() => void> = [];
  let closed = false;
  const children = new Set<ReturnType<typeof spawn>>();

  const acquire = () =>
    new Promise<void>((resolve) => {
      if (running < limit) {
        running++;
        resolve();
      } else waiting.push(resolve);
    });
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  const runPage = (image: Uint8Array, dpi: number | undefined, signal: AbortSignal | undefined) =>
    new Promise<OcrWord[]>((resolve, reject) => {
      const args = ['stdin', 'stdout', '-l', 'eng', '--oem', '1', '--psm', '3'];
      if (tessdata) args.push('--tessdata-dir', tessdata);
      if (dpi) args.push('--dpi', String(Math.round(dpi)));
      // TSV by parameter, not the `tsv` config file (which the npm model's folder lacks); the same
      // parameters as the WASM provider (index.ts): cell gaps kept in line text.
      args.push(
        '-c',
        'tessedit_create_tsv=1',
        '-c',
        'tessedit_create_txt=0',
        '-c',
        'preserve_interword_spaces=1',
      );
      const child = spawn(command, args, {
        // One thread per process: pages run side by side instead (OpenMP threads only contend).
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      children.add(child);
      const out: Buffer[] = [];
      let err = '';
      const onAbort = () => child.kill('SIGKILL');
      signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => {
        if (err.length < 4000) err += b.toString();
      });
      // A process that dies early closes its input; the exit code says why.
      child.stdin.on('error', () => undefined);
      child.on('error', reject);
      child.on('close', (code) => {
        children.delete(child);
        signal?.removeEventListener('abort', onAbort);
        if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
        if (code !== 0)
          return reject(new Error(`tesseract exited with code ${code}: ${err.trim().slice(-300)}`));
        resolve(parseTsvWords(Buffer.concat(out).toString('utf8')));
      });
      child.stdin.end(image);
    });

  return {
    async recognize(image, opts) {
      if (closed) throw new Error('OCR provider is closed');
      const signal = opts?.signal;
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      await acquire();
      try {
        if (closed) throw new Error('OCR provider is closed');
        if (signal?.aborted) throw signal.reason ?? new Error('aborted');
        return await runPage(image, opts?.dpi, signal);
      } finally {
        release();
      }
    },
    async close() {
      closed = true;
      for (const child of children) child.kill('SIGKILL');
      // Pages still waiting for a process are handed a slot at once and refused as closed (never left hanging).
      for (const next of waiting.splice(0)) {
        running++;
        next();
      }
    },
  };
}
