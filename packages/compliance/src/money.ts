// Money as integer paise: every comparison and sum in this package is exact to the paisa.
import { toPaise } from '@bahi/india';

/** Paise of an amount in rupees as extraction gives it (number or numeric text); null when absent or not a number. */
export function paiseOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? toPaise(value) : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.replace(/,/g, '').trim());
    return Number.isFinite(n) ? toPaise(n) : null;
  }
  return null;
}

/** Rupees (a JSON number with at most two decimals) of an amount in paise. */
export function rupees(paise: number): number {
  return paise / 100;
}

/**
 * `a × b / c` rounded half away from zero, exact for any size: BigInt keeps a ₹100-crore amount
 * times a rate in thousandths of a percent from losing its last paisa to float precision.
 */
export function mulDivRound(a: number, b: number, c: number): number {
  const num = BigInt(a) * BigInt(b);
  const den = BigInt(c);
  const neg = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  const q = (n * 2n + d) / (d * 2n);
  const out = Number(q);
  return neg && out !== 0 ? -out : out;
}

/** A percentage rate in thousandths of a percent (18 → 18000, 0.1 → 100), so rates multiply as integers. */
export function rateMilli(rate: number): number {
  return Math.round(rate * 1000);
}

/** Tally's amount text: two decimals from paise, no float formatting involved. */
export function formatPaise(paise: number): string {
  const abs = Math.abs(paise);
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return paise < 0 ? `-${text}` : text;
}

/** A rate as a short text key: 18 → "18", 2.5 → "2.5" (the ledger maps' keys). */
export function rateKey(rate: number): string {
  return String(Number(rate.toFixed(4)));
}
