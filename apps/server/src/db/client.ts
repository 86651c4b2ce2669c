import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema/index.ts';

/** The Drizzle schema: every table of the one Postgres schema. */
export type Schema = typeof schema;

/**
 * A database or an open transaction: repositories accept either, so services decide transaction scope.
 * Both drivers share Drizzle's Postgres query builder, so code is written once for PGlite and PostgreSQL.
 */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** Which engine backs a `DbHandle`. */
export type DbKind = 'pglite' | 'postgres';

/** An open database plus what the migrator and shutdown need. */
export interface DbHandle {
  db: Db;
  kind: DbKind;
  /** The embedded PGlite instance (pg-boss's job queue shares it); undefined on PostgreSQL. */
  pglite?: PGlite;
  /** Runs `fn` with a dedicated connection holding a session-level lock (migrations). */
  withExclusiveSession<T>(lockKey: number, fn: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Where to connect: a PostgreSQL URL, or PGlite in a folder (or in memory when `pgliteDir` is undefined). */
export interface DbTarget {
  databaseUrl?: string | undefined;
  pgliteDir?: string | undefined;
  /** A PGlite data-dir dump (`dumpDataDir`) to start from instead of running initdb (tests). */
  pgliteTemplate?: Blob | undefined;
}

/** Opens the configured database: PostgreSQL when `DATABASE_URL` is set, else PGlite under DATA_DIR/db. */
export async function createDb(env: { databaseUrl: string | undefined; dataDir: string }): Promise<DbHandle> {
  return openDb({ databaseUrl: env.databaseUrl, pgliteDir: join(env.dataDir, 'db') });
}

/** Opens a database from an explicit target (tests use in-memory PGlite via `{}`). */
export async function openDb(target: DbTarget): Promise<DbHandle> {
  if (target.databaseUrl) return openPostgres(target.databaseUrl);
  return openPglite(target.pgliteDir, target.pgliteTemplate);
}

async function openPglite(dir: string | undefined, template?: Blob): Promise<DbHandle> {
  if (dir) await mkdir(dir, { recursive: true });
  const options = template ? { loadDataDir: template } : {};
  const client = dir ? new PGlite(dir, options) : new PGlite(options);
  await client.waitReady;
  yieldBeforeEachQuery(client);
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    // PGlite is one connection in one process: nothing else can race us, so no lock is needed.
    withExclusiveSession: (_lockKey, fn) => fn(db),
    close: () => client.close(),
  };
}

/**
 * PGlite's Postgres is WebAssembly on this thread: it answers a query synchronously and its promise settles as
 * a microtask, so a chain of queries (storing a read document, then rewriting its flow's sheet and registers)
 * ran back to back without letting one request in — ~150 ms of CPU in bench:hostile's run, and much longer
 * on a loaded machine. Each query first yields to the event loop, so requests are answered between queries.
 * A transaction stays whole: PGlite's own lock holds other queries back until it ends.
 */
function yieldBeforeEachQuery(client: PGlite): void {
  const execute = client.execProtocolStream.bind(client);
  client.execProtocolStream = async (...args) => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return execute(...args);
  };
}

async function openPostgres(url: string): Promise<DbHandle> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client erroring (e.g. the server restarting) must not crash the process.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async withExclusiveSession(lockKey, fn) {
      const client = await pool.connect();
      try {
        // Session-level advisory lock: concurrent starters queue here; each then sees what the first did.
        await client.query('SELECT pg_advisory_lock($1)', [lockKey]);
        try {
          return await fn(drizzlePg({ client, schema }) as unknown as Db);
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [lockKey]);
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`, which the erased `Db` type hides. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
