import { createHash, type Hash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { drive_v3 } from '@googleapis/drive';
import { isAppError } from '../../lib/app-error.ts';
import type { DriveLink } from './google-drive-link.ts';
import {
  type DocumentSource,
  explainUnsupportedFile,
  formatMegabytes,
  type SourceEntry,
  SUPPORTED_EXTENSIONS,
} from './source.ts';

const FOLDER_MIME = 'application/vnd.google-apps.folder';
/** The Drive metadata Bahi reads of a file. */
export const DRIVE_FILE_FIELDS = 'id,name,mimeType,size,md5Checksum,modifiedTime,trashed';
const FILE_FIELDS = DRIVE_FILE_FIELDS;
const PAGE_SIZE = 1000;
const DOWNLOAD_ATTEMPTS = 3;

/** Extensions for the MIME types the engine reads, for Drive files named without one. */
const EXTENSION_BY_MIME: Record<string, string> = {
  'application/pdf': '.pdf',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/tiff': '.tiff',
  'image/webp': '.webp',
};

/** Options of the Drive source. */
export interface GoogleDriveSourceOptions {
  drive: drive_v3.Drive;
  link: DriveLink;
  /** Where downloaded files are kept (one file per Drive id + content version). */
  cacheDir: string;
  maxBytes: number;
  maxFiles: number;
  /** Walk sub-folders too (default false: only the folder's own files). */
  includeSubfolders?: boolean;
  /** Wraps each metadata call (retries, authorisation handling); defaults to calling it as is. */
  call?: <T>(fn: () => Promise<T>) => Promise<T>;
}

/** The Drive file name with an extension the engine understands (from the MIME type when missing). */
export function nameWithExtension(file: drive_v3.Schema$File): string {
  const name = file.name ?? file.id ?? 'file';
  if (SUPPORTED_EXTENSIONS.has(extname(name).toLowerCase())) return name;
  const ext = EXTENSION_BY_MIME[file.mimeType ?? ''];
  return ext ? `${name}${ext}` : name;
}

/**
 * The cache file of a Drive file's current content. Drive's md5Checksum (or, for files without one, the
 * modified time) names the version, so an unchanged file is never downloaded twice and a changed one is.
 */
function cachePath(cacheDir: string, file: drive_v3.Schema$File, name: string): string {
  return join(cacheDir, `${driveFileVersion(file)}${extname(name).toLowerCase()}`);
}

/**
 * A Drive file's id and content version (`<id>-<md5>`, or a hash of the modified time for files without an
 * md5): the stem of its cache file, so a document's source path says which version it was read from.
 */
export function driveFileVersion(file: drive_v3.Schema$File): string {
  const version = file.md5Checksum ?? createHash('sha1').update(String(file.modifiedTime)).digest('hex');
  return `${file.id}-${version}`;
}

/**
 * Why a Drive file is not a document candidate (a Google Doc, an unsupported type, too large), or null
 * when it is one.
 */
export function explainUnsupportedDriveFile(file: drive_v3.Schema$File, maxBytes: number): string | null {
  if ((file.mimeType ?? '').startsWith('application/vnd.google-apps.'))
    return 'Google Docs, Sheets and Slides are not documents; save them as PDF to process them';
  return explainUnsupportedFile(nameWithExtension(file), Number(file.size ?? 0), maxBytes);
}

/** What listing a Drive folder needs. */
export interface DriveListOptions {
  drive: drive_v3.Drive;
  includeSubfolders?: boolean;
  call?: <T>(fn: () => Promise<T>) => Promise<T>;
}

/**
 * Every file of a Drive folder (metadata only, every page; sub-folders walked when asked), with the folder
 * path it sits in. Stops when Drive answers the same page token twice rather than looping.
 */
export async function* listDriveFolder(
  options: DriveListOptions,
  folderId: string,
): AsyncIterable<{ file: drive_v3.Schema$File; folderPath: string }> {
  const call = options.call ?? (<T>(fn: () => Promise<T>) => fn());
  const queue: Array<{ id: string; path: string }> = [{ id: folderId, path: '' }];
  const seenFolders = new Set<string>([folderId]);
  while (queue.length > 0) {
    const folder = queue.shift()!;
    const seenTokens = new Set<string>();
    let pageToken: string | undefined;
    do {
      const res = await call(() =>
        options.drive.files.list({
          q: `'${folder.id.replace(/'/g, "\\'")}' in parents and trashed = false`,
          fields: `nextPageToken, files(${FILE_FIELDS})`,
          pageSize: PAGE_SIZE,
          pageToken,
          supportsAllDrives: true,
          includeItemsFromAllDrives: true,
        }),
      );
      for (const file of res.data.files ?? []) {
        if (file.mimeType === FOLDER_MIME) {
          if (options.includeSubfolders && file.id && !seenFolders.has(file.id)) {
            seenFolders.add(file.id);
            queue.push({
              id: file.id,
              path: folder.path ? `${folder.path}/${file.name}` : (file.name ?? ''),
            });
          }
          continue;
        }
        yield { file, folderPath: folder.path };
      }
      const next = res.data.nextPageToken ?? undefined;
      // Drive has been seen answering the same page token again; following it would never end.
      if (next && seenTokens.has(next))
        throw new Error('Google Drive returned the same page of the folder twice; listing stopped');
      if (next) seenTokens.add(next);
      pageToken = next;
    } while (pageToken);
  }
}

/**
 * Counts bytes and stops a download that grows past the limit (Drive's `size` could be stale or absent), and
 * hashes them on the way, so the downloaded file is not read again to learn its sha256.
 */
function createSizeGuard(maxBytes: number, hash: Hash): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) done(new Error(`The file is larger than the ${formatMegabytes(maxBytes)} limit`));
      else {
        hash.update(chunk);
        done(null, chunk);
      }
    },
  });
}

