import { createHash, randomBytes } from 'node:crypto';
import {
  type CreateVendorLinkInput,
  CreateVendorLinkInputSchema,
  VENDOR_LOCKABLE_FIELDS,
  type VendorFormView,
  type VendorLink,
  type VendorLinkCreated,
  type VendorLockableField,
  type VendorPrefill,
} from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { UUID_RE } from '../../lib/ids.ts';
import { recordActivity } from '../activity/activity.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { requireFlow } from '../flows/flows.service.ts';
import { findVendor } from '../vendors/vendors.repo.ts';
import { latestMailsOf, type VendorLinkMailRow } from './vendor-link-mail.repo.ts';
import {
  findLinkByHash,
  insertLink,
  listLinkDocuments,
  listLinks,
  revokeLinkRow,
  type VendorLinkRow,
} from './vendor-onboarding.repo.ts';

/** How long an onboarding link works unless the person says otherwise. */
export const VENDOR_LINK_DAYS = 7;

/** The caller as these services take them. */
export interface Caller {
  user: SessionUser;
  membership: Membership;
}

/** The SHA-256 of a token: all the database keeps of a link. */
export function hashVendorToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The same words for an expired and a revoked link: the page says nothing of what the link was. */
export const LINK_GONE_MESSAGE =
  'This link no longer works. Ask the finance team that sent it for a new one.';
/** The words for a link that does not exist (a mistyped or made-up address). */
export const LINK_UNKNOWN_MESSAGE =
  'This link is not valid. Check that it was copied whole, or ask for a new one.';

/** Where a link stands, as the finance team's list says it. */
function linkState(row: VendorLinkRow, now = new Date()): VendorLink['state'] {
  if (row.revokedAt) return 'revoked';
  const open = row.status === 'open' || row.status === 'changes_requested';
  if (open && row.expiresAt <= now) return 'expired';
  return row.status as VendorLink['state'];
}

function toLink(row: VendorLinkRow, mail?: VendorLinkMailRow): VendorLink {
  return {
    id: row.id,
    vendorName: row.vendorName,
    state: linkState(row),
    createdBy: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    invoiceFlowId: row.invoiceFlowId,
    mail: mail
      ? {
          to: mail.toAddress,
          // A refusal waiting for the next try reads as failed until it goes.
          state: mail.status === 'queued' && mail.error ? 'failed' : (mail.status as 'queued'),
          error: mail.error,
        }
      : null,
  };
}

/** What a known vendor of the master fills in ahead: its name, PAN and GSTIN. */
async function prefillFromVendor(db: Db, organizationId: string, vendorId: string | undefined) {
  if (!vendorId) return {};
  const vendor = UUID_RE.test(vendorId) ? await findVendor(db, organizationId, vendorId) : undefined;
  if (!vendor) throw new AppError('not_found', 'No such vendor');
  const prefill: VendorPrefill = { legalName: vendor.displayName ?? vendor.name };
  if (vendor.pan) prefill.pan = vendor.pan;
  if (vendor.gstin) prefill.gstins = [vendor.gstin];
  return prefill;
}

/** Fields filled in ahead (non-empty), which are the ones a link can lock. */
function filledFields(prefill: VendorPrefill): VendorLockableField[] {
  return VENDOR_LOCKABLE_FIELDS.filter((key) => {
    const value = prefill[key];
    return Array.isArray(value) ? value.length > 0 : Boolean(value);
  });
}

/**
 * `POST /api/vendor-links`: a link for a new or known vendor, valid {@link VENDOR_LINK_DAYS} days by
 * default. The token is returned once, in the address, and stored only as a hash.
 */
export async function createVendorLink(
  db: Db,
  {
    caller,
    publicUrl,
    mailConfigured = false,
    input: raw,
  }: { caller: Caller; publicUrl: string; mailConfigured?: boolean; input: CreateVendorLinkInput },
): Promise<VendorLinkCreated> {
  const input = CreateVendorLinkInputSchema.parse(raw);
  const { user, membership } = caller;
  const known = await prefillFromVendor(db, membership.organizationId, input.vendorId);
  const prefill: VendorPrefill = { ...known, ...dropEmpty(input.prefill) };
  if (input.invoiceFlowId) await requireFlow(db, membership, input.invoiceFlowId);
  const token = randomBytes(32).toString('base64url');
  const row = await db.transaction(async (tx) => {
    const created = await insertLink(tx, {
      organizationId: membership.organizationId,
      tokenHash: hashVendorToken(token),
      vendorName: input.vendorName,
      prefill,
      locked: input.lockPrefilled ? filledFields(prefill) : [],
      invoiceFlowId: input.invoiceFlowId,
      createdBy: user.id,
      createdByName: user.name,
      expiresAt: new Date(Date.now() + input.expiresInDays * 24 * 3600 * 1000),
    });
    await recordAudit(tx, {
      organizationId: membership.organizationId,
      kind: 'vendor.link_created',
      actor: user,
      summary: `${user.name} made an onboarding link for ${input.vendorName}`,
      details: { linkId: created.id, vendorId: input.vendorId ?? null, locked: created.locked },
    });
    return created;
  });
  // The address is shown once; "Send by e-mail" (when outgoing mail is configured) is its own request.
  return {
    link: toLink(row),
    url: `${publicUrl}/vendor-form/${token}`,
    emailed: false,
    mailConfigured,
  };
}

