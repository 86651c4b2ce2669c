import {
  type VendorConstitution,
  VendorFormFieldsSchema,
  type VendorFormInput,
  type VendorFormView,
} from '@bahi/contracts';

/** The form as typed: every box a string or a tick, turned into the request body on sending. */
export interface VendorFormState {
  legalName: string;
  tradeName: string;
  constitution: VendorConstitution | '';
  pan: string;
  gstins: string[];
  msme: boolean;
  udyamNumber: string;
  udyamCategory: string;
  udyamActivity: string;
  udyamYear: string;
  writtenAgreement: boolean;
  agreedDays: string;
  holderName: string;
  accountNumber: string;
  accountNumberConfirm: string;
  ifsc: string;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
  tdsSection: string;
  hasLdc: boolean;
  ldcNumber: string;
  ldcSection: string;
  ldcRate: string;
  ldcFrom: string;
  ldcTo: string;
  ldcLimit: string;
}

/** The Indian financial year a date falls in, as 2026-27. */
export function financialYearOf(date: Date): string {
  const year = date.getMonth() >= 3 ? date.getFullYear() : date.getFullYear() - 1;
  return `${year}-${String((year + 1) % 100).padStart(2, '0')}`;
}

/** An empty form with what the link filled in ahead. */
export function initialFormState(view: VendorFormView, today = new Date()): VendorFormState {
  return {
    legalName: view.prefill.legalName ?? '',
    tradeName: view.prefill.tradeName ?? '',
    constitution: '',
    pan: view.prefill.pan ?? '',
    gstins: view.prefill.gstins?.length ? [...view.prefill.gstins] : [''],
    msme: false,
    udyamNumber: '',
    udyamCategory: '',
    udyamActivity: '',
    udyamYear: financialYearOf(today),
    writtenAgreement: false,
    agreedDays: '',
    holderName: '',
    accountNumber: '',
    accountNumberConfirm: '',
    ifsc: '',
    contactName: '',
    contactEmail: '',
    contactPhone: '',
    tdsSection: '',
    hasLdc: false,
    ldcNumber: '',
    ldcSection: '',
    ldcRate: '',
    ldcFrom: '',
    ldcTo: '',
    ldcLimit: '',
  };
}

const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text.replace(/,/g, '')));

/** The request body the form's boxes make (the server checks it the same way). */
export function toRequestBody(s: VendorFormState): VendorFormInput {
  return {
    legalName: s.legalName,
    tradeName: s.tradeName,
    constitution: s.constitution as VendorConstitution,
    pan: s.pan,
    gstins: s.gstins.filter((g) => g.trim() !== ''),
    udyam: s.msme
      ? {
          number: s.udyamNumber,
          category: s.udyamCategory as 'micro',
          activity: s.udyamActivity as 'manufacturing',
          financialYear: s.udyamYear,
          writtenAgreement: s.writtenAgreement,
          agreedDays: s.writtenAgreement ? numberOrNull(s.agreedDays) : null,
        }
      : null,
    bank: {
      holderName: s.holderName,
      accountNumber: s.accountNumber,
      accountNumberConfirm: s.accountNumberConfirm,
      ifsc: s.ifsc,
    },
    contacts: [{ name: s.contactName, email: s.contactEmail, phone: s.contactPhone }],
    tdsSection: (s.tdsSection || null) as VendorFormInput['tdsSection'],
    ldc: s.hasLdc
      ? {
          number: s.ldcNumber,
          section: s.ldcSection as '194C',
          rate: numberOrNull(s.ldcRate) ?? Number.NaN,
          from: s.ldcFrom,
          to: s.ldcTo,
          limitRupees: numberOrNull(s.ldcLimit) ?? Number.NaN,
        }
      : null,
  };
}

/** Field messages the contract gives for the typed form, keyed by dotted path; empty when it may be sent. */
export function checkFormState(s: VendorFormState): Record<string, string> {
  const result = VendorFormFieldsSchema.safeParse(toRequestBody(s));
  if (result.success) return {};
  const problems: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.');
    if (!problems[key]) problems[key] = issue.message;
  }
  return problems;
}
