import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, open as openFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { Unzip, type UnzipFile } from 'fflate';
import { AppError } from '../../lib/app-error.ts';
import { getUploadCacheDir, locateUploadedFile } from '../blobs/upload-blobs.ts';
import {
  type DocumentSource,
  explainUnsupportedFile,
  fingerprintListing,
  formatMegabytes,
  hashBytes,
  hashFile,
  type SkippedFile,
  type SourceAdapter,
  type SourceEntry,
} from './source.ts';
import { listUploadPage } from './uploads.repo.ts';
import { createThreadedInflater } from './zip-inflate.ts';

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
  /** Why `name` differs from the name the browser sent, when it does. */
  renamed?: string;
}

/** A file to add to an inbox: in memory, or on disk where an upload streamed it. */
export type IncomingFile = InMemoryFile | ReceivedFile;

/** The size of an incoming file without reading it. */
function sizeOf(file: IncomingFile): number {
  return 'bytes' in file ? file.bytes.length : file.size;
}

/** A file accepted into a flow's inbox. */
export interface AcceptedUpload {
  fileName: string;
  sha256: string;
  size: number;
  storedPath: string;
  /** Why the name differs from the one sent (see `explainFileNameChange`), when it does. */
  renamed?: string;
}

/** Limits applied to uploads and to what a .zip may expand to. */
export interface UploadLimits {
  /** Largest single document (and largest .zip) accepted. */
  maxFileBytes: number;
  /** Most documents accepted from one request (including all zip entries). */
  maxFiles: number;
  /** Most bytes all zip entries of one request may expand to, together (zip-bomb guard). */
  maxExpandedBytes: number;
  /** Bytes the organisation may still store (its quota less what it holds); unset means no quota. */
  storageLeftBytes?: number;
}

/**
 * A zip may expand to at most this many times its own size. Zips of PDFs and scans barely shrink them
 * (1–3×); a thousandfold zip is a bomb. Small zips get `MIN_ZIP_BUDGET` whatever their ratio.
 */
export const MAX_ZIP_RATIO = 100;
const MIN_ZIP_BUDGET = 8 * 1024 * 1024;
/** Compressed bytes handed to the inflater at a time: a slice inflates to at most ~1,000× its size. */
const ZIP_SLICE_BYTES = 16 * 1024;

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
  const cleaned = last.replace(CONTROL_CHARS, '').replace(DIRECTION_MARKS, '').trim();
  return cleaned.slice(-MAX_NAME_LENGTH) || 'file';
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;
const DIRECTION_MARKS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/g;
const MAX_NAME_LENGTH = 200;

/**
 * Why `sanitizeFileName` changed a name, in words for the person who uploaded it, or null when it kept
 * the name (trimmed spaces are not worth a word). A zip entry's folder path is expected and not reported.
 */
export function explainFileNameChange(raw: string, options: { pathExpected?: boolean } = {}): string | null {
  const last = basename(raw.replaceAll('\\', '/'));
  if (new RegExp(CONTROL_CHARS.source).test(raw) || new RegExp(DIRECTION_MARKS.source).test(raw))
    return 'Invisible characters that can make a name display reversed or hidden were removed from the name';
  if (last !== raw && !options.pathExpected)
    return 'The name held a folder path; only the file name was kept';
  if (last.trim().length > MAX_NAME_LENGTH)
    return `The name was shortened to its last ${MAX_NAME_LENGTH} characters`;
  return null;
}

/** A zip entry inflated to a staging file, hashed as it was written. */
interface StagedFile {
  name: string;
  path: string;
  size: number;
  sha256: string;
  renamed?: string;
}

/** What expanding one zip gave: entries staged on disk, entries skipped, and whether the zip was refused. */
interface ExpandedZip {
  files: StagedFile[];
  skipped: SkippedFile[];
  /** Bytes inflated (counted against the request's budget even when the zip was refused). */
  expanded: number;
  /** The zip went over a budget: none of its entries may be stored. */
  refused: boolean;
}

/** Compressed bytes of a zip, in slices, from memory or from the file an upload streamed to. */
async function* readZipSlices(file: IncomingFile): AsyncIterable<Uint8Array> {
  if ('bytes' in file) {
    for (let at = 0; at < file.bytes.length; at += ZIP_SLICE_BYTES)
      yield file.bytes.subarray(at, at + ZIP_SLICE_BYTES);
    return;
  }
  for await (const chunk of createReadStream(file.path, { highWaterMark: ZIP_SLICE_BYTES }))
    yield chunk as Buffer;
}

