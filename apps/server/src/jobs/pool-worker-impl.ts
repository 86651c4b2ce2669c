import { parentPort, workerData } from 'node:worker_threads';
import { createOcr, type IssuerMemory } from '@bahi/engine';
import {
  createLazyOcr,
  type MemoryRecall,
  type PoolTask,
  type PoolWorkerData,
  runPoolTask,
} from './tasks.ts';

// One OCR provider per worker thread (one inference thread: the pool is the parallelism), created
// on first use and reused for every document after.
const { ocrProvider } = (workerData ?? {}) as PoolWorkerData;
const ocr = createLazyOcr(() => createOcr(ocrProvider, { workers: 1 }));

/**
 * How long a thread waits for the main thread's answer to a memory recall before reading the document
 * without memory: a database that hangs must not hold the extraction.
 */
const RECALL_TIMEOUT_MS = 10_000;

// Recalls waiting for the main thread's answer, by call number.
const calls = new Map<number, { resolve: (memory: IssuerMemory | null) => void; timer: NodeJS.Timeout }>();
let nextCall = 1;

/**
 * Memory lives in the database, which only the main thread holds: a recall is a small request/response
 * over the port (`{ id, recall: { call, type, keys } }` out, `{ recalled: { call, memory } }` back).
 */
function recallThroughPool(taskId: number): MemoryRecall {
  return (type, keys) =>
    new Promise((resolve) => {
      const call = nextCall++;
      const timer = setTimeout(() => {
        calls.delete(call);
        resolve(null);
      }, RECALL_TIMEOUT_MS);
      calls.set(call, { resolve, timer });
      parentPort!.postMessage({ id: taskId, recall: { call, type, keys } });
    });
}

parentPort!.on(
  'message',
  async (
    message: { id: number; task: PoolTask } | { recalled: { call: number; memory: IssuerMemory | null } },
  ) => {
    if ('recalled' in message) {
      const waiting = calls.get(message.recalled.call);
      if (!waiting) return; // answered after its timeout: the document was read without memory
      calls.delete(message.recalled.call);
      clearTimeout(waiting.timer);
      waiting.resolve(message.recalled.memory ?? null);
      return;
    }
    try {
      const result = await runPoolTask(message.task, () => ocr, {
        // Pages read are told to the pool as they go, for the run's progress bar.
        onPage: (read, pages) => parentPort!.postMessage({ id: message.id, progress: { read, pages } }),
        recall: recallThroughPool(message.id),
      });
      parentPort!.postMessage({ id: message.id, ok: true, result });
    } catch (error) {
      parentPort!.postMessage({
        id: message.id,
        ok: false,
        error: (error as Error).message ?? String(error),
      });
    }
  },
);
parentPort!.postMessage({ ready: true });
