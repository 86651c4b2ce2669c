import { readdir } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createFreshPostgresDatabase, readTestDatabaseUrl } from '../test/test-db.ts';
import { type Db, openDb, queryRows } from './client.ts';
import { migrateDatabase, migrationsFolder } from './migrate.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Names of the tables in the public schema. */
async function listTables(db: Db): Promise<string[]> {
  const rows = await queryRows<{ table_name: string }>(
    db,
    sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
  );
  return rows.map((r) => r.table_name);
}

describe('migrations', () => {
  it('create every table from an empty database and are idempotent when applied again', async () => {
    // Not createTestDb(): on PGlite it restores an already-migrated template.
    const url = readTestDatabaseUrl();
    const fresh = url ? await createFreshPostgresDatabase(url) : undefined;
    if (fresh) cleanups.push(fresh.drop);
    const handle = await openDb({ databaseUrl: fresh?.url });
    cleanups.push(() => handle.close());
    expect(await listTables(handle.db)).toEqual([]);
    await migrateDatabase(handle);
    const t = { db: handle.db, handle };
    const before = await listTables(t.db);
    expect(before).toEqual(
      expect.arrayContaining([
        'users',
        'sessions',
        'accounts',
        'verifications',
        'rate_limits',
        'organizations',
        'memberships',
        'organization_gstins',
        'activities',
        'notifications',
        'interests',
        'flows',
        'runs',
        'documents',
        'vendors',
      ]),
    );
    await migrateDatabase(t.handle);
    await migrateDatabase(t.handle);
    expect(await listTables(t.db)).toEqual(before);
    const applied = await queryRows<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`,
    );
    expect(applied[0]?.n).toBeGreaterThan(0);
  });

  it.skipIf(!readTestDatabaseUrl())(
    'are safe when two processes migrate one PostgreSQL database at once',
    async () => {
      const fresh = await createFreshPostgresDatabase(readTestDatabaseUrl()!);
      cleanups.push(fresh.drop);
      const a = await openDb({ databaseUrl: fresh.url });
      const b = await openDb({ databaseUrl: fresh.url });
      cleanups.push(
        () => a.close(),
        () => b.close(),
      );
      await Promise.all([migrateDatabase(a), migrateDatabase(b)]);
      const applied = await queryRows<{ n: number }>(
        a.db,
        sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`,
      );
      const files = await readdir(migrationsFolder);
      expect(applied[0]?.n).toBe(files.filter((f) => f.endsWith('.sql')).length);
      expect(await listTables(b.db)).toContain('organizations');
    },
  );
});
