import { readFile } from 'node:fs/promises';
import {
  type DocumentType,
  type ExtractionResult,
  extractDocument,
  type OcrProvider,
  type OcrProviderName,
  type PageFrame,
  PreviewError,
  readPageFrames,
  renderPagePreview,
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

/** Count a stored document's pages and read the frames of the first `maxPages`. */
export interface PreviewFramesTask {
  kind: 'preview-frames';
  path: string;
  maxPages: number;
}

/** Draw one page of a stored document as a PNG `width` pixels wide. */
export interface PreviewPageTask {
  kind: 'preview-page';
  path: string;
  page: number;
  width: number;
  /** Most drawing operations the page may have (default: the engine's). */
  maxOperations?: number | undefined;
}

/** Review-screen pictures, drawn off the API's event loop. */
export type PreviewTask = PreviewFramesTask | PreviewPageTask;

/** What a preview task answers: the frames, the picture, or why the engine would not draw it. */
export type PreviewAnswer =
  | { kind: 'frames'; pageCount: number; frames: PageFrame[] }
  | { kind: 'page'; png: Uint8Array }
  | { kind: 'refused'; code: PreviewError['code']; message: string };

/** Work the pool runs off the event loop. */
export type PoolTask = ExtractTask | WorkbookTask | PreviewTask;

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
): Promise<ExtractionResult | { path: string } | PreviewAnswer> {
  if (task.kind === 'workbook') {
    await writeWorkbookFile(task.path, task.data);
    return { path: task.path };
  }
  if (task.kind === 'preview-frames' || task.kind === 'preview-page') return runPreviewTask(task);
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

async function runPreviewTask(task: PreviewTask): Promise<PreviewAnswer> {
  try {
    const bytes = new Uint8Array(await readFile(task.path));
    if (task.kind === 'preview-frames')
      return { kind: 'frames', ...(await readPageFrames(bytes, task.maxPages)) };
    const picture = await renderPagePreview(bytes, task.page, task.width, {
      ...(task.maxOperations ? { maxOperations: task.maxOperations } : {}),
    });
    return { kind: 'page', png: picture.png };
  } catch (error) {
    if (error instanceof PreviewError) return { kind: 'refused', code: error.code, message: error.message };
    throw error;
  }
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
