/**
 * Indian money amounts: parsing as printed on invoices (lakh/crore grouping, ₹/Rs./INR, '/-',
 * brackets for negatives, Cr/Dr markers), formatting with Indian grouping, and paise-safe
 * rounding and comparison.
 */

/**
 * Round to 2 decimals, half away from zero, without binary float drift
 * (0.1 + 0.2 → 0.3, 1.005 → 1.01). Never returns -0.
 */
export function roundMoney(value: number): number {
  return toPaise(value) / 100;
}

/**
 * The value in whole paise (1 rupee = 100 paise). Rounding happens on the decimal reading of the
 * number (15 significant digits) so 1.005 is treated as the 1.005 the user wrote, not 1.00499….
 */
export function toPaise(value: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`Not a finite amount: ${value}`);
  const scaled = Math.abs(value) * 100;
  const cleaned = Number(scaled.toPrecision(15));
  const paise = Math.round(cleaned) * Math.sign(value);
  return paise === 0 ? 0 : paise;
}

/**
 * Whether two amounts agree within a tolerance (default 0.01, i.e. one paisa): the check used
 * when totals are recomputed from line items. A small relative slack absorbs float drift so
 * 100.00 vs 100.01 passes at tolerance 0.01.
 */
export function amountsEqual(a: number, b: number, tolerance = 0.01): boolean {
  const slack = 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  return Math.abs(a - b) <= tolerance + slack;
}

const INDIAN_GROUPS = /^[0-9]{1,2}(,[0-9]{2})*,[0-9]{3}$/;
const WESTERN_GROUPS = /^[0-9]{1,3}(,[0-9]{3})+$/;

/**
 * Parse an amount as printed on an Indian document: '1,23,456.78', 'Rs. 1,23,456.78/-',
 * '₹ 1,23,456', 'INR 500.00', '1,234.5', '(1,234.00)' → -1234, '-0.40', '(-)0.20', '1,234.50-' → -1234.5,
 * '0.40 Cr' / 'Dr' (the marker is ignored). Western grouping is accepted too. Digit groups must be
 * consistent (either Indian or western), so stray commas such as '12,34' do not pass as numbers.
 * Rounded to 2 decimals; null when the text is not a single amount.
 */
export function parseIndianAmount(text: string): number | null {
  let s = text.trim();
  if (s === '') return null;
  s = s.replace(/\s*\/-\s*$/, '');
  s = s.replace(/\s*\b(?:only|cr|dr)\.?\s*$/i, '');
  // ERP prints the currency code after the figure: '1,104,290.36 INR'.
  s = s.replace(/\s+inr$/i, '');

  let negative = false;
  // Tally prints negative round-offs as '(-)0.20'.
  const tallyMinus = /^\(\s*[-−]\s*\)\s*/.exec(s);
  if (tallyMinus) {
    negative = true;
    s = s.slice(tallyMinus[0].length);
  }
  // Brackets may wrap the currency too: '(₹ 1,234.00)'.
  const bracketed = /^\((.*)\)$/.exec(s);
  if (bracketed) {
    negative = true;
    s = bracketed[1]!.trim();
  }
  // A sign may come before or after the currency marker: '-₹ 5', '₹ -5'.
  const takeSign = () => {
    const m = /^([-+−])\s*/.exec(s);
    if (m) {
      if (m[1] !== '+') negative = !negative;
      s = s.slice(m[0].length);
    }
  };
  takeSign();
  s = s.replace(/^(?:₹|rs\.?|inr|rupees?)\s*/i, '');
  takeSign();
  const trailing = /\s*[-−]$/.exec(s);
  if (trailing) {
    negative = !negative;
    s = s.slice(0, trailing.index);
  }
  s = s.replace(/\s*\/-$/, '').trim();

  const m = /^([0-9,]*)(?:\.([0-9]+))?$/.exec(s);
  if (!m) return null;
  const whole = m[1]!;
  const fraction = m[2] ?? '';
  if (whole === '' && fraction === '') return null;
  if (whole.includes(',') && !INDIAN_GROUPS.test(whole) && !WESTERN_GROUPS.test(whole)) return null;
  const value = Number(`${whole.replace(/,/g, '') || '0'}.${fraction || '0'}`);
  if (!Number.isFinite(value)) return null;
  return roundMoney(negative ? -value : value);
}

/**
 * Format with Indian digit grouping: 1234567.8 → '12,34,567.80' (last three digits, then pairs).
 * Negative values get a leading '-'.
 */
export function formatIndianNumber(value: number, fractionDigits = 2): string {
  if (!Number.isFinite(value)) throw new RangeError(`Not a finite number: ${value}`);
  const digits = Math.max(0, Math.min(20, Math.trunc(fractionDigits)));
  const abs = Math.abs(value);
  // Round on the decimal reading (toPrecision(15)) so 1.005 formats as 1.01, matching roundMoney;
  // then cut the integer count of smallest units into whole and fraction as text.
  const units = Math.round(Number((abs * 10 ** digits).toPrecision(15)));
  // Beyond 2^53 smallest units the integer is no longer exact; fall back to toFixed there.
  if (!Number.isSafeInteger(units)) return `${value < 0 ? '-' : ''}${groupIndian(abs.toFixed(digits))}`;
  const padded = String(units).padStart(digits + 1, '0');
  const whole = padded.slice(0, padded.length - digits);
  const fraction = digits > 0 ? padded.slice(-digits) : undefined;
  const sign = value < 0 && units !== 0 ? '-' : '';
  return `${sign}${groupIndian(fraction === undefined ? whole : `${whole}.${fraction}`)}`;
}

/** Insert Indian grouping commas into an unsigned decimal string: last three digits, then pairs. */
function groupIndian(plain: string): string {
  const [whole = '', fraction] = plain.split('.');
  let grouped = whole;
  if (whole.length > 3) {
    const head = whole.slice(0, -3);
    grouped = `${head.replace(/\B(?=([0-9]{2})+$)/g, ',')},${whole.slice(-3)}`;
  }
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
