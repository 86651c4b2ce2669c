import { z } from 'zod';
import { safeText } from './text.ts';

// The GST & TDS screen's API: GSTR-2B files matched against the purchase register (contracts/compliance.md
// §1), the decisions people take on the matches, and TDS worked out per invoice (§2). Amounts in rupees.

/** The six tabs of the GST screen, in the order shown. */
export const GST_TABS = [
  'matched',
  'within_tolerance',
  'mismatch',
  'probable',
  'missing_in_2b',
  'missing_in_books',
] as const;
/** A tab of the GST screen. */
export type GstTab = (typeof GST_TABS)[number];

/** Tab names a finance person reads. */
export const GST_TAB_LABELS: Record<GstTab, string> = {
  matched: 'Matched',
  within_tolerance: 'Within tolerance',
  mismatch: 'Mismatch',
  probable: 'Probable',
  missing_in_2b: 'Missing in 2B',
  missing_in_books: 'Missing in books',
};

/** A return period `MMYYYY`, as the portal writes it. */
export const GstPeriodSchema = z.string().regex(/^(0[1-9]|1[0-2])[0-9]{4}$/, 'A period is MMYYYY (082025)');

/** One side of a row: the invoice as read, or the supplier's document as filed in GSTR-2B. */
export const GstSideSchema = z.object({
  gstin: z.string().nullable(),
  documentNumber: z.string().nullable(),
  documentDate: z.string().nullable(),
  placeOfSupply: z.string().nullable(),
  taxableValue: z.number().nullable(),
  igst: z.number(),
  cgst: z.number(),
  sgst: z.number(),
  cess: z.number(),
});
/** One side of a GST row. */
export type GstSide = z.infer<typeof GstSideSchema>;

/** What a person did to a row (kept with who and when; only ever added). */
export const GstDecisionSchema = z.object({
  id: z.string(),
  action: z.enum(['link', 'unlink', 'accept']),
  /** The 2B document the decision names. */
  gstr2bKey: z.string(),
  reason: z.string(),
  userName: z.string(),
  at: z.string(),
});
/** A decision on a GST row. */
export type GstDecision = z.infer<typeof GstDecisionSchema>;

/** One row of the GST screen: an invoice of the books, a 2B document, or both side by side. */
export const GstRowSchema = z.object({
  /** Stable key: `b:<document id>` for an invoice, `g:<2B key>` for a 2B document no invoice claimed. */
  key: z.string(),
  tab: z.enum(GST_TABS),
  /** The match's status (gstr2b/v1), or `duplicate_in_books` for a second copy of an invoice. */
  status: z.enum([
    'matched',
    'matched_within_tolerance',
    'mismatch',
    'probable_match',
    'missing_in_2b',
    'missing_in_books',
    'duplicate_in_books',
  ]),
  /** `linked` / `accepted` when a person's decision made the row what it is. */
  decided: z.enum(['linked', 'accepted', 'unlinked']).nullable(),
  /** The suggested Invoice Management System action (Bahi never suggests reject). */
  ims: z.enum(['accept', 'pending', 'none']),
  /** The 2B return period of the match, else the invoice's month (MMYYYY). */
  period: z.string().nullable(),
  /**
   * The buyer GSTIN the row belongs to: the GSTIN of the 2B file it is matched against (an invoice is
   * matched only against the 2B of the GSTIN it is billed to); null for files that name no GSTIN.
   */
  buyerGstin: z.string().nullable(),
  vendorName: z.string().nullable(),
  pan: z.string().nullable(),
  invoice: z
    .object({ id: z.string(), flowId: z.string(), fileName: z.string(), approved: z.boolean() })
    .nullable(),
  books: GstSideSchema.nullable(),
  gstr2b: GstSideSchema.extend({
    key: z.string(),
    period: z.string(),
    itcAvailable: z.boolean(),
    itcReason: z.string().nullable(),
  }).nullable(),
  differences: z.array(
    z.object({
      field: z.string(),
      books: z.union([z.string(), z.number()]).nullable(),
      gstr2b: z.union([z.string(), z.number()]).nullable(),
    }),
  ),
  /** Input tax credit the row carries (IGST + CGST + SGST + cess; the books' side when there is one). */
  itc: z.number(),
  decisions: z.array(GstDecisionSchema),
});
/** A GST row. */
export type GstRow = z.infer<typeof GstRowSchema>;

