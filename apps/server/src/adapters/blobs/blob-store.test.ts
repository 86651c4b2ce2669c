import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../db/client.ts';
import { createTestDb, readTestDatabaseUrl, type TestDb } from '../../test/test-db.ts';
import { assertBlobKey, type BlobStore, materializeBlob } from './blob-store.ts';
import { createLocalBlobStore } from './local-blob-store.ts';
import { BLOB_CHUNK_BYTES, createPgBlobStore } from './pg-blob-store.ts';

// Both stores behind one interface, on real files and a real database (PGlite; PostgreSQL when DATABASE_URL
// is set, where a second connection pool stands in for a worker on another machine).

let t: TestDb;
let dir: string;
beforeAll(async () => {
  t = await createTestDb();
  dir = await mkdtemp(join(tmpdir(), 'bahi-blobs-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const stores: Array<[string, () => BlobStore]> = [
  ['local', () => createLocalBlobStore(join(dir, 'local'))],
  ['database', () => createPgBlobStore(t.db)],
];

describe.each(stores)('%s blob store', (_name, makeStore) => {
  it('round-trips multi-chunk bytes, ignores a second put of the key, deletes', async () => {
    const store = makeStore();
    const bytes = new Uint8Array(randomBytes(BLOB_CHUNK_BYTES * 2 + 12345));
    const key = `org-1/flow-1/${randomBytes(8).toString('hex')}.pdf`;
    expect(await store.get(key)).toBeUndefined();
    await store.put(key, bytes);
    await store.put(key, new Uint8Array([1, 2, 3])); // content-addressed: the first bytes stay
    const back = await store.get(key);
    expect(back?.byteLength).toBe(bytes.byteLength);
    expect(Buffer.from(back!).equals(Buffer.from(bytes))).toBe(true);
    await store.delete(key);
    expect(await store.get(key)).toBeUndefined();
  });

  it('materialises a blob as a local file for the extraction pool, and refuses escaping keys', async () => {
    const store = makeStore();
    const key = 'org-2/flow-2/abc.pdf';
    await store.put(key, new TextEncoder().encode('%PDF-1.4 tiny'));
    const cache = join(dir, `cache-${store.kind}`);
    const path = await materializeBlob(store, key, cache);
    expect(path).toBe(join(cache, 'org-2', 'flow-2', 'abc.pdf'));
    expect(await readFile(path!, 'utf8')).toBe('%PDF-1.4 tiny');
    expect(await materializeBlob(store, 'org-2/flow-2/missing.pdf', cache)).toBeUndefined();
    await expect(store.put('../etc/passwd', new Uint8Array())).rejects.toThrow(/invalid blob key/);
    await expect(store.get('org/../../x')).rejects.toThrow(/invalid blob key/);
  });
});

describe('keys', () => {
  it('accepts content-addressed keys and refuses traversal, absolute paths and temp names', () => {
    expect(() => assertBlobKey('o/f/0123abcd.pdf')).not.toThrow();
    for (const bad of ['', '/abs', 'a//b', 'a/../b', '.hidden', 'a/b.tmp', 'a\\b']) {
      expect(() => assertBlobKey(bad), bad).toThrow();
    }
  });
});

describe.skipIf(!readTestDatabaseUrl())('database blob store across processes', () => {
  it('a blob put through one connection pool is read through another (another machine)', async () => {
    const other = await openDb({ databaseUrl: t.databaseUrl });
    try {
      const key = `org-3/flow-3/${randomBytes(8).toString('hex')}.pdf`;
      await createPgBlobStore(t.db).put(key, new TextEncoder().encode('shared bytes'));
      const read = await createPgBlobStore(other.db).get(key);
      expect(new TextDecoder().decode(read)).toBe('shared bytes');
    } finally {
      await other.close();
    }
  });
});
