import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { organizations } from './organizations.ts';

// Processing flows, their runs, the documents they processed and the vendors found. Created here so the
// dashboard counts come from real tables; the flows module extends them with later migrations.

/** A user-defined processing flow (source folder → extraction → sheet). */
export const flows = pgTable(
  'flows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    types: text('types').array().notNull().default(sql`'{}'::text[]`),
    io: jsonb('io').notNull().default({}),
    status: text('status').notNull().default('inactive'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  },
  (t) => [index('flows_organization_id_idx').on(t.organizationId)],
);

/** One execution of a flow. */
export const runs = pgTable(
  'runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    flowId: uuid('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    counts: jsonb('counts').notNull().default({}),
  },
  (t) => [index('runs_flow_id_idx').on(t.flowId), index('runs_organization_id_idx').on(t.organizationId)],
);

/** A source file seen by a flow; unique per (flow, source id, content hash) so nothing is done twice. */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    flowId: uuid('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    sourceId: text('source_id').notNull(),
    contentHash: text('content_hash').notNull(),
    fileName: text('file_name').notNull(),
    status: text('status').notNull(),
    extraction: jsonb('extraction'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [
    unique('documents_flow_source_hash_uq').on(t.flowId, t.sourceId, t.contentHash),
    index('documents_organization_id_idx').on(t.organizationId),
  ],
);

/** A supplier known to the organisation. */
export const vendors = pgTable(
  'vendors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    gstin: text('gstin'),
  },
  (t) => [index('vendors_organization_id_idx').on(t.organizationId)],
);
