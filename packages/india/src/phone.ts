/**
 * Indian phone numbers as printed on letterheads and invoices. Numbering plan: 10-digit national
 * significant numbers; mobiles start 6–9; landlines are an STD code (2–4 digits, no leading 0)
 * plus subscriber number totalling 10 digits, written with a trunk prefix 0 domestically.
 */

/**
 * E.164 form (+91 and 10 digits) of an Indian phone number: '+91 98450 12345', '098450-12345',
 * '9845012345', '080-2222 3333', '+91-80-22223333', '0091 80 2222 3333', '+91 (0)80 2222 3333'.
 * Labels and punctuation are ignored; null when the digits do not form one valid Indian number
 * (wrong length, national number starting with 0, several numbers run together).
 */
export function normalizeIndianPhone(raw: string): string | null {
  const trimmed = raw.trim();
  const international = /^(?:[a-z.:\s]*)\+/i.test(trimmed);
  let digits = trimmed.replace(/\(0\)/g, '').replace(/[^0-9]/g, '');
  if (international) {
    if (!digits.startsWith('91')) return null;
    digits = digits.slice(2);
  } else if (digits.startsWith('0091')) {
    digits = digits.slice(4);
  } else if (digits.length === 12 && digits.startsWith('91')) {
    digits = digits.slice(2);
  }
  // Domestic trunk prefix: 098450 12345, 080 2222 3333 (also seen after +91 by mistake).
  if (digits.length === 11 && digits.startsWith('0')) digits = digits.slice(1);
  if (!/^[1-9][0-9]{9}$/.test(digits)) return null;
  return `+91${digits}`;
}

/**
 * Whether text is a valid Indian phone number: a mobile (10 digits starting 6–9) or a landline
 * (STD code plus number, 10 digits after the leading 0), with or without +91.
 */
export function isValidIndianPhone(raw: string): boolean {
  return normalizeIndianPhone(raw) !== null;
}