/** A GSTR-2B file uploaded for a period. */
export const Gstr2bFileSchema = z.object({
  id: z.string(),
  period: z.string(),
  /** The buyer's GSTIN the return is for. */
  gstin: z.string().nullable(),
  fileName: z.string(),
  documents: z.number().int(),
  sha256: z.string(),
  size: z.number().int(),
  uploadedBy: z.string(),
  uploadedAt: z.string(),
  /** False once a later, different file of the same period and GSTIN replaced it. */
  current: z.boolean(),
  /**
   * Whether `gstin` is one of the organisation's GSTINs (its profile): false means the file is another
   * business's 2B, or the profile lacks the GSTIN; null when the file names no GSTIN or the profile
   * lists none.
   */
  ownGstin: z.boolean().nullable(),
});
/** An uploaded GSTR-2B file. */
export type Gstr2bFile = z.infer<typeof Gstr2bFileSchema>;

/** `POST /api/gst/2b`: the file stored (or found again) and whether it was new. */
export const Gstr2bUploadResultSchema = z.object({ file: Gstr2bFileSchema, created: z.boolean() });
/** A GSTR-2B upload's answer. */
export type Gstr2bUploadResult = z.infer<typeof Gstr2bUploadResultSchema>;

/** A supplier (PAN) roll-up line. */
export const GstSupplierSchema = z.object({
  pan: z.string(),
  vendorName: z.string().nullable(),
  gstins: z.array(z.string()),
  counts: z.record(z.enum(GST_TABS), z.number().int()),
  /** ITC in the books, in 2B, and what is at risk (rows not matched or accepted). */
  itcBooks: z.number(),
  itcGstr2b: z.number(),
  itcAtRisk: z.number(),
});
/** A supplier line of the GST screen. */
export type GstSupplier = z.infer<typeof GstSupplierSchema>;

/** `GET /api/gst?period=`: the GST screen. */
export const GstReconciliationSchema = z.object({
  /** Periods with a 2B file, newest first. */
  periods: z.array(z.string()),
  /** The period shown (null: no 2B file yet). */
  period: z.string().nullable(),
  /** Buyer GSTINs with a 2B file for the period shown (own GSTINs first); each is matched on its own. */
  gstins: z.array(z.object({ gstin: z.string().nullable(), ownGstin: z.boolean().nullable() })),
  /** The buyer GSTIN shown (null: the period's file names none). */
  gstin: z.string().nullable(),
  /** The files of the period shown, every GSTIN's. */
  files: z.array(Gstr2bFileSchema),
  tabs: z.array(z.object({ tab: z.enum(GST_TABS), count: z.number().int(), itc: z.number() })),
  rows: z.array(GstRowSchema),
  suppliers: z.array(GstSupplierSchema),
  /** Amount tolerance per head, in rupees. */
  toleranceRupees: z.number(),
});
/** The GST screen's data. */
export type GstReconciliation = z.infer<typeof GstReconciliationSchema>;

/** A GSTIN as a query value: 15 letters and digits. */
const GstinQuerySchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[0-9A-Z]{15}$/, 'A GSTIN is 15 letters and digits');

/** `?period=MMYYYY&gstin=` (optional: the newest period, its first buyer GSTIN). */
export const GstPeriodQuerySchema = z.object({
  period: GstPeriodSchema.optional(),
  gstin: GstinQuerySchema.optional(),
});

/** The largest GSTR-2B amount tolerance accepted, in rupees. */
export const GSTR2B_MAX_TOLERANCE_RUPEES = 10000;

/** `GET`/`PUT /api/gst/settings`: the organisation's GSTR-2B matching settings. */
export const GstSettingsSchema = z.object({
  /**
   * Amount tolerance in rupees, applied to each of taxable value, IGST, CGST, SGST and cess: within it
   * an invoice is "matched within tolerance" (contracts/compliance.md §1; default ₹1.00).
   */
  toleranceRupees: z
    .number({ message: 'Enter an amount in rupees, such as 1 or 5.50' })
    .min(0, 'Cannot be negative')
    .max(GSTR2B_MAX_TOLERANCE_RUPEES, 'At most ₹10,000')
    .refine((v) => Math.round(v * 100) === Math.round(v * 100 * 1e6) / 1e6, 'Rupees and paise only'),
});
/** GSTR-2B matching settings. */
export type GstSettings = z.infer<typeof GstSettingsSchema>;

/** `POST /api/gst/decisions`: link, unlink or accept, always with a written reason. */
export const GstDecisionInputSchema = z.object({
  action: z.enum(['link', 'unlink', 'accept']),
  /** The invoice (a document id). */
  documentId: z.string().uuid('Choose an invoice'),
  /** The 2B document (its key); for link, the one to link, else the invoice's current match. */
  gstr2bKey: safeText().min(1).max(300),
  reason: safeText().trim().min(10, 'Say why in a few words (at least 10 characters)').max(1000),
});
/** A decision request. */
export type GstDecisionInput = z.infer<typeof GstDecisionInputSchema>;

