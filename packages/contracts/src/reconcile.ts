import { z } from 'zod';
import { VendorTdsSchema } from './compliance.ts';
import { safeText } from './text.ts';

/**
 * The Reconcile screen's shapes: the three-way match of `contracts/reconciliation.md` over the
 * organisation's read documents, with the documents named for people and a person's overrides.
 */

/** Reason codes of reconciliation/v1. */
export const reconcileReasonCodes = [
  'no_po',
  'vendor_mismatch',
  'no_receipt',
  'over_billed',
  'price_variance',
  'unmatched_line',
  'amount_mismatch',
  'duplicate_invoice',
] as const;
/** A reconciliation/v1 reason code. */
export type ReconcileReasonCode = (typeof reconcileReasonCodes)[number];

const reasonWords: Record<ReconcileReasonCode, string> = {
  no_po: 'No purchase order found for it',
  vendor_mismatch: 'The purchase order is from another vendor (GSTIN)',
  no_receipt: 'Nothing received yet against this line',
  over_billed: 'Billed more than was received',
  price_variance: 'Rate differs from the purchase order',
  unmatched_line: 'A line that is on no purchase-order line',
  amount_mismatch: 'Line amount is not quantity × rate',
  duplicate_invoice: 'The same invoice was already billed',
};

/** A reconciliation reason in words. */
export function describeReconcileReason(code: string): string {
  return reasonWords[code as ReconcileReasonCode] ?? code;
}

/** A document the match refers to, named for a person and linking to its review screen. */
export const MatchedDocumentRefSchema = z.object({
  id: z.string(),
  flowId: z.string(),
  fileName: z.string(),
  documentNumber: z.string().nullable(),
});

/** One line's evidence side by side: what the invoice bills, what the PO ordered, what the GRNs accepted. */
export const MatchLineSchema = z.object({
  line: z.number().int(),
  poLine: z.number().int().nullable(),
  status: z.enum(['matched', 'matched_within_tolerance', 'exception']),
  description: z.string().nullable(),
  billed: z.number().nullable(),
  rate: z.number().nullable(),
  poDescription: z.string().nullable(),
  ordered: z.number().nullable(),
  poRate: z.number().nullable(),
  received: z.number().nullable(),
  alreadyBilled: z.number().nullable(),
});

/** A person's decision to pay an invoice despite its exceptions, with why. */
export const MatchOverrideSchema = z.object({
  reason: z.string(),
  userName: z.string(),
  at: z.string(),
  /** The reason codes it was given for: a new exception is not covered by it. */
  codes: z.array(z.string()),
});

/** What Reconcile says to do with an invoice, after people's decisions. */
export const invoiceEffectiveStatuses = [
  'matched',
  'matched_within_tolerance',
  'exception',
  'overridden',
  'no_po_needs_approval',
  'no_po_approved',
] as const;
/** What Reconcile says to do with an invoice. */
export type InvoiceEffectiveStatus = (typeof invoiceEffectiveStatuses)[number];

/** An invoice's status in words, as the screen and the workbook say it. */
export const invoiceStatusWords: Record<InvoiceEffectiveStatus, string> = {
  matched: 'Matched',
  matched_within_tolerance: 'Matched within tolerance',
  exception: 'Exception',
  overridden: 'Cleared by a person',
  no_po_needs_approval: 'No PO — needs approval',
  no_po_approved: 'No PO — approved',
};

/** Whether to pay, in words: a no-PO invoice of a service waits for approval, it is not refused. */
export function describePayable(match: { payable: string; effectiveStatus: string }): string {
  if (match.effectiveStatus === 'no_po_needs_approval') return 'Approve to pay';
  return match.payable === 'yes' ? 'Pay' : match.payable === 'no' ? 'Do not pay' : 'Hold';
}

