import { open, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type { MainMessage, WorkerJob, WorkerMessage } from './cli-worker.ts';
import { DEFAULT_LIMITS, extractDocument, extractDocuments } from './extract.ts';
import { createFileMemoryStore } from './memory/file-store.ts';
import { createOcr, DEFAULT_OCR_PROVIDER, OCR_PROVIDERS, type OcrProviderName } from './ocr/providers.ts';
import { isDocumentType, PROFILES } from './profiles/index.ts';
import { buildErrorResult, type ExtractionResult } from './result.ts';
import type { DocumentType, OcrProvider } from './types.ts';

const USAGE =
  'usage: bahi extract [--type invoice|po|grn] [--jobs N] [--timeout SECONDS] [--ocr paddle|tesseract] [--memory DIR] [--split] FILE...\n' +
  '       bahi learn --memory DIR FILE CORRECTED.json\n' +
  '       bahi reconcile [--tolerance-qty PCT] [--tolerance-price PCT] [--tolerance-amount RUPEES] FILE...\n' +
  '       bahi gstr2b --2b FILE.json [--2b FILE.json ...] [--tolerance-amount RUPEES] BOOKS...\n' +
  '       bahi tds [--vendors FILE.json] [--buyer-turnover-above-10cr] BOOKS...\n' +
  '       bahi tally [--ledgers FILE.json] BOOKS... > vouchers.xml\n';

/** Parsed command line of `bahi extract`. */
export interface ExtractArgs {
  type: DocumentType | undefined;
  jobs: number;
  timeoutMs: number;
  files: string[];
  /** Spread documents over worker threads (the CLI does; tests and embedders may not). */
  threads?: boolean;
  /** OCR engine for scans and photos. */
  ocr?: OcrProviderName;
  /** Folder of memories from corrections (`bahi learn`) to apply. */
  memory?: string;
  /** A file may hold several documents (a scanned batch): one line per document, with its `pageRange`. */
  split?: boolean;
}

/** Parse `extract` arguments; returns an error message for a usage error. */
export function parseExtractArgs(argv: string[]): ExtractArgs | string {
  const out: ExtractArgs = {
    type: undefined,
    jobs: availableParallelism(),
    timeoutMs: DEFAULT_LIMITS.timeoutMs,
    files: [],
    threads: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (name: string) => {
      const eq = a.indexOf('=');
      if (eq > 0) return a.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) throw new Error(`${name} needs a value`);
      return v;
    };
    try {
      if (a === '--') {
        out.files.push(...argv.slice(i + 1));
        break;
      } else if (a === '--type' || a.startsWith('--type=')) {
        const t = value('--type');
        if (!isDocumentType(t)) return `--type must be ${PROFILES.map((p) => p.type).join(', ')} (got ${t})`;
        out.type = t;
      } else if (a === '--jobs' || a.startsWith('--jobs=') || a === '-j') {
        const n = Number(value('--jobs'));
        if (!Number.isInteger(n) || n < 1) return '--jobs must be a positive integer';
        out.jobs = n;
      } else if (a === '--timeout' || a.startsWith('--timeout=')) {
        const n = Number(value('--timeout'));
        if (!(n > 0)) return '--timeout must be a positive number of seconds';
        out.timeoutMs = n * MS_PER_SECOND;
      } else if (a === '--ocr' || a.startsWith('--ocr=')) {
        const name = value('--ocr');
        const known = OCR_PROVIDERS.find((p) => p === name);
        if (!known) return `--ocr must be ${OCR_PROVIDERS.join(' or ')} (got ${name})`;
        out.ocr = known;
      } else if (a === '--memory' || a.startsWith('--memory=')) {
        out.memory = value('--memory');
      } else if (a === '--split') {
        out.split = true;
      } else if (a.startsWith('-') && a !== '-') return `unknown option ${a}`;
      else out.files.push(a);
    } catch (e) {
      return (e as Error).message;
    }
  }
  if (!out.files.length) return 'missing FILE argument';
  return out;
}

/**
 * An OCR provider that starts the OCR engine on first use: text-layer batches never pay
 * its start-up, and one engine serves every document of the run.
 */
