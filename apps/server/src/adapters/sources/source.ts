import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { DOCUMENT_EXTENSIONS, listDocumentFormats } from '@bahi/contracts';

/** One file a source offers as a document. */
export interface SourceFile {
  /** Stable id within the flow's source (relative path, upload name, Drive file id). */
  sourceId: string;
  /** File name shown to users. */
  name: string;
  /** Absolute path of the bytes on this machine. */
  path: string;
  size: number;
  modifiedAt: Date | null;
}

/** A file the source had that is not taken as a document, and why (shown to the user). */
export interface SkippedFile {
  name: string;
  reason: string;
}

/** One listing entry: a document candidate or a skipped file. */
export type SourceEntry = { file: SourceFile } | { skipped: SkippedFile };

/**
 * Where a flow reads documents from. `list` streams entries so a folder of thousands of files never sits in
 * memory at once; implementations hide the service (local disk, uploads, Google Drive).
 */
export interface DocumentSource {
  readonly kind: 'upload' | 'local' | 'drive';
  list(): AsyncIterable<SourceEntry>;
}

/** File extensions the extraction engine reads (PDF and the image formats), as the contracts declare them. */
export const SUPPORTED_EXTENSIONS: ReadonlySet<string> = new Set(DOCUMENT_EXTENSIONS);

/** Why a file is not a document candidate, or null when it is one. */
export function explainUnsupportedFile(name: string, size: number, maxBytes: number): string | null {
  const ext = extname(name).toLowerCase();
  if (!SUPPORTED_EXTENSIONS.has(ext)) {
    return `Not a supported document type (${ext || 'no extension'}); use ${listDocumentFormats()}`;
  }
  if (size === 0) return 'The file is empty';
  if (size > maxBytes) return `The file is larger than the ${formatMegabytes(maxBytes)} limit`;
  return null;
}

/** `25 MB` style size for messages. */
export function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/** sha256 of a file, streamed so large files never load whole. */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** sha256 of bytes in memory. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
