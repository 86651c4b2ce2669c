import { isValidIndianPhone, PAN_HOLDER_TYPES, STATES, validateGstin } from '@bahi/india';
import { z } from 'zod';
import { TDS_SECTION_NAMES } from './compliance.ts';
import { UDYAM_PATTERN } from './reconcile.ts';
import { safeText } from './text.ts';

// Vendor onboarding (issue #30): a finance person makes a link, the vendor fills in the form below without
// an account, and the finance team reviews the submission against the vendor master. One schema serves the
// public form in the browser and the server, so both refuse the same things in the same words.

/** How a vendor is constituted, and which PAN holder types (the PAN's 4th character) fit each. */
export const VENDOR_CONSTITUTIONS = {
  proprietorship: { label: 'Proprietorship', panTypes: ['P'] },
  partnership: { label: 'Partnership firm', panTypes: ['F'] },
  llp: { label: 'Limited liability partnership (LLP)', panTypes: ['F'] },
  private_limited: { label: 'Private limited company', panTypes: ['C'] },
  public_limited: { label: 'Public limited company', panTypes: ['C'] },
  huf: { label: 'Hindu undivided family (HUF)', panTypes: ['H'] },
  trust: { label: 'Trust', panTypes: ['T'] },
  society: { label: 'Society or association', panTypes: ['A', 'B', 'T'] },
  government: { label: 'Government body or local authority', panTypes: ['G', 'L'] },
  other: { label: 'Other', panTypes: ['A', 'B', 'J', 'L', 'G', 'P', 'C', 'F', 'H', 'T'] },
} as const;
/** One constitution. */
export type VendorConstitution = keyof typeof VENDOR_CONSTITUTIONS;
const CONSTITUTIONS = Object.keys(VENDOR_CONSTITUTIONS) as [VendorConstitution, ...VendorConstitution[]];

/** MSME categories and activities as the Udyam certificate states them. */
export const MSME_CATEGORIES = ['micro', 'small', 'medium'] as const;
/** What the Udyam certificate says the enterprise does. */
export const MSME_ACTIVITIES = ['manufacturing', 'services', 'trading'] as const;

/** Bank code, a zero, branch code. */
export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;
/** Indian bank account numbers run from 9 to 18 digits. */
export const BANK_ACCOUNT_PATTERN = /^\d{9,18}$/;
/** Longest agreed payment period the MSMED Act allows (section 15). */
export const MSME_MAX_AGREED_DAYS = 45;

/** Documents a vendor attaches. */
export const VENDOR_DOCUMENT_KINDS = ['cancelled_cheque', 'udyam_certificate', 'ldc_certificate'] as const;
/** One kind of attached document. */
export type VendorDocumentKind = (typeof VENDOR_DOCUMENT_KINDS)[number];
/** What each attached document is, in words. */
export const VENDOR_DOCUMENT_LABELS: Record<VendorDocumentKind, string> = {
  cancelled_cheque: 'Cancelled cheque',
  udyam_certificate: 'Udyam registration certificate',
  ldc_certificate: 'Lower deduction certificate',
};
/** Largest attached document: a scan of a cheque or a certificate. */
export const VENDOR_DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;

const upper = (max: number) =>
  safeText()
    .trim()
    .max(max)
    .transform((v) => v.replace(/\s+/g, '').toUpperCase());

/** The Udyam registration as the form takes it. */
export const VendorUdyamSchema = z.object({
  number: upper(30),
  category: z.enum(MSME_CATEGORIES, { message: 'Choose the category on the certificate' }),
  activity: z.enum(MSME_ACTIVITIES, { message: 'Choose the activity on the certificate' }),
  /** Financial year the category is for, e.g. `2026-27`. */
  financialYear: z.string().regex(/^\d{4}-\d{2}$/, 'Write the financial year as 2026-27'),
  writtenAgreement: z.boolean(),
  /** Agreed days to pay, when there is a written agreement. */
  agreedDays: z
    .number({ message: 'Write the number of days, like 30' })
    .int('Write whole days, like 30')
    .min(1, 'Write the number of days, like 30')
    .max(365)
    .nullable(),
});
/** The Udyam registration. */
export type VendorUdyam = z.infer<typeof VendorUdyamSchema>;

/** One contact person at the vendor. */
export const VendorContactSchema = z.object({
  name: safeText().trim().min(1, 'Write the contact’s name').max(120),
  email: safeText()
    .trim()
    .max(200)
    .email('Write an e-mail address like accounts@example.in')
    .or(z.literal('')),
  phone: safeText().trim().max(20),
});