/** One invoice as matched. */
export const InvoiceMatchSchema = z.object({
  invoice: MatchedDocumentRefSchema,
  vendorName: z.string().nullable(),
  vendorGstin: z.string().nullable(),
  documentDate: z.string().nullable(),
  total: z.number().nullable(),
  poNumber: z.string().nullable(),
  po: MatchedDocumentRefSchema.nullable(),
  grns: z.array(MatchedDocumentRefSchema),
  /** The match's verdict (reconciliation/v1). */
  status: z.enum(['matched', 'matched_within_tolerance', 'exception']),
  shouldBePaid: z.enum(['yes', 'no', 'exception']),
  /**
   * What to do with it: after a person's override `overridden` and payable; an invoice of a vendor or flow
   * that needs no purchase order, found without one, `no_po_needs_approval` (held until a person approves
   * it, in Review or here) then `no_po_approved` (payable).
   */
  effectiveStatus: z.enum(invoiceEffectiveStatuses),
  payable: z.enum(['yes', 'no', 'exception']),
  /** Its values are verified (every check passed, or a person approved it); otherwise awaiting review. */
  verified: z.boolean(),
  /**
   * The document this invoice looks like a copy of, while no person has said it is not one: held as the
   * duplicate (never paid, out of every total) until decided in Review.
   */
  copyOf: MatchedDocumentRefSchema.nullable(),
  reasons: z.array(z.object({ code: z.string(), line: z.number().int().nullable(), message: z.string() })),
  lines: z.array(MatchLineSchema),
  override: MatchOverrideSchema.nullable(),
  /**
   * The MSME payment clock (Income-tax Act section 43B(h)) for a vendor with an Udyam number: goods
   * accepted on the latest GRN's date, paid within the agreed days (at most 45; 15 when none agreed).
   * `acceptedOn` null: no goods receipt yet, the clock has not started.
   */
  msme: z
    .object({
      udyam: z.string(),
      acceptedOn: z.string().nullable(),
      days: z.number().int(),
      payBy: z.string().nullable(),
      daysLeft: z.number().int().nullable(),
    })
    .nullable(),
  /** Every override ever given, oldest first. */
  overrides: z.array(MatchOverrideSchema),
});
/** One invoice as matched. */
export type InvoiceMatch = z.infer<typeof InvoiceMatchSchema>;

/** One purchase order with its receipt and billing state. */
export const PoMatchSchema = z.object({
  po: MatchedDocumentRefSchema,
  vendorName: z.string().nullable(),
  vendorGstin: z.string().nullable(),
  receipt: z.enum(['none', 'partial', 'full', 'over']),
  billing: z.enum(['none', 'partial', 'full', 'over']),
  lines: z.array(
    z.object({
      line: z.number().int(),
      description: z.string().nullable(),
      ordered: z.number(),
      received: z.number(),
      billed: z.number(),
    }),
  ),
});
/** One purchase order as matched. */
export type PoMatch = z.infer<typeof PoMatchSchema>;

/** Match tolerances: quantity and rate in percent, amount in rupees per line. */
export const TolerancesSchema = z.object({
  qtyPct: z.number().min(0, 'Cannot be negative').max(100, 'At most 100 %'),
  pricePct: z.number().min(0, 'Cannot be negative').max(100, 'At most 100 %'),
  amountRupees: z
    .number()
    .min(0, 'Cannot be negative')
    .max(100000, 'At most ₹1,00,000 a line')
    .refine((v) => Math.round(v * 100) === Math.round(v * 100 * 1e6) / 1e6, 'Rupees and paise only'),
});
/** Match tolerances. */
export type Tolerances = z.infer<typeof TolerancesSchema>;

/** Money summed over invoices, split by how far it can be trusted (rupees). */
export const MoneyTrustSchema = z.object({
  /** Invoices whose values are verified (checks passed or approved by a person). */
  verified: z.number(),
  /** Invoices still awaiting review: shown apart, never as if true. */
  awaitingReview: z.number(),
  /** How many invoices each sum counts. */
  verifiedCount: z.number().int(),
  awaitingReviewCount: z.number().int(),
});
/** Money summed over invoices, split by trust. */
export type MoneyTrust = z.infer<typeof MoneyTrustSchema>;

