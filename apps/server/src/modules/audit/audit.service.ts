import {
  AUDIT_KIND_LABELS,
  type AuditEvent,
  type AuditKind,
  type AuditPage,
  type AuditQuery,
} from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import type { AuditEventRow } from '../../db/schema/index.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { type AuditFilter, insertAuditEvent, listAuditActors, listAuditEvents } from './audit.repo.ts';

/** Entries per page of the Audit screen. */
export const AUDIT_PAGE_SIZE = 50;

/**
 * Records one entry of the audit trail. Call it with the transaction that makes the change, so the entry
 * and the change are kept or lost together. `actor` null is the system (a sign-in has no session yet).
 */
export async function recordAudit(
  db: Db,
  event: {
    organizationId: string;
    kind: AuditKind;
    actor: Pick<SessionUser, 'id' | 'name'> | null;
    documentId?: string | null;
    summary: string;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await insertAuditEvent(db, {
    organizationId: event.organizationId,
    kind: event.kind,
    actorId: event.actor?.id ?? null,
    actorName: event.actor?.name ?? 'Bahi',
    documentId: event.documentId ?? null,
    summary: event.summary,
    details: event.details ?? {},
  });
}

// A date on the Audit screen is a day in India, whatever the server's clock zone.
const IST = '+05:30';

function toFilter(query: AuditQuery): AuditFilter {
  const before = query.to ? new Date(`${query.to}T00:00:00${IST}`) : undefined;
  before?.setUTCDate(before.getUTCDate() + 1);
  return {
    actorId: query.actorId,
    kind: query.kind,
    documentId: query.documentId,
    from: query.from ? new Date(`${query.from}T00:00:00${IST}`) : undefined,
    before,
  };
}

function toAuditEvent(row: AuditEventRow): AuditEvent {
  return {
    id: row.id,
    at: row.at.toISOString(),
    kind: row.kind as AuditKind,
    actorId: row.actorId,
    actorName: row.actorName,
    documentId: row.documentId,
    summary: row.summary,
    details: (row.details ?? {}) as Record<string, unknown>,
  };
}

/** `GET /api/audit`: a page of the organisation's trail, newest first, filtered. */
export async function listAudit(db: Db, membership: Membership, query: AuditQuery): Promise<AuditPage> {
  const { rows, total } = await listAuditEvents(db, membership.organizationId, {
    filter: toFilter(query),
    limit: AUDIT_PAGE_SIZE,
    offset: (query.page - 1) * AUDIT_PAGE_SIZE,
  });
  return {
    events: rows.map(toAuditEvent),
    page: query.page,
    pageSize: AUDIT_PAGE_SIZE,
    total,
    people: await listAuditActors(db, membership.organizationId),
  };
}

/**
 * One CSV cell. A leading = + - @ (or a tab or carriage return) would run as a formula when the file is
 * opened in a spreadsheet, and a name or a reason is typed by a person: a quote mark defuses it.
 */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const CSV_HEADER = ['When (UTC)', 'Person', 'What', 'Kind', 'Document', 'Summary', 'Details'];

/** `GET /api/audit.csv`: every entry matching the filters (not one page), newest first, as CSV lines. */
export async function* streamAuditCsv(
  db: Db,
  membership: Membership,
  query: AuditQuery,
): AsyncIterable<string> {
  yield `\uFEFF${CSV_HEADER.map(csvCell).join(',')}\r\n`;
  const filter = toFilter(query);
  const batch = 500;
  for (let offset = 0; ; offset += batch) {
    const { rows } = await listAuditEvents(db, membership.organizationId, { filter, limit: batch, offset });
    for (const row of rows) {
      const cells = [
        row.at.toISOString(),
        row.actorName,
        AUDIT_KIND_LABELS[row.kind as AuditKind] ?? row.kind,
        row.kind,
        row.documentId,
        row.summary,
        JSON.stringify(row.details ?? {}),
      ];
      yield `${cells.map(csvCell).join(',')}\r\n`;
    }
    if (rows.length < batch) return;
  }
}
