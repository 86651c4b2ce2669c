import { computeGstinCheckChar } from '@bahi/india';
import { describe, expect, it } from 'vitest';
import { pageOfLines } from '../../test/test-words.ts';
import { interpretDocument } from '../interpret.ts';
import { buildLayout } from '../layout.ts';
import { collectAmountCandidates } from './amounts.ts';
import { collectTaxTotals } from './tax-total.ts';

// Made-up GSTINs with valid check characters.
const gstin = (first14: string) => first14 + computeGstinCheckChar(first14);
const SUPPLIER_KA = gstin('29ABCDE1234F1Z');

/** An invoice whose totals block prints only a taxable value, a "Total Tax" figure and the total. */
function invoice(placeOfSupply: string | null, block: string[]) {
  const lines = [
    'TAX INVOICE',
    'Invoice No.  KV/104/25-26',
    'Invoice Date  14/08/2025',
    `Seller GSTIN  ${SUPPLIER_KA}`,
    ...(placeOfSupply ? [`Place of Supply  ${placeOfSupply}`] : []),
    ...block,
  ];
  return interpretDocument([pageOfLines(lines)], 'invoice', null);
}

describe('collectTaxTotals', () => {
  it('reads the figure after a "Total Tax" or "GST Amount" label, not a rate or words', () => {
    const layout = buildLayout([
      pageOfLines([
        'Total Tax Amount  1,26,450.00',
        'GST Amount :  450.50',
        'Tax Amount (in words)  Rupees Ten',
      ]),
    ]);
    expect(collectTaxTotals(layout, () => false).map((c) => c.value)).toEqual([126450, 450.5]);
  });
});

describe('amounts completed from a "Total Tax" figure', () => {
  const block = ['Total Before Tax  10,000.00', 'Total Tax  1,800.00', 'Grand Total  11,800.00'];

  it('splits the tax into equal CGST and SGST within one state', () => {
    const r = invoice('29-Karnataka', block);
    expect(r.fields).toMatchObject({ taxableValue: 10000, cgst: 900, sgst: 900, total: 11800 });
    expect(r.fields.igst ?? null).toBeNull();
  });

  it('puts the tax in IGST between states', () => {
    const r = invoice('27-Maharashtra', block);
    expect(r.fields).toMatchObject({ taxableValue: 10000, igst: 1800, total: 11800 });
    expect(r.fields.cgst ?? null).toBeNull();
  });

  it('leaves the heads unread when the supply is not known, the block still adding up', () => {
    const r = invoice(null, ['Total Before Tax  10,000.00', 'Total Tax  1,800.00', 'Grand Total  11,800.00']);
    expect(r.fields).toMatchObject({ taxableValue: 10000, total: 11800 });
    expect([r.fields.cgst, r.fields.sgst, r.fields.igst].every((v) => v == null)).toBe(true);
  });

  it('derives no head from a tax figure the totals do not agree with', () => {
    const r = invoice('29-Karnataka', [
      'Total Before Tax  10,000.00',
      'Total Tax  1,500.00',
      'Grand Total  11,800.00',
    ]);
    expect([r.fields.cgst, r.fields.sgst, r.fields.igst].every((v) => v == null)).toBe(true);
  });
});

describe('charges after the taxes', () => {
  it('let a grand total that includes shipping and an adjustment add up, over the table total', () => {
    const r = invoice('29-Karnataka', [
      'Total  12  5,000.00  5,900.00',
      'Taxable Total :  5,000.00',
      'CGST :  450.00',
      'SGST :  450.00',
      'Shipping Charges :  150.00',
      'Adjustment :  50.00',
      'Total Amount :  6,100.00',
    ]);
    expect(r.fields).toMatchObject({ taxableValue: 5000, cgst: 450, sgst: 450, total: 6100 });
  });
});

describe('a totals block whose labels were lost', () => {
  it('is read from the printed triple base + tax = total, the tax a GST slab of the base', () => {
    // A sub-total under the lines, then the tax and the total printed without their labels.
    const r = invoice(null, [
      'Sl No.  Description  Amount',
      '1  Canopy fabrication  2,40,000.00',
      '2  Gutter fixing  1,10,000.00',
      'Total  3,50,000.00',
      '63,000.00',
      '4,13,000.00',
    ]);
    expect(r.fields).toMatchObject({ taxableValue: 350000, igst: 63000, total: 413000 });
  });

  it("takes no triple that ends below the largest figure (a line's own base, tax and amount)", () => {
    const r = invoice(null, [
      'Item  Base  Tax  Amount',
      'Pump  1,000.00  180.00  1,180.00',
      'Valve  500.00  7.00  507.00',
      'Grand Total  9,999.00',
    ]);
    expect(r.fields.igst ?? null).toBeNull();
    expect(r.fields.taxableValue).not.toBe(1000);
  });
});

describe('totals-block rows', () => {
  it('gives each label on one row the figure after it, not the figures of the row below', () => {
    const layout = buildLayout([
      pageOfLines(['Total:  Rupees Eleven Only  Total Before Tax  10,000.00', 'Round Off  0.00']),
    ]);
    const c = collectAmountCandidates(layout, () => false);
    expect(c.get('taxableValue')?.map((x) => x.value)).toEqual([10000]);
    expect(c.get('total')).toBeUndefined();
  });

  it('keeps the tax heads read rather than a sub-total that adds up to the total with a round-off alone', () => {
    const r = invoice('29-Karnataka', [
      'Sub Total  11,799.84',
      'CGST Amt  900.00',
      'SGST Amt  900.00',
      'Round off  0.16',
      'Total Amount  11,800.00',
    ]);
    expect(r.fields).toMatchObject({ cgst: 900, sgst: 900, total: 11800 });
  });
});
