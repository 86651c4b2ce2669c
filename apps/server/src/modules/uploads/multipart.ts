import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import Busboy from 'busboy';
import { formatMegabytes, type SkippedFile } from '../../adapters/sources/source.ts';
import { explainFileNameChange, type ReceivedFile, sanitizeFileName } from '../../adapters/sources/upload.ts';
import { AppError } from '../../lib/app-error.ts';

/** Form fields a browser may send files under. */
const FILE_FIELDS = new Set(['files', 'files[]', 'file']);

/** Files of one upload request, streamed to a private temporary folder. */
export interface ReceivedUploads {
  /** Files received whole, in the order they were sent. */
  files: ReceivedFile[];
  /** Files refused while they arrived (over the per-file limit, over the file count). */
  skipped: SkippedFile[];
  /** Delete the temporary folder. */
  cleanup(): Promise<void>;
}

/** Limits enforced while a multipart upload streams in. */
export interface MultipartLimits {
  /** Largest single file; a larger one is cut off as it arrives and reported. */
  maxFileBytes: number;
  /** Most files one request may carry. */
  maxFiles: number;
}

/**
 * Stream the files of a multipart request to disk as they arrive, never holding the request in
 * memory: each file goes to its own temporary file (mode 0600) under `tmpRoot`, a file over the
 * per-file limit is cut off at the limit and reported as skipped, and files beyond the count are
 * reported too. A body that is not valid multipart is a `validation` error. The caller deletes the
 * temporary folder with `cleanup()` once the files are stored.
 */
export async function receiveMultipartFiles(
  request: Request,
  tmpRoot: string,
  limits: MultipartLimits,
): Promise<ReceivedUploads> {
  if (!request.body)
    throw new AppError('validation', 'Choose at least one file to upload', { files: 'Choose a file' });
  await mkdir(tmpRoot, { recursive: true, mode: 0o700 });
  const dir = await mkdtemp(join(tmpRoot, 'upload-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  const slots: Array<ReceivedFile | (SkippedFile & { skipped: true })> = [];
  const writes: Promise<void>[] = [];
  try {
    let parser: Busboy.Busboy;
    try {
      parser = Busboy({
        headers: Object.fromEntries(request.headers),
        // Browsers send file names as UTF-8 (busboy's default, latin1, garbles "बिल.pdf"), and the name as
        // sent, path and all, so that sanitizeFileName decides and says what it changed.
        defParamCharset: 'utf8',
        preservePath: true,
        limits: {
          fileSize: limits.maxFileBytes,
          files: limits.maxFiles,
          fields: 20,
          parts: limits.maxFiles + 20,
        },
      });
    } catch {
      throw new AppError('validation', 'The upload could not be read; send the files as a form upload');
    }
    let countExceeded = false;
    parser.on('file', (field, stream, info) => {
      if (!FILE_FIELDS.has(field)) {
        stream.resume();
        return;
      }
      const at = slots.length;
      const name = sanitizeFileName(info.filename ?? 'file');
      const renamed = explainFileNameChange(info.filename ?? 'file') ?? undefined;
      const path = join(dir, `${at}`);
      let size = 0;
      let cut = false;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      stream.on('limit', () => {
        cut = true;
      });
      slots.push({ name, path, size: 0 });
      writes.push(
        pipeline(stream, createWriteStream(path, { mode: 0o600 })).then(() => {
          slots[at] = cut
            ? {
                name,
                reason: `The file is larger than the ${formatMegabytes(limits.maxFileBytes)} limit`,
                skipped: true,
              }
            : { name, path, size, ...(renamed ? { renamed } : {}) };
        }),
      );
    });
    parser.on('filesLimit', () => {
      countExceeded = true;
    });
    try {
      await pipeline(Readable.fromWeb(request.body as WebReadableStream<Uint8Array>), parser);
      await Promise.all(writes);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('validation', 'The upload could not be read; please send the files again');
    }
    const files: ReceivedFile[] = [];
    const skipped: SkippedFile[] = [];
    for (const slot of slots) {
      if ('skipped' in slot) skipped.push({ name: slot.name, reason: slot.reason });
      else files.push(slot);
    }
    if (countExceeded)
      skipped.push({ name: 'more files', reason: `Only ${limits.maxFiles} files are accepted per upload` });
    return { files, skipped, cleanup };
  } catch (error) {
    await Promise.allSettled(writes);
    await cleanup();
    throw error;
  }
}
