import { parentPort } from 'node:worker_threads';
import { createTesseractOcr } from '@bahi/engine';
import { createLazyOcr, type PoolTask, runPoolTask } from './tasks.ts';

// One OCR provider per worker thread, created on first use and reused for every document after.
const ocr = createLazyOcr(() => createTesseractOcr({ workers: 1 }));

parentPort!.on('message', async (message: { id: number; task: PoolTask }) => {
  try {
    const result = await runPoolTask(message.task, () => ocr);
    parentPort!.postMessage({ id: message.id, ok: true, result });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, ok: false, error: (error as Error).message ?? String(error) });
  }
});
parentPort!.postMessage({ ready: true });
