import {
  bigint,
  boolean,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { documents, vendors } from './flows.ts';
import { organizations } from './organizations.ts';

// MSME payment compliance (src/modules/msme): a vendor's Udyam category per financial year, payments made
// to suppliers, written objections to invoices, and the bank rate. Each invoice's clock is computed from
// these and the read invoices on every request (@bahi/compliance msme.ts), so nothing goes stale.

/** A vendor's Udyam registration for one financial year (the category can change between years). */
export const msmeRegistrations = pgTable(
  'msme_registrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    vendorId: uuid('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    /** First calendar year of the financial year (2025 = 2025-26). */
    financialYear: integer('financial_year').notNull(),
    udyam: text('udyam'),
    /** `micro`, `small` or `medium`. */
    category: text('category').notNull(),
    /** `manufacturing`, `services` or `trading`. */
    activity: text('activity').notNull(),
    writtenAgreement: boolean('written_agreement').notNull().default(false),
    agreedDays: integer('agreed_days'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('msme_registrations_vendor_year_uq').on(t.organizationId, t.vendorId, t.financialYear)],
);

/**
 * A payment to a supplier: typed, or a row of an imported bank statement. The unique (vendor, date,
 * amount, reference) makes importing the same statement twice add nothing.
 */
export const msmePayments = pgTable(
  'msme_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    vendorId: uuid('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    /** The invoice paid; null: the vendor's oldest due invoices first. */
    documentId: uuid('document_id').references(() => documents.id, { onDelete: 'set null' }),
    paidOn: date('paid_on').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    reference: text('reference').notNull(),
    delayReason: text('delay_reason'),
    /** `typed` or `import`. */
    source: text('source').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('msme_payments_dedupe_uq').on(t.organizationId, t.vendorId, t.paidOn, t.amountPaise, t.reference),
    index('msme_payments_org_idx').on(t.organizationId, t.paidOn),
  ],
);

/** A written rejection of or objection to an invoice's goods or services (section 2(b)). */
export const msmeObjections = pgTable(
  'msme_objections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    raisedOn: date('raised_on').notNull(),
    resolvedOn: date('resolved_on'),
    note: text('note').notNull(),
    userName: text('user_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('msme_objections_document_idx').on(t.organizationId, t.documentId)],
);

/**
 * The bank rates notified by the Reserve Bank, each from the day it took effect (one per day). Section 16
 * interest on an invoice runs at three times the rate in force on its due date; no row: no estimate.
 */
export const msmeBankRates = pgTable(
  'msme_bank_rates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    effectiveFrom: date('effective_from').notNull(),
    /** In percent (interest runs at three times it). */
    bankRatePct: numeric('bank_rate_pct', { precision: 6, scale: 3, mode: 'number' }).notNull(),
    userName: text('user_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('msme_bank_rates_org_day_uq').on(t.organizationId, t.effectiveFrom)],
);