export function createLazyOcr(
  name: OcrProviderName = DEFAULT_OCR_PROVIDER,
  options: { workers?: number } = {},
): OcrProvider & { started(): boolean } {
  let pool: Promise<OcrProvider> | null = null;
  return {
    started: () => pool !== null,
    async recognize(image, options_) {
      pool ??= createOcr(name, options);
      return (await pool).recognize(image, options_);
    },
    async close() {
      if (pool) await (await pool).close();
    },
  };
}

async function readInput(path: string, maxBytes: number): Promise<Uint8Array | ExtractionResult> {
  try {
    const st = await stat(path);
    if (!st.isFile()) return buildErrorResult(path, 'unreadable_file', 'not a regular file');
    // Refuse before reading: a 50 MB upload must not be pulled into memory to be rejected.
    if (st.size > maxBytes)
      return buildErrorResult(path, 'too_large', `${st.size} bytes (limit ${maxBytes})`);
    const fh = await open(path, 'r');
    try {
      return new Uint8Array(await fh.readFile());
    } finally {
      await fh.close();
    }
  } catch (e) {
    return buildErrorResult(path, 'unreadable_file', (e as Error).message);
  }
}

/** Below this many files no worker thread starts: its start-up would cost more than it saves. */
const MIN_FILES_FOR_THREADS = 4;
/** `--timeout` is given in seconds, the engine's limit in milliseconds. */
const MS_PER_SECOND = 1000;

type Job = { i: number; f: string };

/**
 * Where a worker thread starts: the TypeScript sources need tsx registered in the thread first
 * (`worker-entry.mjs`); the bundle that `bin/bahi.mjs` normally runs has its own entry, written
 * beside it by `bin/load-cli.mjs`.
 */
function workerEntry(): URL {
  return import.meta.url.endsWith('.ts')
    ? new URL('./worker-entry.mjs', import.meta.url)
    : new URL('./worker.mjs', import.meta.url);
}

/**
 * One lane of worker-thread extraction: text-layer parsing is synchronous CPU work, so threads
 * are what spread a batch over the cores. The lane takes jobs from the shared queue only once
 * its thread has loaded (the main thread keeps working through the queue meanwhile); the thread
 * OCRs its documents' pages with its own engine of one inference thread. A crashed worker (e.g.
 * out of memory on a hostile file) costs that file only; the lane continues with a fresh worker.
 */
async function workerLane(
  queue: Job[],
  args: ExtractArgs,
  onResult: (i: number, r: ExtractionResult | ExtractionResult[]) => void,
): Promise<void> {
  const { Worker } = await import('node:worker_threads');
  await new Promise<void>((resolve) => {
    let w: InstanceType<typeof Worker>;
    let current: Job | null = null;
    let loaded = false;
    // Set once the lane is finished, so the exit of a worker we terminated is not a crash.
    let ended = false;
    const end = () => {
      ended = true;
      resolve();
    };
    const next = async (): Promise<void> => {
      current = queue.shift() ?? null;
      if (!current) {
        // The thread closes its OCR engine (answering 'closed'), then stops.
        ended = true;
        w.postMessage({ kind: 'end' } satisfies MainMessage);
        return;
      }
      const pre = await precheck(current.f);
      if (pre) {
        onResult(current.i, pre);
        return next();
      }
      w.postMessage({
        kind: 'job',
        id: current.i,
        path: current.f,
        type: args.type,
        timeoutMs: args.timeoutMs,
        memoryDir: args.memory,
        split: args.split,
        ocr: args.ocr,
      } satisfies WorkerJob);
    };
    const start = () => {
      const worker = new Worker(workerEntry());
      w = worker;
      let failure: Error | null = null;
      worker.on('message', async (msg: WorkerMessage) => {
        if (msg.kind === 'ready') {
          loaded = true;
          await next();
          return;
        }
        if (msg.kind === 'closed') {
          await worker.terminate();
          resolve();
          return;
        }
        current = null;
        onResult(msg.id, msg.result);
        await next();
      });
      worker.on('error', (e) => {
        failure = e;
      });
      // 'exit' follows an 'error' and also covers a worker that stops without one.
      worker.on('exit', () => {
        if (w !== worker) return;
        // Stopped after its last job (closed, or failed while closing): the lane is done.
        if (ended) return resolve();
        const why = failure?.message ?? 'the worker thread stopped';
        if (current)
          onResult(current.i, buildErrorResult(current.f, 'unreadable_file', `worker failed: ${why}`));
        current = null;
        // End the lane when nothing is left for a fresh worker, or when a worker cannot even
        // load (the main thread's lane finishes the queue).
        if (queue.length === 0 || !loaded) end();
        else {
          loaded = false;
          start();
        }
      });
    };
    start();
  });
}

