import type { DocumentErrorCode, FlowIo, RunCounts, RunErrorCode } from '@bahi/contracts';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { organizations } from './organizations.ts';

// Processing flows, their runs, the documents they processed and the vendors found. The dashboard counts
// come from these tables; the flows module (src/modules/flows, runs, documents, uploads, sheets) owns them.

/** What a run reads. `flow`: the flow's input; `file`: one local file; `documents`: documents already queued to it. */
export type RunSource =
  | { kind: 'flow' }
  | { kind: 'file'; path: string; name: string }
  | { kind: 'documents' };

/** A run's counts as stored: filled in as the run goes; `scanned` once its source was listed. */
export type StoredRunCounts = Partial<RunCounts> & { scanned?: boolean };

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
    /** Where documents come from and where rows go; validated on save, parsed by the flows repository's row mapper. */
    io: jsonb('io').$type<FlowIo>().notNull().default(sql`'{}'::jsonb`),
    status: text('status').notNull().default('inactive'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    /** When the flow's .xlsx workbook was last regenerated; null = never or stale. */
    workbookWrittenAt: timestamp('workbook_written_at', { withTimezone: true }),
    /**
     * Bumped whenever the flow's outputs (workbook, Google sheet) stop matching the database: a person's
     * correction, approval or removal, a reconciliation override. The `flow-workbook` job writes them and
     * records the version it read in `outputsWrittenVersion`; they are up to date when the two are equal.
     */
    outputsVersion: integer('outputs_version').notNull().default(0),
    /** The `outputsVersion` the last complete write of the outputs read. */
    outputsWrittenVersion: integer('outputs_written_version').notNull().default(0),
    /** When the outputs were last written completely (what the review screen shows). */
    outputsWrittenAt: timestamp('outputs_written_at', { withTimezone: true }),
    /** Why the last write of the outputs failed (cleared by the next that succeeds); retried by the job. */
    outputsError: text('outputs_error'),
    /**
     * Its invoices need no purchase order (services, rent, travel, utilities): without one they read
     * "No PO — needs approval" in Reconcile and are payable once a person approves them.
     */
    noPoNeeded: boolean('no_po_needed').notNull().default(false),
  },
  (t) => [index('flows_organization_id_idx').on(t.organizationId)],
);

