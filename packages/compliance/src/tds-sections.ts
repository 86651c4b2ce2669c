// Which TDS section a purchase line falls under, and each section's rate and threshold rule
// (contracts/compliance.md §2).

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

// SAC prefixes, longest first wins; null marks a carve-out that no section covers (99733:
// leasing of intellectual property is not hire of plant or machinery).
const SAC_TABLE: ReadonlyArray<[string, TdsSection | null]> = [
  ['9954', '194C'],
  ['99633', '194C'],
  ['9965', '194C'],
  ['9966', '194C'],
  ['99836', '194C'],
  ['99851', '194C'],
  ['99852', '194C'],
  ['99853', '194C'],
  ['9987', '194C'],
  ['9988', '194C'],
  ['9982', '194J(b)'],
  ['9983', '194J(b)'],
  ['9961', '194H'],
  ['9962', '194H'],
  ['9972', '194I(b)'],
  ['9973', '194I(a)'],
  ['99733', null],
];

/** The digits of an HSN/SAC code as printed (`9983 13`, `9983.13`); '' without any. */
export function hsnDigits(code: string | null): string {
  return (code ?? '').replace(/[^0-9]/g, '');
}

/** The section of a SAC by the contract's table (longest prefix wins); null when none covers it. */
export function sectionOfSac(code: string | null): TdsSection | null {
  const digits = hsnDigits(code);
  let best: [string, TdsSection | null] | null = null;
  for (const row of SAC_TABLE) {
    if (digits.startsWith(row[0]) && (!best || row[0].length > best[0].length)) best = row;
  }
  return best ? best[1] : null;
}

/**
 * Section of one line, first that applies: the vendor profile's; the SAC's; for goods (an HSN
 * code not starting with 99) 194Q when the buyer's turnover passed ₹10 crore; else none.
 */
export function sectionOfLine(
  hsnSac: string | null,
  profileSection: TdsSection | null,
  buyerTurnoverAbove10cr: boolean,
): TdsSection | null {
  if (profileSection) return profileSection;
  const digits = hsnDigits(hsnSac);
  if (digits.startsWith('99')) return sectionOfSac(digits);
  return digits && buyerTurnoverAbove10cr ? '194Q' : null;
}

/** The table rate in percent; 194C depends on the PAN holder (4th character P or H: 1 %). */
export function tableRate(section: TdsSection, pan: string | null): number {
  switch (section) {
    case '194C':
      return pan && /^...[PH]/.test(pan) ? 1 : 2;
    case '194J(a)':
    case '194H':
    case '194I(a)':
      return 2;
    case '194J(b)':
    case '194I(b)':
      return 10;
    case '194Q':
      return 0.1;
  }
}

/** Rate without a PAN or with an inoperative one (206AA): the larger of the table's and 20 % (5 % for 194Q). */
export function rateWithoutPan(section: TdsSection, pan: string | null): number {
  return Math.max(tableRate(section, pan), section === '194Q' ? 5 : 20);
}

const RUPEE = 100;

/** What a section taxes on this invoice, in paise, from its base, the year's aggregate and what was taxed before. */
export function taxableOf(section: TdsSection, base: number, aggregate: number, taxedBefore: number): number {
  const catchUp = Math.max(0, aggregate - taxedBefore);
  switch (section) {
    case '194C':
      if (aggregate > 100_000 * RUPEE) return catchUp;
      return base > 30_000 * RUPEE ? base : 0;
    case '194J(a)':
    case '194J(b)':
      return aggregate > 50_000 * RUPEE ? catchUp : 0;
    case '194H':
      return aggregate > 20_000 * RUPEE ? catchUp : 0;
    case '194I(a)':
    case '194I(b)':
      return base > 50_000 * RUPEE ? base : 0;
    case '194Q':
      return Math.max(0, aggregate - Math.max(5_000_000 * RUPEE, aggregate - base));
  }
}

/** Why a section taxes what it does, in words a finance person reads. */
export function reasonOf(section: TdsSection, base: number, aggregate: number, taxable: number): string {
  if (section === '194Q')
    return taxable > 0
      ? 'purchases from this seller this year passed ₹50,00,000'
      : 'purchases this year within ₹50,00,000';
  if (section === '194I(a)' || section === '194I(b)')
    return taxable > 0 ? 'rent on this invoice above ₹50,000' : 'rent on this invoice within ₹50,000';
  const yearly = section === '194C' ? '₹1,00,000' : section === '194H' ? '₹20,000' : '₹50,000';
  const what = section === '194C' ? 'payments' : section === '194H' ? 'commission' : 'fees';
  const yearLimit = section === '194C' ? 100_000 : section === '194H' ? 20_000 : 50_000;
  if (aggregate > yearLimit * RUPEE) return `${what} this year passed ${yearly}`;
  if (section === '194C' && base > 30_000 * RUPEE) return 'this bill is above ₹30,000';
  return `${what} this year within ${yearly}`;
}
