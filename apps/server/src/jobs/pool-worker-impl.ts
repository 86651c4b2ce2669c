import { parentPort, workerData } from 'node:worker_threads';
import { createOcr } from '@bahi/engine';
import { createLazyOcr, type PoolTask, type PoolWorkerData, runPoolTask } from './tasks.ts';

// One OCR provider per worker thread (one inference thread: the pool is the parallelism), created
// on first use and reused for every document after.
const { ocrProvider } = (workerData ?? {}) as PoolWorkerData;
const ocr = createLazyOcr(() => createOcr(ocrProvider, { workers: 1 }));

parentPort!.on('message', async (message: { id: number; task: PoolTask }) => {
  try {
    // Pages read are told to the pool as they go, for the run's progress bar.
    const result = await runPoolTask(
      message.task,
      () => ocr,
      (read, pages) => parentPort!.postMessage({ id: message.id, progress: { read, pages } }),
    );
    parentPort!.postMessage({ id: message.id, ok: true, result });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, ok: false, error: (error as Error).message ?? String(error) });
  }
});
parentPort!.postMessage({ ready: true });
