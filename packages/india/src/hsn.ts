/**
 * HSN (Harmonised System of Nomenclature, goods) and SAC (Services Accounting Code) codes as
 * printed on GST invoices. HSN codes are 4, 6 or 8 digits (chapter, heading, sub-heading, tariff
 * item of the Customs Tariff); SAC codes are 6 digits in chapter 99.
 */

/**
 * Whether a code is a plausible HSN (4, 6 or 8 digits) or SAC (6 digits starting 99). Chapter 00
 * does not exist and chapter 77 is reserved in the Harmonised System, so both are rejected.
 * Spaces and dots inside the code ('8471.30', '8471 30 10') are tolerated.
 */
export function isValidHsnSac(code: string): boolean {
  const digits = code.replace(/[\s.]/g, '');
  if (!/^(?:[0-9]{4}|[0-9]{6}|[0-9]{8})$/.test(digits)) return false;
  const chapter = digits.slice(0, 2);
  return chapter !== '00' && chapter !== '77';
}

/** Whether a code is a SAC (services): 6 digits starting with 99. */
export function isSac(code: string): boolean {
  return /^99[0-9]{4}$/.test(code.replace(/[\s.]/g, ''));
}
