import { stat, utimes } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { FlowIoSchema, listDocumentSheetColumns, listLineSheetColumns } from '@bahi/contracts';
import { sql } from 'drizzle-orm';
import {
  type CreatedSpreadsheet,
  createGoogleSheetsSink,
  createOutputSpreadsheet,
  type SheetsWriteResult,
} from '../../adapters/sinks/google-sheets.ts';
import {
  createGoogleDriveSource,
  DRIVE_FILE_FIELDS,
  fetchDriveFile,
} from '../../adapters/sources/google-drive.ts';
import { parseDriveLink } from '../../adapters/sources/google-drive-link.ts';
import type { DocumentSource } from '../../adapters/sources/source.ts';
import { hashFile } from '../../adapters/sources/source.ts';
import type { Env } from '../../config/env.ts';
import { type Db, queryRows } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { FlowRow } from '../flows/flows.repo.ts';
import { IN_SHEET, loadSheetContent } from '../sheets/sheets.service.ts';
import { getDriveCacheDir, sweepBeforeDriveRun } from './drive-cache.ts';
import { openGoogleSession } from './google.service.ts';
import { readErrorStatus } from './google-api.ts';

// What flows use of Google: the Drive source, the output spreadsheet, and writing a flow's rows to it.
// Each is one call for the run processor / flows service, which pick them by `io.input.kind === 'drive'`
// and `io.output.kind === 'sheets'`.

/**
 * The Drive source of a flow (folder or file link), signed in as the flow's organisation. Downloads are
 * cached under DATA_DIR/google-drive/<org>/ so re-runs fetch only new or changed files; files unused for a
 * day are swept first (drive-cache.ts has the policy). Sub-folders are
 * walked when `options.includeSubfolders` says so, else when the flow's `io.input.includeSubfolders` does.
 */
export async function createFlowDriveSource(
  db: Db,
  env: Env,
  flow: Pick<FlowRow, 'organizationId'> & Partial<Pick<FlowRow, 'io'>>,
  url: string,
  options: { includeSubfolders?: boolean } = {},
): Promise<DocumentSource> {
  const link = parseDriveLink(url);
  const session = await openGoogleSession(db, env, flow.organizationId);
  await sweepBeforeDriveRun(db, env, flow.organizationId);
  const io = flow.io === undefined ? undefined : FlowIoSchema.safeParse(flow.io).data;
  const fromFlow = io?.input.kind === 'drive' ? io.input.includeSubfolders : undefined;
  return createGoogleDriveSource({
    drive: session.drive,
    link,
    cacheDir: getDriveCacheDir(env, flow.organizationId),
    maxBytes: env.flows.uploadMaxBytes,
    maxFiles: env.flows.maxFiles,
    includeSubfolders: options.includeSubfolders ?? fromFlow ?? false,
    call: (fn) => session.call(fn),
  });
}

/**
 * `POST /api/workflow/sheets/create` for a Google output: a new spreadsheet with the flow type's
 * "Documents" and "Line Items" tabs. Returns its id (the flow's `io.output.sheetId`) and link.
 */
export async function createFlowSpreadsheet(
  db: Db,
  env: Env,
  organizationId: string,
  input: { title: string; type: FlowRow['types'][number] },
): Promise<CreatedSpreadsheet> {
  const session = await openGoogleSession(db, env, organizationId);
  const type = input.type as Parameters<typeof listDocumentSheetColumns>[0];
  return createOutputSpreadsheet(
    session.sheets,
    {
      title: input.title,
      documentColumns: listDocumentSheetColumns(type),
      lineColumns: listLineSheetColumns(type),
    },
    (fn) => session.call(fn),
  );
}

/**
 * Brings the flow's Google sheet in line with its processed rows (keys: document id; document id + line
 * number; versions: a hash of the document's rows): new documents appended, re-processed ones replaced,
 * documents that failed on re-processing removed. Safe to call after every run and again after a crash:
 * the sheet's hidden key column is what decides, so nothing is appended twice or left stale.
 */
export async function writeFlowToGoogleSheet(db: Db, env: Env, flow: FlowRow): Promise<SheetsWriteResult> {
  const io = FlowIoSchema.parse(flow.io);
  if (io.output.kind !== 'sheets' || !io.output.sheetId)
    throw new Error('This flow has no Google sheet to write to');
  const content = await loadSheetContent(db, env, flow);
  // Documents that have no rows any more (a re-process that failed, a document a person removed, one held
  // back as a possible duplicate): their old rows leave the sheet. Pending ones keep theirs until their
  // outcome is stored.
  const failed = await queryRows<{ id: string }>(
    db,
    sql`select d.id from documents d where d.flow_id = ${flow.id} and d.organization_id = ${flow.organizationId}
        and d.status not in ('pending', 'processing') and not (${IN_SHEET})`,
  );
  const session = await openGoogleSession(db, env, flow.organizationId);
  const sink = createGoogleSheetsSink({
    sheets: session.sheets,
    spreadsheetId: io.output.sheetId,
    call: (fn) => session.call(fn),
    callOnce: (fn) => session.call(fn, { retryServerErrors: false }),
    // Each row carries its document's id (and a line its number), so keys never depend on row order.
    keyOf: (tab, row) =>
      tab === 'documents' ? String(row.documentId) : `${String(row.documentId)}#${Number(row.lineNo)}`,
  });
  return sink.writeRows(content, { removeGroups: failed.map((r) => r.id) });
}

/** The parts of a document row that locate its Drive file. */
export interface DriveDocumentRef {
  organizationId: string;
  /** The Drive file id. */
  sourceId: string;
  sourcePath: string | null;
  /** sha256 of the bytes the document was read from. */
  contentHash: string;
}

/**
 * The local path of a Drive document's file: the cached copy when it is still there, else downloaded again
 * by Drive file id (after a sweep, or on a worker machine that did not scan it). Refuses when Drive now
 * holds different content than the document was read from: that is a new document for the next run, not
 * this one's bytes.
 */
export async function locateDriveDocumentFile(db: Db, env: Env, doc: DriveDocumentRef): Promise<string> {
  const dir = resolve(getDriveCacheDir(env, doc.organizationId));
  if (doc.sourcePath) {
    const path = resolve(doc.sourcePath);
    const info = path.startsWith(`${dir}${sep}`) ? await stat(path).catch(() => null) : null;
    const now = new Date();
    // Used now: the sweep keeps it another retention period.
    if (
      info?.isFile() &&
      (await utimes(path, now, now).then(
        () => true,
        () => false,
      ))
    )
      return path;
  }
  const session = await openGoogleSession(db, env, doc.organizationId);
  const meta = await session
    .call(() =>
      session.drive.files.get({ fileId: doc.sourceId, fields: DRIVE_FILE_FIELDS, supportsAllDrives: true }),
    )
    .catch((error: unknown) => {
      if (readErrorStatus(error) === 404)
        throw new AppError(
          'not_found',
          'This file is no longer on Google Drive (or no longer shared with Bahi)',
        );
      throw error;
    });
  if (meta.data.trashed)
    throw new AppError('not_found', 'This file was deleted from Google Drive; it can no longer be read');
  const path = await fetchDriveFile(
    {
      drive: session.drive,
      cacheDir: dir,
      maxBytes: env.flows.uploadMaxBytes,
      call: (fn) => session.call(fn),
    },
    meta.data,
  );
  if ((await hashFile(path)) !== doc.contentHash) {
    throw new AppError(
      'conflict',
      'The file changed on Google Drive since this document was read; run the flow to read the new version',
    );
  }
  return path;
}