async function precheck(path: string): Promise<ExtractionResult | null> {
  try {
    const st = await stat(path);
    if (!st.isFile()) return buildErrorResult(path, 'unreadable_file', 'not a regular file');
    if (st.size > DEFAULT_LIMITS.maxBytes)
      return buildErrorResult(path, 'too_large', `${st.size} bytes (limit ${DEFAULT_LIMITS.maxBytes})`);
    return null;
  } catch (e) {
    return buildErrorResult(path, 'unreadable_file', (e as Error).message);
  }
}

/**
 * Run `bahi extract`: one NDJSON line per file, in input order, as soon as each is ready.
 * With `jobs` > 1 and enough files, `jobs - 1` worker threads start at once and the main thread
 * extracts too while they load, so a batch never waits for thread start-up and no thread sits
 * idle as a mere coordinator.
 */
export async function runExtract(args: ExtractArgs, write: (line: string) => void): Promise<void> {
  const results: Array<ExtractionResult[] | undefined> = new Array(args.files.length);
  let nextToPrint = 0;
  const onResult = (i: number, r: ExtractionResult | ExtractionResult[]) => {
    results[i] = Array.isArray(r) ? r : [r];
    // Print the finished prefix in input order; drop printed results so memory stays bounded.
    while (nextToPrint < results.length && results[nextToPrint]) {
      for (const one of results[nextToPrint]!) write(`${JSON.stringify(one)}\n`);
      results[nextToPrint] = undefined;
      nextToPrint++;
    }
  };
  const queue: Job[] = args.files.map((f, i) => ({ i, f }));
  const memory = args.memory ? createFileMemoryStore(args.memory) : undefined;
  const threads =
    args.threads && args.jobs > 1 && args.files.length >= MIN_FILES_FOR_THREADS
      ? Math.min(args.jobs, args.files.length) - 1
      : 0;
  // With threads, each thread (this one included) has its own OCR engine of one inference
  // thread; without, one engine serves this thread's documents with every core.
  const ocr = createLazyOcr(args.ocr, threads ? { workers: 1 } : {});
  const mainLane = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      let result: ExtractionResult | ExtractionResult[];
      try {
        const input = await readInput(job.f, DEFAULT_LIMITS.maxBytes);
        const options = { fileName: job.f, type: args.type, ocr, timeoutMs: args.timeoutMs, memory };
        result = !(input instanceof Uint8Array)
          ? input
          : args.split
            ? await extractDocuments(input, options)
            : await extractDocument(input, options);
      } catch (e) {
        // One bad file never stops the batch.
        result = buildErrorResult(job.f, 'unreadable_file', (e as Error).message);
      }
      onResult(job.i, result);
    }
  };
  // Without threads, `jobs` documents are in flight in this thread: while one waits for OCR,
  // another is parsed. With threads, each thread (this one included) takes one at a time.
  const lanes = threads
    ? [...Array.from({ length: threads }, () => workerLane(queue, args, onResult)), mainLane()]
    : Array.from({ length: Math.min(args.jobs, args.files.length) }, mainLane);
  try {
    await Promise.all(lanes);
  } finally {
    await ocr.close();
  }
}

/** Entry point of `bahi`. Returns the process exit code (0 done, 2 usage error). */
export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'reconcile') return (await import('./cli-reconcile.ts')).mainReconcile(argv.slice(1));
  if (argv[0] === 'gstr2b' || argv[0] === 'tds' || argv[0] === 'tally')
    return (await import('./cli-compliance.ts')).mainCompliance(argv[0], argv.slice(1));
  if (argv[0] === 'learn') return (await import('./cli-learn.ts')).mainLearn(argv.slice(1));
  if (argv[0] !== 'extract') {
    process.stderr.write(USAGE);
    return 2;
  }
  const args = parseExtractArgs(argv.slice(1));
  if (typeof args === 'string') {
    process.stderr.write(`bahi extract: ${args}\n${USAGE}`);
    return 2;
  }
  await runExtract(args, (line) => process.stdout.write(line));
  return 0;
}
