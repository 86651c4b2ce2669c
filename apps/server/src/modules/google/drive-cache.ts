import { readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Env } from '../../config/env.ts';
import { type Db, queryRows } from '../../db/client.ts';

// Downloaded Drive files are a working cache, never the record: Drive is. The policy:
// - a file is kept while a document still waits for extraction from it (pending / processing), and for
//   DRIVE_CACHE_RETENTION_MS after it was last used (downloaded, or found in the cache by a scan, a
//   re-process or the document view), so a reviewer opening the day's documents reads them locally;
// - older files are swept: when a Drive run of the organisation starts, and by `sweepDriveCaches` (start-up,
//   periodically); abandoned partial downloads (*.part) go after an hour;
// - disconnecting Google deletes the organisation's whole cache;
// - whatever needs a swept file later (a re-process, a retry, a helper worker on another machine, the
//   document view) downloads it again by Drive file id — refusing when Drive now holds other content than
//   the document was read from (`locateDriveDocumentFile` in drive-source.ts).

/** How long a downloaded Drive file is kept after its last use. */
export const DRIVE_CACHE_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Partial downloads older than this were abandoned (a killed process): a live one is minutes old at most. */
const PARTIAL_DOWNLOAD_MAX_AGE_MS = 60 * 60 * 1000;

/** Where an organisation's downloaded Drive files are kept: DATA_DIR/google-drive/<org>/. */
export function getDriveCacheDir(env: Env, organizationId: string): string {
  return join(env.dataDir, 'google-drive', organizationId);
}

/** What a sweep did. */
export interface DriveCacheSweep {
  deleted: number;
  kept: number;
}

/** Options of a sweep (tests pass the clock). */
export interface DriveCacheSweepOptions {
  retentionMs?: number;
  now?: number;
}

/** Cache files of the organisation that documents still wait to be extracted from. */
async function listFilesInUse(db: Db, organizationId: string): Promise<Set<string>> {
  const rows = await queryRows<{ source_path: string }>(
    db,
    sql`select source_path from documents
         where organization_id = ${organizationId} and source_kind = 'drive'
           and status in ('pending', 'processing') and source_path is not null`,
  );
  return new Set(rows.map((r) => resolve(r.source_path)));
}

/**
 * Deletes the organisation's cached Drive files not used for `retentionMs` and not awaiting extraction,
 * and abandoned partial downloads. Never throws for a file that vanished meanwhile (another sweep).
 */
export async function sweepDriveCache(
  db: Db,
  {
    env,
    organizationId,
    options = {},
  }: { env: Env; organizationId: string; options?: DriveCacheSweepOptions },
): Promise<DriveCacheSweep> {
  const dir = getDriveCacheDir(env, organizationId);
  const names = await readdir(dir).catch(() => [] as string[]);
  const result: DriveCacheSweep = { deleted: 0, kept: 0 };
  if (names.length === 0) return result;
  const now = options.now ?? Date.now();
  const retention = options.retentionMs ?? DRIVE_CACHE_RETENTION_MS;
  const inUse = await listFilesInUse(db, organizationId);
  for (const name of names) {
    const path = resolve(dir, name);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) continue;
    const age = now - info.mtimeMs;
    const expired = name.endsWith('.part')
      ? age > PARTIAL_DOWNLOAD_MAX_AGE_MS
      : age > retention && !inUse.has(path);
    if (!expired) {
      result.kept++;
      continue;
    }
    await rm(path, { force: true });
    result.deleted++;
  }
  return result;
}

/** Sweeps every organisation's Drive cache (start-up, and periodically in long-running processes). */
export async function sweepDriveCaches(
  db: Db,
  env: Env,
  options: DriveCacheSweepOptions = {},
): Promise<DriveCacheSweep> {
  const total: DriveCacheSweep = { deleted: 0, kept: 0 };
  const orgs = await readdir(join(env.dataDir, 'google-drive')).catch(() => [] as string[]);
  for (const org of orgs) {
    // Directory names are organisation ids (uuids); anything else is not Bahi's to touch.
    if (!/^[0-9a-f-]{36}$/i.test(org)) continue;
    const swept = await sweepDriveCache(db, { env, organizationId: org, options });
    total.deleted += swept.deleted;
    total.kept += swept.kept;
  }
  return total;
}

/** How often one process sweeps every organisation's cache (the organisation's own is swept every run). */
const SWEEP_ALL_EVERY_MS = 60 * 60 * 1000;
let lastSweepAll = 0;

/**
 * The sweep a Drive run does before listing: its organisation's cache, and every organisation's at most
 * once an hour per process (so the caches of organisations that stopped running flows empty too, with no
 * scheduler to set up). Cleaning never fails or delays a run: errors are ignored, the next sweep retries.
 */
export async function sweepBeforeDriveRun(db: Db, env: Env, organizationId: string): Promise<void> {
  try {
    if (Date.now() - lastSweepAll > SWEEP_ALL_EVERY_MS) {
      lastSweepAll = Date.now();
      await sweepDriveCaches(db, env);
    } else {
      await sweepDriveCache(db, { env, organizationId });
    }
  } catch {
    // Best effort by design (see above).
  }
}

/** Deletes an organisation's whole Drive cache (Google disconnected: Bahi keeps none of its files). */
export async function clearDriveCache(env: Env, organizationId: string): Promise<void> {
  await rm(getDriveCacheDir(env, organizationId), { recursive: true, force: true });
}
