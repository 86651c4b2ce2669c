import { sql } from 'drizzle-orm';
import { customType, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { flows } from './flows.ts';
import { organizations } from './organizations.ts';

/** PostgreSQL `bytea`, as bytes in and out. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/**
 * A vendor as onboarded: one per PAN of the organisation, its GSTINs being the `vendors` rows that point
 * here (`vendors.profile_id`). Holds what the vendor's approved form said. `bank_key` (bank code and
 * account number) is unique, so one bank account never pays two vendors. The Udyam registration is kept
 * as the form gave it (number, category, activity, year, written agreement, agreed days) for the MSME
 * module to take over.
 */
export const vendorProfiles = pgTable(
  'vendor_profiles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    pan: text('pan').notNull(),
    legalName: text('legal_name').notNull(),
    tradeName: text('trade_name'),
    constitution: text('constitution').notNull(),
    status: text('status').notNull().default('active'),
    bankHolderName: text('bank_holder_name').notNull(),
    bankAccount: text('bank_account').notNull(),
    bankIfsc: text('bank_ifsc').notNull(),
    bankName: text('bank_name').notNull(),
    /** `HDFC:50100012345678`: the bank (IFSC's first four letters) and the account number. */
    bankKey: text('bank_key').notNull(),
    udyam: jsonb('udyam'),
    contacts: jsonb('contacts').notNull().default([]),
    tdsSection: text('tds_section'),
    ldc: jsonb('ldc'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('vendor_profiles_org_pan_uq').on(t.organizationId, t.pan),
    uniqueIndex('vendor_profiles_org_bank_uq').on(t.organizationId, t.bankKey),
  ],
);

/**
 * An onboarding link. The token is never stored: only its SHA-256. One submission at a time
 * (`submitted_at`; a request for changes clears it so the same link reopens), expiring, revocable.
 */
export const vendorLinks = pgTable(
  'vendor_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    vendorName: text('vendor_name').notNull(),
    profileId: uuid('profile_id').references(() => vendorProfiles.id, { onDelete: 'set null' }),
    prefill: jsonb('prefill').notNull().default({}),
    locked: text('locked').array().notNull().default(sql`'{}'::text[]`),
    invoiceFlowId: uuid('invoice_flow_id').references(() => flows.id, { onDelete: 'set null' }),
    /** open → submitted → approved | rejected, or back to changes_requested (open again). */
    status: text('status').notNull().default('open'),
    changesRequested: text('changes_requested'),
    createdBy: text('created_by'),
    createdByName: text('created_by_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('vendor_links_org_idx').on(t.organizationId, t.createdAt)],
);

/** A filled-in form, as sent (the account number once). status: pending → approved | rejected | changes_requested. */
export const vendorSubmissions = pgTable(
  'vendor_submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    linkId: uuid('link_id')
      .notNull()
      .references(() => vendorLinks.id, { onDelete: 'cascade' }),
    fields: jsonb('fields').notNull(),
    status: text('status').notNull().default('pending'),
    note: text('note'),
    decidedBy: text('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('vendor_submissions_org_idx').on(t.organizationId, t.status)],
);

/** A document the vendor attached to the form (cancelled cheque, Udyam certificate): bytes kept here. */
export const vendorLinkDocuments = pgTable(
  'vendor_link_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    linkId: uuid('link_id')
      .notNull()
      .references(() => vendorLinks.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('vendor_link_documents_kind_uq').on(t.linkId, t.kind)],
);

/**
 * A new bank account for an active vendor, waiting for a second person (maker-checker). While one is
 * pending the vendor's invoices are on hold. status: pending → approved | rejected.
 */
export const vendorBankChanges = pgTable(
  'vendor_bank_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => vendorProfiles.id, { onDelete: 'cascade' }),
    bankHolderName: text('bank_holder_name').notNull(),
    bankAccount: text('bank_account').notNull(),
    bankIfsc: text('bank_ifsc').notNull(),
    bankName: text('bank_name').notNull(),
    bankKey: text('bank_key').notNull(),
    status: text('status').notNull().default('pending'),
    requestedBy: text('requested_by').notNull(),
    requestedByName: text('requested_by_name').notNull(),
    decidedBy: text('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('vendor_bank_changes_one_pending_uq').on(t.profileId).where(sql`status = 'pending'`)],
);

/**
 * An onboarding link to be sent by e-mail (the `vendor-link-mail` job). The token is needed to write the
 * link into the message but the link row keeps only its hash, so it waits here encrypted (AES-GCM, a key
 * derived from the server secret, bound to the organisation) and is wiped once the message is sent.
 * status: queued → sending → sent, or back to queued with `error` when the mail server refused.
 */
export const vendorLinkMails = pgTable(
  'vendor_link_mails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    linkId: uuid('link_id')
      .notNull()
      .references(() => vendorLinks.id, { onDelete: 'cascade' }),
    toAddress: text('to_address').notNull(),
    sealedToken: text('sealed_token'),
    status: text('status').notNull().default('queued'),
    error: text('error'),
    requestedByName: text('requested_by_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('vendor_link_mails_link_idx').on(t.organizationId, t.linkId)],
);
