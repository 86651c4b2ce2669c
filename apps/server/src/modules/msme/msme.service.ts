import {
  addDays,
  computeMsme,
  type MsmeInvoiceInput,
  type MsmeInvoiceResult,
  type MsmeRegistration,
} from '@bahi/compliance';
import type { MsmeInvoice, MsmeObjectionInput, MsmeRegistrationInput, MsmeView } from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { UUID_RE } from '../../lib/ids.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { getReconciliation } from '../reconcile/reconcile.service.ts';
import {
  type BankRateRow,
  insertObjection,
  invoiceExists,
  listBankRates,
  listDocumentDates,
  listMsmeVendors,
  listObjections,
  listPayments,
  listRegistrations,
  type ObjectionRow,
  type PaymentRow,
  type RegistrationRow,
  resolveObjectionRow,
  upsertRegistration,
  vendorExists,
} from './msme.repo.ts';
import { toBankRate } from './msme-bank-rates.ts';

/**
 * MSME payment compliance: the organisation's invoices from vendors with a Udyam category, each with
 * its acceptance date (the matched goods receipt's, from Reconcile; moved by a written objection; else
 * the invoice date, assumed), due date, payments, days left and section 16 interest. Computed on every
 * request by @bahi/compliance from the stored readings, registrations, objections and payments.
 */

const ISO = /^\d{4}-\d{2}-\d{2}$/;
const toPaise = (rupees: number) => Math.round(rupees * 100);
const toRupees = (paise: number) => paise / 100;

/** A registration row as the rules read it. */
function toRegistration(r: RegistrationRow): MsmeRegistration {
  return {
    financialYear: r.financialYear,
    udyam: r.udyam,
    category: r.category as MsmeRegistration['category'],
    activity: r.activity as MsmeRegistration['activity'],
    writtenAgreement: r.writtenAgreement,
    agreedDays: r.agreedDays,
  };
}

/** Everything computed for an organisation as of a date: the screen and the workbooks read this. */
export interface MsmeBook {
  asOf: string;
  bankRates: BankRateRow[];
  vendors: Awaited<ReturnType<typeof listMsmeVendors>>;
  registrations: RegistrationRow[];
  payments: PaymentRow[];
  objections: ObjectionRow[];
  inputs: MsmeInvoiceInput[];
  results: MsmeInvoiceResult[];
  /** What the screen shows of each invoice besides the clock. */
  meta: Map<string, { flowId: string; fileName: string; documentNumber: string | null }>;
}

/**
 * The organisation's MSME book as of `asOf` (today in India by default). Only invoices of vendors with a
 * registration in some year take part; held copies of other invoices never do.
 */
export async function loadMsmeBook(db: Db, membership: Membership, asOf?: string): Promise<MsmeBook> {
  const organizationId = membership.organizationId;
  const [recon, vendorRows, registrations, payments, objections, bankRates] = await Promise.all([
    getReconciliation(db, membership),
    listMsmeVendors(db, organizationId),
    listRegistrations(db, organizationId),
    listPayments(db, organizationId),
    listObjections(db, organizationId),
    listBankRates(db, organizationId),
  ]);
  const day = asOf ?? recon.today;
  const registered = new Set(registrations.map((r) => r.vendorId));
  const vendorByGstin = new Map(vendorRows.filter((v) => v.gstin).map((v) => [v.gstin!, v]));
  const invoices = recon.invoices.filter((i) => {
    const vendor = vendorByGstin.get(i.vendorGstin?.toUpperCase() ?? '');
    return !i.copyOf && vendor && registered.has(vendor.id) && ISO.test(i.documentDate ?? '') && i.total;
  });
  const grnDates = await listDocumentDates(
    db,
    organizationId,
    invoices.flatMap((i) => i.grns.map((g) => g.id)),
  );
  const inputs: MsmeInvoiceInput[] = invoices.map((i) => ({
    id: i.invoice.id,
    vendorId: vendorByGstin.get(i.vendorGstin!.toUpperCase())!.id,
    invoiceDate: i.documentDate!,
    // Several receipts for one invoice: the goods were accepted when the last arrived.
    grnDate:
      i.grns
        .map((g) => grnDates.get(g.id) ?? '')
        .filter((d) => ISO.test(d))
        .sort()
        .at(-1) ?? null,
    amountPaise: toPaise(i.total!),
    objections: objections
      .filter((o) => o.documentId === i.invoice.id)
      .map((o) => ({ raisedOn: o.raisedOn, resolvedOn: o.resolvedOn, note: o.note })),
  }));
  const byVendor = new Map<string, MsmeRegistration[]>();
  for (const r of registrations)
    byVendor.set(r.vendorId, [...(byVendor.get(r.vendorId) ?? []), toRegistration(r)]);
  const results = computeMsme(inputs, {
    registrations: byVendor,
    payments: payments.map((p) => ({
      id: p.id,
      vendorId: p.vendorId,
      invoiceId: p.documentId,
      date: p.paidOn,
      amountPaise: p.amountPaise,
      delayReason: p.delayReason,
    })),
    asOf: day,
    bankRates: bankRates.map((r) => ({ from: r.effectiveFrom, pct: r.bankRatePct })),
  });
  const meta = new Map(
    invoices.map((i) => [
      i.invoice.id,
      { flowId: i.invoice.flowId, fileName: i.invoice.fileName, documentNumber: i.invoice.documentNumber },
    ]),
  );
  return {
    asOf: day,
    bankRates,
    vendors: vendorRows,
    registrations,
    payments,
    objections,
    inputs,
    results,
    meta,
  };
}