/**
 * One execution of a flow. status: queued → running → succeeded | failed. At most one queued/running run
 * per flow, enforced by a partial unique index so two starts at once can never double a run.
 */
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
    counts: jsonb('counts').$type<StoredRunCounts>().notNull().default({}),
    /** Who started it (notified when it ends). */
    startedByUserId: text('started_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** What the run reads: the flow's input, or a single file for process-url. */
    source: jsonb('source').$type<RunSource>().notNull().default(sql`'{}'::jsonb`),
    /** Files the source had that were not documents: `[{ name, reason }]`. */
    skipped: jsonb('skipped').$type<Array<{ name: string; reason: string }>>().notNull().default([]),
    /** Why the run itself failed (empty folder, source unreachable, ...). */
    errorCode: text('error_code').$type<RunErrorCode>(),
    errorMessage: text('error_message'),
    currentFile: text('current_file'),
    /** Lease: the worker processing the run and when it last proved alive (resume after a crash). */
    leaseOwner: text('lease_owner'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** How many times a worker (re)started the run's job. */
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [
    index('runs_flow_id_idx').on(t.flowId),
    index('runs_organization_id_idx').on(t.organizationId),
    uniqueIndex('runs_one_active_per_flow_uq').on(t.flowId).where(sql`status in ('queued', 'running')`),
  ],
);

/**
 * A source file seen by a flow; unique per (flow, source id, content hash) so nothing is done twice.
 * status: pending → processing → done | needs_review | failed. processed_at is set only for done and
 * needs_review (the dashboard counts those as processed).
 */
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
    runId: uuid('run_id').references(() => runs.id, { onDelete: 'set null' }),
    sourceKind: text('source_kind').notNull().default('upload'),
    /** Where the bytes are: absolute path of the stored upload or of the file in the local folder. */
    sourcePath: text('source_path'),
    size: bigint('size', { mode: 'number' }),
    modifiedAt: timestamp('modified_at', { withTimezone: true }),
    errorCode: text('error_code').$type<DocumentErrorCode>(),
    errorMessage: text('error_message'),
    /** Failed check codes, for the sheet's "Checks failed" column. */
    failedChecks: text('failed_checks').array().notNull().default(sql`'{}'::text[]`),
    reviewFlag: text('review_flag'),
    /** How many times a worker claimed it; also the fencing token a claim's outcome is saved under. */
    attempts: integer('attempts').notNull().default(0),
    /**
     * Per-document lease: the worker process (`host:pid:random`) that claimed it for extraction, and when
     * that claim was last renewed. A 'processing' document whose claim is older than RUN_LEASE_SECONDS
     * belongs to a dead worker and may be claimed by another. Kept after the outcome: who extracted it.
     */
    claimedBy: text('claimed_by'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** Pages read so far of the document being extracted, and how many it has (the run's progress bar). */
    pagesRead: integer('pages_read'),
    pageCount: integer('page_count'),
    /** Order in the sheet: set when the document first gets rows; kept on re-process. */
    sheetRow: integer('sheet_row'),
    /**
     * The engine's result as it was before a person first corrected it (`extraction` then holds the
     * corrected values); null while uncorrected. Re-checks read the paper's evidence (the amount in
     * words) from it. Cleared when the document is extracted again.
     */
    extracted: jsonb('extracted'),
    /** When and by whom a person approved the document's values (cleared when it is extracted again). */
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    approvedBy: text('approved_by'),
    /**
     * The earlier document this one looks like a copy of (same vendor, number and financial year, or the
     * same bytes). Such a document stays out of the sheets until a person approves it (not a duplicate).
     */
    duplicateOf: uuid('duplicate_of').references((): AnyPgColumn => documents.id, { onDelete: 'set null' }),
    /**
     * A person's decision on a possible duplicate (`duplicate_of` set): 'not_duplicate' (a real invoice:
     * sheets, totals and Reconcile count it) or 'duplicate' (a copy: held out of all of them, never paid).
     * Null while undecided: held like a copy. Kept across corrections; cleared when read again.
     */
    duplicateDecision: text('duplicate_decision').$type<'duplicate' | 'not_duplicate'>(),
    /**
     * Which document of its file this row is (1-based): a PDF scanned in one go may hold several invoices,
     * each its own row sharing the file (source id, content hash, path). Part 1 is the row a scan creates.
     */
    partNo: integer('part_no').notNull().default(1),
    /**
     * The file's pages (1-based, inclusive) this document is on; null for a file read as one document.
     * A row with pages set is read again from those pages only; one without is read whole and split.
     */
    pageFrom: integer('page_from'),
    pageTo: integer('page_to'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('documents_flow_source_hash_part_uq').on(t.flowId, t.sourceId, t.contentHash, t.partNo),
    index('documents_organization_id_idx').on(t.organizationId),
    index('documents_run_status_idx').on(t.runId, t.status),
    index('documents_flow_status_idx').on(t.flowId, t.status),
  ],
);

/** The "Line Items" sheet: one row per extracted line, keyed to its document. */
export const documentLines = pgTable(
  'document_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    flowId: uuid('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    lineNo: integer('line_no').notNull(),
    data: jsonb('data').notNull(),
  },
  (t) => [
    unique('document_lines_doc_line_uq').on(t.documentId, t.lineNo),
    index('document_lines_flow_idx').on(t.flowId),
  ],
);

/** Files uploaded to a flow (its inbox); bytes live under DATA_DIR/uploads/<org>/<flow>/<sha256>. */
export const flowUploads = pgTable(
  'flow_uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    flowId: uuid('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    sha256: text('sha256').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    storedPath: text('stored_path').notNull(),
    uploadedByUserId: text('uploaded_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The vendor onboarding link the file came through (a vendor uploading its own invoice); FK in SQL. */
    vendorLinkId: uuid('vendor_link_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('flow_uploads_flow_name_hash_uq').on(t.flowId, t.fileName, t.sha256)],
);

/**
 * A supplier of the organisation: created the first time a read document names its GSTIN (vendor master from
 * documents), with what a person adds (display name, payment terms, MSME registration). Totals, names seen
 * and first/last document are read from the documents themselves, so they are never stale.
 */
export const vendors = pgTable(
  'vendors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    gstin: text('gstin'),
    pan: text('pan'),
    stateCode: text('state_code'),
    displayName: text('display_name'),
    /** Agreed days to pay after goods are accepted; null when nothing was agreed in writing. */
    paymentTermsDays: integer('payment_terms_days'),
    /** Udyam registration number of an MSME supplier (section 43B(h) clock). */
    msmeUdyam: text('msme_udyam'),
    /** Match tolerances agreed with this vendor (null: the organisation's). */
    qtyTolerancePct: numeric('qty_tolerance_pct', { precision: 6, scale: 2, mode: 'number' }),
    priceTolerancePct: numeric('price_tolerance_pct', { precision: 6, scale: 2, mode: 'number' }),
    amountTolerancePaise: bigint('amount_tolerance_paise', { mode: 'number' }),
    /** Its invoices need no purchase order (a service, rent, travel, a utility): payable once approved. */
    noPoNeeded: boolean('no_po_needed').notNull().default(false),
    /** TDS: the section every line of its invoices falls under (null: by each line's SAC). */
    tdsSection: text('tds_section'),
    /** TDS: false when the income-tax portal shows the PAN inoperative (higher rate, section 206AA). */
    panOperative: boolean('pan_operative').notNull().default(true),
    /** TDS: a lower-deduction certificate (section 197): number, section, rate %, dates and limit. */
    ldcNumber: text('ldc_number'),
    ldcSection: text('ldc_section'),
    ldcRate: numeric('ldc_rate', { precision: 6, scale: 3, mode: 'number' }),
    ldcFrom: date('ldc_from'),
    ldcTo: date('ldc_to'),
    ldcLimitPaise: bigint('ldc_limit_paise', { mode: 'number' }),
    /** The onboarded vendor (one per PAN, `vendor_profiles`) this GSTIN belongs to; FK in SQL. */
    profileId: uuid('profile_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('vendors_organization_id_idx').on(t.organizationId),
    uniqueIndex('vendors_org_gstin_uq').on(t.organizationId, t.gstin),
  ],
);

/**
 * The review trail of a document, kept as long as the document: every correction (field, old value,
 * new value) and every approval, with who and when. Rows are only ever added.
 */
export const documentEvents = pgTable(
  'document_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    /** `corrected` or `approved`. */
    kind: text('kind').notNull(),
    /** A header field (`total`) or a line cell (`lineItems.2.amount`, 1-based line); null for an approval. */
    field: text('field'),
    oldValue: jsonb('old_value'),
    newValue: jsonb('new_value'),
    /** The person, by id (null once their account is deleted) and by name as it was then. */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('document_events_document_idx').on(t.documentId, t.createdAt)],
);

/**
 * A person's decision to pay an invoice despite its reconciliation exceptions, with the written reason.
 * Rows are only added; the latest applies while the invoice's exception codes are among `codes`.
 */
export const reconcileOverrides = pgTable(
  'reconcile_overrides',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    codes: text('codes').array().notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reconcile_overrides_document_idx').on(t.organizationId, t.documentId, t.createdAt)],
);

/** The organisation's match tolerances (a missing row: the contract's defaults). */
export const reconcileSettings = pgTable('reconcile_settings', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  qtyTolerancePct: numeric('qty_tolerance_pct', { precision: 6, scale: 2, mode: 'number' }).notNull(),
  priceTolerancePct: numeric('price_tolerance_pct', { precision: 6, scale: 2, mode: 'number' }).notNull(),
  /** Per line, in paise (money is never a float in the database). */
  amountTolerancePaise: bigint('amount_tolerance_paise', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