/** What fetching one Drive file into the cache needs. */
export interface DriveFetchOptions {
  drive: drive_v3.Drive;
  cacheDir: string;
  maxBytes: number;
  call?: <T>(fn: () => Promise<T>) => Promise<T>;
}

/** Streams one download to a temporary file beside `target`, then renames it into place; returns its sha256. */
async function downloadOnce(
  options: DriveFetchOptions,
  file: drive_v3.Schema$File,
  target: string,
): Promise<string> {
  const call = options.call ?? (<T>(fn: () => Promise<T>) => fn());
  const tmp = `${target}.${randomBytes(6).toString('hex')}.part`;
  const hash = createHash('sha256');
  try {
    const res = await call(() =>
      options.drive.files.get(
        { fileId: file.id ?? '', alt: 'media', supportsAllDrives: true },
        { responseType: 'stream' },
      ),
    );
    await pipeline(
      res.data as unknown as NodeJS.ReadableStream,
      createSizeGuard(options.maxBytes, hash),
      createWriteStream(tmp),
    );
    // A connection that died early can still end the stream "cleanly"; the size tells.
    const got = (await stat(tmp)).size;
    if (file.size !== undefined && file.size !== null && got !== Number(file.size))
      throw new Error(
        `The download stopped after ${formatMegabytes(got)} of ${formatMegabytes(Number(file.size))}; try the run again`,
      );
    await rename(tmp, target);
    return hash.digest('hex');
  } finally {
    await rm(tmp, { force: true });
  }
}

/** A Drive file in the cache: its path, and its sha256 when it was downloaded just now. */
export interface FetchedDriveFile {
  path: string;
  /** Known only for a fresh download (hashed as it streamed); a cached copy is hashed by whoever needs it. */
  sha256?: string;
}

/**
 * The cached copy of a Drive file's current content, downloaded when the cache does not hold it (up to 3
 * attempts; authorisation failures at once). A cached copy that is used gets its modified time renewed:
 * the cache sweep keeps what was used recently (`modules/google/drive-cache.ts`).
 */
export async function fetchDriveFile(
  options: DriveFetchOptions,
  file: drive_v3.Schema$File,
): Promise<FetchedDriveFile> {
  await mkdir(options.cacheDir, { recursive: true });
  const path = cachePath(options.cacheDir, file, nameWithExtension(file));
  const size = Number(file.size ?? 0);
  const cached = await stat(path).then(
    (s) => s.size === size,
    () => false,
  );
  if (cached) {
    const now = new Date();
    // Gone in between (a sweep in another process): download it after all.
    if (
      await utimes(path, now, now).then(
        () => true,
        () => false,
      )
    )
      return { path };
  }
  let lastError: unknown;
  for (let attempt = 1; attempt <= DOWNLOAD_ATTEMPTS; attempt++) {
    try {
      return { path, sha256: await downloadOnce(options, file, path) };
    } catch (error) {
      if (isAppError(error)) throw error; // authorisation: the whole run needs the user
      lastError = error;
    }
  }
  throw lastError;
}

/**
 * Google Drive as a document source: a folder link (every page of the listing, sub-folders optionally) or
 * a file link. Only PDFs and images are taken; Google Docs, other types and files over the size limit are
 * listed as skipped with the reason. Files are streamed to a cache keyed by Drive id + md5Checksum, so a
 * re-run downloads nothing that did not change, and the source id is the Drive file id (the run keeps it
 * incremental by id + content hash).
 */
export function createGoogleDriveSource(options: GoogleDriveSourceOptions): DocumentSource {
  const call = options.call ?? (<T>(fn: () => Promise<T>) => fn());
  const { drive } = options;

  async function toEntry(file: drive_v3.Schema$File, folderPath: string): Promise<SourceEntry | null> {
    const shownName = folderPath ? `${folderPath}/${file.name}` : (file.name ?? '');
    const name = nameWithExtension(file);
    const size = Number(file.size ?? 0);
    const reason = explainUnsupportedDriveFile(file, options.maxBytes);
    if (reason) return { skipped: { name: shownName, reason } };
    let fetched: FetchedDriveFile;
    try {
      fetched = await fetchDriveFile(options, file);
    } catch (error) {
      if (isAppError(error)) throw error;
      // Not recorded as a document, so the next run tries it again.
      return {
        skipped: {
          name: shownName,
          reason: `Could not download it from Google Drive (${(error as Error).message}); the next run tries again`,
        },
      };
    }
    return {
      file: {
        sourceId: file.id ?? '',
        name: folderPath ? `${folderPath}/${name}` : name,
        path: fetched.path,
        size,
        modifiedAt: file.modifiedTime ? new Date(file.modifiedTime) : null,
        sha256: fetched.sha256,
      },
    };
  }

  return {
    kind: 'drive',
    async *list() {
      if (options.link.kind === 'file') {
        const res = await call(() =>
          drive.files.get({ fileId: options.link.id, fields: FILE_FIELDS, supportsAllDrives: true }),
        );
        const entry = await toEntry(res.data, '');
        if (entry) yield entry;
        return;
      }
      let files = 0;
      for await (const { file, folderPath } of listDriveFolder(options, options.link.id)) {
        if (files >= options.maxFiles) {
          yield {
            skipped: {
              name: file.name ?? '',
              reason: `Only the first ${options.maxFiles} files of a folder are processed per run`,
            },
          };
          continue;
        }
        const entry = await toEntry(file, folderPath);
        if (!entry) continue;
        if ('file' in entry) files++;
        yield entry;
      }
    },
  };
}
