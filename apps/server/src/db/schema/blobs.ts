import { customType, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** PostgreSQL `bytea`, as bytes in and out. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/**
 * Blobs shared by every API and worker process (uploads when DATABASE_URL is set): a blob is split into
 * 1 MiB chunks so no single value nears PostgreSQL's limits; chunk 0 existing means the blob is complete.
 * Used through `adapters/blobs/pg-blob-store.ts`.
 */
export const blobChunks = pgTable(
  'blob_chunks',
  {
    key: text('key').notNull(),
    chunk: integer('chunk').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.key, t.chunk] })],
);
