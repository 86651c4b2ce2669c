import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { documents } from './flows.ts';
import { organizations } from './organizations.ts';

// GST & TDS (src/modules/gst): the GSTR-2B files an organisation uploaded, the decisions people took on
// the match, and the organisation's GST & TDS settings. The match itself is computed from these and the read
// invoices on every request, so a corrected or approved invoice is followed without a recompute step.

/**
 * A GSTR-2B JSON uploaded for a return period. Unique per organisation and content (sha256), so the same
 * file uploaded again changes nothing. The bytes are kept in the blob store (`blob_key`); the parsed JSON
 * is kept here too, as the match reads it on every request.
 */
export const gstr2bFiles = pgTable(
  'gstr2b_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Return period `MMYYYY` (`data.rtnprd`). */
    period: text('period').notNull(),
    /** The buyer's GSTIN the return is for (`data.gstin`), when the file says. */
    gstin: text('gstin'),
    fileName: text('file_name').notNull(),
    sha256: text('sha256').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    blobKey: text('blob_key').notNull(),
    content: jsonb('content').notNull(),
    /** B2B documents the file holds (b2b and b2ba rows). */
    documentCount: integer('document_count').notNull(),
    uploadedByUserId: text('uploaded_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    uploadedByName: text('uploaded_by_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('gstr2b_files_org_sha_uq').on(t.organizationId, t.sha256),
    index('gstr2b_files_org_period_idx').on(t.organizationId, t.period),
  ],
);

/**
 * A person's link, unlink or acceptance of a difference between an invoice and a 2B document, with the
 * written reason, who and when. Rows are only ever added; the history is the record.
 */
export const gstr2bDecisions = pgTable(
  'gstr2b_decisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    /** `link`, `unlink` or `accept`. */
    action: text('action').notNull(),
    /** The 2B document named: `<supplier GSTIN>|<number as filed>|<ISO date>`. */
    gstr2bKey: text('gstr2b_key').notNull(),
    /** For `accept`: the differences accepted (the acceptance lapses when they change). */
    differences: jsonb('differences'),
    reason: text('reason').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('gstr2b_decisions_document_idx').on(t.organizationId, t.documentId, t.createdAt)],
);

/** The organisation's GST & TDS settings (a missing row: the defaults). */
export const complianceSettings = pgTable('compliance_settings', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  /** Turnover passed ₹10 crore last financial year: TDS under 194Q on goods bought. */
  turnoverAbove10cr: boolean('turnover_above_10cr').notNull().default(false),
  /**
   * GSTR-2B amount tolerance in paise, applied to each of taxable value, IGST, CGST, SGST and cess
   * (contracts/compliance.md §1; the contract's default ₹1.00).
   */
  gstr2bTolerancePaise: bigint('gstr2b_tolerance_paise', { mode: 'number' }).notNull().default(100),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
