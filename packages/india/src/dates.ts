/**
 * Dates as printed on Indian documents. Numeric dates are always day-first (14/08/2025 is
 * 14 August), because that is the Indian convention and month-first dates essentially never
 * appear on Indian invoices; guessing per document would make the same string mean two things.
 */

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

// Full names, common abbreviations, and 'Sept'. The negative look-ahead stops 'Mar' matching
// inside 'Market' and 'May' inside 'Mayur'.
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?(?![a-z])';
const DAY = '([0-9]{1,2})(?:st|nd|rd|th)?';
const YEAR = '([0-9]{4}|[0-9]{2})';

// Each alternative has its own capture groups; the order in `convertMatchToIso` below must match.
const DATE_SOURCE = [
  // 2025-08-14, 2025/08/14, 2025.08.14 (year first only with a 4-digit year)
  '([0-9]{4})([-/.])([0-9]{1,2})\\2([0-9]{1,2})(?![0-9])',
  // 14/08/2025, 14-08-2025, 14.08.2025, 14/8/25 (same separator both times)
  '([0-9]{1,2})([-/.])([0-9]{1,2})\\6([0-9]{4}|[0-9]{2})(?![0-9])',
  // 14-Aug-25, 14 Aug 2025, 14/Aug/2025, 14th August 2025, 14th of August, 2025, 1st Sept 2025
  `${DAY}(?:\\s*of)?[\\s\\-/.,]*${MONTH}[\\s\\-/.,']*${YEAR}(?![0-9])`,
  // August 14, 2025, Aug 14 2025, Aug. 14th, 2025
  `${MONTH}[\\s\\-/.,]*${DAY},?\\s*([0-9]{4})(?![0-9])`,
].join('|');

/** Boundaries: a date never starts in the middle of a word or a longer number. */
function createDateRegex(): RegExp {
  return new RegExp(`(?<![0-9A-Za-z])(?:${DATE_SOURCE})`, 'gi');
}

/** Whether year-month-day exists on the calendar (rejects 31/02/2025 and 29/02/2025). */
function isRealDate(year: number, month: number, day: number): boolean {
  if (year < 1900 || year > 2199 || month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

/** Two-digit years are 20YY: Indian business documents in scope are all from this century. */
function expandYear(text: string): number {
  const year = Number(text);
  return text.length === 2 ? 2000 + year : year;
}

function lookUpMonth(name: string): number {
  return MONTHS[name.slice(0, 3).toLowerCase()] ?? 0;
}

function formatIso(year: number, month: number, day: number): string | null {
  if (!isRealDate(year, month, day)) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Turn one regex match into an ISO date, or null when it names an impossible date. */
function convertMatchToIso(m: RegExpExecArray): string | null {
  if (m[1] !== undefined) return formatIso(Number(m[1]), Number(m[3]), Number(m[4]));
  if (m[5] !== undefined) return formatIso(expandYear(m[8]!), Number(m[7]), Number(m[5]));
  if (m[9] !== undefined) return formatIso(expandYear(m[11]!), lookUpMonth(m[10]!), Number(m[9]));
  if (m[12] !== undefined) return formatIso(Number(m[14]), lookUpMonth(m[12]), Number(m[13]));
  return null;
}

/**
 * Every date inside a longer text, in order, with where it was found (index and length in UTF-16
 * code units, for provenance highlighting). Candidates that are not real calendar dates are skipped.
 */
export function findDates(text: string): Array<{ iso: string; index: number; length: number }> {
  const found: Array<{ iso: string; index: number; length: number }> = [];
  const regex = createDateRegex();
  let m: RegExpExecArray | null = regex.exec(text);
  while (m !== null) {
    const iso = convertMatchToIso(m);
    if (iso !== null) {
      found.push({ iso, index: m.index, length: m[0].length });
    } else {
      // An impossible candidate may hide a real date that starts later inside it.
      regex.lastIndex = m.index + 1;
    }
    m = regex.exec(text);
  }
  return found;
}

const TIME_SUFFIX =
  /^(?:(?:[T\s,]+|\s*(?:at)\s+)[0-9]{1,2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?\s*(?:[ap]\.?m\.?)?\s*(?:z|[+-][0-9]{2}:?[0-9]{2}|ist|hrs)?)?$/i;

/**
 * Parse a text that is a single date into ISO YYYY-MM-DD: 14/08/2025, 14-08-2025, 14.08.2025,
 * 14/8/25, 14-Aug-25, 14 Aug 2025, 14/Aug/2025, 14th August 2025, 1st Sept 2025, August 14, 2025,
 * Aug 14 2025, 2025-08-14. Numeric forms are day-first; two-digit years are 20YY; impossible
 * dates (31/02/2025) and compact forms (20250814) give null. Surrounding spaces, trailing
 * punctuation and a following time of day ('2025-04-04 16:27:20', '14/08/2025 10:30 AM') are
 * allowed; other text is not (use {@link findDates} for that).
 */
export function parseIndianDate(text: string): string | null {
  const trimmed = text.trim().replace(/[.,;:]+$/, '');
  const first = findDates(trimmed)[0];
  if (first === undefined || first.index !== 0) return null;
  // A time of day may follow (e-invoice timestamps, 'Ack Date 2025-04-04 16:27:20'); nothing else.
  return TIME_SUFFIX.test(trimmed.slice(first.length)) ? first.iso : null;
}

/**
 * An ISO date (YYYY-MM-DD) in the Indian display form DD/MM/YYYY (or with another separator);
 * null when the input is not a real ISO date.
 */
export function formatIndianDate(isoDate: string, separator = '/'): string | null {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(isoDate.trim());
  if (!m || !isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) return null;
  return `${m[3]}${separator}${m[2]}${separator}${m[1]}`;
}