/** What a vendor fills in (the account number is typed twice; only one copy is kept). */
export const VendorFormFieldsBaseSchema = z.object({
  legalName: safeText().trim().min(2, 'Write the legal name as on the PAN').max(200),
  tradeName: safeText().trim().max(200),
  constitution: z.enum(CONSTITUTIONS, { message: 'Choose how the business is constituted' }),
  pan: upper(20),
  gstins: z.array(upper(20)).max(40, 'At most 40 GSTINs'),
  udyam: VendorUdyamSchema.nullable(),
  bank: z.object({
    holderName: safeText().trim().min(2, 'Write the account holder’s name').max(200),
    accountNumber: upper(30),
    accountNumberConfirm: upper(30),
    ifsc: upper(20),
  }),
  contacts: z.array(VendorContactSchema).min(1, 'Add at least one contact').max(5),
  tdsSection: z.enum(TDS_SECTION_NAMES).nullable(),
  ldc: z
    .object({
      number: safeText().trim().min(1, 'Write the certificate number').max(40),
      section: z.enum(TDS_SECTION_NAMES),
      rate: z
        .number({ message: 'Write the rate on the certificate, like 1' })
        .min(0, 'A rate is 0 % or more')
        .max(30, 'A rate is at most 30 %'),
      from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose the date it starts'),
      to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose the date it ends'),
      limitRupees: z
        .number({ message: 'Write the amount the certificate covers, in rupees' })
        .min(0)
        .max(1e11),
    })
    .nullable(),
});

type FormFields = z.output<typeof VendorFormFieldsBaseSchema>;

/** Problems with the PAN and GSTINs, keyed by field path, in words that say what to fix. */
function checkIdentity(f: FormFields, problems: Record<string, string>): void {
  if (!/^[A-Z]{5}\d{4}[A-Z]$/.test(f.pan)) {
    problems.pan = 'A PAN is 10 characters: five letters, four digits, one letter (like ABCPE1234F)';
  } else if (!PAN_HOLDER_TYPES[f.pan[3]!]) {
    problems.pan = `The 4th character of a PAN says who holds it (P, C, H, F, A, T, B, L, J or G); “${f.pan[3]}” is none of them`;
  } else if (!(VENDOR_CONSTITUTIONS[f.constitution].panTypes as readonly string[]).includes(f.pan[3]!)) {
    problems.pan = `This PAN belongs to ${PAN_HOLDER_TYPES[f.pan[3]!]}, not a ${VENDOR_CONSTITUTIONS[f.constitution].label.toLowerCase()}: check the PAN or the constitution`;
  }
  const seen = new Set<string>();
  f.gstins.forEach((gstin, i) => {
    const key = `gstins.${i}`;
    const result = validateGstin(gstin);
    if (!result.ok) {
      problems[key] =
        result.problem === 'checksum'
          ? `${gstin} is not a valid GSTIN: its last character does not match the rest (check each character)`
          : result.problem === 'state_code'
            ? `${gstin} starts with ${gstin.slice(0, 2)}, which is not a GST state code`
            : 'A GSTIN is 15 characters: state code, PAN, entity number, Z and a check character';
    } else if (gstin.slice(2, 12) !== f.pan) {
      problems[key] =
        `${gstin} belongs to PAN ${gstin.slice(2, 12)}, not ${f.pan}: a GSTIN must contain the vendor’s PAN`;
    } else if (seen.has(gstin)) {
      problems[key] = `${gstin} is listed twice`;
    }
    seen.add(gstin);
  });
}

/** Problems with the Udyam registration, bank account and contacts. */
function checkUdyamAndBank(f: FormFields, problems: Record<string, string>): void {
  if (f.udyam) {
    if (!UDYAM_PATTERN.test(f.udyam.number))
      problems['udyam.number'] = 'A Udyam number looks like UDYAM-MH-01-0012345';
    else if (!STATES.some((s) => s.abbr === f.udyam!.number.slice(6, 8)))
      problems['udyam.number'] = `${f.udyam.number.slice(6, 8)} is not a state in a Udyam number`;
    if (f.udyam.writtenAgreement && f.udyam.agreedDays === null)
      problems['udyam.agreedDays'] = 'Write the days to pay agreed in writing';
    else if (f.udyam.agreedDays !== null && f.udyam.agreedDays > MSME_MAX_AGREED_DAYS)
      problems['udyam.agreedDays'] =
        `The MSMED Act allows at most ${MSME_MAX_AGREED_DAYS} days; longer terms do not count`;
  }
  if (!BANK_ACCOUNT_PATTERN.test(f.bank.accountNumber))
    problems['bank.accountNumber'] = 'An account number is 9 to 18 digits, as on the cheque';
  else if (f.bank.accountNumber !== f.bank.accountNumberConfirm)
    problems['bank.accountNumberConfirm'] = 'The two account numbers differ: type it again';
  if (!IFSC_PATTERN.test(f.bank.ifsc))
    problems['bank.ifsc'] =
      'An IFSC is 11 characters: four letters, a zero, then six letters or digits (like HDFC0001234)';
  f.contacts.forEach((c, i) => {
    if (!c.email && !c.phone) problems[`contacts.${i}.phone`] = 'Give a phone number or an e-mail address';
    else if (c.phone && !isValidIndianPhone(c.phone))
      problems[`contacts.${i}.phone`] = 'Write a 10-digit mobile or a landline with its STD code';
  });
  if (f.ldc && f.ldc.from > f.ldc.to) problems['ldc.to'] = 'The certificate must end after it starts';
}

