import { stat, utimes } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { flowMessages } from '@bahi/contracts';
import {
  createGoogleDriveSource,
  DRIVE_FILE_FIELDS,
  driveFileVersion,
  explainUnsupportedDriveFile,
  fetchDriveFile,
  listDriveFolder,
} from '../../adapters/sources/google-drive.ts';
import { parseDriveLink } from '../../adapters/sources/google-drive-link.ts';
import {
  type DocumentSource,
  hashBytes,
  hashFile,
  type SourceAdapter,
  type SourceContext,
  type SourceDocument,
} from '../../adapters/sources/source.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { getDriveCacheDir, sweepBeforeDriveRun } from './drive-cache.ts';
import { listTakenDriveSourcePaths } from './google.repo.ts';
import { openGoogleSession, requireGoogleConnected } from './google.service.ts';
import { isGoogleConfigured, readErrorStatus } from './google-api.ts';

// The `drive` source kind: a Google Drive folder or file link read as the flow's organisation. It lives
// here rather than in adapters/sources/google-drive.ts (the Drive API listing and downloads) because it
// needs the organisation's Google session and Drive cache.

/**
 * The Drive source of a flow (folder or file link), signed in as the flow's organisation. Downloads are
 * cached under DATA_DIR/google-drive/<org>/ so re-runs fetch only new or changed files; files unused for a
 * day are swept first (drive-cache.ts has the policy). Sub-folders are walked when `includeSubfolders` says
 * so (the flow's `io.input.includeSubfolders`).
 */
export async function createFlowDriveSource(
  ctx: SourceContext,
  source: { organizationId: string; url: string; includeSubfolders?: boolean | undefined },
): Promise<DocumentSource> {
  const link = parseDriveLink(source.url);
  const session = await openGoogleSession(ctx.db, ctx.env, source.organizationId);
  await sweepBeforeDriveRun(ctx.db, ctx.env, source.organizationId);
  return createGoogleDriveSource({
    drive: session.drive,
    link,
    cacheDir: getDriveCacheDir(ctx.env, source.organizationId),
    maxBytes: ctx.env.flows.uploadMaxBytes,
    maxFiles: ctx.env.flows.maxFiles,
    includeSubfolders: source.includeSubfolders ?? false,
    call: (fn) => session.call(fn),
  });
}

/** The parts of a document row that locate its Drive file. */
export type DriveDocumentRef = Pick<
  SourceDocument,
  'organizationId' | 'sourceId' | 'sourcePath' | 'contentHash'
>;

/**
 * The local path of a Drive document's file: the cached copy of the version it was read from when this
 * machine has it, else downloaded again by Drive file id (after a sweep, or on a worker machine that did not
 * scan it) and hashed as it streams. Refuses when Drive now holds different content than the document was
 * read from: that is a new document for the next run, not this one's bytes.
 */
export async function locateDriveDocumentFile(db: Db, env: Env, doc: DriveDocumentRef): Promise<string> {
  const dir = resolve(getDriveCacheDir(env, doc.organizationId));
  if (doc.sourcePath) {
    // Cache files are named by Drive id and content version, so the same name here is the same bytes, also
    // when the scan ran on another machine.
    const path = join(dir, basename(doc.sourcePath));
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
  const fetched = await fetchDriveFile(
    {
      drive: session.drive,
      cacheDir: dir,
      maxBytes: env.flows.uploadMaxBytes,
      call: (fn) => session.call(fn),
    },
    meta.data,
  );
  // A fresh download was hashed as it streamed; only a copy another caller cached meanwhile is read to hash.
  if ((fetched.sha256 ?? (await hashFile(fetched.path))) !== doc.contentHash) {
    throw new AppError(
      'conflict',
      'The file changed on Google Drive since this document was read; run the flow to read the new version',
    );
  }
  return fetched.path;
}

/**
 * What an on-arrival Drive flow has not taken yet: the folder's listing (metadata only, one `files.list`
 * page per thousand files, nothing downloaded) less the files whose current version is already a document
 * of the flow. Returns a fingerprint of those files (id and content version), or null when there are none:
 * a tick that finds only files already taken (or still being read by a run) starts nothing, and a file whose
 * content changes on Drive counts as new. Listing rather than a modified-time cursor: Drive lets uploaders
 * set a file's modifiedTime (sync clients keep the local one), so a new file can look older than the cursor.
 */
export async function watchDriveFolder(
  ctx: SourceContext,
  source: { organizationId: string; flowId: string; url: string; includeSubfolders?: boolean | undefined },
): Promise<string | null> {
  const link = parseDriveLink(source.url);
  const session = await openGoogleSession(ctx.db, ctx.env, source.organizationId);
  const options = {
    drive: session.drive,
    includeSubfolders: source.includeSubfolders ?? false,
    call: <T>(fn: () => Promise<T>) => session.call(fn),
  };
  const candidates = new Map<string, string>();
  const consider = (file: { id?: string | null } & Parameters<typeof driveFileVersion>[0]) => {
    if (file.id && !explainUnsupportedDriveFile(file, ctx.env.flows.uploadMaxBytes))
      candidates.set(file.id, driveFileVersion(file));
  };
  if (link.kind === 'file') {
    const res = await session.call(() =>
      session.drive.files.get({ fileId: link.id, fields: DRIVE_FILE_FIELDS, supportsAllDrives: true }),
    );
    if (!res.data.trashed) consider(res.data);
  } else {
    for await (const { file } of listDriveFolder(options, link.id)) consider(file);
  }
  const taken = new Set(
    (await listTakenDriveSourcePaths(ctx.db, source, [...candidates.keys()])).map((path) =>
      basename(path).replace(/\.[^.]*$/, ''),
    ),
  );
  const fresh = [...candidates.values()].filter((version) => !taken.has(version)).sort();
  if (fresh.length === 0) return null;
  return hashBytes(new TextEncoder().encode(fresh.join('\n')));
}

/**
 * The `drive` source kind. Saving a flow checks the link by the product's rule (and that this server can
 * talk to Google at all); a run also needs the organisation's Google connection (`google_auth_required`).
 */
export const driveSource: SourceAdapter = {
  async validate(ctx, { input, previous }) {
    parseDriveLink(input.url);
    // A new Drive source on a server without Google could never run; an unchanged one may still be renamed.
    const unchanged = previous?.kind === input.kind && previous.url.trim() === input.url;
    if (!unchanged && !isGoogleConfigured(ctx.env))
      throw new AppError('validation', flowMessages.googleNotConfigured, {
        url: flowMessages.googleNotConfigured,
      });
    return input;
  },
  async checkRunnable(ctx, { organizationId, input }) {
    parseDriveLink(input.url);
    await requireGoogleConnected(ctx.db, ctx.env, organizationId);
  },
  open: (ctx, { organizationId, input }) =>
    createFlowDriveSource(ctx, {
      organizationId,
      url: input.url,
      includeSubfolders: input.includeSubfolders,
    }),
  // The cache keeps files a day: older ones are downloaded again.
  locate: (ctx, doc) => locateDriveDocumentFile(ctx.db, ctx.env, doc),
  servedFrom: async (ctx, doc) => [getDriveCacheDir(ctx.env, doc.organizationId)],
  folderName: () => 'Google Drive folder',
  // On arrival: new files (or new versions) in the folder that the flow has not taken yet.
  watch: (ctx, { organizationId, flowId, input }) =>
    watchDriveFolder(ctx, {
      organizationId,
      flowId,
      url: input.url,
      includeSubfolders: input.includeSubfolders,
    }),
};