/** `GET /api/reconcile`. */
export const ReconciliationSchema = z.object({
  invoices: z.array(InvoiceMatchSchema),
  pos: z.array(PoMatchSchema),
  counts: z.object({
    invoices: z.number().int(),
    matched: z.number().int(),
    exceptions: z.number().int(),
    overridden: z.number().int(),
    /** No-PO invoices waiting for a person's approval. */
    needsApproval: z.number().int(),
    /** Possible copies held until decided in Review (out of every total). */
    heldCopies: z.number().int(),
    pos: z.number().int(),
  }),
  /** Invoice totals, copies held out; verified apart from awaiting review. */
  totals: MoneyTrustSchema,
  /** Invoice flows, and whether each needs no purchase order. */
  flows: z.array(z.object({ id: z.string(), name: z.string(), noPoNeeded: z.boolean() })),
  /** The organisation's tolerances (a vendor's own, where set, apply to its invoices). */
  tolerances: TolerancesSchema,
  /** MSME invoices whose pay-by date is past or within the next 7 days, soonest first (invoice ids). */
  msmeDue: z.array(z.string()),
  /** The day the clock was read on (India). */
  today: z.string(),
});
/** The Reconcile screen's data. */
export type Reconciliation = z.infer<typeof ReconciliationSchema>;

/** The Reconcile screen's status filters: what a person works through, and what is done. */
export const reconcileViews = ['all', 'exception', 'needs_approval', 'held', 'matched', 'cleared'] as const;
/** A Reconcile status filter. */
export type ReconcileView = (typeof reconcileViews)[number];

/** Invoices shown per page of the Reconcile screen. */
export const RECONCILE_PAGE_SIZE = 50;

/** `GET /api/reconcile?view=&vendor=&q=&page=`: one page of the match, filtered on the server. */
export const ReconcileQuerySchema = z.object({
  view: z.enum(reconcileViews).default('all'),
  /** A vendor's GSTIN, exactly. */
  vendor: safeText().trim().max(20).optional(),
  /** Invoice or PO number, file name, vendor name or GSTIN, any part of it. */
  q: safeText().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
});
/** A Reconcile query. */
export type ReconcileQuery = z.infer<typeof ReconcileQuerySchema>;

/** `GET /api/reconcile`: the counts and totals of everything, and one page of the invoices asked for. */
export const ReconcilePageSchema = ReconciliationSchema.extend({
  /** The invoices of this page, exceptions first. */
  invoices: z.array(InvoiceMatchSchema),
  /** Purchase orders (of the vendor asked for): the first 50, `posTotal` says how many there are. */
  posTotal: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** How many invoices the filters find. */
  filtered: z.number().int(),
  /** The vendors of the invoices, for the vendor filter, by name. */
  vendors: z.array(z.object({ gstin: z.string(), name: z.string(), invoices: z.number().int() })),
  /** MSME invoices due soon, in full (they may not be on this page). */
  msmeDueInvoices: z.array(InvoiceMatchSchema),
});
/** One page of the Reconcile screen. */
export type ReconcilePage = z.infer<typeof ReconcilePageSchema>;

/** `POST /api/reconcile/invoices/:id/override`: pay it anyway, and why (kept with who and when). */
export const OverrideExceptionSchema = z.object({
  reason: safeText().trim().min(10, 'Say why in a few words (at least 10 characters)').max(1000),
});

