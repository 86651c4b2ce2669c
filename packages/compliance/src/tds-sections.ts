// Which TDS section a purchase line falls under, and each section's rate and threshold rule
// (contracts/compliance.md §2), read from the versioned rule file (tds-rules.ts, tds-rules.json).
import { formatIndianNumber } from '@bahi/india';
import { sacTableOn, sectionRule, withoutPanOn } from './tds-rules.ts';

/** A TDS section Bahi works out. */
export type TdsSection = '194C' | '194J(a)' | '194J(b)' | '194H' | '194I(a)' | '194I(b)' | '194Q';

/** Every section the contract knows (a vendor profile may name any of them). */
export const TDS_SECTIONS: readonly TdsSection[] = [
  '194C',
  '194J(a)',
  '194J(b)',
  '194H',
  '194I(a)',
  '194I(b)',
  '194Q',
];

/** The digits of an HSN/SAC code as printed (`9983 13`, `9983.13`); '' without any. */
export function hsnDigits(code: string | null): string {
  return (code ?? '').replace(/[^0-9]/g, '');
}

/**
 * The section of a SAC by the rule file's table as in force on `date` (longest prefix wins); null when
 * none covers it (or a carve-out row names no section).
 */
export function sectionOfSac(code: string | null, date: string | null = null): TdsSection | null {
  const digits = hsnDigits(code);
  let best: { prefix: string; section: TdsSection | null } | null = null;
  for (const row of sacTableOn(date)) {
    if (digits.startsWith(row.prefix) && (!best || row.prefix.length > best.prefix.length)) best = row;
  }
  return best ? best.section : null;
}

/**
 * Section of one line, first that applies: the vendor profile's; the SAC's; for goods (an HSN
 * code not starting with 99) 194Q when the buyer's turnover passed ₹10 crore; else none.
 */
export function sectionOfLine(
  hsnSac: string | null,
  profileSection: TdsSection | null,
  buyerTurnoverAbove10cr: boolean,
  date: string | null = null,
): TdsSection | null {
  if (profileSection) return profileSection;
  const digits = hsnDigits(hsnSac);
  if (digits.startsWith('99')) return sectionOfSac(digits, date);
  return digits && buyerTurnoverAbove10cr ? '194Q' : null;
}

/** The table rate in percent on `date`; 194C takes its lower rate when the PAN holder is an individual or HUF (4th character P or H). */
export function tableRate(section: TdsSection, pan: string | null, date: string | null = null): number {
  const rule = sectionRule(section, date);
  return rule.rateIndividualOrHuf !== undefined && pan && /^...[PH]/.test(pan)
    ? rule.rateIndividualOrHuf
    : rule.rate;
}

/** Rate without a PAN or with an inoperative one (206AA): the larger of the table's and the rule file's minimum. */
export function rateWithoutPan(section: TdsSection, pan: string | null, date: string | null = null): number {
  const floor = withoutPanOn(date);
  return Math.max(
    tableRate(section, pan, date),
    section === '194Q' ? floor.minimumRate194Q : floor.minimumRate,
  );
}

const RUPEE = 100;

/** What a section taxes on this invoice, in paise, from its base, the year's aggregate and what was taxed before. */
export function taxableOf(
  section: TdsSection,
  base: number,
  aggregate: number,
  taxedBefore: number,
  date: string | null = null,
): number {
  const t = sectionRule(section, date).threshold;
  const catchUp = Math.max(0, aggregate - taxedBefore);
  switch (t.kind) {
    case 'bill-or-year':
      if (aggregate > t.year * RUPEE) return catchUp;
      return base > t.bill * RUPEE ? base : 0;
    case 'year':
      return aggregate > t.year * RUPEE ? catchUp : 0;
    case 'bill':
      return base > t.bill * RUPEE ? base : 0;
    case 'above-year':
      return Math.max(0, aggregate - Math.max(t.year * RUPEE, aggregate - base));
  }
}

/** ₹ with Indian grouping, no paise: ₹1,00,000. */
const inr = (rupees: number) => `₹${formatIndianNumber(rupees, 0)}`;

/** Why a section taxes what it does, in words a finance person reads. */
export function reasonOf(
  section: TdsSection,
  base: number,
  aggregate: number,
  taxable: number,
  date: string | null = null,
): string {
  const { threshold: t, what } = sectionRule(section, date);
  switch (t.kind) {
    case 'above-year':
      return taxable > 0
        ? `${what} this year passed ${inr(t.year)}`
        : `purchases this year within ${inr(t.year)}`;
    case 'bill':
      return taxable > 0
        ? `${what} on this invoice above ${inr(t.bill)}`
        : `${what} on this invoice within ${inr(t.bill)}`;
    case 'year':
      return aggregate > t.year * RUPEE
        ? `${what} this year passed ${inr(t.year)}`
        : `${what} this year within ${inr(t.year)}`;
    case 'bill-or-year':
      if (aggregate > t.year * RUPEE) return `${what} this year passed ${inr(t.year)}`;
      if (base > t.bill * RUPEE) return `this bill is above ${inr(t.bill)}`;
      return `${what} this year within ${inr(t.year)}`;
  }
}
