import {
  type CreateOrganizationInput,
  CreateOrganizationInputSchema,
  type Me,
  type Organization,
  type OrgType,
  organizationMessages,
  type Role,
  type UpdateOrganizationInput,
  UpdateOrganizationInputSchema,
} from '@bahi/contracts';
import { normalizeGstinInput, normalizeIndianPhone, validateGstin } from '@bahi/india';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../jobs/registry.ts';
import { AppError, createValidationError, parseOrThrow } from '../../lib/app-error.ts';
import { recordActivity } from '../activity/activity.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { recheckBilledTo } from '../documents/document-billed-to.ts';
import { rezoneDailyTriggers } from '../flows/flow-automations.repo.ts';
import { sendOutputsJobs } from '../flows/flow-outputs.ts';
import { nextRunAfter } from '../flows/flow-schedule.ts';
import { markOutputsStale } from '../flows/flows.repo.ts';
import {
  findMembershipByUser,
  findOrganization,
  findSessionMembership,
  type GstinRow,
  insertOrganizationWithOwner,
  listGstins,
  listUserOrganizations,
  lockUser,
  type OrganizationRow,
  replaceGstins,
  updateOrganizationProfile,
} from './organizations.repo.ts';

/** Shapes stored rows into the API's `Organization`. */
function toOrganization(row: OrganizationRow, gstins: GstinRow[]): Organization {
  return {
    id: row.id,
    legalName: row.legalName,
    phone: row.phone,
    orgType: row.orgType as OrgType,
    address: row.address,
    gstins: gstins.map((g) => ({ id: g.id, gstin: g.gstin, label: g.label, stateCode: g.stateCode })),
    timeZone: row.timeZone,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Normalises the phone to +91 form, or fails with the form's message. */
function normalizePhoneOrThrow(phone: string): string {
  const normalized = normalizeIndianPhone(phone);
  if (!normalized) throw createValidationError({ phone: organizationMessages.phoneInvalid });
  return normalized;
}

/**
 * The caller's membership, or null before onboarding (or once removed from their only organisation). With a
 * session id, the organisation that session switched to.
 */
export async function findMembership(db: Db, userId: string, sessionId?: string): Promise<Membership | null> {
  const row = sessionId
    ? await findSessionMembership(db, userId, sessionId)
    : await findMembershipByUser(db, userId);
  return row ? { organizationId: row.organizationId, role: row.role as Membership['role'] } : null;
}

/**
 * `GET /api/me`: the user, the organisation in use with their role and its approval limit, and every
 * organisation they belong to (for the switcher).
 */
export async function getMe(db: Db, user: SessionUser, membership: Membership | null): Promise<Me> {
  const all = await listUserOrganizations(db, user.id);
  const active = membership ? all.find((o) => o.id === membership.organizationId) : undefined;
  return {
    user,
    organization: membership ? await getOrganization(db, membership.organizationId) : null,
    role: membership?.role ?? null,
    approvalLimitPaise: active?.approvalLimitPaise ?? null,
    organizations: all.map((o) => ({
      id: o.id,
      legalName: o.legalName,
      role: o.role as Role,
      active: o.id === membership?.organizationId,
    })),
  };
}

/** The organisation with its GSTINs, or null. */
export async function getOrganization(db: Db, organizationId: string): Promise<Organization | null> {
  const row = await findOrganization(db, organizationId);
  if (!row) return null;
  return toOrganization(row, await listGstins(db, organizationId));
}

/** Like `getOrganization`, but a missing organisation is an error (the membership points at it). */
export async function requireOrganization(db: Db, organizationId: string): Promise<Organization> {
  const org = await getOrganization(db, organizationId);
  if (!org) throw new AppError('no_organization', 'Set up your organization first');
  return org;
}

/**
 * Onboarding: creates the user's organisation and makes them its owner. A user has one organisation;
 * a second attempt is a conflict (checked under a row lock so double-submits can't create two).
 */
export async function createOrganization(
  db: Db,
  user: SessionUser,
  input: CreateOrganizationInput,
): Promise<Organization> {
  const { orgName, phone: rawPhone, orgType, address } = parseOrThrow(CreateOrganizationInputSchema, input);
  const phone = normalizePhoneOrThrow(rawPhone);
  const orgId = await db.transaction(async (tx) => {
    await lockUser(tx, user.id);
    if (await findMembershipByUser(tx, user.id)) {
      throw new AppError('conflict', 'You already belong to an organization');
    }
    const org = await insertOrganizationWithOwner(tx, user.id, {
      legalName: orgName,
      phone,
      orgType,
      address,
    });
    await recordActivity(tx, {
      organizationId: org.id,
      kind: 'organization.created',
      message: `${user.name} set up ${org.legalName}`,
      userId: user.id,
    });
    return org.id;
  });
  return requireOrganization(db, orgId);
}

/** Validates and normalises the GSTIN set: each checked with @bahi/india, duplicates refused. */
function checkGstins(gstins: UpdateOrganizationInput['gstins']) {
  const fields: Record<string, string> = {};
  const seen = new Map<string, number>();
  const checked: Array<{ gstin: string; label: string | null; stateCode: string }> = [];
  let duplicate: string | undefined;
  (gstins ?? []).forEach((entry, index) => {
    const gstin = normalizeGstinInput(entry.gstin);
    const result = validateGstin(gstin);
    if (!result.ok) {
      fields[`gstins.${index}.gstin`] = result.message;
      return;
    }
    if (seen.has(gstin)) {
      fields[`gstins.${index}.gstin`] = organizationMessages.gstinDuplicate;
      duplicate ??= gstin;
      return;
    }
    seen.set(gstin, index);
    checked.push({ gstin, label: entry.label?.trim() || null, stateCode: result.stateCode });
  });
  const invalid = Object.keys(fields).some((k) => fields[k] !== organizationMessages.gstinDuplicate);
  if (invalid) throw createValidationError(fields);
  if (duplicate) throw new AppError('duplicate_gstin', `GSTIN ${duplicate} is listed more than once`, fields);
  return checked;
}

/**
 * Saves the whole profile ("Save Changes"): fields plus the GSTIN set, which replaces the stored one.
 * Only owners and admins may change it; everything is scoped to `membership.organizationId`.
 */
export async function updateOrganization(
  db: Db,
  {
    user,
    membership,
    input: rawInput,
    now = new Date(),
    jobs,
  }: {
    user: SessionUser;
    membership: Membership;
    input: UpdateOrganizationInput;
    now?: Date;
    /** Sends the rewrite of the outputs the rechecked invoices change (absent in tests without a queue). */
    jobs?: JobSender | undefined;
  },
): Promise<Organization> {
  if (membership.role !== 'owner' && membership.role !== 'admin') {
    throw new AppError('forbidden', 'Only owners and admins can change the organization profile');
  }
  const input = parseOrThrow(UpdateOrganizationInputSchema, rawInput);
  const phone = normalizePhoneOrThrow(input.phone);
  const gstins = checkGstins(input.gstins);
  const orgId = membership.organizationId;
  const staleFlows = await db.transaction(async (tx) => {
    const before = await findOrganization(tx, orgId);
    if (!before) throw new AppError('no_organization', 'Set up your organization first');
    const timeZone = input.timeZone ?? before.timeZone;
    await updateOrganizationProfile(tx, orgId, {
      legalName: input.legalName,
      phone,
      orgType: input.orgType,
      address: input.address,
      timeZone,
    });
    // Daily schedules are read on the organisation's clock: a new zone moves their next runs now.
    if (timeZone !== before.timeZone)
      await rezoneDailyTriggers(tx, orgId, timeZone, (trigger) => nextRunAfter(trigger, now));
    await replaceGstins(tx, orgId, gstins);
    // Whom an invoice is billed to is checked against these GSTINs: invoices already read follow at once.
    const rechecked = await recheckBilledTo(
      tx,
      orgId,
      gstins.map((g) => g.gstin),
    );
    const stale = rechecked > 0 ? await markOutputsStale(tx, orgId) : [];
    await recordActivity(tx, {
      organizationId: orgId,
      kind: 'organization.updated',
      message: `${user.name} updated the organization profile`,
      userId: user.id,
    });
    await recordAudit(tx, {
      organizationId: orgId,
      kind: 'settings.organization',
      actor: user,
      summary: `${user.name} updated the organisation profile`,
      details: { legalName: input.legalName, gstins: gstins.map((g) => g.gstin), timeZone },
    });
    return stale;
  });
  // Sent once the change is committed: the job reads it.
  await sendOutputsJobs({ jobs }, staleFlows);
  return requireOrganization(db, orgId);
}
