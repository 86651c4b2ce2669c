import { z } from 'zod';
import { MSME_MAX_PAYMENT_DAYS, paymentTermsDaysMessage, UDYAM_PATTERN } from './reconcile.ts';
import { safeText } from './text.ts';

// The MSME screen's API: each vendor's Udyam category per financial year, payments made to MSME
// suppliers (typed or imported from a bank statement), written objections, the bank rate, and every
// covered invoice's 45-day clock. Amounts in rupees.

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD');

/** Udyam categories. Micro and small are owed the 45-day rule; medium are shown as not covered. */
export const MsmeCategorySchema = z.enum(['micro', 'small', 'medium']);
/** Udyam activity. Traders are shown as not covered. */
export const MsmeActivitySchema = z.enum(['manufacturing', 'services', 'trading']);

/** A financial year by its first calendar year (2025 = April 2025 to March 2026). */
export const FinancialYearSchema = z.coerce
  .number()
  .int('Choose a financial year')
  .min(2006, 'The MSMED Act applies from 2006-07')
  .max(2100, 'Choose a financial year');

/** A vendor's registration for one financial year, as a person sets it. */
export const MsmeRegistrationInputSchema = z.object({
  vendorId: z.string().uuid('Choose a vendor'),
  financialYear: FinancialYearSchema,
  udyam: z
    .string()
    .trim()
    .toUpperCase()
    .regex(UDYAM_PATTERN, 'An Udyam number looks like UDYAM-MH-26-0012345')
    .nullable(),
  category: MsmeCategorySchema,
  activity: MsmeActivitySchema,
  /** A payment period was agreed in writing. */
  writtenAgreement: z.boolean(),
  agreedDays: z
    .number(paymentTermsDaysMessage)
    .int(paymentTermsDaysMessage)
    .min(0, paymentTermsDaysMessage)
    .max(MSME_MAX_PAYMENT_DAYS, paymentTermsDaysMessage)
    .nullable(),
});
/** A vendor's registration for a year, as a person sets it. */
export type MsmeRegistrationInput = z.infer<typeof MsmeRegistrationInputSchema>;
/** A vendor's registration for a year. */
export const MsmeRegistrationSchema = MsmeRegistrationInputSchema.extend({ udyam: z.string().nullable() });
/** A vendor's registration for a year. */
export type MsmeRegistration = z.infer<typeof MsmeRegistrationSchema>;

/** A payment to a supplier, as typed. Tied to one invoice, or to the vendor (oldest due invoice first). */
export const MsmePaymentInputSchema = z.object({
  vendorId: z.string().uuid('Choose a vendor'),
  invoiceId: z.string().uuid().nullable(),
  date: isoDate,
  amount: z
    .number('Enter the amount paid in rupees')
    .positive('Enter the amount paid in rupees, more than zero')
    .max(1e11, 'That amount is too large')
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'Use at most two decimals (paise)'),
  reference: safeText().trim().min(1, 'Enter the bank reference (UTR or cheque number)').max(100),
  /** Why it was paid late, for MSME Form-1. */
  delayReason: safeText().trim().max(300).nullable(),
});
/** A payment as typed. */
export type MsmePaymentInput = z.infer<typeof MsmePaymentInputSchema>;

/** A recorded payment. */
export const MsmePaymentSchema = MsmePaymentInputSchema.extend({
  id: z.string(),
  vendorName: z.string(),
  source: z.enum(['typed', 'import']),
  userName: z.string(),
});
/** A recorded payment. */
export type MsmePayment = z.infer<typeof MsmePaymentSchema>;

/** A bank statement CSV, as text. */
export const MsmeImportInputSchema = z.object({
  csv: safeText().min(1, 'The file is empty').max(900_000, 'A statement may be at most 900 KB; split it'),
});
/** What an import did. */
export const MsmeImportResultSchema = z.object({
  imported: z.number().int(),
  /** Rows already recorded (same vendor, date, amount and reference): not added twice. */
  alreadyRecorded: z.number().int(),
});
/** What an import did. */
export type MsmeImportResult = z.infer<typeof MsmeImportResultSchema>;

/** A written rejection of or objection to an invoice's goods or services. */
export const MsmeObjectionInputSchema = z
  .object({
    invoiceId: z.string().uuid('Choose an invoice'),
    raisedOn: isoDate,
    resolvedOn: isoDate.nullable(),
    note: safeText().trim().min(1, 'Say what was objected to').max(300),
  })
  .refine((o) => o.resolvedOn === null || o.resolvedOn >= o.raisedOn, {
    message: 'It cannot be resolved before it was raised',
    path: ['resolvedOn'],
  });
/** An objection as typed. */
export type MsmeObjectionInput = z.infer<typeof MsmeObjectionInputSchema>;
/** A recorded objection. */
export const MsmeObjectionSchema = z.object({
  id: z.string(),
  raisedOn: z.string(),
  resolvedOn: z.string().nullable(),
  note: z.string(),
});
/** Marking an objection resolved. */
export const MsmeObjectionResolveSchema = z.object({ resolvedOn: isoDate });

