import { and, count, desc, eq, gte, isNotNull, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type AuditEventRow, auditEvents } from '../../db/schema/index.ts';

/** What a new audit entry holds (the time and order are the database's). */
export interface NewAuditEvent {
  organizationId: string;
  kind: string;
  actorId: string | null;
  actorName: string;
  documentId?: string | null;
  summary: string;
  details?: Record<string, unknown>;
}

/** Appends one entry. The table takes inserts only (a trigger refuses UPDATE, DELETE and TRUNCATE). */
export async function insertAuditEvent(db: Db, event: NewAuditEvent): Promise<void> {
  await db.insert(auditEvents).values({
    organizationId: event.organizationId,
    kind: event.kind,
    actorId: event.actorId,
    actorName: event.actorName,
    documentId: event.documentId ?? null,
    summary: event.summary,
    details: event.details ?? {},
  });
}

/** Filters of a trail query; `from` inclusive, `before` exclusive. */
export interface AuditFilter {
  actorId?: string | undefined;
  kind?: string | undefined;
  documentId?: string | undefined;
  from?: Date | undefined;
  before?: Date | undefined;
}

function whereOf(organizationId: string, f: AuditFilter): SQL | undefined {
  return and(
    eq(auditEvents.organizationId, organizationId),
    f.actorId ? eq(auditEvents.actorId, f.actorId) : undefined,
    f.kind ? eq(auditEvents.kind, f.kind) : undefined,
    f.documentId ? eq(auditEvents.documentId, f.documentId) : undefined,
    f.from ? gte(auditEvents.at, f.from) : undefined,
    f.before ? lt(auditEvents.at, f.before) : undefined,
  );
}

/** A page of the organisation's trail, newest first, and how many entries match. */
export async function listAuditEvents(
  db: Db,
  organizationId: string,
  { filter, limit, offset }: { filter: AuditFilter; limit: number; offset: number },
): Promise<{ rows: AuditEventRow[]; total: number }> {
  const where = whereOf(organizationId, filter);
  const rows = await db
    .select()
    .from(auditEvents)
    .where(where)
    .orderBy(desc(auditEvents.at), desc(auditEvents.seq))
    .limit(limit)
    .offset(offset);
  const [counted] = await db.select({ n: count() }).from(auditEvents).where(where);
  return { rows, total: Number(counted?.n ?? 0) };
}

/** Everyone who appears in the organisation's trail (for the person filter), by name. */
export async function listAuditActors(
  db: Db,
  organizationId: string,
): Promise<Array<{ id: string; name: string }>> {
  const rows = await db
    .selectDistinctOn([auditEvents.actorId], { id: auditEvents.actorId, name: auditEvents.actorName })
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, organizationId), isNotNull(auditEvents.actorId)))
    .orderBy(auditEvents.actorId, desc(auditEvents.at));
  return rows.map((r) => ({ id: r.id as string, name: r.name })).sort((a, b) => a.name.localeCompare(b.name));
}
