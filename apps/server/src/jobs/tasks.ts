import { readFile } from 'node:fs/promises';
import {
  type DocumentType,
  type ExtractionResult,
  extractDocument,
  type OcrProvider,
  type OcrProviderName,
} from '@bahi/engine';
import { type WorkbookData, writeWorkbookFile } from '../adapters/sinks/xlsx-workbook.ts';

/** Extract one stored file with the real engine. */
export interface ExtractTask {
  kind: 'extract';
  path: string;
  fileName: string;
  type: DocumentType;
  timeoutMs: number;
  maxBytes: number;
}

/** Write a flow's workbook (.xlsx) to `path` atomically. */
export interface WorkbookTask {
  kind: 'workbook';
  path: string;
  data: WorkbookData;
}

/** Work the pool runs off the event loop. */
export type PoolTask = ExtractTask | WorkbookTask;

/** What each task answers. */
export type PoolResult<T extends PoolTask> = T extends ExtractTask ? ExtractionResult : { path: string };

/**
 * Runs one task in the current thread. Worker threads call this; so does the inline executor tests may use.
 * A file that vanished between listing and extraction becomes the engine's `unreadable_file` result.
 */
export async function runPoolTask(
  task: PoolTask,
  getOcr: () => OcrProvider,
  onPage?: (read: number, pages: number) => void,
): Promise<ExtractionResult | { path: string }> {
  if (task.kind === 'workbook') {
    await writeWorkbookFile(task.path, task.data);
    return { path: task.path };
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(task.path));
  } catch (error) {
    return {
      contract: 'extraction/v1',
      file: task.fileName,
      documentType: null,
      pages: 0,
      source: null,
      fields: {},
      lineItems: [],
      checks: [],
      confidence: {},
      provenance: {},
      error: { code: 'unreadable_file', message: `cannot read the stored file: ${(error as Error).message}` },
    };
  }
  return extractDocument(bytes, {
    fileName: task.fileName,
    type: task.type,
    ocr: getOcr(),
    timeoutMs: task.timeoutMs,
    maxBytes: task.maxBytes,
    ...(onPage ? { onPage } : {}),
  });
}

/** What the pool hands each worker thread when it starts it. */
export interface PoolWorkerData {
  ocrProvider: OcrProviderName | undefined;
}

/**
 * An OCR provider that starts the OCR engine only when a page first needs it: text-layer batches never pay
 * for it, and one provider is then reused for every later document handled by the same thread.
 */
export function createLazyOcr(create: () => Promise<OcrProvider>): OcrProvider {
  let provider: Promise<OcrProvider> | undefined;
  return {
    async recognize(image, options) {
      provider ??= create();
      return (await provider).recognize(image, options);
    },
    async close() {
      if (provider) await (await provider).close();
    },
  };
}
