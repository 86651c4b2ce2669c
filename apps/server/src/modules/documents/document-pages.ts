import { access, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentPage } from '@bahi/contracts';
import {
  DEFAULT_LIMITS,
  MAX_PAGE_DRAW_OPERATIONS,
  type PageFrame,
  renderPagePlaceholder,
} from '@bahi/engine';
import { getPreviewDir } from '../../adapters/blobs/previews.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { previewPool } from '../../jobs/previews.ts';
import type { PreviewAnswer } from '../../jobs/tasks.ts';
import { WorkerCrashError } from '../../jobs/worker-pool.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Membership } from '../auth/identity.ts';
import type { DocumentRow } from './documents.repo.ts';
import { getDocumentFile, requireDocument } from './documents.service.ts';

/**
 * Pages of a stored document drawn for the review screen: PDFs through the engine's mupdf, images
 * upright through sharp, in the frame the engine's boxes use. Each page is drawn once per width and
 * kept in the flow's preview folder (`getPreviewDir`, removed with the flow).
 *
 * Counting and drawing run on the preview worker threads (`src/jobs/previews.ts`), never on the API's
 * event loop, under a time limit (`PREVIEW_TIMEOUT_MS`) and a limit on drawing operations per page
 * (`MAX_PAGE_DRAW_OPERATIONS`); a page past either is answered, and kept, as a placeholder picture saying
 * so — one past the operation limit for good, one that overran its time (a loaded machine may be why)
 * until it is tried again ten minutes later, three attempts at most. Only documents the engine has read (done or needing review) are drawn: a failed, pending or removed
 * document may be any file at all.
 */

/** Pages listed and drawn: the engine reads no more (a longer document fails as too large). */
export const MAX_PREVIEW_PAGES = DEFAULT_LIMITS.maxPages;

/** Why a document's pages are not drawn, by status; null when they are. */
function notDrawnReason(row: DocumentRow): string | null {
  switch (row.status) {
    case 'done':
    case 'needs_review':
      return null;
    case 'failed':
      return 'This document could not be read, so its pages are not shown. Download the file to look at it.';
    case 'removed':
      return 'This document was removed from the flow, so its pages are not shown.';
    default:
      return 'The pages are shown once the document has been read.';
  }
}

/** The preview threads' answer, or the time-limit refusal in words. */
async function preview(env: Env, task: Parameters<ReturnType<typeof previewPool>['preview']>[0]) {
  try {
    return await previewPool(env).preview(task);
  } catch (error) {
    if (error instanceof WorkerCrashError)
      return {
        kind: 'refused',
        code: 'too_costly',
        message: error.timedOut ? 'timeout' : 'crashed',
      } satisfies PreviewAnswer as PreviewAnswer;
    throw error;
  }
}

/** Picture widths served; an asked width is rounded up to one, so a page is drawn a few times at most. */
export const PAGE_IMAGE_WIDTHS = [640, 960, 1280, 1600, 2400] as const;

/** The folder of one reading of a document: a re-uploaded file under the same id gets fresh pictures. */
function documentPreviewDir(env: Env, row: DocumentRow): string {
  return join(
    getPreviewDir(env.dataDir, row.organizationId, row.flowId),
    `${row.id}-${row.contentHash.slice(0, 16)}`,
  );
}

/** Write a file so that a reader never sees half of it. */
async function writeAtomically(path: string, bytes: Uint8Array | string): Promise<void> {
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, bytes);
  await rename(temp, path).catch(async (error: unknown) => {
    await rm(temp, { force: true });
    throw error;
  });
}

async function readFrames({
  env,
  db,
  membership,
  row,
}: {
  env: Env;
  db: Db;
  membership: Membership;
  row: DocumentRow;
}): Promise<{ pageCount: number; frames: PageFrame[] }> {
  const dir = documentPreviewDir(env, row);
  const cached = await readFile(join(dir, 'frames.json'), 'utf8').catch(() => null);
  if (cached) {
    const parsed = JSON.parse(cached) as PageFrame[] | { pageCount: number; frames: PageFrame[] };
    return Array.isArray(parsed) ? { pageCount: parsed.length, frames: parsed } : parsed;
  }
  const file = await getDocumentFile(db, { env, membership, id: row.id });
  const answer = await preview(env, { kind: 'preview-frames', path: file.path, maxPages: MAX_PREVIEW_PAGES });
  if (answer.kind === 'refused')
    throw new AppError(
      'not_found',
      answer.code === 'too_costly'
        ? 'The pages of this file took too long to count. Download the file to look at it.'
        : 'The pages of this file cannot be shown',
    );
  if (answer.kind !== 'frames') throw new Error('the preview thread answered with something else');
  const result = { pageCount: answer.pageCount, frames: answer.frames };
  await mkdir(dir, { recursive: true });
  await writeAtomically(join(dir, 'frames.json'), JSON.stringify(result));
  return result;
}

/**
 * A document's pages (at most {@link MAX_PREVIEW_PAGES}) with their sizes and picture URLs, and a sentence
 * when some or all are not shown; `not_found` when its file is gone or cannot be drawn.
 */
export async function listDocumentPages(
  db: Db,
  { env, membership, id }: { env: Env; membership: Membership; id: string },
): Promise<{ pages: DocumentPage[]; note: string | null }> {
  const row = await requireDocument(db, membership, id);
  const reason = notDrawnReason(row);
  if (reason) return { pages: [], note: reason };
  const { pageCount, frames } = await readFrames({ env, db, membership, row });
  // One document of a batch shows its own pages, numbered as in the file (where its values were read).
  const [from, to] = partPages(row) ?? [1, frames.length];
  const note =
    !partPages(row) && pageCount > frames.length
      ? `This document has ${pageCount} pages; the first ${frames.length} are shown.`
      : null;
  const pages = frames.slice(from - 1, to).map((f, i) => ({
    number: from + i,
    width: f.width,
    height: f.height,
    imageUrl: `/api/documents/${row.id}/pages/${from + i}`,
  }));
  return { pages, note };
}

