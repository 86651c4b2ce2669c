import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { organizations } from './organizations.ts';

/**
 * Invitations to join an organisation. The link's random token is never stored: only its SHA-256, so a
 * copy of the database opens no door. One use (`accepted_at`), revocable, expiring.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    email: text('email'),
    role: text('role').notNull(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    invitedByName: text('invited_by_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('invitations_org_idx').on(t.organizationId, t.createdAt)],
);

/**
 * The audit trail: who did what, when. Append-only — a trigger (migration 0013) refuses UPDATE, DELETE and
 * TRUNCATE, and no route changes a row. The actor's name is copied in, and neither the actor nor the
 * document is a foreign key, so an entry outlives both unchanged. The organisation is a plain (restricting)
 * foreign key: an organisation with a trail cannot be deleted from under it.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Insertion order: breaks ties between entries written within the clock's resolution. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    documentId: uuid('document_id'),
    summary: text('summary').notNull(),
    details: jsonb('details').notNull().default({}),
  },
  (t) => [
    index('audit_events_org_at_idx').on(t.organizationId, t.at),
    index('audit_events_org_actor_idx').on(t.organizationId, t.actorId),
    index('audit_events_org_document_idx').on(t.organizationId, t.documentId),
  ],
);

/** One stored audit entry. */
export type AuditEventRow = typeof auditEvents.$inferSelect;
