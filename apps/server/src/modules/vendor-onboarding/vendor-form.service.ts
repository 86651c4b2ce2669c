import { readFile } from 'node:fs/promises';
import {
  type UploadResult,
  VENDOR_DOCUMENT_LABELS,
  type VendorDocumentKind,
  type VendorFormFields,
  type VendorLockableField,
  type VendorPrefill,
} from '@bahi/contracts';
import type { ReceivedFile } from '../../adapters/sources/upload.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../jobs/registry.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordActivity } from '../activity/activity.service.ts';
import { findFlowById } from '../flows/flows.repo.ts';
import { startRun } from '../runs/runs.service.ts';
import { addToInbox } from '../uploads/uploads.service.ts';
import { lookupIfsc } from './ifsc.ts';
import { openVendorLink } from './vendor-links.service.ts';
import {
  claimLinkForSubmission,
  insertSubmission,
  listLinkDocuments,
  markUploadsFromLink,
  upsertLinkDocument,
} from './vendor-onboarding.repo.ts';

/** What a submission keeps: the form as sent, the account number once, and the bank the IFSC names. */
export type StoredVendorFields = Omit<VendorFormFields, 'bank'> & {
  bank: { holderName: string; accountNumber: string; ifsc: string; bankName: string };
};

/** A locked field the vendor changed anyway (the form greys them; a crafted request is still refused). */
function checkLocked(fields: VendorFormFields, prefill: VendorPrefill, locked: VendorLockableField[]) {
  const problems: Record<string, string> = {};
  for (const key of locked) {
    const before = JSON.stringify(prefill[key] ?? null);
    const after = JSON.stringify(key === 'tradeName' && !fields.tradeName ? null : fields[key]);
    if (before !== after) problems[key] = 'This was filled in by the finance team and cannot be changed here';
  }
  return problems;
}

/**
 * `POST /api/vendor-form/{token}`: the vendor's one submission. The schema has checked every field (PAN,
 * GSTINs, Udyam, account typed twice); here the IFSC is checked against the bank and branch list, locked
 * fields against what the link filled in, and a cancelled cheque must be attached.
 */
export async function submitVendorForm(
  db: Db,
  { token, fields }: { token: string; fields: VendorFormFields },
): Promise<void> {
  const { link } = await openVendorLink(db, token, { mustBeOpen: true });
  const problems = checkLocked(fields, link.prefill as VendorPrefill, link.locked as VendorLockableField[]);
  const ifsc = lookupIfsc(fields.bank.ifsc);
  if (!ifsc.ok) problems['bank.ifsc'] = ifsc.message;
  const documents = await listLinkDocuments(db, [link.id]);
  if (!documents.some((d) => d.kind === 'cancelled_cheque'))
    problems.documents =
      'Attach a cancelled cheque (a photo or a PDF) so the finance team can check the account';
  const first = Object.values(problems)[0];
  if (first) throw new AppError('validation', first, problems);
  const { accountNumberConfirm: _typedTwice, ...bank } = fields.bank;
  const stored: StoredVendorFields = { ...fields, bank: { ...bank, bankName: ifsc.ok ? ifsc.bankName : '' } };
  await db.transaction(async (tx) => {
    if (!(await claimLinkForSubmission(tx, link.id)))
      throw new AppError('conflict', 'This form was already sent.');
    await insertSubmission(tx, { organizationId: link.organizationId, linkId: link.id, fields: stored });
    await recordActivity(tx, {
      organizationId: link.organizationId,
      kind: 'vendor.submitted',
      message: `${fields.legalName} sent their vendor details for review`,
      userId: null,
    });
  });
}

/** The file types a document may be, by their first bytes (the name and the browser's type are not trusted). */
function sniffDocumentType(head: Uint8Array): string | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  return null;
}

/** `POST /api/vendor-form/{token}/documents/{kind}`: attaches (or replaces) a cancelled cheque or certificate. */
export async function attachVendorDocument(
  db: Db,
  { token, kind, file }: { token: string; kind: VendorDocumentKind; file: ReceivedFile },
) {
  const { link } = await openVendorLink(db, token, { mustBeOpen: true });
  const data = await readFile(file.path);
  const contentType = sniffDocumentType(data.subarray(0, 8));
  if (!contentType)
    throw new AppError(
      'validation',
      `The ${VENDOR_DOCUMENT_LABELS[kind].toLowerCase()} must be a PDF, JPEG or PNG file`,
      {
        file: 'Choose a PDF, JPEG or PNG file',
      },
    );
  await upsertLinkDocument(db, {
    organizationId: link.organizationId,
    linkId: link.id,
    kind,
    fileName: file.name,
    contentType,
    data,
  });
  const documents = await listLinkDocuments(db, [link.id]);
  return documents.find((d) => d.kind === kind)!;
}

/**
 * `POST /api/vendor-form/{token}/invoices`: the vendor's invoices go into the flow the finance team chose
 * for the link, marked with the link (so with the vendor), and a run of the flow starts to read them; they
 * then follow the usual review. A run already going leaves them for the next one.
 */
export async function uploadVendorInvoices(
  db: Db,
  {
    env,
    jobs,
    token,
    files,
  }: { env: Env; jobs: JobSender | undefined; token: string; files: ReceivedFile[] },
): Promise<UploadResult> {
  const { link } = await openVendorLink(db, token, { mustBeOpen: false });
  const flow = link.invoiceFlowId ? await findFlowById(db, link.invoiceFlowId) : undefined;
  if (!flow || flow.organizationId !== link.organizationId)
    throw new AppError(
      'not_found',
      'This link does not take invoices. Send them to the finance team as before.',
    );
  const { rows, result } = await addToInbox(db, { env, flow, files, uploadedByUserId: null });
  await markUploadsFromLink(db, { uploadIds: rows.map((r) => r.id), linkId: link.id });
  if (rows.length > 0) await startVendorRun(db, { env, jobs, flowId: flow.id, vendorName: link.vendorName });
  return result;
}

async function startVendorRun(
  db: Db,
  {
    env,
    jobs,
    flowId,
    vendorName,
  }: { env: Env; jobs: JobSender | undefined; flowId: string; vendorName: string },
) {
  const flow = (await findFlowById(db, flowId))!;
  try {
    await startRun(db, { env, jobs, user: null, flow, automatic: `${vendorName} uploaded invoices` });
  } catch (error) {
    // A run already going, or a flow that cannot start now: the files wait in the inbox for the next run.
    if (!(error instanceof AppError)) throw error;
  }
}
