import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentPage } from '@bahi/contracts';
import { listPageFrames, type PageFrame, PreviewError, renderPagePreview } from '@bahi/engine';
import { getPreviewDir } from '../../adapters/blobs/previews.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Membership } from '../auth/identity.ts';
import type { DocumentRow } from './documents.repo.ts';
import { getDocumentFile, requireDocument } from './documents.service.ts';

/**
 * Pages of a stored document drawn for the review screen: PDFs through the engine's mupdf, images
 * upright through sharp, in the frame the engine's boxes use. Each page is drawn once per width and
 * kept in the flow's preview folder (`getPreviewDir`, removed with the flow).
 */

/** Picture widths served; an asked width is rounded up to one, so a page is drawn a few times at most. */
export const PAGE_IMAGE_WIDTHS = [640, 960, 1280, 1600, 2400] as const;

/** The folder of one reading of a document: a re-uploaded file under the same id gets fresh pictures. */
function documentPreviewDir(env: Env, row: DocumentRow): string {
  return join(
    getPreviewDir(env.dataDir, row.organizationId, row.flowId),
    `${row.id}-${row.contentHash.slice(0, 16)}`,
  );
}

/** Drawing is CPU work on the event loop (mupdf is WebAssembly); one page at a time keeps the API responsive. */
let drawing: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const next = drawing.then(work, work);
  drawing = next.catch(() => undefined);
  return next;
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
}): Promise<PageFrame[]> {
  const dir = documentPreviewDir(env, row);
  const cached = await readFile(join(dir, 'frames.json'), 'utf8').catch(() => null);
  if (cached) return JSON.parse(cached) as PageFrame[];
  const file = await getDocumentFile(db, { env, membership, id: row.id });
  const frames = await oneAtATime(async () => listPageFrames(new Uint8Array(await readFile(file.path))));
  await mkdir(dir, { recursive: true });
  await writeAtomically(join(dir, 'frames.json'), JSON.stringify(frames));
  return frames;
}

/** A document's pages with their sizes and picture URLs; `not_found` when its file is gone. */
export async function listDocumentPages(
  db: Db,
  { env, membership, id }: { env: Env; membership: Membership; id: string },
): Promise<DocumentPage[]> {
  const row = await requireDocument(db, membership, id);
  let frames: PageFrame[];
  try {
    frames = await readFrames({ env, db, membership, row });
  } catch (error) {
    if (error instanceof PreviewError)
      throw new AppError('not_found', 'The pages of this file cannot be shown');
    throw error;
  }
  return frames.map((f, i) => ({
    number: i + 1,
    width: f.width,
    height: f.height,
    imageUrl: `/api/documents/${row.id}/pages/${i + 1}`,
  }));
}

/** The picture (PNG file path) of one page at the served width nearest above `width`. */
export async function getDocumentPageImage(
  db: Db,
  {
    env,
    membership,
    id,
    page,
    width,
  }: { env: Env; membership: Membership; id: string; page: number; width: number },
): Promise<string> {
  const row = await requireDocument(db, membership, id);
  const served = PAGE_IMAGE_WIDTHS.find((w) => w >= width) ?? PAGE_IMAGE_WIDTHS.at(-1)!;
  const dir = documentPreviewDir(env, row);
  const path = join(dir, `p${page}-w${served}.png`);
  const exists = await access(path).then(
    () => true,
    () => false,
  );
  if (exists) return path;
  const file = await getDocumentFile(db, { env, membership, id: row.id });
  try {
    const picture = await oneAtATime(async () =>
      renderPagePreview(new Uint8Array(await readFile(file.path)), page, served),
    );
    await mkdir(dir, { recursive: true });
    await writeAtomically(path, picture.png);
  } catch (error) {
    if (error instanceof PreviewError)
      throw error.code === 'no_page'
        ? new AppError('not_found', `This document has no page ${page}`)
        : new AppError('not_found', 'The pages of this file cannot be shown');
    throw error;
  }
  return path;
}
