import type { MsmeImportResult, MsmePaymentInput } from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { UUID_RE } from '../../lib/ids.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import {
  deletePaymentRow,
  insertPayments,
  invoiceExists,
  listMsmeVendors,
  vendorExists,
} from './msme.repo.ts';
import { loadMsmeBook, type MsmeBook } from './msme.service.ts';
import { readStatement, type StatementRow } from './msme-csv.ts';

/** Payments to suppliers: typed one at a time, or imported from a bank statement CSV. */

const formatRupees = (paise: number) =>
  `₹${(paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** `POST /api/msme/payments`: one payment, typed. The same one again (vendor, date, amount, reference) is refused. */
export async function recordPayment(
  db: Db,
  { user, membership, input }: { user: SessionUser; membership: Membership; input: MsmePaymentInput },
) {
  const organizationId = membership.organizationId;
  if (!(await vendorExists(db, organizationId, input.vendorId)))
    throw new AppError('not_found', 'No such vendor');
  if (input.invoiceId && !(await invoiceExists(db, organizationId, input.invoiceId)))
    throw new AppError('not_found', 'No such invoice');
  const amountPaise = Math.round(input.amount * 100);
  const [row] = await insertPayments(db, [
    {
      organizationId,
      vendorId: input.vendorId,
      documentId: input.invoiceId,
      paidOn: input.date,
      amountPaise,
      reference: input.reference,
      delayReason: input.delayReason || null,
      source: 'typed',
      userId: user.id,
      userName: user.name,
    },
  ]);
  if (!row)
    throw new AppError(
      'conflict',
      'This payment is already recorded (same vendor, date, amount and reference)',
      {
        reference: 'Already recorded with this date and amount',
      },
    );
  await recordAudit(db, {
    organizationId,
    kind: 'vendor.updated',
    actor: user,
    documentId: input.invoiceId,
    summary: `${user.name} recorded a payment of ${formatRupees(amountPaise)} made on ${input.date} (${input.reference})`,
    details: { paymentId: row.id, vendorId: input.vendorId },
  });
  return row;
}

/** `DELETE /api/msme/payments/{id}`: a payment recorded by mistake. */
export async function removePayment(
  db: Db,
  { user, membership, id }: { user: SessionUser; membership: Membership; id: string },
): Promise<void> {
  const row = UUID_RE.test(id) ? await deletePaymentRow(db, membership.organizationId, id) : undefined;
  if (!row) throw new AppError('not_found', 'No such payment');
  await recordAudit(db, {
    organizationId: membership.organizationId,
    kind: 'vendor.updated',
    actor: user,
    documentId: row.documentId,
    summary: `${user.name} removed a payment of ${formatRupees(row.amountPaise)} made on ${row.paidOn} (${row.reference})`,
    details: { paymentId: row.id, vendorId: row.vendorId },
  });
}

/** The vendor and invoice a statement row names, or what is wrong with it. */
function resolveRow(
  row: StatementRow,
  { vendors, book }: { vendors: Awaited<ReturnType<typeof listMsmeVendors>>; book: MsmeBook },
): { vendorId: string; invoiceId: string | null } | string {
  const candidates = row.gstin
    ? vendors.filter((v) => v.gstin === row.gstin)
    : vendors.filter((v) => v.pan === row.pan || v.gstin?.slice(2, 12) === row.pan);
  const named = row.gstin ? `GSTIN ${row.gstin}` : `PAN ${row.pan}`;
  if (candidates.length === 0) return `Row ${row.line}: no vendor with ${named} in the vendor master`;
  const invoicesOf = (vendorId: string) =>
    book.inputs.filter(
      (i) =>
        i.vendorId === vendorId &&
        row.invoiceNumber !== null &&
        book.meta.get(i.id)?.documentNumber?.toUpperCase() === row.invoiceNumber.toUpperCase(),
    );
  const withInvoice = candidates.filter((v) => invoicesOf(v.id).length > 0);
  if (row.invoiceNumber && withInvoice.length === 0)
    return `Row ${row.line}: no invoice ${row.invoiceNumber} from ${named} on the MSME screen`;
  const chosen = row.invoiceNumber ? withInvoice : candidates;
  if (chosen.length > 1)
    return `Row ${row.line}: ${named} belongs to ${chosen.length} vendors; give the GSTIN or the invoice number`;
  const vendorId = chosen[0]!.id;
  return { vendorId, invoiceId: row.invoiceNumber ? (invoicesOf(vendorId)[0]?.id ?? null) : null };
}

/**
 * `POST /api/msme/payments/import`: a bank statement CSV. Every row is checked first; with any bad row
 * nothing is imported and each is named, so a fixed file can simply be imported again. Rows already
 * recorded are not added twice.
 */
export async function importPayments(
  db: Db,
  { user, membership, csv }: { user: SessionUser; membership: Membership; csv: string },
): Promise<MsmeImportResult> {
  const organizationId = membership.organizationId;
  const { rows, errors } = readStatement(csv);
  const [vendors, book] = await Promise.all([
    listMsmeVendors(db, organizationId),
    loadMsmeBook(db, membership),
  ]);
  const resolved = rows.map((row) => ({ row, to: resolveRow(row, { vendors, book }) }));
  for (const r of resolved) if (typeof r.to === 'string') errors.push(r.to);
  if (errors.length > 0) {
    const shown = errors.slice(0, 50);
    throw new AppError(
      'validation',
      `${errors.length === 1 ? 'One row needs' : `${errors.length} rows need`} fixing; nothing was imported. ${shown.join(' · ')}`,
      Object.fromEntries(shown.map((e, i) => [`csv.${i}`, e])),
    );
  }
  const added = await insertPayments(
    db,
    resolved.map(({ row, to }) => {
      const target = to as { vendorId: string; invoiceId: string | null };
      return {
        organizationId,
        vendorId: target.vendorId,
        documentId: target.invoiceId,
        paidOn: row.date,
        amountPaise: row.amountPaise,
        reference: row.reference,
        delayReason: row.delayReason,
        source: 'import',
        userId: user.id,
        userName: user.name,
      };
    }),
  );
  if (added.length > 0)
    await recordAudit(db, {
      organizationId,
      kind: 'vendor.updated',
      actor: user,
      summary: `${user.name} imported ${added.length} payment${added.length === 1 ? '' : 's'} to suppliers from a bank statement`,
      details: { paymentIds: added.map((p) => p.id) },
    });
  return { imported: added.length, alreadyRecorded: rows.length - added.length };
}
