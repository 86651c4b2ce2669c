/**
 * @bahi/compliance — GST & TDS work on purchase books (contracts/compliance.md, v1): GSTR-2B
 * matching, TDS per invoice and Tally Prime purchase vouchers. Pure functions over parsed
 * inputs: no HTTP, database, environment or file system, and no Node built-ins.
 */

export {
  type BookInvoice,
  type BookLine,
  compareBooks,
  documentIdentity,
  type ExtractionLike,
  findDuplicates,
  inProcessingOrder,
  readBookInvoice,
} from './books.ts';
export {
  type BooksRow,
  type BooksStatus,
  compareLinked,
  DEFAULT_GSTR2B_TOLERANCE,
  type Difference,
  type Gstr2bOptions,
  type ImsAction,
  type MatchRef,
  matchGstr2b,
  type UnclaimedRow,
} from './gstr2b-match.ts';
export { type Gstr2bDocument, gstr2bPeriod, readGstr2bFiles } from './gstr2b-read.ts';
export { parseLedgerNames, parseVendorProfiles } from './inputs.ts';
export { financialYear, normaliseInvoiceNumber } from './invoice-number.ts';
export {
  type AppliedPayment,
  acceptanceOf,
  addDays,
  applyPayments,
  computeMsme,
  type Form1Row,
  financialYearLabel,
  form1Rows,
  type HalfYear,
  halfYearRange,
  type InterestPeriod,
  MSME_ACTIVITIES,
  MSME_CATEGORIES,
  MSME_DEFAULT_DAYS,
  MSME_MAX_DAYS,
  type MsmeActivity,
  type MsmeCategory,
  type MsmeContext,
  type MsmeCoverage,
  type MsmeInvoiceInput,
  type MsmeInvoiceResult,
  type MsmeObjection,
  type MsmePayment,
  type MsmeRegistration,
  msmeCoverage,
  msmeInterest,
  msmePaymentDays,
  registrationFor,
  type Section43bhRow,
  section43bhRows,
} from './msme.ts';
export { exportTally, type TallyExport } from './tally.ts';
export {
  buildPurchaseVoucher,
  type LedgerNames,
  type PurchaseVoucher,
  type TdsLine,
  type VoucherEntry,
  type VoucherOptions,
  type VoucherResult,
  voucherRemoteId,
} from './tally-voucher.ts';
export { type EnvelopeOptions, tallyEnvelope, type VoucherAction, voucherXml, xmlText } from './tally-xml.ts';
export {
  computeTds,
  isTdsSection,
  type LowerDeductionCertificate,
  profileFor,
  type TdsOptions,
  type TdsResult,
  type TdsSectionResult,
  type VendorProfile,
} from './tds.ts';
export { listTdsRules, type SacRule, type SectionRule, TDS_RULES_VERSION } from './tds-rules.ts';
export { sectionOfLine, sectionOfSac, TDS_SECTIONS, type TdsSection } from './tds-sections.ts';
