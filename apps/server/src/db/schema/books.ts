import { boolean, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { documents } from './flows.ts';
import { organizations } from './organizations.ts';

// Posting approved invoices into the books (src/modules/books): the organisation's Tally connection with its
// ledger mapping, and one push record per document. Tally needs no secret (its XML server trusts the network
// it listens on); a package that does (Zoho's OAuth token) keeps it in `secret_enc`, sealed like the Google
// tokens (`modules/google/token-crypto.ts`, bound to the organisation id).

/** An organisation's connection to its books. One per organisation and kind (`tally`). */
export const booksConnections = pgTable(
  'books_connections',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('tally'),
    host: text('host').notNull(),
    port: integer('port').notNull().default(9000),
    company: text('company').notNull(),
    autoPost: boolean('auto_post').notNull().default(false),
    /** `LedgerMapping` (@bahi/contracts). */
    mapping: jsonb('mapping').notNull().default({}),
    /** The company's ledgers as "Test connection" last read them. */
    ledgers: jsonb('ledgers').notNull().default([]),
    lastTestOk: boolean('last_test_ok'),
    lastTestMessage: text('last_test_message'),
    lastTestAt: timestamp('last_test_at', { withTimezone: true }),
    secretEnc: text('secret_enc'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('books_connections_org_kind_uq').on(t.organizationId, t.kind)],
);

/**
 * A document's push record: what was asked (`desired`), where it stands (`state`, claimed by one worker at a
 * time under a lease), what stands in the books (`outcome`), and what was sent (`sent_hash` of the XML,
 * `sent_voucher`), when, for whom, and the books' answer. One row per document and kind, so a batch posted
 * twice or by two workers updates the one record.
 */
export const booksPushes = pgTable(
  'books_pushes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('tally'),
    desired: text('desired').$type<'post' | 'cancel'>().notNull().default('post'),
    state: text('state').$type<'queued' | 'sending' | 'done' | 'failed'>().notNull(),
    outcome: text('outcome').$type<'created' | 'altered' | 'cancelled'>(),
    remoteId: text('remote_id'),
    voucherId: text('voucher_id'),
    sentHash: text('sent_hash'),
    /** The voucher last accepted (a cancel re-sends it with ACTION Cancel). */
    sentVoucher: jsonb('sent_voucher'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    requestedBy: text('requested_by'),
    requestedAt: timestamp('requested_at', { withTimezone: true }),
    error: text('error'),
    answer: jsonb('answer'),
    attempts: integer('attempts').notNull().default(0),
    claimedBy: text('claimed_by'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('books_pushes_org_doc_kind_uq').on(t.organizationId, t.documentId, t.kind),
    index('books_pushes_org_updated_idx').on(t.organizationId, t.updatedAt),
  ],
);
