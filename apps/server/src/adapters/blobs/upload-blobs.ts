import { readFile, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { materializeBlob } from './blob-store.ts';
import { createPgBlobStore } from './pg-blob-store.ts';

// Uploads are written to DATA_DIR/uploads/<org>/<flow>/<sha256>.<ext> by the API process that received them.
// On PostgreSQL (DATABASE_URL) that folder is one machine's, so the bytes are also put in the database and
// workers elsewhere read them from there. On the embedded default one process does everything: files only.

/** Blob key of a stored upload: its last three path segments (`<org>/<flow>/<sha256>.<ext>`). */
export function getUploadBlobKey(storedPath: string): string {
  return storedPath.split(/[\\/]/).slice(-3).join('/');
}

/** Folder where a process keeps uploads it fetched from the database. */
export function getUploadCacheDir(env: Pick<Env, 'dataDir'>): string {
  return join(env.dataDir, 'upload-cache');
}

/** After an upload is stored locally: with DATABASE_URL, also put its bytes in the database blob store. */
export async function shareUploadedFiles(
  db: Db,
  env: Pick<Env, 'databaseUrl'>,
  files: Array<{ storedPath: string }>,
): Promise<void> {
  if (!env.databaseUrl) return;
  const store = createPgBlobStore(db);
  for (const file of files)
    await store.put(getUploadBlobKey(file.storedPath), await readFile(file.storedPath));
}

/**
 * A path this process can read for a stored upload: the original when it is here (the uploading machine, or
 * the embedded default), else a copy fetched from the database into DATA_DIR/upload-cache. When neither has
 * it, the original path comes back and reading it fails as an unreadable file, as before.
 */
export async function locateUploadedFile(
  db: Db,
  env: Pick<Env, 'databaseUrl' | 'dataDir'>,
  storedPath: string,
): Promise<string> {
  if (!env.databaseUrl || (await stat(storedPath).catch(() => undefined))?.isFile()) return storedPath;
  const key = getUploadBlobKey(storedPath);
  if (key.split('/').length !== 3 || storedPath.includes(`${sep}..${sep}`)) return storedPath;
  return (await materializeBlob(createPgBlobStore(db), key, getUploadCacheDir(env))) ?? storedPath;
}
