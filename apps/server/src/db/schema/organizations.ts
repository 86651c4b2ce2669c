import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

/** A business using Bahi; every app row hangs off one. */
export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  legalName: text('legal_name').notNull(),
  phone: text('phone').notNull(),
  orgType: text('org_type').notNull().default('pvt_ltd'),
  address: text('address').notNull(),
  /** Maker-checker: an invoice whose total is above this (paise) needs an approver or owner to approve it. */
  approvalLimitPaise: bigint('approval_limit_paise', { mode: 'number' }).notNull().default(100_000_00),
  /** IANA time zone "daily at a time" schedules run in; Indian time unless the organisation chose another. */
  timeZone: text('time_zone').notNull().default('Asia/Kolkata'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Which users belong to which organisation, and as what. */
export const memberships = pgTable(
  'memberships',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    role: text('role').notNull().default('owner'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.organizationId] }),
    index('memberships_organization_id_idx').on(t.organizationId),
    check('memberships_role_ck', sql`${t.role} IN ('owner', 'admin', 'approver', 'reviewer', 'viewer')`),
  ],
);

/** GST registrations of an organisation (one per state it is registered in, or more). */
export const organizationGstins = pgTable(
  'organization_gstins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    gstin: text('gstin').notNull(),
    label: text('label'),
    stateCode: text('state_code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('organization_gstins_org_gstin_uq').on(t.organizationId, t.gstin)],
);
