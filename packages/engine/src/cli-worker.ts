import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { extractDocument, extractDocuments } from './extract.ts';
import { createFileMemoryStore } from './memory/file-store.ts';
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
}

/** Messages from a worker to the main thread. */
export type WorkerMessage =
  | { kind: 'ready' }
  | { kind: 'result'; id: number; result: ExtractionResult | ExtractionResult[] }
  | { kind: 'ocr'; req: number; image: Uint8Array; dpi?: number };

/** Messages from the main thread to a worker. */
export type MainMessage =
  | WorkerJob
  | {
      kind: 'ocr-result';
      req: number;
      words?: Awaited<ReturnType<OcrProvider['recognize']>>;
      error?: string;
    };

const port = parentPort;
if (port) {
  // OCR runs in the main thread's single tesseract pool: workers send page images there.
  let nextReq = 0;
  const pending = new Map<number, { resolve: (w: unknown) => void; reject: (e: Error) => void }>();
  const ocr: OcrProvider = {
    recognize(image, options) {
      const req = nextReq++;
      // The resolution travels with the image: without it tesseract guesses, and guesses worse.
      const dpi = options?.dpi;
      return new Promise((resolve, reject) => {
        pending.set(req, { resolve: resolve as (w: unknown) => void, reject });
        port.postMessage({ kind: 'ocr', req, image, dpi } satisfies WorkerMessage);
      });
    },
    async close() {},
  };
  port.on('message', async (msg: MainMessage) => {
    if (msg.kind === 'ocr-result') {
      const p = pending.get(msg.req);
      pending.delete(msg.req);
      if (msg.error) p?.reject(new Error(msg.error));
      else p?.resolve(msg.words);
      return;
    }
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
