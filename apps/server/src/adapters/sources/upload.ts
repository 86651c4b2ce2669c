import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { Unzip, UnzipInflate } from 'fflate';
import {
  type DocumentSource,
  explainUnsupportedFile,
  formatMegabytes,
  hashBytes,
  type SkippedFile,
  type SourceEntry,
} from './source.ts';

/** A file held in memory (a zip entry, a test's fixture). */
export interface InMemoryFile {
  name: string;
  bytes: Uint8Array;
}

/** A file an upload streamed to a temporary file. */
export interface ReceivedFile {
  name: string;
  path: string;
  size: number;
}

/** A file to add to an inbox: in memory, or on disk where an upload streamed it. */
export type IncomingFile = InMemoryFile | ReceivedFile;

/** The size of an incoming file without reading it. */
function sizeOf(file: IncomingFile): number {
  return 'bytes' in file ? file.bytes.length : file.size;
}

/** The bytes of an incoming file, read from disk only when asked (one file at a time). */
function bytesOf(file: IncomingFile): Promise<Uint8Array> {
  return 'bytes' in file ? Promise.resolve(file.bytes) : readFile(file.path);
}

/** A file accepted into a flow's inbox. */
export interface AcceptedUpload {
  fileName: string;
  sha256: string;
  size: number;
  storedPath: string;
}

/** Limits applied to uploads and to what a .zip may expand to. */
export interface UploadLimits {
  /** Largest single document (and largest .zip) accepted. */
  maxFileBytes: number;
  /** Most documents accepted from one request (including all zip entries). */
  maxFiles: number;
  /** Most bytes all zip entries of one archive may expand to (zip-bomb guard). */
  maxExpandedBytes: number;
}

/** Folder holding a flow's uploaded bytes. */
export function getUploadDir(dataDir: string, organizationId: string, flowId: string): string {
  return join(dataDir, 'uploads', organizationId, flowId);
}

/**
 * Only the last path segment, without control characters or the invisible direction marks that make
 * a name display reversed ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf"): zip entries and
 * browsers may send paths and such names.
 */
export function sanitizeFileName(name: string): string {
  const last = basename(name.replaceAll('\\', '/'));
  const cleaned = last
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/g, '')
    .trim();
  return cleaned.slice(-200) || 'file';
}

/** Writes bytes to `path` atomically (temp file + rename), so a reader never sees half a file. */
async function writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}

/**
 * Expands a .zip in memory with hard limits: each entry is inflated chunk by chunk and abandoned once it
 * passes the per-file or whole-archive budget (declared sizes in a zip can lie), nested archives are not
 * opened, and entry paths are reduced to their file name so nothing can be written outside the inbox
 * (zip-slip). Returns the documents found and the entries skipped.
 */
