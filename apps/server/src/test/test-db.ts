import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Db, type DbHandle, openDb } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
// Every DB test reaches services, which reach sources and sinks: installed as the server installs them.
import '../io-wiring.ts';
import { loadPgliteTemplate } from './pglite-template.ts';

/** A migrated database for one test file, and how to throw it away. */
export interface TestDb {
  db: Db;
  handle: DbHandle;
  /** URL of the fresh PostgreSQL database, or undefined on PGlite. */
  databaseUrl: string | undefined;
  close(): Promise<void>;
}

/** The server URL the suite runs against, or undefined for PGlite (the only place tests read env). */
export function readTestDatabaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

/**
 * Creates a fresh, empty PostgreSQL database on the server named by `baseUrl` (so parallel test files
 * never collide) and returns its URL and a function that drops it.
 */
export async function createFreshPostgresDatabase(
  baseUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bahi_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A migrated database: PGlite in memory when DATABASE_URL is unset, else a fresh PostgreSQL database
 * created for this call and dropped on close.
 */
export async function createTestDb(): Promise<TestDb> {
  const baseUrl = readTestDatabaseUrl();
  if (!baseUrl) {
    const handle = await openDb({ pgliteTemplate: await loadPgliteTemplate() });
    await migrateDatabase(handle);
    return { db: handle.db, handle, databaseUrl: undefined, close: () => handle.close() };
  }
  const fresh = await createFreshPostgresDatabase(baseUrl);
  const handle = await openDb({ databaseUrl: fresh.url });
  await migrateDatabase(handle);
  return {
    db: handle.db,
    handle,
    databaseUrl: fresh.url,
    async close() {
      await handle.close();
      await fresh.drop();
    },
  };
}
