/**
 * MSME payment rules (MSMED Act 2006, sections 2(b), 15 and 16; Income-tax Act section 43B(h); MSME
 * Form-1 under the Specified Companies order). Pure: invoices, registrations, objections and payments
 * in, each invoice's clock, the half-year Form-1 buckets and the year-end 43B(h) list out. Money is
 * integer paise; dates are ISO `YYYY-MM-DD`.
 */

import { daysBetween, financialYear } from './invoice-number.ts';

/** Udyam categories. Only micro and small enterprises are owed the 45-day rule. */
export const MSME_CATEGORIES = ['micro', 'small', 'medium'] as const;
/** A vendor's Udyam category for a financial year. */
export type MsmeCategory = (typeof MSME_CATEGORIES)[number];
/** What the enterprise does, as its Udyam registration says. Traders are not covered. */
export const MSME_ACTIVITIES = ['manufacturing', 'services', 'trading'] as const;
/** A vendor's Udyam activity. */
export type MsmeActivity = (typeof MSME_ACTIVITIES)[number];

/** Longest period the Act allows (section 15), and the Form-1 line between "within" and "beyond". */
export const MSME_MAX_DAYS = 45;
/** Days to pay when nothing was agreed in writing (section 15). */
export const MSME_DEFAULT_DAYS = 15;
/** A written objection counts only when raised within this many days of delivery (section 2(b)). */
export const MSME_OBJECTION_WINDOW_DAYS = 15;

/** A vendor's registration for one financial year (the year starting 1 April `financialYear`). */
export interface MsmeRegistration {
  financialYear: number;
  udyam: string | null;
  category: MsmeCategory;
  activity: MsmeActivity;
  writtenAgreement: boolean;
  /** Days agreed in writing (used only with `writtenAgreement`); capped at 45. */
  agreedDays: number | null;
}

/** A written rejection of or objection to the goods or services. */
export interface MsmeObjection {
  raisedOn: string;
  resolvedOn: string | null;
  note?: string | null;
}

/** A payment to the supplier, tied to one invoice or to the vendor (then applied oldest invoice first). */
export interface MsmePayment {
  id: string;
  vendorId: string;
  invoiceId: string | null;
  date: string;
  amountPaise: number;
  delayReason?: string | null;
}

/** A purchase invoice of a vendor. */
export interface MsmeInvoiceInput {
  id: string;
  vendorId: string;
  invoiceDate: string;
  /** Date of the goods receipt the invoice is matched with (the latest, when several). */
  grnDate: string | null;
  amountPaise: number;
  objections: MsmeObjection[];
}

/** Whether the 45-day rule covers a vendor, and why not. */
export interface MsmeCoverage {
  covered: boolean;
  reason: string | null;
}

/** One payment (or part of one) applied to an invoice. */
export interface AppliedPayment {
  paymentId: string;
  date: string;
  amountPaise: number;
  delayReason: string | null;
}

/** An invoice's MSME clock. */
export interface MsmeInvoiceResult {
  id: string;
  vendorId: string;
  financialYear: number;
  coverage: MsmeCoverage;
  /** Null while a written objection is open: the clock has not started. */
  acceptedOn: string | null;
  acceptance: 'goods_receipt' | 'objection_resolved' | 'assumed_invoice_date' | 'objection_open';
  days: number;
  dueDate: string | null;
  payments: AppliedPayment[];
  paidOnTimePaise: number;
  paidLatePaise: number;
  outstandingPaise: number;
  /** Days to the due date (negative once overdue); null when paid or no due date. */
  daysLeft: number | null;
  /** Section 16 interest on late and overdue amounts up to `asOf`; null without a bank rate. */
  /** The bank rate in force on the due date (section 16's rate is three times it); null when none is recorded. */
  bankRatePct: number | null;
  interestPaise: number | null;
}

