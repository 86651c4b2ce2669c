import { readFile } from 'node:fs/promises';
import {
  buildErrorResult,
  type DocumentType,
  type ExtractionResult,
  extractDocument,
  extractDocuments,
  type FieldValue,
  type IssuerMemory,
  learnFromCorrection,
  loadDocumentPages,
  type MemoryStore,
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
  /** Look for several documents in the file (a batch scanned in one go): one result per document found. */
  split?: boolean;
  /** Read only these pages of the file (1-based, inclusive): one document of a batch read again. */
  pages?: [number, number] | undefined;
  /**
   * Apply the organisation's memory of the issuer: the thread asks the pool for it (`recall` of
   * {@link PoolTaskHooks}) once it knows who printed the document. Set by the pool, never by callers.
   */
  memory?: boolean;
}

/**
 * Learn from a person's correction of a stored file: read its pages (OCR for scans: that is why it runs
 * in the pool) and merge what the corrected values teach into the issuer's `known` memory.
 */
export interface LearnTask {
  kind: 'learn';
  path: string;
  type: DocumentType;
  /** The document's values after the correction. */
  fields: Record<string, FieldValue>;
  known: IssuerMemory | null;
  /** Where the engine read each field, to prefer that place when a value reads back several ways. */
  provenance?: Record<string, { page: number; bbox: [number, number, number, number] }>;
  /** The fields the person changed. */
  taught: string[];
  /** The document's lines after the correction: a line field a person emptied everywhere is learned as not printed. */
  lineItems?: Array<Record<string, unknown>>;
  learnedAt: string;
  timeoutMs: number;
  /** The file's pages the document is on (one document of a batch); all pages when absent. */
  pages?: [number, number];
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
export type PoolTask = ExtractTask | LearnTask | WorkbookTask | PreviewTask;

/** Asks for the organisation's memory of an issuer by its keys (best first); null when there is none. */
export type MemoryRecall = (type: DocumentType, keys: string[]) => Promise<IssuerMemory | null>;

/** What a running task may tell or ask its caller. */
export interface PoolTaskHooks {
  /** Pages read so far, for the run's progress bar. */
  onPage?: ((read: number, pages: number) => void) | undefined;
  /** The issuer's memory, for an extract task with `memory` set. */
  recall?: MemoryRecall | undefined;
}

/**
 * The engine's memory store for one extraction: recall only (extraction never teaches), and a recall
 * that fails reads as no memory, so a database hiccup never fails a document.
 */
function recallOnlyStore(recall: MemoryRecall): MemoryStore {
  return {
    recall: (type, keys) => recall(type, keys).catch(() => null),
    save: async () => {},
  };
}

/**
 * Runs one task in the current thread. Worker threads call this; so does the inline executor tests may use.
 * A file that vanished between listing and extraction becomes the engine's `unreadable_file` result.
 */
export async function runPoolTask(
  task: PoolTask,
  getOcr: () => OcrProvider,
  hooks: PoolTaskHooks = {},
): Promise<ExtractionResult[] | IssuerMemory | null | { path: string } | PreviewAnswer> {
  if (task.kind === 'workbook') {
    await writeWorkbookFile(task.path, task.data);
    return { path: task.path };
  }
  if (task.kind === 'learn') return learnFromStoredFile(task, getOcr());
  if (task.kind === 'preview-frames' || task.kind === 'preview-page') return runPreviewTask(task);
  const { onPage, recall } = hooks;
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(task.path));
  } catch (error) {
    return [
      buildErrorResult(
        task.fileName,
        'unreadable_file',
        `cannot read the stored file: ${(error as Error).message}`,
      ),
    ];
  }
  const options = {
    fileName: task.fileName,
    type: task.type,
    ocr: getOcr(),
    timeoutMs: task.timeoutMs,
    maxBytes: task.maxBytes,
    ...(onPage ? { onPage } : {}),
    ...(task.memory && recall ? { memory: recallOnlyStore(recall) } : {}),
    ...(task.pages ? { pages: task.pages } : {}),
  };
  return task.split && !task.pages
    ? extractDocuments(bytes, options)
    : [await extractDocument(bytes, options)];
}

/** Reads a stored file's pages and learns from its correction (throws when the file cannot be read). */
async function learnFromStoredFile(task: LearnTask, ocr: OcrProvider): Promise<IssuerMemory | null> {
  const bytes = new Uint8Array(await readFile(task.path));
  const all = await loadDocumentPages(bytes, { ocr, timeoutMs: task.timeoutMs });
  const range = task.pages;
  const pages = range ? all.filter((p) => p.page >= range[0] && p.page <= range[1]) : all;
  return learnFromCorrection({
    pages,
    type: task.type,
    fields: task.fields,
    known: task.known,
    taught: task.taught,
    learnedAt: task.learnedAt,
    ...(task.lineItems ? { lineItems: task.lineItems } : {}),
    ...(task.provenance ? { provenance: task.provenance } : {}),
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
