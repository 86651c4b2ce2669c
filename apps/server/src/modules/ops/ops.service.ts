import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';

/** pg-boss's schema (its default); the queue lives in the app's own database. */
const QUEUE_SCHEMA = 'pgboss';
/** A check that has not answered by then counts as failed: a hung database must not hang /readyz. */
const CHECK_TIMEOUT_MS = 3000;

/** Outcome of one readiness check. */
export interface CheckResult {
  ok: boolean;
  ms: number;
  error?: string;
}

/** What `/readyz` answers: ready only when every dependency answered. */
export interface Readiness {
  ok: boolean;
  checks: { database: CheckResult; queue: CheckResult };
}

async function timeCheck(fn: () => Promise<unknown>): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, ms: Math.round(performance.now() - started), error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks the database (a round trip) and the job queue (pg-boss's tables answer, i.e. its schema is
 * installed and reachable) in parallel.
 */
export async function checkReadiness(db: Db): Promise<Readiness> {
  const [database, queue] = await Promise.all([
    timeCheck(() => db.execute(sql`select 1`)),
    timeCheck(() => db.execute(sql.raw(`select 1 from ${QUEUE_SCHEMA}.queue limit 1`))),
  ]);
  return { ok: database.ok && queue.ok, checks: { database, queue } };
}

/** Unfinished jobs per queue and state, counted from pg-boss's job table (its cached counters can lag). */
export async function readQueueDepth(
  db: Db,
): Promise<Array<{ queue: string; state: string; count: number }>> {
  const rows = await queryRows<{ queue: string; state: string; count: number | string }>(
    db,
    sql.raw(
      `select name as queue, state::text as state, count(*)::int as count from ${QUEUE_SCHEMA}.job
       where state < 'completed' group by name, state`,
    ),
  );
  return rows.map((r) => ({ queue: r.queue, state: r.state, count: Number(r.count) }));
}
