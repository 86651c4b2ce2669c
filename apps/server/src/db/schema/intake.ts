import type { FlowTrigger } from '@bahi/contracts';
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { flows } from './flows.ts';
import { organizations } from './organizations.ts';

// Documents that arrive by themselves: when a flow runs on its own, what its watched source last looked
// like, the mail it has taken, and the per-item intake log. The flows module owns `flow_automations`; the
// intake module owns the mail tables.

/**
 * A flow's automation: its trigger and the state the trigger tick keeps. One row per flow (absent = manual).
 * `next_run_at` and `watch_mark` are compare-and-set by the tick, so two processes never both fire one
 * occurrence or one arrival.
 */
export const flowAutomations = pgTable(
  'flow_automations',
  {
    flowId: uuid('flow_id')
      .primaryKey()
      .references(() => flows.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    trigger: jsonb('trigger').$type<FlowTrigger>().notNull().default(sql`'{"kind":"manual"}'::jsonb`),
    /** When a scheduled flow next runs. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    /** Fingerprint of what the watched source held when a run last started for it. */
    watchMark: text('watch_mark'),
    /** The source's last failure in plain words; null when it last worked. */
    sourceError: text('source_error'),
    /** Failures in a row (the back-off grows with them). */
    failures: integer('failures').notNull().default(0),
    /** A failing source is not tried again before this. */
    retryAt: timestamp('retry_at', { withTimezone: true }),
  },
  (t) => [index('flow_automations_next_run_idx').on(t.nextRunAt)],
);

/**
 * One message of a flow's mailbox, known by (mailbox, folder, UIDVALIDITY, UID): the unique constraint
 * lets exactly one worker claim it. `status`: `claimed` while a worker takes its attachments (a claim older
 * than the lease is taken over), `done` once taken and the after-action applied.
 */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    flowId: uuid('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    /** `user@host:port`: the same folder name on two servers is two folders. */
    mailbox: text('mailbox').notNull(),
    folder: text('folder').notNull(),
    uidValidity: bigint('uid_validity', { mode: 'number' }).notNull(),
    uid: bigint('uid', { mode: 'number' }).notNull(),
    /** The Message-ID header (empty when the message has none). */
    messageId: text('message_id').notNull().default(''),
    status: text('status').notNull().default('claimed'),
    claimedBy: text('claimed_by'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('mail_messages_key_uq').on(t.flowId, t.mailbox, t.folder, t.uidValidity, t.uid)],
);

/**
 * What became of each item a source offered: taken (stored, becomes a document at the next scan), skipped
 * (and why) or failed (and why). A taken attachment is unique per (flow, Message-ID, content hash), so a
 * message delivered again, or seen again after a UIDVALIDITY change, adds no document.
 */
export const intakeItems = pgTable(
  'intake_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    flowId: uuid('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    /** Subject and sender of the message it came from. */
    origin: text('origin').notNull().default(''),
    messageId: text('message_id').notNull().default(''),
    name: text('name').notNull(),
    status: text('status').notNull(),
    reason: text('reason').notNull().default(''),
    /** sha256 of a taken item's bytes (its stored file's name); null for skips. */
    contentHash: text('content_hash'),
    size: bigint('size', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('intake_items_flow_idx').on(t.flowId, t.createdAt),
    unique('intake_items_taken_uq').on(t.flowId, t.messageId, t.contentHash),
  ],
);

/**
 * The OAuth2 tokens of a flow's mailbox (auth `google` or `microsoft`): the refresh token and the current
 * access token, both AES-256-GCM encrypted bound to the organisation, and when the access token expires.
 * `error` holds why the refresh token stopped working (expired, revoked): the mailbox must be reconnected.
 */
export const mailOAuthTokens = pgTable('mail_oauth_tokens', {
  flowId: uuid('flow_id')
    .primaryKey()
    .references(() => flows.id, { onDelete: 'cascade' }),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  provider: text('provider').notNull(),
  refreshTokenEnc: text('refresh_token_enc').notNull(),
  accessTokenEnc: text('access_token_enc'),
  accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
  error: text('error'),
  connectedByUserId: text('connected_by_user_id'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
