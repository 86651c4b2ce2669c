import { type ExtractionValueKind, listFieldsOfKind } from '@bahi/contracts';

/** How a sheet column's values are shown. */
export type CellKind = 'text' | 'money' | 'number' | 'percent' | 'date' | 'datetime' | 'link' | 'status';

/** Normalised names of the contract fields holding a kind of value, across every document type. */
const keysOfKind = (kind: ExtractionValueKind): string[] => listFieldsOfKind(kind).map(normalizeKey);

const MONEY_KEYS = new Set(keysOfKind('money'));
const PERCENT_KEYS = new Set(keysOfKind('percent'));
// Quantities, plus the sheets' own counters.
const NUMBER_KEYS = new Set([...keysOfKind('quantity'), 'lineno', 'line', 'pages']);
const DATE_KEYS = /date$|processedat$/i;

// dd/mm/yyyy, the way Indian books and GST returns write dates.
const dateFormat = new Intl.DateTimeFormat('en-IN', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
});
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const dateTimeFormat = new Intl.DateTimeFormat('en-IN', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

const money = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const plain = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 3 });

/** Normalised lookup key: case and separators do not matter ("Taxable Value" = "taxableValue"). */
function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The display kind of a column: the server's own `kind` when it sends one, otherwise guessed from
 * the contract field name (amounts are money, quantities numbers, `…Date` dates).
 */
export function inferCellKind(key: string, declared?: string | null): CellKind {
  // Timestamps arrive as ISO text; shown as a local date and time whatever the server declares.
  if (/(At|_at)$/.test(key)) return 'datetime';
  // The review flag is a verdict ("ok" / "review"): shown as a badge whatever the server declares.
  if (key === 'reviewFlag') return 'status';
  const known: CellKind[] = ['text', 'money', 'number', 'percent', 'date', 'datetime', 'link', 'status'];
  if (declared && (known as string[]).includes(declared)) return declared as CellKind;
  const k = normalizeKey(key);
  if (MONEY_KEYS.has(k)) return 'money';
  if (PERCENT_KEYS.has(k)) return 'percent';
  if (NUMBER_KEYS.has(k)) return 'number';
  if (k === 'status' || k === 'confidence' || k === 'review') return 'status';
  if (DATE_KEYS.test(key)) return 'date';
  return 'text';
}

/** Number from a number or numeric string, else null. */
function toNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return null;
}

/**
 * Text of one cell: money with Indian grouping and paise ("2,35,609.00"), other numbers with
 * Indian grouping, percentages with a % sign, lists joined with commas, empties as "".
 */
export function formatCell(value: unknown, kind: CellKind): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value))
    return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
  const n = toNumber(value);
  if (kind === 'money' && n !== null) return money.format(n);
  if (kind === 'number' && n !== null) return plain.format(n);
  if (kind === 'percent' && n !== null) return `${plain.format(n)}%`;
  // Contract dates are ISO days; read them as UTC so no time zone shifts the day.
  if (kind === 'date' && typeof value === 'string' && ISO_DATE.test(value)) {
    return dateFormat.format(new Date(`${value}T00:00:00Z`));
  }
  if (kind === 'datetime' && typeof value === 'string' && !Number.isNaN(Date.parse(value))) {
    return dateTimeFormat.format(new Date(value));
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Whether a right-aligned, tabular-figure cell suits the kind. */
export function isNumericKind(kind: CellKind): boolean {
  return kind === 'money' || kind === 'number' || kind === 'percent';
}

/**
 * How a row should be highlighted: failed documents red, those needing review amber. Reads the
 * row's status, review flag or failed-check list, whichever the server filled in.
 */
export function getRowTone(row: Record<string, unknown>): 'failed' | 'review' | null {
  const status = String(row.status ?? '').toLowerCase();
  if (status === 'failed') return 'failed';
  const flag = String(row.reviewFlag ?? row.confidence ?? row.review ?? '').toLowerCase();
  // A person approved it as it stands: the reasons it was flagged no longer ask for a look.
  if (flag === 'approved') return null;
  // OK as the server decided: what the checks column still says is a note, not a reason for review.
  if (flag === 'ok' || status === 'done') return null;
  const failedChecks = row.failedChecks ?? row.checksFailed ?? row.checks;
  const hasFailedChecks = Array.isArray(failedChecks)
    ? failedChecks.length > 0
    : typeof failedChecks === 'string' && failedChecks.trim() !== '';
  if (status === 'needs_review' || row.needsReview === true || flag === 'review' || hasFailedChecks)
    return 'review';
  return null;
}

/** Columns a reviewer reads first, in this order, right after the file name. */
const LEADING_KEYS = ['fileName', 'reviewFlag', 'checksFailed'];

/**
 * Display order of a tab's columns: file name, review flag and failed checks first (what a
 * reviewer scans for), then the server's order. Bookkeeping columns in `hidden` are dropped.
 */
export function orderColumns<T extends { key: string }>(
  columns: readonly T[],
  hidden: ReadonlySet<string>,
): T[] {
  const visible = columns.filter((c) => !hidden.has(c.key));
  const leading = LEADING_KEYS.flatMap((key) => visible.filter((c) => c.key === key));
  return [...leading, ...visible.filter((c) => !LEADING_KEYS.includes(c.key))];
}