export function expandZip(
  zipName: string,
  bytes: Uint8Array,
  limits: UploadLimits,
): { files: InMemoryFile[]; skipped: SkippedFile[] } {
  const files: InMemoryFile[] = [];
  const skipped: SkippedFile[] = [];
  let expanded = 0;
  let aborted: string | null = null;
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  let entries = 0;
  unzip.onfile = (entry) => {
    entries++;
    const display = `${zipName}/${entry.name}`;
    if (aborted || entry.name.endsWith('/')) return;
    const name = sanitizeFileName(entry.name);
    if (name.startsWith('.') || entry.name.includes('__MACOSX/')) return;
    if (extname(name).toLowerCase() === '.zip') {
      skipped.push({ name: display, reason: 'Zip files inside a zip are not opened' });
      return;
    }
    const reason = explainUnsupportedFile(name, 1, limits.maxFileBytes);
    if (reason) {
      skipped.push({ name: display, reason });
      return;
    }
    if (files.length >= limits.maxFiles) {
      skipped.push({ name: display, reason: `Only ${limits.maxFiles} files are accepted per upload` });
      return;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    let stopped = false;
    entry.ondata = (error, chunk, final) => {
      if (stopped) return;
      if (error) {
        stopped = true;
        skipped.push({ name: display, reason: 'This entry of the zip is damaged' });
        return;
      }
      size += chunk.length;
      expanded += chunk.length;
      if (size > limits.maxFileBytes) {
        stopped = true;
        entry.terminate();
        skipped.push({
          name: display,
          reason: `The file is larger than the ${formatMegabytes(limits.maxFileBytes)} limit`,
        });
        return;
      }
      if (expanded > limits.maxExpandedBytes) {
        stopped = true;
        entry.terminate();
        aborted = 'The zip expands to more data than allowed; it was not fully opened';
        return;
      }
      chunks.push(chunk);
      if (final) {
        if (size === 0) skipped.push({ name: display, reason: 'The file is empty' });
        else files.push({ name, bytes: concat(chunks, size) });
      }
    };
    entry.start();
  };
  try {
    // Pushed in slices so a bomb is cut off early instead of after inflating everything.
    const step = 64 * 1024;
    for (let at = 0; at < bytes.length && !aborted; at += step) {
      unzip.push(bytes.subarray(at, at + step), at + step >= bytes.length);
    }
  } catch {
    skipped.push({ name: zipName, reason: 'The zip file is damaged and could not be opened' });
  }
  if (aborted) skipped.push({ name: zipName, reason: aborted });
  else if (entries === 0 && !skipped.some((s) => s.name === zipName)) {
    skipped.push({ name: zipName, reason: 'The zip file is damaged or has no files in it' });
  }
  return { files, skipped };
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Stores uploaded files content-addressed by sha256 under `dir` (zips expanded safely first), one
 * file at a time so an upload never sits in memory whole. Unsupported, empty and oversized files
 * are skipped with a reason; nothing partially written is ever visible.
 */
export async function storeUploadedFiles(
  dir: string,
  incoming: IncomingFile[],
  limits: UploadLimits,
): Promise<{ stored: AcceptedUpload[]; skipped: SkippedFile[] }> {
  await mkdir(dir, { recursive: true });
  const stored: AcceptedUpload[] = [];
  const skipped: SkippedFile[] = [];
  const store = async (file: InMemoryFile) => {
    const sha256 = hashBytes(file.bytes);
    const storedPath = join(dir, `${sha256}${extname(file.name).toLowerCase()}`);
    const exists = await stat(storedPath).then(
      (s) => s.size === file.bytes.length,
      () => false,
    );
    if (!exists) await writeAtomically(storedPath, file.bytes);
    stored.push({ fileName: file.name, sha256, size: file.bytes.length, storedPath });
  };
  for (const file of incoming) {
    const name = sanitizeFileName(file.name);
    const size = sizeOf(file);
    if (extname(name).toLowerCase() === '.zip') {
      if (size > limits.maxFileBytes) {
        skipped.push({
          name,
          reason: `The zip is larger than the ${formatMegabytes(limits.maxFileBytes)} limit`,
        });
        continue;
      }
      const remaining = { ...limits, maxFiles: Math.max(0, limits.maxFiles - stored.length) };
      const out = expandZip(name, await bytesOf(file), remaining);
      skipped.push(...out.skipped);
      for (const entry of out.files) await store(entry);
      continue;
    }
    const reason = explainUnsupportedFile(name, size, limits.maxFileBytes);
    if (reason) skipped.push({ name, reason });
    else if (stored.length >= limits.maxFiles)
      skipped.push({ name, reason: `Only ${limits.maxFiles} files are accepted per upload` });
    else await store({ name, bytes: await bytesOf(file) });
  }
  return { stored, skipped };
}

/** A flow's stored upload, as the uploads table lists it. */
export interface StoredUpload {
  id: string;
  fileName: string;
  sha256: string;
  size: number;
  storedPath: string;
  createdAt: Date;
}

/**
 * The upload inbox as a document source. `listPage` pages through the flow's uploads (keyset by id) so even
 * a large inbox streams. The source id is the file name: the same name with new content is a new document.
 */
export function createUploadSource(
  listPage: (afterId: string | null) => Promise<StoredUpload[]>,
): DocumentSource {
  return {
    kind: 'upload',
    async *list(): AsyncIterable<SourceEntry> {
      let after: string | null = null;
      for (;;) {
        const page = await listPage(after);
        if (page.length === 0) return;
        for (const u of page) {
          yield {
            file: {
              sourceId: u.fileName,
              name: u.fileName,
              path: u.storedPath,
              size: u.size,
              modifiedAt: u.createdAt,
            },
          };
        }
        after = page[page.length - 1]!.id;
      }
    },
  };
}
