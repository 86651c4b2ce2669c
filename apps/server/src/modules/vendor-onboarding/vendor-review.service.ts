import {
  VENDOR_CONSTITUTIONS,
  type VendorBankChange,
  type VendorConstitution,
  type VendorSubmission,
} from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../jobs/registry.ts';
import { AppError } from '../../lib/app-error.ts';
import { UUID_RE } from '../../lib/ids.ts';
import { recordActivity } from '../activity/activity.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { refreshFlowOutputs } from '../flows/flow-outputs.ts';
import { requireBankChangeByAnother } from '../maker-checker/maker-checker.ts';
import { upsertRegistration } from '../msme/msme.repo.ts';
import type { StoredVendorFields } from './vendor-form.service.ts';
import type { Caller } from './vendor-links.service.ts';
import {
  attachGstins,
  decideBankChange,
  decideSubmission,
  findBankHolder,
  findProfileByPan,
  insertBankChange,
  insertProfile,
  listLinkDocuments,
  listPendingBankChanges,
  listProfileGstins,
  listSubmissions,
  lockPendingBankChange,
  lockPendingSubmission,
  setLinkStatus,
  updateProfile,
  type VendorProfileRow,
  type VendorSubmissionRow,
  vendorIdsByGstin,
} from './vendor-onboarding.repo.ts';

/** `HDFC:50100012345678`: the bank and the account number, the key no two vendors may share. */
export function bankKeyOf(bank: { ifsc: string; accountNumber: string }): string {
  return `${bank.ifsc.slice(0, 4)}:${bank.accountNumber}`;
}

/** An account number as lists show it: its last four digits. */
export function maskAccount(account: string, ifsc: string): string {
  return `…${account.slice(-4)} (${ifsc})`;
}

type Difference = VendorSubmission['differences'][number];

/** The fields that differ between the vendor master and the submission, in words. */
function diffAgainst(profile: VendorProfileRow, gstins: string[], fields: StoredVendorFields): Difference[] {
  const udyam = profile.udyam as StoredVendorFields['udyam'];
  const pairs: Array<[string, string, string | null, string | null]> = [
    ['legalName', 'Legal name', profile.legalName, fields.legalName],
    ['tradeName', 'Trade name', profile.tradeName, fields.tradeName || null],
    [
      'constitution',
      'Constitution',
      VENDOR_CONSTITUTIONS[profile.constitution as VendorConstitution]?.label ?? profile.constitution,
      VENDOR_CONSTITUTIONS[fields.constitution].label,
    ],
    ['gstins', 'GSTINs', [...gstins].sort().join(', ') || null, [...fields.gstins].sort().join(', ') || null],
    [
      'bank',
      'Bank account',
      `${profile.bankAccount} (${profile.bankIfsc})`,
      `${fields.bank.accountNumber} (${fields.bank.ifsc})`,
    ],
    [
      'udyam',
      'Udyam',
      udyam ? `${udyam.number} ${udyam.category}` : null,
      fields.udyam ? `${fields.udyam.number} ${fields.udyam.category}` : null,
    ],
    ['tdsSection', 'TDS section', profile.tdsSection, fields.tdsSection],
  ];
  return pairs
    .filter(([, , before, after]) => (before ?? '') !== (after ?? ''))
    .map(([field, label, before, after]) => ({ field, label, before, after }));
}

async function toSubmission(
  db: Db,
  {
    organizationId,
    row,
    vendorName,
  }: { organizationId: string; row: VendorSubmissionRow; vendorName: string },
): Promise<VendorSubmission> {
  const fields = row.fields as StoredVendorFields;
  const profile = await findProfileByPan(db, organizationId, fields.pan);
  const gstins = profile ? await listProfileGstins(db, organizationId, profile.id) : [];
  const documents = await listLinkDocuments(db, [row.linkId]);
  const key = bankKeyOf(fields.bank);
  return {
    id: row.id,
    linkId: row.linkId,
    vendorName,
    status: row.status as VendorSubmission['status'],
    submittedAt: row.createdAt.toISOString(),
    fields,
    documents: documents.map((d) => ({
      id: d.id,
      kind: d.kind as never,
      fileName: d.fileName,
      size: d.size,
    })),
    existingVendorId: profile?.id ?? null,
    differences: profile ? diffAgainst(profile, gstins, fields) : [],
    bankChange: profile !== undefined && profile.bankKey !== key,
    bankUsedBy:
      row.status === 'pending'
        ? ((await findBankHolder(db, { organizationId, bankKey: key, exceptId: profile?.id ?? null })) ??
          null)
        : null,
    note: row.note,
  };
}

/** `GET /api/vendor-submissions`: the queue, pending first, each against the vendor master. */
export async function listVendorSubmissions(db: Db, caller: Caller): Promise<{ items: VendorSubmission[] }> {
  const organizationId = caller.membership.organizationId;
  const rows = await listSubmissions(db, organizationId);
  const items: VendorSubmission[] = [];
  for (const { submission, vendorName } of rows)
    items.push(await toSubmission(db, { organizationId, row: submission, vendorName }));
  return { items };
}

