import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../db/client.ts';
import { migrateDatabase, migrationsFolder } from '../db/migrate.ts';

let cached: Promise<Blob> | undefined;

/** Fingerprint of the migrations (and PGlite build), so a changed schema never reuses a stale template. */
async function fingerprintMigrations(): Promise<string> {
  const hash = createHash('sha256');
  const files = (await readdir(migrationsFolder)).filter((f) => f.endsWith('.sql')).sort();
  for (const file of files) hash.update(file).update(await readFile(join(migrationsFolder, file)));
  // The package's main entry is dist/index.js; its package.json (with the version) sits one level up.
  const pglite = await readFile(new URL('../package.json', import.meta.resolve('@electric-sql/pglite')));
  hash.update(pglite);
  return hash.digest('hex').slice(0, 16);
}

/**
 * A dump of a freshly migrated PGlite database, built once per machine and schema and kept in the temp
 * folder. PGlite's initdb costs seconds of CPU per database; restoring this dump skips it, which keeps
 * a suite that opens many databases fast. Concurrent builders are harmless: each writes a temp file and
 * renames it into place.
 */
export function loadPgliteTemplate(): Promise<Blob> {
  cached ??= (async () => {
    const file = join(tmpdir(), `bahi-pglite-template-${await fingerprintMigrations()}.tar.gz`);
    try {
      return new Blob([await readFile(file)]);
    } catch {
      // Not built yet on this machine: build it below.
    }
    const handle = await openDb({});
    try {
      await migrateDatabase(handle);
      const dump = await handle.pglite!.dumpDataDir('gzip');
      const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
      await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
      await rename(partial, file);
      return dump;
    } finally {
      await handle.close();
    }
  })();
  return cached;
}
