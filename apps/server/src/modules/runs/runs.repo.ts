import type { RunErrorCode } from '@bahi/contracts';
import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type RunSource, runs, type StoredRunCounts } from '../../db/schema/index.ts';

export type { RunSource, StoredRunCounts } from '../../db/schema/index.ts';

/** One stored run row (its `source`, `counts` and `skipped` typed by the schema). */
export type RunRow = typeof runs.$inferSelect;

/** True for Postgres unique violations, however the driver wraps them. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === '23505') return true;
  }
  return false;
}

/** Inserts a queued run; throws a unique violation when the flow already has a queued/running run. */
export async function insertRun(
  db: Db,
  values: { flowId: string; organizationId: string; startedByUserId: string | null; source: RunSource },
): Promise<RunRow> {
  const [row] = await db
    .insert(runs)
    .values({ ...values, status: 'queued' })
    .returning();
  return row!;
}

/** A run of the organisation, or undefined. */
export async function findRun(db: Db, organizationId: string, runId: string): Promise<RunRow | undefined> {
  const [row] = await db
    .select()
    .from(runs)
    .where(and(eq(runs.organizationId, organizationId), eq(runs.id, runId)));
  return row;
}

/** A run by id alone (job handlers). */
export async function findRunById(db: Db, runId: string): Promise<RunRow | undefined> {
  const [row] = await db.select().from(runs).where(eq(runs.id, runId));
  return row;
}

/** Runs by id alone, in one query (the progress hub's poll of every watched run). */
export async function findRunsByIds(db: Db, runIds: string[]): Promise<RunRow[]> {
  if (runIds.length === 0) return [];
  return db.select().from(runs).where(inArray(runs.id, runIds));
}

/** A flow's runs, newest first. */
export async function listRunRows(db: Db, flowId: string, limit: number): Promise<RunRow[]> {
  return db
    .select()
    .from(runs)
    .where(eq(runs.flowId, flowId))
    .orderBy(desc(runs.startedAt), desc(runs.id))
    .limit(limit);
}

/** How long a lease lives without a heartbeat before another worker may take the run over. */
export const LEASE_SECONDS = 90;

/**
 * Takes the run's lease for `workerId` if the run is unfinished and nobody live holds it (no owner, the same
 * owner, or an owner whose heartbeat lapsed). Returns the run when taken. This is what makes a re-delivered
 * or duplicated job harmless: only one handler at a time gets past it.
 */
export async function acquireRunLease(
  db: Db,
  {
    runId,
    workerId,
    leaseSeconds = LEASE_SECONDS,
  }: { runId: string; workerId: string; leaseSeconds?: number },
): Promise<RunRow | undefined> {
  const [row] = await db
    .update(runs)
    .set({
      leaseOwner: workerId,
      heartbeatAt: sql`now()`,
      status: 'running',
      attempts: sql`${runs.attempts} + 1`,
    })
    .where(
      and(
        eq(runs.id, runId),
        inArray(runs.status, ['queued', 'running']),
        or(
          isNull(runs.leaseOwner),
          eq(runs.leaseOwner, workerId),
          lt(runs.heartbeatAt, sql`now() - make_interval(secs => ${leaseSeconds})`),
        ),
      ),
    )
    .returning();
  return row;
}

/** Proves the lease holder alive and records progress; false when the lease was lost. */
export async function heartbeatRun(
  db: Db,
  { runId, workerId, currentFile }: { runId: string; workerId: string; currentFile?: string | null },
): Promise<boolean> {
  const set: Record<string, unknown> = { heartbeatAt: sql`now()` };
  if (currentFile !== undefined) set.currentFile = currentFile;
  const rows = await db
    .update(runs)
    .set(set)
    .where(and(eq(runs.id, runId), eq(runs.leaseOwner, workerId)))
    .returning({ id: runs.id });
  return rows.length > 0;
}

/**
 * Shows `fileName` as the file the running run is working on. Any participant may write it (helpers hold no
 * run lease); a finished run is left alone.
 */
export async function noteRunCurrentFile(db: Db, runId: string, fileName: string): Promise<void> {
  await db
    .update(runs)
    .set({ currentFile: fileName })
    .where(and(eq(runs.id, runId), eq(runs.status, 'running')));
}

/** Stores scan results (skipped files, scan counters) under the lease. */
export async function saveRunScan(
  db: Db,
  {
    runId,
    workerId,
    counts,
    skipped,
  }: { runId: string; workerId: string; counts: StoredRunCounts; skipped: RunRow['skipped'] },
): Promise<void> {
  await db
    .update(runs)
    .set({ counts, skipped })
    .where(and(eq(runs.id, runId), eq(runs.leaseOwner, workerId)));
}

/** Ends a run (only the lease holder can); returns the finished row or undefined if the lease was lost. */
export async function finishRun(
  db: Db,
  {
    runId,
    workerId,
    values,
  }: {
    runId: string;
    workerId: string;
    values: {
      status: 'succeeded' | 'failed';
      counts: StoredRunCounts;
      errorCode?: RunErrorCode | null;
      errorMessage?: string | null;
    };
  },
): Promise<RunRow | undefined> {
  const [row] = await db
    .update(runs)
    .set({
      status: values.status,
      counts: values.counts,
      errorCode: values.errorCode ?? null,
      errorMessage: values.errorMessage ?? null,
      finishedAt: sql`now()`,
      currentFile: null,
      leaseOwner: null,
    })
    .where(
      and(eq(runs.id, runId), eq(runs.leaseOwner, workerId), inArray(runs.status, ['queued', 'running'])),
    )
    .returning();
  return row;
}

/** Gives the lease back (shutdown) so another worker can resume the run without waiting for it to lapse. */
export async function releaseRunLease(db: Db, runId: string, workerId: string): Promise<void> {
  await db
    .update(runs)
    .set({ leaseOwner: null, heartbeatAt: sql`now() - interval '1 hour'` })
    .where(and(eq(runs.id, runId), eq(runs.leaseOwner, workerId)));
}

/** Unfinished runs, for recovery: all of them, or only those whose lease lapsed. */
export async function listUnfinishedRuns(
  db: Db,
  onlyStale: boolean,
  leaseSeconds = LEASE_SECONDS,
): Promise<RunRow[]> {
  const unfinished = inArray(runs.status, ['queued', 'running']);
  // A queued run nobody picked up for minutes lost its job; a running one whose heartbeat lapsed lost its worker.
  const stale = or(
    and(isNull(runs.heartbeatAt), lt(runs.startedAt, sql`now() - interval '5 minutes'`)),
    lt(runs.heartbeatAt, sql`now() - make_interval(secs => ${leaseSeconds})`),
  );
  return db
    .select()
    .from(runs)
    .where(onlyStale ? and(unfinished, stale) : unfinished);
}

/** Drops every lease (embedded mode start-up: this process is the only one using the database). */
export async function clearRunLeases(db: Db): Promise<void> {
  await db
    .update(runs)
    .set({ leaseOwner: null })
    .where(inArray(runs.status, ['queued', 'running']));
}