/** A bank rate notified by the Reserve Bank, from the day it took effect. */
export const MsmeBankRateSchema = z.object({
  id: z.string(),
  effectiveFrom: z.string(),
  bankRatePct: z.number(),
  addedBy: z.string(),
});
/** A recorded bank rate. */
export type MsmeBankRate = z.infer<typeof MsmeBankRateSchema>;

/** `POST /api/msme/bank-rates`: a rate and the day it took effect (the same day again replaces it). */
export const MsmeBankRateInputSchema = z.object({
  effectiveFrom: isoDate,
  bankRatePct: z
    .number('Enter the bank rate in percent')
    .gt(0, 'Enter the bank rate in percent, more than zero')
    .max(50, 'Enter the bank rate in percent (at most 50)'),
});
/** A bank rate to record. */
export type MsmeBankRateInput = z.infer<typeof MsmeBankRateInputSchema>;

/** `GET /api/msme/settings`: the bank rate history, latest first. */
export const MsmeSettingsSchema = z.object({ bankRates: z.array(MsmeBankRateSchema) });
/** The MSME settings. */
export type MsmeSettings = z.infer<typeof MsmeSettingsSchema>;

/** How the acceptance date was found. */
export const MsmeAcceptanceSchema = z.enum([
  'goods_receipt',
  'objection_resolved',
  'assumed_invoice_date',
  'objection_open',
]);

/** One invoice of an MSME vendor with its clock. */
export const MsmeInvoiceSchema = z.object({
  invoice: z.object({
    id: z.string(),
    flowId: z.string(),
    fileName: z.string(),
    documentNumber: z.string().nullable(),
  }),
  vendorId: z.string(),
  vendorName: z.string(),
  invoiceDate: z.string(),
  amount: z.number(),
  financialYear: z.number(),
  covered: z.boolean(),
  notCoveredReason: z.string().nullable(),
  acceptedOn: z.string().nullable(),
  acceptance: MsmeAcceptanceSchema,
  days: z.number(),
  dueDate: z.string().nullable(),
  paidOnTime: z.number(),
  paidLate: z.number(),
  outstanding: z.number(),
  daysLeft: z.number().nullable(),
  /** The bank rate in force on the due date (interest runs at three times it); null when none is recorded. */
  bankRatePct: z.number().nullable(),
  /** Section 16 interest to date; null when no bank rate is recorded as early as the due date. */
  interest: z.number().nullable(),
  objections: z.array(MsmeObjectionSchema),
});
/** One invoice with its clock. */
export type MsmeInvoice = z.infer<typeof MsmeInvoiceSchema>;

/** A vendor as the MSME screen lists it. */
export const MsmeVendorSchema = z.object({
  id: z.string(),
  name: z.string(),
  gstin: z.string().nullable(),
  pan: z.string().nullable(),
  registrations: z.array(MsmeRegistrationSchema),
});
/** A vendor on the MSME screen. */
export type MsmeVendor = z.infer<typeof MsmeVendorSchema>;

/** `GET /api/msme`. */
export const MsmeViewSchema = z.object({
  today: z.string(),
  /** The bank rate history, latest first (empty: no interest estimate). */
  bankRates: z.array(MsmeBankRateSchema),
  totals: z.object({
    outstanding: z.number(),
    overdue: z.number(),
    overdueCount: z.number(),
    dueThisWeek: z.number(),
    dueThisWeekCount: z.number(),
    /** Null when no bank rate is recorded at all. */
    interest: z.number().nullable(),
    /** Late invoices whose due date is before the first recorded rate: their interest is not in the total. */
    interestUnpriced: z.number(),
  }),
  /** Covered invoices with money owed, soonest due first; then the ones not covered. */
  invoices: z.array(MsmeInvoiceSchema),
  vendors: z.array(MsmeVendorSchema),
  payments: z.array(MsmePaymentSchema),
});
/** The MSME screen. */
export type MsmeView = z.infer<typeof MsmeViewSchema>;

/** Query of the Form-1 workbook: the half-year. */
export const MsmeForm1QuerySchema = z.object({
  financialYear: FinancialYearSchema,
  half: z.enum(['H1', 'H2'], 'Choose April–September (H1) or October–March (H2)'),
});
/** Query of the 43B(h) workbook: the financial year. */
export const Msme43bhQuerySchema = z.object({ financialYear: FinancialYearSchema });
/** Query of `GET /api/msme`: the day the figures are wanted at (today in India when absent). */
export const MsmeViewQuerySchema = z.object({ asOf: isoDate.optional() });
/** A payment recorded. */
export const MsmePaymentRecordedSchema = z.object({ id: z.string() });