/** Every problem of a filled-in form, keyed by dotted field path; empty when it may be sent. */
export function checkVendorForm(f: FormFields): Record<string, string> {
  const problems: Record<string, string> = {};
  checkIdentity(f, problems);
  checkUdyamAndBank(f, problems);
  return problems;
}

/** The form as the vendor sends it, with every cross-field check. */
export const VendorFormFieldsSchema = VendorFormFieldsBaseSchema.superRefine((f, ctx) => {
  for (const [path, message] of Object.entries(checkVendorForm(f)))
    ctx.addIssue({
      code: 'custom',
      message,
      path: path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
    });
});
/** The form as sent. */
export type VendorFormFields = z.output<typeof VendorFormFieldsSchema>;
/** The form as typed. */
export type VendorFormInput = z.input<typeof VendorFormFieldsSchema>;

/** Fields a link may fill in ahead and lock. */
export const VENDOR_LOCKABLE_FIELDS = ['legalName', 'tradeName', 'pan', 'gstins'] as const;
/** A field a link may fill in ahead. */
export type VendorLockableField = (typeof VENDOR_LOCKABLE_FIELDS)[number];

/** What a link fills in ahead. */
export const VendorPrefillSchema = z.object({
  legalName: safeText().trim().max(200).optional(),
  tradeName: safeText().trim().max(200).optional(),
  pan: upper(20).optional(),
  gstins: z.array(upper(20)).max(40).optional(),
});
/** What a link fills in ahead. */
export type VendorPrefill = z.infer<typeof VendorPrefillSchema>;

/** `POST /api/vendor-links`. */
export const CreateVendorLinkInputSchema = z.object({
  /** A vendor of the master (a GSTIN row) whose known fields are filled in ahead; absent for a new vendor. */
  vendorId: z.string().uuid().optional(),
  /** Who the link is for, as the finance team calls them. */
  vendorName: safeText().trim().min(1, 'Write who the link is for').max(200),
  prefill: VendorPrefillSchema.default({}),
  /** Lock the fields filled in ahead, so the vendor cannot change them. */
  lockPrefilled: z.boolean().default(true),
  /** The flow the vendor's invoices go into; null: the link takes no invoices. */
  invoiceFlowId: z.string().uuid().nullable().default(null),
  expiresInDays: z.number().int().min(1).max(30).default(7),
});
/** `POST /api/vendor-links` body. */
export type CreateVendorLinkInput = z.input<typeof CreateVendorLinkInputSchema>;

/** Where a link stands. */
export const VENDOR_LINK_STATES = [
  'open',
  'submitted',
  'changes_requested',
  'approved',
  'rejected',
  'revoked',
  'expired',
] as const;

/** A link as the finance team sees it (never the token). */
export const VendorLinkSchema = z.object({
  id: z.string(),
  vendorName: z.string(),
  state: z.enum(VENDOR_LINK_STATES),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  invoiceFlowId: z.string().nullable(),
  /** The last e-mail of the link: to whom, and whether it left (`failed`: the mail server refused it). */
  mail: z
    .object({
      to: z.string(),
      state: z.enum(['queued', 'sending', 'sent', 'failed']),
      error: z.string().nullable(),
    })
    .nullable(),
});
/** A link. */
export type VendorLink = z.infer<typeof VendorLinkSchema>;
/** `GET /api/vendor-links`. */
export const VendorLinkListSchema = z.object({ items: z.array(VendorLinkSchema) });

/** The answer to making a link: its address, shown once. */
export const VendorLinkCreatedSchema = z.object({
  link: VendorLinkSchema,
  url: z.string(),
  /** Always false: the link is made first; "Send by e-mail" is its own request. */
  emailed: z.boolean(),
  /** Whether outgoing mail is configured (SMTP_HOST…): without it the person copies the address. */
  mailConfigured: z.boolean(),
});
/** The answer to making a link. */
export type VendorLinkCreated = z.infer<typeof VendorLinkCreatedSchema>;