function dropEmpty(prefill: VendorPrefill): VendorPrefill {
  return Object.fromEntries(
    Object.entries(prefill).filter(([, v]) => (Array.isArray(v) ? v.length > 0 : Boolean(v))),
  ) as VendorPrefill;
}

/** `GET /api/vendor-links`: the organisation's links, newest first. */
export async function listVendorLinks(db: Db, membership: Membership): Promise<{ items: VendorLink[] }> {
  const rows = await listLinks(db, membership.organizationId);
  const mails = await latestMailsOf(
    db,
    membership.organizationId,
    rows.map((r) => r.id),
  );
  return { items: rows.map((row) => toLink(row, mails.get(row.id))) };
}

/** `DELETE /api/vendor-links/{id}`: the link stops working at once. */
export async function revokeVendorLink(
  db: Db,
  { caller, id }: { caller: Caller; id: string },
): Promise<void> {
  const { user, membership } = caller;
  await db.transaction(async (tx) => {
    const row = UUID_RE.test(id) ? await revokeLinkRow(tx, membership.organizationId, id) : undefined;
    if (!row) throw new AppError('not_found', 'No such link, or it was already revoked');
    await recordAudit(tx, {
      organizationId: membership.organizationId,
      kind: 'vendor.link_revoked',
      actor: user,
      summary: `${user.name} revoked the onboarding link for ${row.vendorName}`,
      details: { linkId: row.id },
    });
    await recordActivity(tx, {
      organizationId: membership.organizationId,
      kind: 'vendor.link_revoked',
      message: `${user.name} revoked the onboarding link for ${row.vendorName}`,
      userId: user.id,
    });
  });
}

/** A link found by its token, with its organisation's name. */
export interface OpenedLink {
  link: VendorLinkRow;
  organizationName: string;
}

/**
 * The link a token opens. Unknown: `not_found`; expired or revoked: `gone` (one message for both);
 * `mustBeOpen` also refuses a link whose one submission was made (`conflict`).
 */
export async function openVendorLink(db: Db, token: string, { mustBeOpen }: { mustBeOpen: boolean }) {
  const found = /^[A-Za-z0-9_-]{20,100}$/.test(token)
    ? await findLinkByHash(db, hashVendorToken(token))
    : undefined;
  if (!found) throw new AppError('not_found', LINK_UNKNOWN_MESSAGE);
  const state = linkState(found.link);
  if (found.link.revokedAt || found.link.expiresAt <= new Date())
    throw new AppError('gone', LINK_GONE_MESSAGE);
  if (mustBeOpen && state !== 'open' && state !== 'changes_requested')
    throw new AppError(
      'conflict',
      'This form was already sent. The finance team is looking at it; they will reopen it if anything needs changing.',
    );
  return found satisfies OpenedLink;
}

/** `GET /api/vendor-form/{token}`: what the public form shows; a used link shows nothing of the vendor. */
export async function getVendorForm(db: Db, token: string): Promise<VendorFormView> {
  const { link, organizationName } = await openVendorLink(db, token, { mustBeOpen: false });
  const open = link.status === 'open' || link.status === 'changes_requested';
  const documents = open ? await listLinkDocuments(db, [link.id]) : [];
  return {
    state: open ? 'open' : 'submitted',
    organizationName,
    expiresAt: link.expiresAt.toISOString(),
    prefill: open ? (link.prefill as VendorPrefill) : {},
    locked: open ? (link.locked as VendorLockableField[]) : [],
    changesRequested: open ? link.changesRequested : null,
    documents: documents.map((d) => ({
      id: d.id,
      kind: d.kind as VendorFormView['documents'][number]['kind'],
      fileName: d.fileName,
      size: d.size,
    })),
    invoiceUpload: link.invoiceFlowId !== null,
  };
}
