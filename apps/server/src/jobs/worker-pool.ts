import { Worker } from 'node:worker_threads';
import type { ExtractionResult, IssuerMemory, OcrProviderName } from '@bahi/engine';
import type {
  ExtractTask,
  LearnTask,
  MemoryRecall,
  PoolTask,
  PoolWorkerData,
  PreviewAnswer,
  PreviewTask,
  WorkbookTask,
} from './tasks.ts';
import { createLazyOcr, runPoolTask } from './tasks.ts';

/** Runs CPU-heavy tasks (extraction, workbook writing) away from the API's event loop. */
export interface TaskExecutor {
  /**
   * Extracts a file: one result, or with `split` one per document the file holds (each with its
   * `pageRange` when there are several); `onPage` hears the pages read as they go (progress bars); `recall`, when given,
   * is asked (on the calling thread, which holds the database) for the organisation's memory of the
   * document's issuer once the engine knows who it is.
   */
  extract(
    task: Omit<ExtractTask, 'kind' | 'memory'>,
    onPage?: (read: number, pages: number) => void,
    recall?: MemoryRecall,
  ): Promise<ExtractionResult[]>;
  /** Reads a stored file's pages and learns from a person's correction of it (the new memory, or null). */
  learn(task: Omit<LearnTask, 'kind'>): Promise<IssuerMemory | null>;
  writeWorkbook(task: Omit<WorkbookTask, 'kind'>): Promise<void>;
  /** Counts pages or draws one (review screen); the engine's refusals come back as an answer. */
  preview(task: PreviewTask): Promise<PreviewAnswer>;
  /** How many tasks can run at once. */
  readonly size: number;
  /** Threads alive now (the pool starts them on demand and retires idle ones). */
  readonly threads?: number;
  close(): Promise<void>;
}

/** Raised when a worker thread died while running a task (crash, out of memory, hard timeout). */
export class WorkerCrashError extends Error {
  /** True when the thread was stopped for overrunning the pool's hard timeout. */
  readonly timedOut: boolean;
  constructor(message: string, timedOut = false) {
    super(message);
    this.name = 'WorkerCrashError';
    this.timedOut = timedOut;
  }
}

interface Pending {
  id: number;
  task: PoolTask;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onPage?: ((read: number, pages: number) => void) | undefined;
  recall?: MemoryRecall | undefined;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  busy: Pending | null;
  timer: NodeJS.Timeout | undefined;
  idleTimer: NodeJS.Timeout | undefined;
  timedOut: boolean;
}

const workerUrl = new URL('./pool-worker.mjs', import.meta.url);

/** Options of the worker pool. */
export interface WorkerPoolOptions {
  size: number;
  /** A task running longer than this is killed with its thread (the engine has its own, softer limit). */
  hardTimeoutMs: number;
  /** OCR engine each thread reads scans with (default: the engine's default). */
  ocrProvider?: OcrProviderName;
  /**
   * A thread idle this long is stopped, giving back its OCR models' memory (hundreds of MB each) after a
   * burst; the next task starts a fresh one. Default one minute.
   */
  idleMs?: number;
  /** Threads that do not keep the process alive (a pool used only on demand, like page pictures). */
  unref?: boolean;
}

/** What a thread sends back: readiness, a task's answer or failure, its progress, or a memory question. */
interface WorkerMessage {
  ready?: boolean;
  id?: number;
  ok?: boolean;
  result?: unknown;
  error?: string;
  progress?: { read: number; pages: number };
  recall?: RecallQuestion;
}

/** A thread asking for the organisation's memory of a document's issuer. */
interface RecallQuestion {
  call: number;
  type: Parameters<MemoryRecall>[0];
  keys: string[];
}

/**
 * A pool of at most `size` node:worker_threads, started on demand. Tasks queue in memory and go to the first
 * idle thread; a thread that
 * dies or overruns the hard timeout fails its task with `WorkerCrashError` and is replaced, so one poisonous
 * document cannot stop a batch.
 */
export function createWorkerPool(options: WorkerPoolOptions): TaskExecutor {
  return new WorkerPool(options);
}

/** The pool behind {@link createWorkerPool}: its queue, its threads, and how tasks move between them. */
class WorkerPool implements TaskExecutor {
  readonly size: number;
  private readonly idleMs: number;
  private readonly queue: Pending[] = [];
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private closed = false;
  private readonly options: WorkerPoolOptions;

  constructor(options: WorkerPoolOptions) {
    this.options = options;
    this.size = Math.max(1, options.size);
    this.idleMs = options.idleMs ?? 60_000;
  }

  get threads(): number {
    return this.slots.length;
  }

  extract: TaskExecutor['extract'] = (task, onPage, recall) =>
    this.submit<ExtractionResult[]>(
      { kind: 'extract', ...task, memory: recall !== undefined },
      { onPage, recall },
    );

  learn: TaskExecutor['learn'] = (task) => this.submit<IssuerMemory | null>({ kind: 'learn', ...task });

  writeWorkbook: TaskExecutor['writeWorkbook'] = async (task) => {
    await this.submit({ kind: 'workbook', ...task });
  };

  preview: TaskExecutor['preview'] = (task) => this.submit<PreviewAnswer>(task);