async function requirePending(db: Db, caller: Caller, id: string): Promise<VendorSubmissionRow> {
  const row = UUID_RE.test(id)
    ? await lockPendingSubmission(db, caller.membership.organizationId, id)
    : undefined;
  if (!row) throw new AppError('not_found', 'No submission waiting for a decision by that id');
  return row;
}

/** The profile columns a submission sets (the bank aside). */
function profileValues(fields: StoredVendorFields) {
  return {
    legalName: fields.legalName,
    tradeName: fields.tradeName || null,
    constitution: fields.constitution,
    udyam: fields.udyam,
    contacts: fields.contacts,
    tdsSection: fields.tdsSection,
    ldc: fields.ldc,
  };
}

function bankValues(fields: StoredVendorFields) {
  return {
    bankHolderName: fields.bank.holderName,
    bankAccount: fields.bank.accountNumber,
    bankIfsc: fields.bank.ifsc,
    bankName: fields.bank.bankName,
    bankKey: bankKeyOf(fields.bank),
  };
}

/**
 * Writes the vendor: a new PAN becomes an active vendor with its bank account; a known one takes the new
 * details, except a different bank account, which waits for a second person (its invoices on hold).
 */
async function writeProfile(
  tx: Db,
  { caller, fields }: { caller: Caller; fields: StoredVendorFields },
): Promise<{ profileId: string; bankChangeId: string | null }> {
  const { user, membership } = caller;
  const organizationId = membership.organizationId;
  const existing = await findProfileByPan(tx, organizationId, fields.pan);
  const holder = await findBankHolder(tx, {
    organizationId,
    bankKey: bankKeyOf(fields.bank),
    exceptId: existing?.id ?? null,
  });
  if (holder)
    throw new AppError(
      'conflict',
      `This bank account already belongs to ${holder}: one account cannot be paid as two vendors. Ask the vendor which account is theirs.`,
    );
  if (!existing) {
    const created = await insertProfile(tx, {
      organizationId,
      pan: fields.pan,
      ...profileValues(fields),
      ...bankValues(fields),
    });
    return { profileId: created.id, bankChangeId: null };
  }
  await updateProfile(tx, existing.id, profileValues(fields));
  if (existing.bankKey === bankKeyOf(fields.bank)) return { profileId: existing.id, bankChangeId: null };
  const change = await insertBankChange(tx, {
    organizationId,
    profileId: existing.id,
    ...bankValues(fields),
    requestedBy: user.id,
    requestedByName: user.name,
  }).catch((error: unknown) => {
    throw String(
      (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code,
    ) === '23505'
      ? new AppError(
          'conflict',
          'A bank account change for this vendor already waits for approval: decide that one first',
        )
      : error;
  });
  return { profileId: existing.id, bankChangeId: change.id };
}

/** `POST /api/vendor-submissions/{id}/approve`: writes the PAN-keyed vendor with its GSTINs, audited. */
export async function approveVendorSubmission(
  db: Db,
  { caller, id, jobs }: { caller: Caller; id: string; jobs?: JobSender | undefined },
) {
  const { user, membership } = caller;
  const result = await db.transaction(async (tx) => {
    const row = await requirePending(tx, caller, id);
    const fields = row.fields as StoredVendorFields;
    const written = await writeProfile(tx, { caller, fields });
    await attachGstins(tx, {
      organizationId: membership.organizationId,
      profileId: written.profileId,
      gstins: fields.gstins,
      name: fields.legalName,
      pan: fields.pan,
    });
    if (fields.udyam) await registerUdyam(tx, membership.organizationId, fields.gstins, fields.udyam);
    await decideSubmission(tx, { id: row.id, status: 'approved', note: null, userId: user.id });
    await setLinkStatus(tx, { linkId: row.linkId, status: 'approved' });
    const bank = maskAccount(fields.bank.accountNumber, fields.bank.ifsc);
    await recordAudit(tx, {
      organizationId: membership.organizationId,
      kind: 'vendor.submission_approved',
      actor: user,
      summary: written.bankChangeId
        ? `${user.name} approved ${fields.legalName}'s details; the new bank account ${bank} waits for a second person`
        : `${user.name} approved ${fields.legalName} (PAN ${fields.pan}) as a vendor`,
      details: {
        submissionId: row.id,
        profileId: written.profileId,
        pan: fields.pan,
        gstins: fields.gstins,
        bank,
      },
    });
    await recordActivity(tx, {
      organizationId: membership.organizationId,
      kind: 'vendor.onboarded',
      message: `${user.name} approved ${fields.legalName} as a vendor`,
      userId: user.id,
    });
    return written;
  });
  // Vendor names and holds show on the invoice flows' sheets: their `flow-workbook` jobs rewrite them.
  await refreshFlowOutputs({ db, jobs }, membership.organizationId);
  return result;
}

/**
 * `POST /api/vendor-submissions/{id}/request-changes` and `/reject`: sends the form back (the same link
 * opens again, with the note) or closes it.
 */
export async function decideVendorSubmission(
  db: Db,
  {
    caller,
    id,
    decision,
    note,
  }: { caller: Caller; id: string; decision: 'changes_requested' | 'rejected'; note: string },
): Promise<void> {
  const { user, membership } = caller;
  if (decision === 'changes_requested' && !note)
    throw new AppError('validation', 'Say what the vendor should change', { note: 'Say what to change' });
  await db.transaction(async (tx) => {
    const row = await requirePending(tx, caller, id);
    const name = (row.fields as StoredVendorFields).legalName;
    await decideSubmission(tx, { id: row.id, status: decision, note: note || null, userId: user.id });
    await setLinkStatus(tx, { linkId: row.linkId, status: decision, changesRequested: note || null });
    await recordAudit(tx, {
      organizationId: membership.organizationId,
      kind: decision === 'rejected' ? 'vendor.submission_rejected' : 'vendor.submission_returned',
      actor: user,
      summary:
        decision === 'rejected'
          ? `${user.name} rejected ${name}'s details`
          : `${user.name} sent ${name}'s form back: ${note}`,
      details: { submissionId: row.id, note },
    });
  });
}

/** `GET /api/vendor-bank-changes`: new bank accounts waiting for a second person. */
export async function listVendorBankChanges(db: Db, caller: Caller): Promise<{ items: VendorBankChange[] }> {
  const rows = await listPendingBankChanges(db, caller.membership.organizationId);
  return {
    items: rows.map(({ change, profile }) => ({
      id: change.id,
      vendorName: profile.legalName,
      pan: profile.pan,
      before: `${profile.bankAccount} (${profile.bankIfsc}, ${profile.bankName})`,
      after: `${change.bankAccount} (${change.bankIfsc}, ${change.bankName})`,
      requestedBy: change.requestedByName,
      requestedAt: change.createdAt.toISOString(),
    })),
  };
}

/**
 * `POST /api/vendor-bank-changes/{id}/approve` or `/reject`: the second person's decision. Approval needs
 * someone other than the person who asked; it takes the account (still refused if another vendor holds it
 * now) and releases the hold on the vendor's invoices.
 */
export async function decideVendorBankChange(
  db: Db,
  {
    caller,
    id,
    approve,
    jobs,
  }: { caller: Caller; id: string; approve: boolean; jobs?: JobSender | undefined },
): Promise<void> {
  const { user, membership } = caller;
  await db.transaction(async (tx) => {
    const found = UUID_RE.test(id)
      ? await lockPendingBankChange(tx, membership.organizationId, id)
      : undefined;
    if (!found) throw new AppError('not_found', 'No bank account change waiting by that id');
    const { change, profile } = found;
    if (approve) {
      requireBankChangeByAnother(user, change.requestedBy);
      const holder = await findBankHolder(tx, {
        organizationId: membership.organizationId,
        bankKey: change.bankKey,
        exceptId: profile.id,
      });
      if (holder) throw new AppError('conflict', `This bank account already belongs to ${holder}`);
      await updateProfile(tx, profile.id, {
        bankHolderName: change.bankHolderName,
        bankAccount: change.bankAccount,
        bankIfsc: change.bankIfsc,
        bankName: change.bankName,
        bankKey: change.bankKey,
      });
    }
    await decideBankChange(tx, { id: change.id, status: approve ? 'approved' : 'rejected', userId: user.id });
    const after = maskAccount(change.bankAccount, change.bankIfsc);
    await recordAudit(tx, {
      organizationId: membership.organizationId,
      kind: approve ? 'vendor.bank_change_approved' : 'vendor.bank_change_rejected',
      actor: user,
      summary: approve
        ? `${user.name} approved ${profile.legalName}'s new bank account ${after} (asked by ${change.requestedByName})`
        : `${user.name} refused ${profile.legalName}'s new bank account ${after}`,
      details: { bankChangeId: change.id, profileId: profile.id, requestedBy: change.requestedBy },
    });
  });
  // Vendor names and holds show on the invoice flows' sheets: their `flow-workbook` jobs rewrite them.
  await refreshFlowOutputs({ db, jobs }, membership.organizationId);
}

/**
 * The Udyam details a vendor gave become its MSME registration for that financial year, on each of its
 * GSTINs (MSME payment deadlines are worked out per vendor and year from it).
 */
async function registerUdyam(
  tx: Db,
  organizationId: string,
  gstins: string[],
  udyam: NonNullable<StoredVendorFields['udyam']>,
): Promise<void> {
  const financialYear = Number(udyam.financialYear.slice(0, 4));
  for (const vendorId of await vendorIdsByGstin(tx, organizationId, gstins))
    await upsertRegistration(tx, {
      organizationId,
      vendorId,
      financialYear,
      udyam: udyam.number,
      category: udyam.category,
      activity: udyam.activity,
      writtenAgreement: udyam.writtenAgreement,
      agreedDays: udyam.writtenAgreement ? udyam.agreedDays : null,
    });
}
