import { describe, expect, it } from 'vitest';
import { pageOfLines } from '../../test/test-words.ts';
import { buildLayout } from '../layout.ts';
import {
  applyDocumentGstRate,
  deriveDocumentGstRate,
  doubleHalfRates,
  findDocumentGstRate,
} from './tax-rates.ts';

const none = () => false;

describe('findDocumentGstRate', () => {
  it('adds equal CGST and SGST rates printed on the tax rows', () => {
    expect(
      findDocumentGstRate(
        buildLayout([pageOfLines(['Add CGST (9%)  1,080.00', 'Add SGST (9%)  1,080.00'])]),
        none,
      ),
    ).toBe(18);
    expect(
      findDocumentGstRate(
        buildLayout([pageOfLines(['S.G.S.T @9% :  31.95', 'C.G.S.T @ 9% :  31.95'])]),
        none,
      ),
    ).toBe(18);
  });
  it('reads an IGST rate written before or after its head', () => {
    expect(findDocumentGstRate(buildLayout([pageOfLines(['IGST @ 18%  540.00'])]), none)).toBe(18);
    expect(findDocumentGstRate(buildLayout([pageOfLines(['18% IGST  540.00'])]), none)).toBe(18);
  });
  it('reads the rate a PO states in its terms, and rates under a tax summary heading', () => {
    const terms = ['1. GST : - GST Extra as applicable, current rate is 18%'];
    expect(findDocumentGstRate(buildLayout([pageOfLines(terms)]), none)).toBe(18);
    const summary = ['Taxable Value  IGST', '  Rate', '4478638.00  18%'];
    expect(findDocumentGstRate(buildLayout([pageOfLines(summary)]), none)).toBe(18);
  });

  it('finds no single rate when the rows print several, or unequal halves', () => {
    expect(
      findDocumentGstRate(
        buildLayout([pageOfLines(['CGST @ 9%  90.00', 'SGST @ 9%  90.00', 'CGST @ 2.5%  5.00'])]),
        none,
      ),
    ).toBeNull();
    expect(
      findDocumentGstRate(buildLayout([pageOfLines(['ADD CGST 12%  6816', 'ADD SGST 6%  3408'])]), none),
    ).toBeNull();
    expect(findDocumentGstRate(buildLayout([pageOfLines(['Discount 20%  140'])]), none)).toBeNull();
  });
});

describe('applyDocumentGstRate', () => {
  it('fills lines without a rate when the taxes are that rate of the taxable value', () => {
    const lines: Array<Record<string, unknown>> = [{ gstRate: null }, { gstRate: 18 }];
    expect(applyDocumentGstRate(lines, 18, { taxable: 1000, tax: 180 })).toBe(true);
    expect(lines.map((l) => l.gstRate)).toEqual([18, 18]);
  });
  it('leaves lines alone when the totals disagree or a line shows another rate', () => {
    const a: Array<Record<string, unknown>> = [{ gstRate: null }];
    expect(applyDocumentGstRate(a, 18, { taxable: 1000, tax: 120 })).toBe(false);
    expect(a[0]!.gstRate).toBeNull();
    const b: Array<Record<string, unknown>> = [{ gstRate: null }, { gstRate: 5 }];
    expect(applyDocumentGstRate(b, 18, { taxable: null, tax: null })).toBe(false);
  });
});

describe('doubleHalfRates', () => {
  it('doubles a per-head line rate on an intra-state document', () => {
    const lines: Array<Record<string, unknown>> = [{ gstRate: 9 }, { gstRate: 18 }, { gstRate: 2.5 }];
    expect(doubleHalfRates(lines, true)).toBe(2);
    expect(lines.map((l) => l.gstRate)).toEqual([18, 18, 5]);
  });
  it('changes nothing on an inter-state document', () => {
    const lines: Array<Record<string, unknown>> = [{ gstRate: 9 }];
    expect(doubleHalfRates(lines, false)).toBe(0);
    expect(lines[0]!.gstRate).toBe(9);
  });
});

describe('deriveDocumentGstRate', () => {
  it('reads the slab the taxes are of the taxable value', () => {
    expect(deriveDocumentGstRate(1500, 270)).toBe(18);
    expect(deriveDocumentGstRate(2311.86, 416.14)).toBe(18);
    expect(deriveDocumentGstRate(100000, 5000)).toBe(5);
  });
  it('gives no rate for a mix of rates, no tax or no base', () => {
    // 1,000 at 12 % and 1,000 at 18 %: 300 of 2,000 is 15 %, no slab.
    expect(deriveDocumentGstRate(2000, 300)).toBeNull();
    expect(deriveDocumentGstRate(2000, 0)).toBeNull();
    expect(deriveDocumentGstRate(null, 300)).toBeNull();
  });
});

describe('applyDocumentGstRate with a bill discount', () => {
  it('fills the rate when the taxes are that rate of the lines less a printed discount, and only then', () => {
    const lines = () => [{ amount: 1250 }, { amount: 2750 }] as Array<Record<string, unknown>>;
    // 4,000.00 of lines, "Discount @ 2.5%" 100.00 printed: 18 % of 3,900.00 is 702.00.
    const totals = { taxable: 4000, tax: 702 };
    const withDiscount = lines();
    expect(applyDocumentGstRate(withDiscount, 18, totals, new Set([10000, 400000]))).toBe(true);
    expect(withDiscount.map((l) => l.gstRate)).toEqual([18, 18]);
    // The same shortfall with no figure that explains it (an exempt line, say): no rate is guessed.
    const unexplained = lines();
    expect(applyDocumentGstRate(unexplained, 18, totals, new Set([400000, 12345]))).toBe(false);
    expect(unexplained.map((l) => l.gstRate)).toEqual([undefined, undefined]);
  });
});
