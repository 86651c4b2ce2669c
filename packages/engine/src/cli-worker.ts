import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { extractDocument, extractDocuments } from './extract.ts';
import { createFileMemoryStore } from './memory/file-store.ts';
import { createOcr, type OcrProviderName } from './ocr/providers.ts';
import { buildErrorResult, type ExtractionResult } from './result.ts';
import type { DocumentType, OcrProvider } from './types.ts';

/** A document for a worker to extract. */
export interface WorkerJob {
  kind: 'job';
  id: number;
  path: string;
  type: DocumentType | undefined;
  timeoutMs: number;
  /** Folder of memories from corrections to apply, when given. */
  memoryDir?: string;
  /** One result per document the file holds (`extractDocuments`). */
  split?: boolean;
  /** OCR engine for scans and photos (the thread starts its own on first use). */
  ocr?: OcrProviderName;
}

/** Messages from a worker to the main thread. */
export type WorkerMessage =
  | { kind: 'ready' }
  | { kind: 'result'; id: number; result: ExtractionResult | ExtractionResult[] }
  | { kind: 'closed' };

/** Messages from the main thread to a worker: a job, or no more jobs (close the OCR engine). */
export type MainMessage = WorkerJob | { kind: 'end' };

const port = parentPort;
if (port) {
  // Each thread runs its own OCR engine with one inference thread: the batch's threads read their
  // documents' pages side by side, and one thread per core costs less CPU per page than one
  // engine spreading each page over every core.
  let engine: Promise<OcrProvider> | null = null;
  const lazyOcr = (name: OcrProviderName | undefined): OcrProvider => ({
    async recognize(image, options) {
      engine ??= createOcr(name, { workers: 1 });
      return (await engine).recognize(image, options);
    },
    async close() {},
  });
  port.on('message', async (msg: MainMessage) => {
    if (msg.kind === 'end') {
      if (engine) await (await engine).close();
      port.postMessage({ kind: 'closed' } satisfies WorkerMessage);
      return;
    }
    const ocr = lazyOcr(msg.ocr);
    let result: ExtractionResult | ExtractionResult[];
    try {
      const bytes = new Uint8Array(await readFile(msg.path));
      const options = {
        fileName: msg.path,
        type: msg.type,
        ocr,
        timeoutMs: msg.timeoutMs,
        memory: msg.memoryDir ? createFileMemoryStore(msg.memoryDir) : undefined,
      };
      result = msg.split ? await extractDocuments(bytes, options) : await extractDocument(bytes, options);
    } catch (e) {
      result = buildErrorResult(msg.path, 'unreadable_file', (e as Error).message);
    }
    port.postMessage({ kind: 'result', id: msg.id, result } satisfies WorkerMessage);
  });
  // Loaded (the engine's modules and mupdf's WASM came in with the static imports): ask for work.
  port.postMessage({ kind: 'ready' } satisfies WorkerMessage);
}