/** A vendor of the organisation: what its documents say, and what a person added. */
export const VendorSchema = z.object({
  id: z.string(),
  gstin: z.string().nullable(),
  pan: z.string().nullable(),
  stateCode: z.string().nullable(),
  /** The name a person chose, else the name its documents print most recently. */
  name: z.string(),
  displayName: z.string().nullable(),
  namesSeen: z.array(z.string()),
  paymentTermsDays: z.number().int().nullable(),
  msmeUdyam: z.string().nullable(),
  /** Tolerances agreed with this vendor; a null field takes the organisation's. */
  tolerances: z.object({
    qtyPct: z.number().nullable(),
    pricePct: z.number().nullable(),
    amountRupees: z.number().nullable(),
  }),
  documents: z.number().int(),
  firstDocumentDate: z.string().nullable(),
  lastDocumentDate: z.string().nullable(),
  /** Sum of its verified invoices' totals, in rupees (copies held as duplicates never count). */
  invoicedTotal: z.number(),
  /** Sum of its invoices still awaiting review, and how many: shown apart from the verified sum. */
  awaitingReviewTotal: z.number(),
  awaitingReviewInvoices: z.number().int(),
  /** Its invoices need no purchase order (a service, rent, travel, a utility). */
  noPoNeeded: z.boolean(),
  /** How its invoices are taxed at source. */
  tds: VendorTdsSchema,
  /** The vendor filled in the onboarding form and the finance team approved it (PAN, bank, Udyam). */
  onboarded: z.boolean(),
  /** A changed bank account waits for a second person: its invoices are on hold until then. */
  bankHold: z.boolean(),
});
/** A vendor of the organisation. */
export type Vendor = z.infer<typeof VendorSchema>;

/** An Udyam registration number: UDYAM-XX-00-0000000. */
export const UDYAM_PATTERN = /^UDYAM-[A-Z]{2}-\d{2}-\d{7}$/;

/**
 * The most days a buyer may agree to pay an MSME supplier in, counted from accepting the goods: the
 * MSMED Act, section 15 (with 15 days when nothing was agreed in writing). A vendor's agreed days are
 * used only for this deadline, so they are capped here, where the form and the server both read it.
 */
export const MSME_MAX_PAYMENT_DAYS = 45;

/** The field message for agreed payment days out of range: what the law allows, in words. */
export const paymentTermsDaysMessage = `Enter whole days from 0 to ${MSME_MAX_PAYMENT_DAYS}: the MSMED Act (section 15) allows at most ${MSME_MAX_PAYMENT_DAYS} days to pay an MSME supplier after acceptance. Leave it empty when nothing was agreed in writing (15 days).`;

/** `PATCH /api/vendors/:id`: what a person sets (null clears it). */
export const VendorUpdateSchema = z.object({
  displayName: safeText().trim().max(200).nullable().optional(),
  paymentTermsDays: z
    .number(paymentTermsDaysMessage)
    .int(paymentTermsDaysMessage)
    .min(0, paymentTermsDaysMessage)
    .max(MSME_MAX_PAYMENT_DAYS, paymentTermsDaysMessage)
    .nullable()
    .optional(),
  msmeUdyam: z
    .string()
    .trim()
    .toUpperCase()
    .regex(UDYAM_PATTERN, 'An Udyam number looks like UDYAM-MH-26-0012345')
    .nullable()
    .optional(),
  /** Its invoices need no purchase order: payable once approved instead of "Do not pay". */
  noPoNeeded: z.boolean().optional(),
  /** Tolerances agreed with the vendor (null fields: the organisation's). */
  tolerances: z
    .object({
      qtyPct: TolerancesSchema.shape.qtyPct.nullable(),
      pricePct: TolerancesSchema.shape.pricePct.nullable(),
      amountRupees: z.number().min(0).max(100000).nullable(),
    })
    .optional(),
  /** The vendor's TDS profile, replaced whole. */
  tds: VendorTdsSchema.optional(),
});
/** A vendor update. */
export type VendorUpdate = z.infer<typeof VendorUpdateSchema>;

/** `PUT /api/reconcile/flows/:id/no-po`: a flow whose invoices need no purchase order (or do again). */
export const FlowNoPoSchema = z.object({ noPoNeeded: z.boolean() });
