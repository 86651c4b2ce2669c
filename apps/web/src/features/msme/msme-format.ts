import { formatIndianDate, formatIndianNumber } from '@bahi/india';

/** An amount in rupees with Indian grouping, or a dash when there is none. */
export const money = (v: number | null) => (v === null ? '—' : `₹${formatIndianNumber(v)}`);
/** A date as Indians write it, or a dash when there is none. */
export const date = (iso: string | null) => (iso ? (formatIndianDate(iso) ?? iso) : '—');

/** An ISO date some days later. */
export function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