/** The first bytes of a zip, from memory or from the file an upload streamed to. */
async function readZipHead(file: IncomingFile, length: number): Promise<Uint8Array> {
  if ('bytes' in file) return file.bytes.subarray(0, length);
  const handle = await openFile(file.path, 'r');
  try {
    const head = new Uint8Array(length);
    const { bytesRead } = await handle.read(head, 0, length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Whether a zip's first entry is encrypted: its local header's general-purpose flag has bit 0 set, or its
 * method is 99 (WinZip AES). fflate cannot read such entries and would call them damaged.
 */
async function isPasswordProtectedZip(file: IncomingFile): Promise<boolean> {
  const head = await readZipHead(file, 30);
  if (head.length < 30) return false;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (view.getUint32(0, true) !== 0x04034b50) return false;
  return (view.getUint16(6, true) & 1) === 1 || view.getUint16(8, true) === 99;
}

/** Why a password-protected zip is not opened, and what to do. */
export const PASSWORD_ZIP_REASON =
  'This zip file is password-protected, so its files cannot be read. Unzip it with its password (or zip the files again without one) and upload them again.';

/** One zip's expansion as it goes: entries staged or skipped (each with its place in the zip), and budgets. */
interface ZipExpansion {
  zipName: string;
  stagingDir: string;
  limits: Pick<UploadLimits, 'maxFileBytes' | 'maxFiles'>;
  budget: { bytes: number; reason: string };
  // Entries finish out of order (inflated on the thread pool): each outcome keeps its entry's place.
  files: Array<StagedFile & { at: number }>;
  skipped: Array<SkippedFile & { at: number }>;
  /** Staging files still being written. */
  open: Set<number>;
  expanded: number;
  refused: boolean;
  entries: number;
  accepted: number;
}

/** Decides on a zip entry as the zip is read: skipped with a reason, ignored (folders, junk), or staged. */
function onZipEntry(zip: ZipExpansion, entry: UnzipFile): void {
  zip.entries++;
  const at = zip.entries;
  const display = `${zip.zipName}/${entry.name}`;
  if (zip.refused || entry.name.endsWith('/')) return;
  const name = sanitizeFileName(entry.name);
  if (name.startsWith('.') || entry.name.includes('__MACOSX/')) return;
  const skip = (reason: string) => zip.skipped.push({ at, name: display, reason });
  if (extname(name).toLowerCase() === '.zip') return void skip('Zip files inside a zip are not opened');
  const reason = explainUnsupportedFile(name, 1, zip.limits.maxFileBytes);
  if (reason) return void skip(reason);
  if (zip.accepted >= zip.limits.maxFiles)
    return void skip(`Only ${zip.limits.maxFiles} files are accepted per upload`);
  zip.accepted++;
  stageZipEntry(zip, entry, { at, name, skip });
}

/**
 * Writes an entry to a staging file as it inflates (64 KB at a time, so memory stays at a slice's output),
 * hashing it on the way; abandons it past the per-file limit and refuses the whole zip past its budget.
 */
function stageZipEntry(
  zip: ZipExpansion,
  entry: UnzipFile,
  { at, name, skip }: { at: number; name: string; skip: (reason: string) => void },
): void {
  const path = join(zip.stagingDir, `${at}`);
  const fd = openSync(path, 'wx', 0o600);
  zip.open.add(fd);
  const hash = createHash('sha256');
  let size = 0;
  let stopped = false;
  const stop = () => {
    stopped = true;
    zip.open.delete(fd);
    closeSync(fd);
  };
  entry.ondata = (error, chunk, final) => {
    if (stopped) return;
    if (error) {
      stop();
      return skip('This entry of the zip is damaged');
    }
    size += chunk.length;
    zip.expanded += chunk.length;
    if (size > zip.limits.maxFileBytes) {
      stop();
      entry.terminate();
      return skip(`The file is larger than the ${formatMegabytes(zip.limits.maxFileBytes)} limit`);
    }
    if (zip.expanded > zip.budget.bytes) {
      stop();
      entry.terminate();
      zip.refused = true;
      return;
    }
    writeSync(fd, chunk);
    hash.update(chunk);
    if (!final) return;
    stop();
    if (size === 0) return skip('The file is empty');
    const renamed = explainFileNameChange(entry.name, { pathExpected: true });
    zip.files.push({ at, name, path, size, sha256: hash.digest('hex'), ...(renamed ? { renamed } : {}) });
  };
  entry.start();
}

/**
 * Expands a .zip onto disk under `stagingDir`, entry by entry as it inflates: nothing is held in memory
 * beyond one slice. Hard limits: each entry is abandoned once it passes the per-file limit, and the whole
 * archive is refused once it passes `budgetBytes` (declared sizes in a zip can lie, so inflated bytes are
 * counted); nested archives are not opened, and entry paths are reduced to their file name so nothing can
 * be written outside the inbox (zip-slip). A refused zip's staged entries must not be stored.
 */
export async function expandZip({
  zipName,
  zip,
  stagingDir,
  limits,
  budget,
}: {
  zipName: string;
  zip: IncomingFile;
  stagingDir: string;
  limits: Pick<UploadLimits, 'maxFileBytes' | 'maxFiles'>;
  budget: { bytes: number; reason: string };
}): Promise<ExpandedZip> {
  if (await isPasswordProtectedZip(zip))
    return {
      files: [],
      skipped: [{ name: zipName, reason: PASSWORD_ZIP_REASON }],
      expanded: 0,
      refused: false,
    };
  const state: ZipExpansion = {
    zipName,
    stagingDir,
    limits,
    budget,
    files: [],
    skipped: [],
    open: new Set(),
    expanded: 0,
    refused: false,
    entries: 0,
    accepted: 0,
  };
  const unzip = new Unzip();
  const inflater = createThreadedInflater();
  unzip.register(inflater.decoder);
  unzip.onfile = (entry) => onZipEntry(state, entry);
  let damaged = false;
  try {
    for await (const slice of readZipSlices(zip)) {
      unzip.push(slice, false);
      // The next slice waits until this one is inflated (a bomb's slice is megabytes of zeros): memory
      // stays at a slice's output, and the budget is checked before more is read.
      await inflater.drained();
      if (state.refused) break;
      // Stored (not deflated) entries are copied within push: let other requests in between slices.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (!state.refused) unzip.push(new Uint8Array(0), true);
  } catch {
    damaged = true;
  } finally {
    // Every entry finished (or stopped) before its file is closed: the last output comes asynchronously.
    await inflater.settle();
    for (const fd of state.open) closeSync(fd);
  }
  const { expanded, refused, entries } = state;
  if (refused) return { files: [], skipped: [{ name: zipName, reason: budget.reason }], expanded, refused };
  const inOrder = <T extends { at: number }>(items: T[]) =>
    items.sort((x, y) => x.at - y.at).map(({ at: _, ...item }) => item);
  const skipped: SkippedFile[] = inOrder(state.skipped);
  if (damaged)
    skipped.push({
      name: zipName,
      reason:
        entries === 0
          ? 'The zip file is damaged and could not be opened'
          : 'The zip file is damaged; files after the damaged part were not read',
    });
  else if (entries === 0)
    skipped.push({ name: zipName, reason: 'The zip file is damaged or has no files in it' });
  return { files: inOrder(state.files), skipped, expanded, refused };
}

/** Moves a finished temporary file into place (copying when it lies on another file system). */
async function moveInto(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    const tmp = `${to}.${randomBytes(6).toString('hex')}.tmp`;
    await copyFile(from, tmp);
    await rename(tmp, to);
  }
}

/**
 * How far one zip may expand, and what to say when it goes past: its own ratio, unless the upload's
 * zips together have less left than that.
 */
function zipBudget(size: number, expandedLeft: number, maxExpandedBytes: number) {
  const byRatio = Math.max(MIN_ZIP_BUDGET, size * MAX_ZIP_RATIO);
  return byRatio <= expandedLeft
    ? {
        bytes: byRatio,
        reason: `The zip expands to more than ${MAX_ZIP_RATIO} times its size, which documents never do; nothing from it was stored`,
      }
    : {
        bytes: expandedLeft,
        reason: `The zips of this upload expand to more than ${formatMegabytes(maxExpandedBytes)} in all; nothing from this one was stored. Upload fewer at a time`,
      };
}

/**
 * Stores uploaded files content-addressed by sha256 under `dir` (zips expanded safely first). Files are
 * moved or streamed into place, never held whole in memory. Unsupported, empty and oversized files, files
 * past the organisation's storage quota and every entry of a zip that went over its expansion budget are
 * skipped with a reason; nothing partially written is ever visible.
 */
export async function storeUploadedFiles(
  dir: string,
  incoming: IncomingFile[],
  limits: UploadLimits,
): Promise<{ stored: AcceptedUpload[]; skipped: SkippedFile[] }> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // Staged beside the inbox (same file system, so a finished file is renamed into place).
  const staging = await mkdtemp(join(dir, '.incoming-'));
  const stored: AcceptedUpload[] = [];
  const skipped: SkippedFile[] = [];
  let storageLeft = limits.storageLeftBytes ?? Number.POSITIVE_INFINITY;
  let expandedLeft = limits.maxExpandedBytes;
  let staged = 0;
  const store = async (file: {
    name: string;
    path: string;
    size: number;
    sha256?: string;
    renamed?: string;
  }) => {
    if (file.size > storageLeft) {
      skipped.push({
        name: file.name,
        reason: "Your organisation's storage for uploads is full; ask your administrator for more room",
      });
      return;
    }
    const sha256 = file.sha256 ?? (await hashFile(file.path));
    const storedPath = join(dir, `${sha256}${extname(file.name).toLowerCase()}`);
    const exists = await stat(storedPath).then(
      (s) => s.size === file.size,
      () => false,
    );
    if (!exists) await moveInto(file.path, storedPath);
    storageLeft -= file.size;
    stored.push({
      fileName: file.name,
      sha256,
      size: file.size,
      storedPath,
      ...(file.renamed ? { renamed: file.renamed } : {}),
    });
  };
  try {
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
        const budget = zipBudget(size, expandedLeft, limits.maxExpandedBytes);
        const zipDir = join(staging, `${staged++}`);
        await mkdir(zipDir, { mode: 0o700 });
        const remaining = { ...limits, maxFiles: Math.max(0, limits.maxFiles - stored.length) };
        const out = await expandZip({
          zipName: name,
          zip: file,
          stagingDir: zipDir,
          limits: remaining,
          budget,
        });
        expandedLeft = Math.max(0, expandedLeft - out.expanded);
        skipped.push(...out.skipped);
        for (const entry of out.files) await store(entry);
        await rm(zipDir, { recursive: true, force: true });
        continue;
      }
      const reason = explainUnsupportedFile(name, size, limits.maxFileBytes);
      if (reason) skipped.push({ name, reason });
      else if (stored.length >= limits.maxFiles)
        skipped.push({ name, reason: `Only ${limits.maxFiles} files are accepted per upload` });
      else if ('bytes' in file) {
        const path = join(staging, `${staged++}`);
        await writeFile(path, file.bytes, { mode: 0o600 });
        await store({
          name,
          path,
          size,
          sha256: hashBytes(file.bytes),
          renamed: explainFileNameChange(file.name) ?? undefined,
        });
      } else await store({ name, path: file.path, size, renamed: file.renamed });
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
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
 * Each entry carries the hash the upload is stored under, so the scan reads no bytes.
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
              sha256: u.sha256,
            },
          };
        }
        after = page[page.length - 1]!.id;
      }
    },
  };
}