/** One invoice as the screen shows it. */
function toInvoice(book: MsmeBook, r: MsmeInvoiceResult, index: number): MsmeInvoice {
  const input = book.inputs[index]!;
  return {
    invoice: { id: r.id, ...book.meta.get(r.id)! },
    vendorId: r.vendorId,
    vendorName: book.vendors.find((v) => v.id === r.vendorId)?.name ?? '',
    invoiceDate: input.invoiceDate,
    amount: toRupees(input.amountPaise),
    financialYear: r.financialYear,
    covered: r.coverage.covered,
    notCoveredReason: r.coverage.reason,
    acceptedOn: r.acceptedOn,
    acceptance: r.acceptance,
    days: r.days,
    dueDate: r.dueDate,
    paidOnTime: toRupees(r.paidOnTimePaise),
    paidLate: toRupees(r.paidLatePaise),
    outstanding: toRupees(r.outstandingPaise),
    daysLeft: r.daysLeft,
    bankRatePct: r.bankRatePct,
    interest: r.interestPaise === null ? null : toRupees(r.interestPaise),
    objections: book.objections
      .filter((o) => o.documentId === r.id)
      .map((o) => ({ id: o.id, raisedOn: o.raisedOn, resolvedOn: o.resolvedOn, note: o.note })),
  };
}

