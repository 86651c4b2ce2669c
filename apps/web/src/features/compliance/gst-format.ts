import type { GstRow, GstSide, GstTab } from '@bahi/contracts';
import { formatIndianDate, formatIndianNumber } from '@bahi/india';

/** Rupees, or a dash for none. */
export const money = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : `₹${formatIndianNumber(v)}`;
/** A date as dd/mm/yyyy, or a dash. */
export const date = (v: string | null | undefined) => (v ? formatIndianDate(v) : '—');
/** `082025` → `Aug 2025`. */
export function periodLabel(period: string): string {
  const d = new Date(Date.UTC(Number(period.slice(2)), Number(period.slice(0, 2)) - 1, 1));
  return d.toLocaleDateString('en-IN', { month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** Each match status in words. */
export const STATUS_WORDS: Record<GstRow['status'], string> = {
  matched: 'Matched',
  matched_within_tolerance: 'Within tolerance',
  mismatch: 'Mismatch',
  probable_match: 'Probable match',
  missing_in_2b: 'Missing in 2B',
  missing_in_books: 'Missing in books',
  duplicate_in_books: 'Booked twice',
};
/** Each tab's badge colours. */
export const TONE: Record<GstTab, string> = {
  matched: 'bg-success/12 text-success',
  within_tolerance: 'bg-success/12 text-success',
  mismatch: 'bg-warning/15 text-warning-foreground',
  probable: 'bg-primary/10 text-primary',
  missing_in_2b: 'bg-destructive/10 text-destructive',
  missing_in_books: 'bg-warning/15 text-warning-foreground',
};
/** What IMS is told for a row, in words. */
export const IMS_WORDS: Record<GstRow['ims'], string> = {
  accept: 'IMS: accept',
  pending: 'IMS: keep pending',
  none: '',
};

/** The fields compared between an invoice and its 2B document. */
export const FIELDS: Array<{
  key: keyof GstSide;
  diff: string;
  label: string;
  kind: 'text' | 'date' | 'money';
}> = [
  { key: 'gstin', diff: 'vendorGstin', label: 'Supplier GSTIN', kind: 'text' },
  { key: 'documentNumber', diff: 'documentNumber', label: 'Invoice no.', kind: 'text' },
  { key: 'documentDate', diff: 'documentDate', label: 'Invoice date', kind: 'date' },
  { key: 'placeOfSupply', diff: 'placeOfSupply', label: 'Place of supply', kind: 'text' },
  { key: 'taxableValue', diff: 'taxableValue', label: 'Taxable value', kind: 'money' },
  { key: 'igst', diff: 'igst', label: 'IGST', kind: 'money' },
  { key: 'cgst', diff: 'cgst', label: 'CGST', kind: 'money' },
  { key: 'sgst', diff: 'sgst', label: 'SGST', kind: 'money' },
  { key: 'cess', diff: 'cess', label: 'Cess', kind: 'money' },
];

/** One side's value of a compared field, formatted. */
export function cell(side: GstSide | null, f: (typeof FIELDS)[number]) {
  if (!side) return '—';
  const v = side[f.key];
  if (f.kind === 'money') return money(v as number | null);
  if (f.kind === 'date') return date(v as string | null);
  return (v as string | null) ?? '—';
}