/** TDS sections Bahi works out (contracts/compliance.md §2). */
export const TDS_SECTION_NAMES = [
  '194C',
  '194J(a)',
  '194J(b)',
  '194H',
  '194I(a)',
  '194I(b)',
  '194Q',
] as const;
/** A TDS section. */
export type TdsSectionName = (typeof TDS_SECTION_NAMES)[number];

/** What each section covers, in words. */
export const TDS_SECTION_LABELS: Record<TdsSectionName, string> = {
  '194C': 'contractors',
  '194J(a)': 'technical services',
  '194J(b)': 'professional fees',
  '194H': 'commission',
  '194I(a)': 'rent of machinery',
  '194I(b)': 'rent of buildings',
  '194Q': 'purchase of goods',
};

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A date is YYYY-MM-DD');

/** A vendor's TDS profile: how its invoices are taxed at source. */
export const VendorTdsSchema = z.object({
  /** The section every line falls under; null: by each line's SAC. */
  section: z.enum(TDS_SECTION_NAMES).nullable(),
  /** False when the income-tax portal shows the PAN inoperative (higher rate). */
  panOperative: z.boolean(),
  /** A lower-deduction certificate (section 197). */
  ldc: z
    .object({
      number: safeText().trim().max(40).nullable(),
      section: z.enum(TDS_SECTION_NAMES),
      rate: z.number().min(0, 'A rate is 0 % or more').max(30, 'A rate is at most 30 %'),
      from: isoDate,
      to: isoDate,
      /** Amount the certificate covers this year, in rupees. */
      limitRupees: z.number().min(0).max(1e11),
    })
    .refine((l) => l.from <= l.to, { message: 'The certificate must end after it starts', path: ['to'] })
    .nullable(),
});
/** A vendor's TDS profile. */
export type VendorTds = z.infer<typeof VendorTdsSchema>;

/** One section (at one rate) of an invoice's TDS. Amounts in rupees. */
export const TdsLineSchema = z.object({
  section: z.enum(TDS_SECTION_NAMES),
  base: z.number(),
  taxable: z.number(),
  rate: z.number(),
  tds: z.number(),
  reason: z.string(),
});

/** An invoice's TDS. */
export const TdsInvoiceSchema = z.object({
  invoice: z.object({ id: z.string(), flowId: z.string(), fileName: z.string(), approved: z.boolean() }),
  vendorName: z.string().nullable(),
  vendorPan: z.string().nullable(),
  documentNumber: z.string().nullable(),
  documentDate: z.string().nullable(),
  sections: z.array(TdsLineSchema),
  tds: z.number(),
  /** The invoice total less TDS (null without a total). */
  netPayable: z.number().nullable(),
});
/** An invoice's TDS. */
export type TdsInvoice = z.infer<typeof TdsInvoiceSchema>;

/** A month's TDS by section, and when it must be deposited. */
export const TdsMonthSchema = z.object({
  /** `YYYY-MM`. */
  month: z.string(),
  /** The 7th of the next month (30 April for March). */
  dueDate: z.string(),
  sections: z.array(
    z.object({
      section: z.enum(TDS_SECTION_NAMES),
      invoices: z.number().int(),
      base: z.number(),
      tds: z.number(),
    }),
  ),
  tds: z.number(),
  /** Invoices of the month with a TDS section (taxed or still under its threshold). */
  invoices: z.number().int(),
  /** Of them, those with TDS to deduct. */
  withTds: z.number().int(),
  /** Invoices of the month with TDS that no person approved yet. */
  awaitingApproval: z.number().int(),
});
/** A month's TDS. */
export type TdsMonth = z.infer<typeof TdsMonthSchema>;

/** `GET /api/tds?month=`: the TDS screen. */
export const TdsViewSchema = z.object({
  rulesVersion: z.string(),
  turnoverAbove10cr: z.boolean(),
  /** Months with invoices, newest first (`YYYY-MM`). */
  months: z.array(z.string()),
  summary: TdsMonthSchema.nullable(),
  invoices: z.array(TdsInvoiceSchema),
});
/** The TDS screen's data. */
export type TdsView = z.infer<typeof TdsViewSchema>;

/** `?month=YYYY-MM` (optional: the newest). */
export const TdsMonthQuerySchema = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'A month is YYYY-MM')
    .optional(),
});

/** `GET/PUT /api/tds/settings`: the organisation's TDS setting. */
export const TdsSettingsSchema = z.object({
  /** Turnover passed ₹10 crore last financial year: 194Q applies to goods bought. */
  turnoverAbove10cr: z.boolean(),
});
/** The organisation's TDS setting. */
export type TdsSettings = z.infer<typeof TdsSettingsSchema>;
