// The invoice-number key of contracts/compliance.md §1, and the financial year of a date.

// Two digit runs (2 or 4 digits each) joined by '-' or '/', touching no other digit.
const FY_TOKEN = /(?<![0-9])([0-9]{4}|[0-9]{2})[-/]([0-9]{4}|[0-9]{2})(?![0-9])/g;

function isYearPair(first: string, second: string): boolean {
  const a = Number(first);
  const b = Number(second);
  if (first.length === 4 && second.length === 4) return b === a + 1; // 2025-2026
  if (second.length === 2) return b === (a + 1) % 100; // 2025-26, 25-26, 99-00
  return false; // 25-2026 is not a form the contract names
}

/**
 * Normalise an invoice number for matching: upper case; financial-year tokens (`2025-26`,
 * `25-26`, `25/26`, `2025-2026`) deleted where no digit touches them, scanning left to right (a
 * pair that is not a year pair does not hide one that starts at its second number); every
 * character but A–Z and 0–9 deleted; leading zeros of each digit run dropped (a run of zeros
 * stays `0`). `AC/25-26/0142`, `ac-142` and `AC/2025-26/142` all become `AC142`.
 */
export function normaliseInvoiceNumber(raw: string): string {
  const upper = raw.toUpperCase();
  const cut: Array<[number, number]> = [];
  FY_TOKEN.lastIndex = 0;
  for (let m = FY_TOKEN.exec(upper); m; m = FY_TOKEN.exec(upper)) {
    const [whole, first, second] = m as unknown as [string, string, string];
    if (isYearPair(first, second)) cut.push([m.index, m.index + whole.length]);
    // Not a year pair: the next try starts at its second number (`12-25-26` still loses `25-26`).
    else FY_TOKEN.lastIndex = m.index + whole.length - second.length;
  }
  let kept = '';
  let at = 0;
  for (const [from, to] of cut) {
    kept += upper.slice(at, from);
    at = to;
  }
  kept += upper.slice(at);
  return kept.replace(/[^A-Z0-9]/g, '').replace(/[0-9]+/g, (run) => run.replace(/^0+(?=[0-9])/, ''));
}

/** `YYYY-MM-DD` when the text is a real ISO calendar date, else null. */
export function isoDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(value.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value.trim() ? value.trim() : null;
}

/** ISO date of a portal date `DD-MM-YYYY` (or `DD/MM/YYYY`); null when it is not one. */
export function isoFromPortalDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^([0-9]{2})[-/]([0-9]{2})[-/]([0-9]{4})$/.exec(value.trim());
  return m ? isoDate(`${m[3]}-${m[2]}-${m[1]}`) : null;
}

/** The financial year (April–March) of an ISO date, as its first calendar year: 2026-03-31 → 2025. */
export function financialYear(iso: string): number {
  const year = Number(iso.slice(0, 4));
  return Number(iso.slice(5, 7)) >= 4 ? year : year - 1;
}

/** Whole days from one ISO date to another (positive when `b` is later). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}
