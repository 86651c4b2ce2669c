/**
 * @bahi/india — pure Indian business rules (GSTIN, PAN, state codes, numbers, dates, amounts in
 * words, GST rates, HSN/SAC, phones). No dependencies and no Node built-ins: it runs in the
 * engine, the server and the browser alike.
 */

export { findDates, formatIndianDate, parseIndianDate } from './dates.ts';
export {
  expectedTaxHeads,
  GST_2_0_EFFECTIVE_DATE,
  gstSlabsOn,
  isValidGstHeadRate,
  isValidGstRate,
  splitGstRate,
  supplyTypeFor,
} from './gst.ts';
export type { GstinProblem, GstinValidation } from './gstin.ts';
export {
  computeGstinCheckChar,
  GSTIN_PATTERN,
  isValidGstin,
  isValidPan,
  normalizeGstinInput,
  PAN_HOLDER_TYPES,
  panFromGstin,
  panHolderType,
  repairGstin,
  validateGstin,
} from './gstin.ts';
export { isSac, isValidHsnSac } from './hsn.ts';
export { amountsEqual, formatIndianNumber, parseIndianAmount, roundMoney, toPaise } from './numbers.ts';
export { isValidIndianPhone, normalizeIndianPhone } from './phone.ts';
export type { IndianState } from './states.ts';
export { STATES, stateByCode, stateCodeFromText } from './states.ts';
export { amountToWords, isCleanAmountInWords, parseAmountInWords } from './words.ts';