/** Covered invoices with money owed first (soonest due first), then paid ones, then not covered. */
function workOrder(a: MsmeInvoice, b: MsmeInvoice): number {
  const rank = (i: MsmeInvoice) => (!i.covered ? 2 : i.outstanding > 0 ? 0 : 1);
  return (
    rank(a) - rank(b) ||
    (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999') ||
    a.invoiceDate.localeCompare(b.invoiceDate)
  );
}

/** `GET /api/msme`: every invoice's clock, this week's payments, overdue totals and interest. */
export async function getMsmeView(db: Db, membership: Membership, asOf?: string): Promise<MsmeView> {
  const book = await loadMsmeBook(db, membership, asOf);
  const invoices = book.results.map((r, i) => toInvoice(book, r, i)).sort(workOrder);
  const owed = invoices.filter((i) => i.covered && i.outstanding > 0 && i.daysLeft !== null);
  const overdue = owed.filter((i) => i.daysLeft! < 0);
  const weekEnd = addDays(book.asOf, 7);
  const thisWeek = owed.filter((i) => i.dueDate! <= weekEnd);
  const sumPaise = (list: MsmeInvoice[], pick: (i: MsmeInvoice) => number) =>
    toRupees(list.reduce((s, i) => s + toPaise(pick(i)), 0));
  const vendorName = new Map(book.vendors.map((v) => [v.id, v.name]));
  return {
    today: book.asOf,
    bankRates: book.bankRates.map(toBankRate),
    totals: {
      outstanding: sumPaise(
        invoices.filter((i) => i.covered),
        (i) => i.outstanding,
      ),
      overdue: sumPaise(overdue, (i) => i.outstanding),
      overdueCount: overdue.length,
      dueThisWeek: sumPaise(thisWeek, (i) => i.outstanding),
      dueThisWeekCount: thisWeek.length,
      interest: book.bankRates.length === 0 ? null : sumPaise(invoices, (i) => i.interest ?? 0),
      interestUnpriced: book.bankRates.length === 0 ? 0 : invoices.filter((i) => i.interest === null).length,
    },
    invoices,
    vendors: book.vendors.map((v) => ({
      ...v,
      registrations: book.registrations.filter((r) => r.vendorId === v.id).map(toRegistrationView),
    })),
    payments: book.payments.slice(0, 200).map((p) => ({
      id: p.id,
      vendorId: p.vendorId,
      vendorName: vendorName.get(p.vendorId) ?? '',
      invoiceId: p.documentId,
      date: p.paidOn,
      amount: toRupees(p.amountPaise),
      reference: p.reference,
      delayReason: p.delayReason,
      source: p.source as 'typed' | 'import',
      userName: p.userName,
    })),
  };
}

function toRegistrationView(r: RegistrationRow) {
  return { vendorId: r.vendorId, ...toRegistration(r) };
}

/** `PUT /api/msme/registrations`: a vendor's category, activity and agreement for a financial year. */
export async function saveRegistration(
  db: Db,
  { user, membership, input }: { user: SessionUser; membership: Membership; input: MsmeRegistrationInput },
) {
  if (!(await vendorExists(db, membership.organizationId, input.vendorId)))
    throw new AppError('not_found', 'No such vendor');
  const row = await upsertRegistration(db, {
    organizationId: membership.organizationId,
    vendorId: input.vendorId,
    financialYear: input.financialYear,
    udyam: input.udyam,
    category: input.category,
    activity: input.activity,
    writtenAgreement: input.writtenAgreement,
    agreedDays: input.writtenAgreement ? input.agreedDays : null,
  });
  await recordAudit(db, {
    organizationId: membership.organizationId,
    kind: 'vendor.updated',
    actor: user,
    summary: `${user.name} set a vendor's MSME category for ${input.financialYear}-${String((input.financialYear + 1) % 100).padStart(2, '0')} to ${input.category} (${input.activity})`,
    details: { vendorId: input.vendorId, msmeRegistration: input },
  });
  return toRegistrationView(row);
}

/** `POST /api/msme/objections`: a written rejection of an invoice's goods or services. */
export async function addObjection(
  db: Db,
  { user, membership, input }: { user: SessionUser; membership: Membership; input: MsmeObjectionInput },
) {
  if (!(await invoiceExists(db, membership.organizationId, input.invoiceId)))
    throw new AppError('not_found', 'No such invoice');
  const row = await insertObjection(db, {
    organizationId: membership.organizationId,
    documentId: input.invoiceId,
    raisedOn: input.raisedOn,
    resolvedOn: input.resolvedOn,
    note: input.note,
    userName: user.name,
  });
  await recordAudit(db, {
    organizationId: membership.organizationId,
    kind: 'vendor.updated',
    actor: user,
    documentId: input.invoiceId,
    summary: `${user.name} recorded a written objection raised on ${input.raisedOn}`,
    details: { objectionId: row.id, ...input },
  });
  return { id: row.id, raisedOn: row.raisedOn, resolvedOn: row.resolvedOn, note: row.note };
}

/** `PUT /api/msme/objections/{id}`: the day an objection was resolved (acceptance moves to it). */
export async function resolveObjection(
  db: Db,
  {
    user,
    membership,
    id,
    resolvedOn,
  }: { user: SessionUser; membership: Membership; id: string; resolvedOn: string },
) {
  const existing = UUID_RE.test(id)
    ? (await listObjections(db, membership.organizationId)).find((o) => o.id === id)
    : undefined;
  if (!existing) throw new AppError('not_found', 'No such objection');
  if (resolvedOn < existing.raisedOn)
    throw new AppError('validation', 'It cannot be resolved before it was raised', {
      resolvedOn: `Choose ${existing.raisedOn} or later`,
    });
  const row = (await resolveObjectionRow(db, { organizationId: membership.organizationId, id, resolvedOn }))!;
  await recordAudit(db, {
    organizationId: membership.organizationId,
    kind: 'vendor.updated',
    actor: user,
    documentId: row.documentId,
    summary: `${user.name} marked a written objection resolved on ${resolvedOn}`,
    details: { objectionId: id, resolvedOn },
  });
  return { id: row.id, raisedOn: row.raisedOn, resolvedOn: row.resolvedOn, note: row.note };
}