/** The file's pages a document of a batch is on; null for a document that is its whole file. */
function partPages(row: DocumentRow): [number, number] | null {
  return row.pageFrom !== null && row.pageTo !== null ? [row.pageFrom, row.pageTo] : null;
}

/** A page's picture on disk, and whether it is the placeholder of a page too costly to draw. */
export interface PageImage {
  path: string;
  placeholder: boolean;
}

/**
 * The picture of one page at the served width nearest above `width`: drawn on a preview thread, or a
 * placeholder saying why not when the page has too many drawing operations or overruns the time limit.
 */
export async function getDocumentPageImage(
  db: Db,
  {
    env,
    membership,
    id,
    page,
    width,
  }: { env: Env; membership: Membership; id: string; page: number; width: number },
): Promise<PageImage> {
  const row = await requireDocument(db, membership, id);
  const reason = notDrawnReason(row);
  if (reason) throw new AppError('not_found', reason);
  if (page > MAX_PREVIEW_PAGES)
    throw new AppError('not_found', `Only the first ${MAX_PREVIEW_PAGES} pages of a document are shown`);
  // Another document's pages of the same batch file are that document's, not this one's.
  const part = partPages(row);
  if (part && (page < part[0] || page > part[1]))
    throw new AppError('not_found', `This document is on pages ${part[0]}–${part[1]} of its file`);
  const served = PAGE_IMAGE_WIDTHS.find((w) => w >= width) ?? PAGE_IMAGE_WIDTHS.at(-1)!;
  const dir = documentPreviewDir(env, row);
  const path = join(dir, `p${page}-w${served}.png`);
  const placeholderPath = join(dir, `p${page}-w${served}.placeholder.png`);
  for (const [candidate, placeholder] of [
    [path, false],
    [placeholderPath, true],
  ] as const) {
    const exists = await access(candidate).then(
      () => true,
      () => false,
    );
    if (exists) return { path: candidate, placeholder };
  }
  const tried = await lastDrawAttempt(dir, page, served);
  if (tried && !drawAgain(tried, Date.now())) return { path: tried.path, placeholder: true };
  const file = await getDocumentFile(db, { env, membership, id: row.id });
  const answer = await preview(env, { kind: 'preview-page', path: file.path, page, width: served });
  await mkdir(dir, { recursive: true });
  if (answer.kind === 'page') {
    await writeAtomically(path, answer.png);
    return { path, placeholder: false };
  }
  if (answer.kind !== 'refused') throw new Error('the preview thread answered with something else');
  if (answer.code === 'no_page') throw new AppError('not_found', `This document has no page ${page}`);
  if (answer.code === 'unreadable') throw new AppError('not_found', 'The pages of this file cannot be shown');
  // Too costly: kept as a placeholder so the page is not tried again at this width.
  const sentence =
    answer.message === 'timeout'
      ? `This page took longer than ${Math.round(env.flows.previewTimeoutMs / 1000)} seconds to draw, so it is not shown. Download the file to look at it.`
      : answer.message === 'crashed'
        ? 'This page could not be drawn. Download the file to look at it.'
        : `This page has more than ${MAX_PAGE_DRAW_OPERATIONS.toLocaleString('en-IN')} drawing operations, too many to draw here. Download the file to look at it.`;
  const frames = await readFrames({ env, db, membership, row }).catch(() => null);
  const frame = frames?.frames[page - 1] ?? { width: 612, height: 792 };
  const picture = await renderPagePlaceholder(frame, served, sentence);
  // Too many operations is a fact of the page: kept for good. A page that overran its time or
  // crashed its thread may draw on a quieter machine: tried again later, a few times at most.
  const transient = answer.message === 'timeout' || answer.message === 'crashed';
  const attempt = (tried?.attempt ?? 0) + 1;
  const target = transient ? join(dir, `p${page}-w${served}.try${attempt}.placeholder.png`) : placeholderPath;
  await writeAtomically(target, picture.png);
  if (tried && tried.path !== target) await rm(tried.path, { force: true });
  return { path: target, placeholder: true };
}

/** A page that could not be drawn in time is tried again after this long… */
export const REDRAW_AFTER_MS = 10 * 60_000;
/** …and at most this many times in all; after that its placeholder is kept for good. */
export const MAX_DRAW_ATTEMPTS = 3;

/** The placeholder of the last time-limited attempt to draw a page at a width, if any. */
async function lastDrawAttempt(
  dir: string,
  page: number,
  width: number,
): Promise<{ path: string; attempt: number; at: number } | null> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const pattern = new RegExp(`^p${page}-w${width}\\.try(\\d+)\\.placeholder\\.png$`);
  let found: { path: string; attempt: number } | null = null;
  for (const name of names) {
    const m = pattern.exec(name);
    if (m && (!found || Number(m[1]) > found.attempt))
      found = { path: join(dir, name), attempt: Number(m[1]) };
  }
  if (!found) return null;
  const at = await stat(found.path).then(
    (s) => s.mtimeMs,
    () => null,
  );
  return at === null ? null : { ...found, at };
}

/** Whether a page whose last attempt overran is due to be drawn again. */
export function drawAgain(tried: { attempt: number; at: number }, now: number): boolean {
  return tried.attempt < MAX_DRAW_ATTEMPTS && now - tried.at >= REDRAW_AFTER_MS;
}