/** ISO date plus days. */
export function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** ISO date plus calendar months (the 31st falls back to the month's last day). */
function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/** "2025-26" for the financial year starting in 2025. */
export function financialYearLabel(year: number): string {
  return `${year}-${String((year + 1) % 100).padStart(2, '0')}`;
}

/** Whether the Act's payment rule covers a registration (none recorded: not covered). */
export function msmeCoverage(reg: MsmeRegistration | undefined, year: number): MsmeCoverage {
  if (!reg) return { covered: false, reason: `No MSME category recorded for ${financialYearLabel(year)}` };
  if (reg.activity === 'trading')
    return { covered: false, reason: 'Trader: the 45-day rule does not cover trading enterprises' };
  if (reg.category === 'medium')
    return { covered: false, reason: 'Medium enterprise: the 45-day rule covers micro and small only' };
  return { covered: true, reason: null };
}

/** Days to pay after acceptance: what was agreed in writing, at most 45; 15 when nothing was. */
export function msmePaymentDays(reg: Pick<MsmeRegistration, 'writtenAgreement' | 'agreedDays'>): number {
  if (!reg.writtenAgreement || reg.agreedDays === null) return MSME_DEFAULT_DAYS;
  return Math.max(0, Math.min(reg.agreedDays, MSME_MAX_DAYS));
}

/**
 * The day of acceptance (section 2(b)): the goods receipt's date, else the invoice date (assumed). A
 * written objection raised within 15 days of delivery moves it to the day the objection was removed;
 * while one is open there is no acceptance yet.
 */
export function acceptanceOf(invoice: Pick<MsmeInvoiceInput, 'invoiceDate' | 'grnDate' | 'objections'>): {
  acceptedOn: string | null;
  acceptance: MsmeInvoiceResult['acceptance'];
} {
  const delivered = invoice.grnDate ?? invoice.invoiceDate;
  const counted = invoice.objections.filter(
    (o) => daysBetween(delivered, o.raisedOn) <= MSME_OBJECTION_WINDOW_DAYS,
  );
  if (counted.some((o) => o.resolvedOn === null)) return { acceptedOn: null, acceptance: 'objection_open' };
  const resolved = counted
    .map((o) => o.resolvedOn as string)
    .filter((d) => d > delivered)
    .sort()
    .at(-1);
  if (resolved) return { acceptedOn: resolved, acceptance: 'objection_resolved' };
  return invoice.grnDate
    ? { acceptedOn: invoice.grnDate, acceptance: 'goods_receipt' }
    : { acceptedOn: invoice.invoiceDate, acceptance: 'assumed_invoice_date' };
}

/**
 * Section 16 interest: compound with monthly rests at three times the bank rate, on `paise` from the
 * due date to `until`. Whole calendar months compound; the days left over run simple.
 */
export function msmeInterest(paise: number, { from, until, bankRatePct }: InterestPeriod): number {
  if (paise <= 0 || until <= from) return 0;
  const annual = (3 * bankRatePct) / 100;
  let months = 0;
  while (addMonths(from, months + 1) <= until) months++;
  const rest = daysBetween(addMonths(from, months), until);
  const factor = (1 + annual / 12) ** months * (1 + (annual * rest) / 365);
  return Math.round(paise * (factor - 1));
}

/** The period and rate of an interest estimate. */
export interface InterestPeriod {
  from: string;
  until: string;
  bankRatePct: number;
}

/**
 * Applies payments to invoices: one naming an invoice goes to it (any excess joins the vendor's
 * pool); the rest pays the vendor's invoices oldest due first, each payment in date order.
 */
export function applyPayments(
  invoices: Array<{ id: string; vendorId: string; amountPaise: number; order: string }>,
  payments: MsmePayment[],
): Map<string, AppliedPayment[]> {
  const left = new Map(invoices.map((i) => [i.id, i.amountPaise]));
  const applied = new Map<string, AppliedPayment[]>(invoices.map((i) => [i.id, []]));
  const byVendor = new Map<string, typeof invoices>();
  for (const i of [...invoices].sort((a, b) => a.order.localeCompare(b.order) || a.id.localeCompare(b.id)))
    byVendor.set(i.vendorId, [...(byVendor.get(i.vendorId) ?? []), i]);
  const give = (invoiceId: string, p: MsmePayment, amount: number) => {
    if (amount <= 0) return 0;
    const take = Math.min(amount, left.get(invoiceId) ?? 0);
    if (take <= 0) return 0;
    left.set(invoiceId, (left.get(invoiceId) ?? 0) - take);
    applied.get(invoiceId)!.push({
      paymentId: p.id,
      date: p.date,
      amountPaise: take,
      delayReason: p.delayReason ?? null,
    });
    return take;
  };
  const sorted = [...payments].sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
  for (const p of sorted) {
    let remaining = p.amountPaise;
    if (p.invoiceId && left.has(p.invoiceId)) remaining -= give(p.invoiceId, p, remaining);
    for (const inv of byVendor.get(p.vendorId) ?? []) remaining -= give(inv.id, p, remaining);
  }
  return applied;
}

/** A bank rate notified by the Reserve Bank, in percent, in force from `from` (ISO date) until the next. */
export interface BankRate {
  from: string;
  pct: number;
}

/**
 * The bank rate in force on `date`: the latest notified on or before it; null when none was recorded that
 * early. Section 16 takes the rate notified by the Reserve Bank, and the one that applies to an invoice is
 * the one in force on its appointed day (the due date), so a later change does not reprice old delays.
 */
export function bankRateOn(rates: readonly BankRate[], date: string): number | null {
  let best: BankRate | null = null;
  for (const r of rates) if (r.from <= date && (!best || r.from > best.from)) best = r;
  return best ? best.pct : null;
}

/** What the clock needs besides the invoices. */
export interface MsmeContext {
  registrations: Map<string, MsmeRegistration[]>;
  payments: MsmePayment[];
  /** Today (or the date the figures are wanted at). */
  asOf: string;
  /** The bank rates notified by the Reserve Bank with the dates they took effect; empty when none is set. */
  bankRates: readonly BankRate[];
}

/** The registration of a vendor for a financial year. */
export function registrationFor(
  registrations: Map<string, MsmeRegistration[]>,
  vendorId: string,
  year: number,
): MsmeRegistration | undefined {
  return registrations.get(vendorId)?.find((r) => r.financialYear === year);
}

/** Every invoice's MSME clock as of `ctx.asOf` (payments after it are not counted). */
export function computeMsme(invoices: MsmeInvoiceInput[], ctx: MsmeContext): MsmeInvoiceResult[] {
  const base = invoices.map((inv) => {
    const year = financialYear(inv.invoiceDate);
    const reg = registrationFor(ctx.registrations, inv.vendorId, year);
    const { acceptedOn, acceptance } = acceptanceOf(inv);
    const days = reg ? msmePaymentDays(reg) : MSME_DEFAULT_DAYS;
    const dueDate = acceptedOn ? addDays(acceptedOn, days) : null;
    return { inv, year, coverage: msmeCoverage(reg, year), acceptedOn, acceptance, days, dueDate };
  });
  const applied = applyPayments(
    base.map((b) => ({ ...b.inv, order: `${b.dueDate ?? '9999'}|${b.inv.invoiceDate}` })),
    ctx.payments.filter((p) => p.date <= ctx.asOf),
  );
  return base.map((b) => {
    const payments = applied.get(b.inv.id) ?? [];
    const late = (p: AppliedPayment) => b.dueDate !== null && p.date > b.dueDate;
    const paidLatePaise = sum(payments.filter(late));
    const paidOnTimePaise = sum(payments) - paidLatePaise;
    const outstandingPaise = b.inv.amountPaise - sum(payments);
    return {
      id: b.inv.id,
      vendorId: b.inv.vendorId,
      financialYear: b.year,
      coverage: b.coverage,
      acceptedOn: b.acceptedOn,
      acceptance: b.acceptance,
      days: b.days,
      dueDate: b.dueDate,
      payments,
      paidOnTimePaise,
      paidLatePaise,
      outstandingPaise,
      daysLeft: b.dueDate && outstandingPaise > 0 ? daysBetween(ctx.asOf, b.dueDate) : null,
      bankRatePct: b.dueDate ? bankRateOn(ctx.bankRates, b.dueDate) : null,
      interestPaise: interestOf(b.dueDate, { payments, outstandingPaise, covered: b.coverage.covered }, ctx),
    };
  });
}

function sum(payments: AppliedPayment[]): number {
  return payments.reduce((s, p) => s + p.amountPaise, 0);
}

function interestOf(
  dueDate: string | null,
  inv: { payments: AppliedPayment[]; outstandingPaise: number; covered: boolean },
  ctx: MsmeContext,
): number | null {
  if (ctx.bankRates.length === 0) return null;
  if (!inv.covered || !dueDate) return 0;
  const late = inv.payments.some((p) => p.date > dueDate) || (inv.outstandingPaise > 0 && ctx.asOf > dueDate);
  if (!late) return 0;
  const bankRatePct = bankRateOn(ctx.bankRates, dueDate);
  // Money is late but no rate was recorded as early as its due date: no figure rather than a wrong one.
  if (bankRatePct === null) return null;
  const rate = { from: dueDate, bankRatePct };
  let total = msmeInterest(inv.outstandingPaise, { ...rate, until: ctx.asOf });
  for (const p of inv.payments) total += msmeInterest(p.amountPaise, { ...rate, until: p.date });
  return total;
}

/** A half-year of Form-1: April–September (`H1`) or October–March (`H2`) of a financial year. */
export interface HalfYear {
  financialYear: number;
  half: 'H1' | 'H2';
}

/** The first and last day of a half-year. */
export function halfYearRange({ financialYear: y, half }: HalfYear): { from: string; to: string } {
  return half === 'H1'
    ? { from: `${y}-04-01`, to: `${y}-09-30` }
    : { from: `${y}-10-01`, to: `${y + 1}-03-31` };
}

/** One supplier's line of MSME Form-1 for a half-year. */
export interface Form1Row {
  vendorId: string;
  paidWithin45: { count: number; paise: number };
  paidLater: { count: number; paise: number };
  outstandingWithin45: { count: number; paise: number };
  outstandingBeyond45: { count: number; paise: number };
  /** Reasons for delay people gave on late payments, and open objections' notes. */
  reasons: string[];
}

/**
 * Form-1 buckets per supplier for a half-year, over covered invoices accepted by its last day: payments
 * made in the half-year, paid within or beyond 45 days of acceptance; and what is still unpaid at its
 * last day, within or beyond 45 days. `results` must be computed as of the half-year's last day or later.
 */
export function form1Rows(
  invoices: MsmeInvoiceInput[],
  results: MsmeInvoiceResult[],
  period: HalfYear,
): Form1Row[] {
  const { from, to } = halfYearRange(period);
  const inputOf = new Map(invoices.map((i) => [i.id, i]));
  const rows = new Map<string, Form1Row>();
  const rowOf = (vendorId: string) => {
    let row = rows.get(vendorId);
    if (!row) {
      row = {
        vendorId,
        paidWithin45: { count: 0, paise: 0 },
        paidLater: { count: 0, paise: 0 },
        outstandingWithin45: { count: 0, paise: 0 },
        outstandingBeyond45: { count: 0, paise: 0 },
        reasons: [],
      };
      rows.set(vendorId, row);
    }
    return row;
  };
  for (const r of results) {
    if (!r.coverage.covered || !r.acceptedOn || r.acceptedOn > to) continue;
    const limit = addDays(r.acceptedOn, MSME_MAX_DAYS);
    const inHalf = r.payments.filter((p) => p.date >= from && p.date <= to);
    const within = inHalf.filter((p) => p.date <= limit);
    const later = inHalf.filter((p) => p.date > limit);
    const unpaid = inputOf.get(r.id)!.amountPaise - sum(r.payments.filter((p) => p.date <= to));
    if (within.length === 0 && later.length === 0 && unpaid <= 0) continue;
    const row = rowOf(r.vendorId);
    bump(row.paidWithin45, within);
    bump(row.paidLater, later);
    for (const p of later) if (p.delayReason) row.reasons.push(p.delayReason);
    if (unpaid > 0) bump(to <= limit ? row.outstandingWithin45 : row.outstandingBeyond45, unpaid);
  }
  for (const inv of invoices)
    for (const o of inv.objections)
      if (o.note && o.raisedOn <= to && (o.resolvedOn === null || o.resolvedOn >= from))
        rows.get(inv.vendorId)?.reasons.push(o.note);
  return [...rows.values()].map((r) => ({ ...r, reasons: [...new Set(r.reasons)] }));
}

function bump(bucket: { count: number; paise: number }, what: AppliedPayment[] | number) {
  const paise = typeof what === 'number' ? what : sum(what);
  if (paise <= 0) return;
  bucket.count++;
  bucket.paise += paise;
}

/** An invoice on the year-end section 43B(h) list. */
export interface Section43bhRow {
  id: string;
  vendorId: string;
  dueDate: string;
  /** Unpaid at 31 March. */
  unpaidAtYearEndPaise: number;
  /** Of that, paid after 31 March but by the due date: deductible this year. */
  allowedPaise: number;
  /** Past its due date unpaid or paid late: not deductible this year (allowed the year it is paid). */
  disallowedPaise: number;
  /** Due after today and not yet paid: deductible only if paid by the due date. */
  atRiskPaise: number;
}

/**
 * The section 43B(h) list of a financial year: covered invoices of the year unpaid at 31 March. What
 * remains unpaid beyond the due date is disallowed for the year. `results` as of today.
 */
export function section43bhRows(results: MsmeInvoiceResult[], financialYearStart: number): Section43bhRow[] {
  const yearEnd = `${financialYearStart + 1}-03-31`;
  const rows: Section43bhRow[] = [];
  for (const r of results) {
    if (!r.coverage.covered || r.financialYear !== financialYearStart || !r.dueDate) continue;
    const paid = r.payments.filter((p) => p.date <= yearEnd);
    const total = r.outstandingPaise + sum(r.payments);
    const unpaidAtYearEnd = total - sum(paid);
    if (unpaidAtYearEnd <= 0) continue;
    const allowed = sum(r.payments.filter((p) => p.date > yearEnd && p.date <= r.dueDate!));
    const paidLate = sum(r.payments.filter((p) => p.date > yearEnd && p.date > r.dueDate!));
    const stillDue = r.daysLeft !== null && r.daysLeft >= 0 ? r.outstandingPaise : 0;
    rows.push({
      id: r.id,
      vendorId: r.vendorId,
      dueDate: r.dueDate,
      unpaidAtYearEndPaise: unpaidAtYearEnd,
      allowedPaise: allowed,
      disallowedPaise: paidLate + (r.outstandingPaise - stillDue),
      atRiskPaise: stillDue,
    });
  }
  return rows;
}