/**
 * `POST /api/vendor-links/{id}/email`: send the link just made to the vendor. The token comes back from
 * the browser that was shown it (the server keeps only its hash), so only whoever holds the link can mail it.
 */
export const SendVendorLinkMailInputSchema = z.object({
  to: safeText()
    .trim()
    .max(200)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a line break in an address would forge mail headers.
    .refine((v) => !/[\u0000-\u001f\u007f,;<>]/.test(v), 'Write one e-mail address, without names or commas')
    .pipe(z.string().email('Write an e-mail address like accounts@example.in')),
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'This is not the link’s address'),
});
/** `POST /api/vendor-links/{id}/email` body. */
export type SendVendorLinkMailInput = z.infer<typeof SendVendorLinkMailInputSchema>;
/** The answer: the mail is queued (the link list shows whether it left). */
export const VendorLinkMailQueuedSchema = z.object({ mailId: z.string() });

/** A document the vendor attached. */
export const VendorDocumentSchema = z.object({
  id: z.string(),
  kind: z.enum(VENDOR_DOCUMENT_KINDS),
  fileName: z.string(),
  size: z.number(),
});

/** `GET /api/vendor-form/{token}`: what the public form shows. A used link shows nothing of the vendor. */
export const VendorFormViewSchema = z.object({
  state: z.enum(['open', 'submitted']),
  organizationName: z.string(),
  expiresAt: z.string(),
  prefill: VendorPrefillSchema,
  locked: z.array(z.enum(VENDOR_LOCKABLE_FIELDS)),
  /** What the finance team asked to change, when they sent the form back. */
  changesRequested: z.string().nullable(),
  documents: z.array(VendorDocumentSchema),
  /** The link also takes invoices. */
  invoiceUpload: z.boolean(),
});
/** The public form's view. */
export type VendorFormView = z.infer<typeof VendorFormViewSchema>;

/** One field that differs from the vendor master. */
export const VendorDifferenceSchema = z.object({
  field: z.string(),
  label: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});

/** A submission in the finance team's queue. */
export const VendorSubmissionSchema = z.object({
  id: z.string(),
  linkId: z.string(),
  vendorName: z.string(),
  status: z.enum(['pending', 'changes_requested', 'approved', 'rejected']),
  submittedAt: z.string(),
  fields: VendorFormFieldsBaseSchema.omit({ bank: true }).extend({
    bank: z.object({
      holderName: z.string(),
      accountNumber: z.string(),
      ifsc: z.string(),
      bankName: z.string(),
    }),
  }),
  documents: z.array(VendorDocumentSchema),
  /** The vendor already in the master with this PAN, if any. */
  existingVendorId: z.string().nullable(),
  differences: z.array(VendorDifferenceSchema),
  /** Approving changes an active vendor's bank account: a second person must approve that change. */
  bankChange: z.boolean(),
  /** Another vendor already holds this bank account: approval is refused. */
  bankUsedBy: z.string().nullable(),
  note: z.string().nullable(),
});
/** A submission. */
export type VendorSubmission = z.infer<typeof VendorSubmissionSchema>;
/** `GET /api/vendor-submissions`. */
export const VendorSubmissionListSchema = z.object({ items: z.array(VendorSubmissionSchema) });

/** Request changes or reject: what to tell the vendor or the trail. */
export const VendorSubmissionDecisionSchema = z.object({
  note: safeText().trim().max(1000).default(''),
});

/** The answer to an approval. */
export const VendorApprovedSchema = z.object({
  profileId: z.string(),
  /** The bank account change waiting for a second person, if approval made one. */
  bankChangeId: z.string().nullable(),
});

/** A bank account change on an active vendor, waiting for a second person. */
export const VendorBankChangeSchema = z.object({
  id: z.string(),
  vendorName: z.string(),
  pan: z.string(),
  before: z.string(),
  after: z.string(),
  requestedBy: z.string(),
  requestedAt: z.string(),
});
/** A pending bank change. */
export type VendorBankChange = z.infer<typeof VendorBankChangeSchema>;
/** `GET /api/vendor-bank-changes`. */
export const VendorBankChangeListSchema = z.object({ items: z.array(VendorBankChangeSchema) });

/** Token in the path of the public routes. */
export const VendorTokenParamsSchema = z.object({ token: z.string().max(200) });
/** Kind in the path of a document upload. */
export const VendorDocumentParamsSchema = z.object({
  token: z.string().max(200),
  kind: z.enum(VENDOR_DOCUMENT_KINDS),
});
