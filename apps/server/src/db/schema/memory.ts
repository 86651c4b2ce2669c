import { jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';

/**
 * Memory from corrections: what an organisation's people taught Bahi about one issuer's paper (the
 * engine's `IssuerMemory`, kept whole as JSON because only the engine reads inside it). One row per
 * organisation, document type and issuer key (`gstin:<GSTIN>` or `name:<letters>`): another
 * organisation's corrections never reach this one's documents.
 */
export const issuerMemories = pgTable(
  'issuer_memories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The engine's document type (`invoice`, `po`, `grn`). */
    documentType: text('document_type').notNull(),
    issuerKey: text('issuer_key').notNull(),
    memory: jsonb('memory').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('issuer_memories_org_type_key_uq').on(t.organizationId, t.documentType, t.issuerKey)],
);
