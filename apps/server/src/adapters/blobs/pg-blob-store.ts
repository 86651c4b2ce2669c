import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { assertBlobKey, type BlobStore } from './blob-store.ts';

/** Bytes per row: large documents become several rows, so no single value nears PostgreSQL's 1 GB limit
 * and a read never needs one huge buffer from the driver. */
export const BLOB_CHUNK_BYTES = 1024 * 1024;

/**
 * Blobs in the database (`blob_chunks`, created by the committed migrations: key, chunk number, bytea), so every API and worker process on any
 * machine reads what any other stored — nothing but DATABASE_URL to share. A put writes all chunks in one
 * transaction: chunk 0 existing means the blob is complete.
 */
export function createPgBlobStore(db: Db): BlobStore {
  return {
    kind: 'database',
    async put(key, bytes) {
      assertBlobKey(key);
      await db.transaction(async (tx) => {
        // Content-addressed keys: an existing blob already holds these bytes.
        const existing = await queryRows<{ one: number }>(
          tx,
          sql`select 1 as one from blob_chunks where key = ${key} and chunk = 0`,
        );
        if (existing.length > 0) return;
        const count = Math.max(1, Math.ceil(bytes.byteLength / BLOB_CHUNK_BYTES));
        for (let i = 0; i < count; i++) {
          const part = Buffer.from(
            bytes.buffer,
            bytes.byteOffset + i * BLOB_CHUNK_BYTES,
            Math.min(BLOB_CHUNK_BYTES, bytes.byteLength - i * BLOB_CHUNK_BYTES),
          );
          // A concurrent put of the same key loses the primary-key race harmlessly.
          await tx.execute(
            sql`insert into blob_chunks (key, chunk, data) values (${key}, ${i}, ${part}) on conflict do nothing`,
          );
        }
      });
    },
    async get(key) {
      assertBlobKey(key);
      const rows = await queryRows<{ data: Uint8Array }>(
        db,
        sql`select data from blob_chunks where key = ${key} order by chunk`,
      );
      if (rows.length === 0) return undefined;
      const parts = rows.map((r) => (r.data instanceof Uint8Array ? r.data : new Uint8Array(r.data)));
      const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
      let offset = 0;
      for (const part of parts) {
        out.set(part, offset);
        offset += part.byteLength;
      }
      return out;
    },
    async delete(key) {
      assertBlobKey(key);
      await db.execute(sql`delete from blob_chunks where key = ${key}`);
    },
  };
}
