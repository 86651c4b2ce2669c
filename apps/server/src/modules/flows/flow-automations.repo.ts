import { type FlowTrigger, FlowTriggerSchema } from '@bahi/contracts';
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { flowAutomations } from '../../db/schema/index.ts';

/** One flow's automation row. */
export type FlowAutomationRow = typeof flowAutomations.$inferSelect;

/** The stored trigger, parsed (a damaged one reads as manual: a flow never runs by itself by mistake). */
export function parseTrigger(row: FlowAutomationRow | undefined): FlowTrigger {
  return FlowTriggerSchema.catch({ kind: 'manual' }).parse(row?.trigger ?? { kind: 'manual' });
}

/** Sets a flow's trigger and its next run (a changed trigger forgets the old next run and back-off). */
export async function upsertFlowTrigger(
  db: Db,
  values: { organizationId: string; flowId: string; trigger: FlowTrigger; nextRunAt: Date | null },
): Promise<void> {
  await db
    .insert(flowAutomations)
    .values(values)
    .onConflictDoUpdate({
      target: flowAutomations.flowId,
      set: { trigger: values.trigger, nextRunAt: values.nextRunAt, retryAt: null, failures: 0 },
    });
}

/** The automation rows of some of an organisation's flows. */
export async function listFlowAutomations(
  db: Db,
  organizationId: string,
  flowIds: string[],
): Promise<Map<string, FlowAutomationRow>> {
  if (flowIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(flowAutomations)
    .where(and(eq(flowAutomations.organizationId, organizationId), inArray(flowAutomations.flowId, flowIds)));
  return new Map(rows.map((row) => [row.flowId, row]));
}

/**
 * Every automation the tick should look at now, across organisations (a job: no caller to scope by):
 * scheduled ones that are due, and on-arrival ones not backing off.
 */
export async function listDueAutomations(db: Db, now: Date): Promise<FlowAutomationRow[]> {
  return db
    .select()
    .from(flowAutomations)
    .where(
      or(
        lte(flowAutomations.nextRunAt, now),
        and(
          sql`${flowAutomations.trigger}->>'kind' = 'arrival'`,
          or(isNull(flowAutomations.retryAt), lte(flowAutomations.retryAt, now)),
        ),
      ),
    );
}

/**
 * Moves a due schedule on to its next occurrence, only if no other process did it first: the caller that
 * gets true owns this occurrence and starts its run.
 */
export async function claimOccurrence(
  db: Db,
  row: { flowId: string; nextRunAt: Date },
  next: Date | null,
): Promise<boolean> {
  const moved = await db
    .update(flowAutomations)
    .set({ nextRunAt: next })
    .where(and(eq(flowAutomations.flowId, row.flowId), eq(flowAutomations.nextRunAt, row.nextRunAt)))
    .returning({ flowId: flowAutomations.flowId });
  return moved.length > 0;
}

/** Records what a watched source now holds, only if nobody recorded it first (true = this caller did). */
export async function claimWatchMark(
  db: Db,
  row: { flowId: string; watchMark: string | null },
  mark: string,
): Promise<boolean> {
  const moved = await db
    .update(flowAutomations)
    .set({ watchMark: mark })
    .where(
      and(
        eq(flowAutomations.flowId, row.flowId),
        row.watchMark === null
          ? isNull(flowAutomations.watchMark)
          : eq(flowAutomations.watchMark, row.watchMark),
      ),
    )
    .returning({ flowId: flowAutomations.flowId });
  return moved.length > 0;
}

/** Records a source failure and when to try again; returns the failures in a row, this one counted. */
export async function recordSourceFailure(
  db: Db,
  flowId: string,
  failure: { message: string; retryAt: (failures: number) => Date },
): Promise<number> {
  const [row] = await db
    .update(flowAutomations)
    .set({ sourceError: failure.message, failures: sql`${flowAutomations.failures} + 1` })
    .where(eq(flowAutomations.flowId, flowId))
    .returning({ failures: flowAutomations.failures });
  const failures = row?.failures ?? 1;
  await db
    .update(flowAutomations)
    .set({ retryAt: failure.retryAt(failures) })
    .where(eq(flowAutomations.flowId, flowId));
  return failures;
}

/** Clears a source's failure once it works again. */
export async function clearSourceFailure(db: Db, flowId: string): Promise<void> {
  await db
    .update(flowAutomations)
    .set({ sourceError: null, failures: 0, retryAt: null })
    .where(and(eq(flowAutomations.flowId, flowId), sql`${flowAutomations.failures} > 0`));
}

/**
 * Moves an organisation's "daily at a time" schedules to `timeZone` (the organisation changed its zone):
 * each keeps its HH:MM, read on the new zone's clock, and its next run is counted again from `now`.
 */
export async function rezoneDailyTriggers(
  db: Db,
  organizationId: string,
  timeZone: string,
  nextRun: (trigger: FlowTrigger) => Date | null,
): Promise<number> {
  const rows = await db
    .select()
    .from(flowAutomations)
    .where(
      and(
        eq(flowAutomations.organizationId, organizationId),
        sql`${flowAutomations.trigger}->>'kind' = 'daily'`,
      ),
    );
  for (const row of rows) {
    const trigger = parseTrigger(row);
    if (trigger.kind !== 'daily') continue;
    const moved = { ...trigger, timeZone };
    await db
      .update(flowAutomations)
      .set({ trigger: moved, nextRunAt: nextRun(moved) })
      .where(and(eq(flowAutomations.organizationId, organizationId), eq(flowAutomations.flowId, row.flowId)));
  }
  return rows.length;
}
