import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, openDb, queryRows } from './client.ts';

let handle: DbHandle;

beforeAll(async () => {
  handle = await openDb({});
});

afterAll(async () => {
  await handle?.close();
});

describe('embedded database (PGlite)', () => {
  it('lets other work in between the queries of a chain instead of holding the event loop for all of them', async () => {
    // Turns of the event loop while 200 queries run one after another (as storing a document and
    // rewriting its sheet does): one per loop iteration, however loaded the machine.
    let turns = 0;
    let counting = true;
    const tick = () => {
      if (!counting) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    let total = 0;
    for (let i = 0; i < 200; i++)
      total += (await queryRows<{ n: number }>(handle.db, sql`select ${i}::int as n`))[0]!.n;
    counting = false;
    expect(total).toBe((199 * 200) / 2);
    // Each query answered synchronously and settled as a microtask: no turn in 200 queries.
    expect(turns).toBeGreaterThanOrEqual(200);
  });

  it('keeps a transaction whole while requests are served between its queries', async () => {
    await handle.db.execute(sql`create table if not exists tally (n int)`);
    const inside = handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into tally values (1)`);
      await tx.execute(sql`insert into tally values (2)`);
      throw new Error('undo');
    });
    // A query from another request, started while the transaction runs, sees none of its rows.
    const outside = queryRows<{ c: number }>(handle.db, sql`select count(*)::int as c from tally`);
    await expect(inside).rejects.toThrow('undo');
    expect((await outside)[0]!.c).toBe(0);
    expect((await queryRows<{ c: number }>(handle.db, sql`select count(*)::int as c from tally`))[0]!.c).toBe(
      0,
    );
  });
});