/** Uploads a run's scan lists per database page. */
const UPLOAD_PAGE_SIZE = 200;

/**
 * The `upload` source kind: files uploaded to the flow (`POST /api/flows/:id/uploads`). Nothing to check
 * before a run: an empty inbox ends the run as an empty folder does.
 */
export const uploadSource: SourceAdapter = {
  // An inbox has no address: whatever URL came with the flow is dropped.
  validate: async (_ctx, { input }) => ({ ...input, url: '' }),
  checkRunnable: async () => {},
  open: async (ctx, { flowId }) =>
    createUploadSource((after) =>
      listUploadPage(ctx.db, { flowId, afterId: after, limit: UPLOAD_PAGE_SIZE }),
    ),
  async locate(ctx, doc) {
    if (!doc.sourcePath) return '';
    // The scan may have run on another machine: this one's copy has the same name in this DATA_DIR, else
    // it is fetched from the database blob store (DATABASE_URL).
    const dir = getUploadDir(ctx.env.dataDir, doc.organizationId, doc.flowId);
    const path = await locateUploadedFile(ctx.db, ctx.env, join(dir, basename(doc.sourcePath)));
    // A stored upload that has since gone (a cleared data folder, a restore without it) fails its document
    // in words, like a file deleted from a folder, instead of as a file the engine could not read.
    if (!(await stat(path).catch(() => undefined))?.isFile())
      throw new AppError('not_found', 'The uploaded file is no longer stored on the server; upload it again');
    return path;
  },
  servedFrom: async (ctx, doc) => [
    getUploadDir(ctx.env.dataDir, doc.organizationId, doc.flowId),
    join(getUploadCacheDir(ctx.env), doc.organizationId, doc.flowId),
  ],
  folderName: () => '',
  // On arrival: the uploads listed change when files are dropped in (the tick starts the run).
  watch: async (ctx, source) => fingerprintListing(await uploadSource.open(ctx, source)),
};