  close = async (): Promise<void> => {
    this.closed = true;
    for (const slot of this.slots) clearTimeout(slot.idleTimer);
    for (const job of this.queue.splice(0)) job.reject(new Error('the worker pool is closed'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  };

  private submit<T>(task: PoolTask, hooks: Pick<Pending, 'onPage' | 'recall'> = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        id: this.nextId++,
        task,
        resolve: resolve as (v: unknown) => void,
        reject,
        ...hooks,
      });
      this.pump();
    });
  }

  private spawn(): Slot {
    const worker = new Worker(workerUrl, {
      workerData: { ocrProvider: this.options.ocrProvider } satisfies PoolWorkerData,
    });
    if (this.options.unref) worker.unref();
    const slot: Slot = {
      worker,
      ready: whenReady(worker),
      busy: null,
      timer: undefined,
      idleTimer: undefined,
      timedOut: false,
    };
    worker.on('message', (m: WorkerMessage) => this.hear(slot, m));
    worker.on('error', () => {});
    worker.on('exit', (code) => this.bury(slot, code));
    return slot;
  }

  /** A thread's message about its task: progress, a memory question, or the answer that frees it. */
  private hear(slot: Slot, m: WorkerMessage): void {
    // A thread past its time limit is being stopped: what it still sends is not heard, and its
    // exit (not this message) ends its task, so no next task is handed to a dying thread.
    if (slot.timedOut || m.id === undefined || !slot.busy || slot.busy.id !== m.id) return;
    if (m.progress) {
      slot.busy.onPage?.(m.progress.read, m.progress.pages);
      return;
    }
    if (m.recall) {
      answerRecall(slot, slot.busy, m.recall);
      return;
    }
    const job = slot.busy;
    slot.busy = null;
    clearTimeout(slot.timer);
    if (m.ok) job.resolve(m.result);
    else job.reject(new Error(m.error));
    this.pump();
  }

  /** A thread stopped (crash, timeout, retirement, close): out of the pool, failing the task it held. */
  private bury(slot: Slot, code: number): void {
    clearTimeout(slot.timer);
    clearTimeout(slot.idleTimer);
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    const job = slot.busy;
    slot.busy = null;
    job?.reject(
      slot.timedOut
        ? new WorkerCrashError(`the worker thread overran its ${this.options.hardTimeoutMs} ms limit`, true)
        : new WorkerCrashError(
            `the extraction worker stopped (exit code ${code}) while reading this document`,
          ),
    );
    // A replacement starts through pump() when there is work for it.
    if (!this.closed) this.pump();
  }

  private pump(): void {
    // Threads start on first demand: a process that never extracts never pays for them.
    const idle = this.slots.filter((s) => !s.busy).length;
    for (
      let i = Math.min(this.queue.length - idle, this.size - this.slots.length);
      i > 0 && !this.closed;
      i--
    )
      this.slots.push(this.spawn());
    for (const slot of this.slots) {
      if (slot.busy) continue;
      const job = this.queue.shift();
      if (job) this.hand(slot, job);
      else this.retireWhenIdle(slot);
    }
  }

  /** Gives an idle thread a task, once the thread is ready, under the task's time limit. */
  private hand(slot: Slot, job: Pending): void {
    const { hardTimeoutMs } = this.options;
    clearTimeout(slot.idleTimer);
    slot.busy = job;
    // The task's time limit runs from when the thread has it: a thread's start-up (seconds on a loaded
    // machine) is not the task's. A thread that never gets ready is stopped after a minute anyway.
    slot.timer = setTimeout(() => void slot.worker.terminate(), Math.max(60_000, hardTimeoutMs));
    slot.ready.then(
      () => {
        if (slot.busy !== job) return;
        clearTimeout(slot.timer);
        slot.timer = setTimeout(() => {
          slot.timedOut = true;
          void slot.worker.terminate();
        }, hardTimeoutMs);
        slot.worker.postMessage({ id: job.id, task: job.task });
      },
      (error: Error) => {
        slot.busy = null;
        job.reject(new WorkerCrashError(error.message));
      },
    );
  }

  private retireWhenIdle(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      const index = this.slots.indexOf(slot);
      if (slot.busy || this.closed || index < 0) return;
      // Out of the pool before it stops, so no task is handed to a thread on its way out.
      this.slots.splice(index, 1);
      void slot.worker.terminate();
    }, this.idleMs);
    slot.idleTimer.unref();
  }
}

/** Settles when the thread says it is ready (its engine loaded), or fails when it cannot start. */
function whenReady(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: WorkerMessage) => {
      if (m.ready) {
        worker.off('message', onMessage);
        resolve();
      }
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
}

/**
 * The thread's recall, answered from the task's own callback (scoped to the task's organisation by its
 * caller); a callback that fails answers "no memory", so the document is still read.
 */
function answerRecall(slot: Slot, job: Pending, { call, type, keys }: RecallQuestion): void {
  const reply = (memory: IssuerMemory | null) => {
    if (slot.busy === job) slot.worker.postMessage({ recalled: { call, memory } });
  };
  Promise.resolve()
    .then(() => job.recall?.(type, keys) ?? null)
    .then(reply, () => reply(null));
}

/**
 * Runs tasks in the calling thread with the same code the workers run. For tests and tools that want the
 * real engine without thread start-up; the server always uses `createWorkerPool`.
 */
export function createInlineExecutor(ocrProvider?: OcrProviderName): TaskExecutor {
  const ocr = createLazyOcr(async () =>
    (await import('@bahi/engine')).createOcr(ocrProvider, { workers: 1 }),
  );
  return {
    size: 1,
    extract: async (task, onPage, recall) =>
      (await runPoolTask({ kind: 'extract', ...task, memory: recall !== undefined }, () => ocr, {
        onPage,
        recall,
      })) as ExtractionResult[],
    learn: async (task) => (await runPoolTask({ kind: 'learn', ...task }, () => ocr)) as IssuerMemory | null,
    writeWorkbook: async (task) => {
      await runPoolTask({ kind: 'workbook', ...task }, () => ocr);
    },
    preview: async (task) => (await runPoolTask(task, () => ocr)) as PreviewAnswer,
    close: () => ocr.close(),
  };
}
