import { describe, expect, it } from 'vitest';
import { layoutCellWords } from '../../test/test-words.ts';
import { buildLayout } from '../layout.ts';
import type { PageContent, Word } from '../types.ts';
import { collectAmountCandidates, printedAmounts, solveAmounts } from './amounts.ts';
import { normalizeOcrAmount, parseOcrAmount } from './ocr-money.ts';

describe('OCR money', () => {
  it('reads a rupee sign misread as a look-alike glyph', () => {
    expect(parseOcrAmount('X15,91,234.00')).toBe(1591234);
    expect(parseOcrAmount('X 71,854.00')).toBe(71854);
    expect(parseOcrAmount('¥13,24,850.00')).toBe(1324850);
    expect(parseOcrAmount('£19,28,164.16')).toBe(1928164.16);
  });

  it('reads grouping commas read as dots and a decimal point read as a space', () => {
    expect(parseOcrAmount('20,76.633.18')).toBe(2076633.18);
    expect(parseOcrAmount('6.25,575.76')).toBe(625575.76);
    expect(parseOcrAmount('1.79,281.09')).toBe(179281.09);
    expect(parseOcrAmount('47,891 48')).toBe(47891.48);
    expect(parseOcrAmount('1,55,194 58')).toBe(155194.58);
    expect(parseOcrAmount('(-)o.21')).toBe(-0.21);
  });

  it('refuses figures whose digit groups do not fit (a digit lost or added)', () => {
    expect(parseOcrAmount('1,55,1944 .58')).toBeNull();
    expect(parseOcrAmount('0.72.790.99')).toBeNull();
    expect(parseOcrAmount('12,34')).toBeNull();
    expect(parseOcrAmount('Nos')).toBeNull();
    expect(normalizeOcrAmount('2,617 Nos')).toBeNull();
  });
});

function ocrPage(lines: Array<[number, ...Array<[number, string]>]>): PageContent {
  const words: Word[] = [];
  const metrics = { charWidth: 5, space: 3, height: 8, source: 'ocr', conf: 0.9 } as const;
  for (const [y, ...cells] of lines)
    for (const [x, text] of cells) words.push(...layoutCellWords(x, y, text, metrics));
  return { page: 1, width: 595, height: 842, words, source: 'ocr' };
}
const none = () => false;

describe('totals block on scans', () => {
  it('reads a label row whose figures OCR ran together into one segment, column by column', () => {
    const layout = buildLayout([
      ocrPage([
        [
          400,
          [40, 'Taxble Amt'],
          [110, 'CGSTAmt'],
          [160, 'SGSTAmt'],
          [210, 'IGSTAmt'],
          [480, 'Total Inv. Amt'],
        ],
        [
          412,
          [40, '11,14,792.00'],
          [104, '12,719.00'],
          [154, '12,719.00'],
          [216, '0.00'],
          [480, '11,40,230.00'],
        ],
      ]),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), null);
    expect(solved.consistent).toBe(true);
    expect(solved.values.taxableValue?.value).toBe(1114792);
    expect(solved.values.cgst?.value).toBe(12719);
    expect(solved.values.sgst?.value).toBe(12719);
    expect(solved.values.total?.value).toBe(1140230);
  });

  it('cuts a run of summary labels OCR read as one phrase, skipping a noise line under it', () => {
    const layout = buildLayout([
      ocrPage([
        [542, [91, 'Taxble Amt CGSTAmt SGSTAmt IGSTAmt CESSAmt Round off Amt Total inv. Amt']],
        [553, [250, '000'], [454, '000']],
        // Figures are right-aligned under their labels.
        [
          558,
          [85, '3,21,450.30'],
          [142, '28.93053'],
          [170, '28,930.53'],
          [335, '0.64'],
          [370, '3,79,312.00'],
        ],
      ]),
    ]);
    const c = collectAmountCandidates(layout, none);
    expect(c.get('total')?.[0]?.value).toBe(379312);
    expect(c.get('taxableValue')?.[0]?.value).toBe(321450.3);
    // "28.93053" lost a separator: it is no reading of the CGST at all.
    expect(c.get('cgst')).toBeUndefined();
    expect(c.get('sgst')?.[0]?.value).toBe(28930.53);
    expect(c.get('roundOff')?.[0]?.value).toBe(0.64);
  });

  it('derives an unread taxable value from the total only when printed, or when the taxes are its slab', () => {
    const lines: Array<[number, ...Array<[number, string]>]> = [
      [400, [300, 'CGST @ 9%'], [500, '1,09,150.97']],
      [412, [300, 'SGST @ 9%'], [500, '1,09,150.97']],
      [424, [300, 'Less : Rounding Off'], [500, '(-)0.34']],
      [436, [300, 'Grand Total'], [500, 'X 14,31,090.00']],
    ];
    // 9 % + 9 % of 12,12,788.40 is 2,18,301.91 (to the paise lines round to): the taxes name the base.
    const without = buildLayout([ocrPage(lines)]);
    const a = solveAmounts(collectAmountCandidates(without, none), null, printedAmounts(without));
    expect(a.values.total?.value).toBe(1431090);
    expect(a.values.taxableValue?.value).toBe(1212788.4);
    // An untaxed charge in the total (freight of 5,000.00): the remainder is no slab's base.
    const freight = buildLayout([
      ocrPage([
        [400, [300, 'CGST @ 9%'], [500, '1,09,150.97']],
        [412, [300, 'SGST @ 9%'], [500, '1,09,150.97']],
        [424, [300, 'Less : Rounding Off'], [500, '(-)0.34']],
        [436, [300, 'Grand Total'], [500, 'X 14,36,090.00']],
      ]),
    ]);
    const f = solveAmounts(collectAmountCandidates(freight, none), null, printedAmounts(freight));
    expect(f.values.taxableValue).toBeUndefined();
    // The HSN summary's total row prints the taxable value.
    const withSummary = buildLayout([
      ocrPage([...lines, [600, [40, 'Total'], [150, '12,12,788.40'], [300, '2,18,301.94']]]),
    ]);
    const b = solveAmounts(collectAmountCandidates(withSummary, none), null, printedAmounts(withSummary));
    expect(b.consistent).toBe(true);
    expect(b.values.taxableValue?.value).toBe(1212788.4);
  });

  it('reads "1GST" as IGST and prefers a figure with paise over a stray digit after it', () => {
    const layout = buildLayout([
      ocrPage([
        [317, [365, 'sub Total'], [539, '83,727.50']],
        [333, [365, '1GST (18%)'], [539, '15,070.95']],
        [348, [365, 'Round Off'], [558, '-0.45'], [612, '3']],
        [362, [364, 'Total'], [520, '%98,798.00']],
      ]),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), null, printedAmounts(layout));
    expect(solved.consistent).toBe(true);
    expect(solved.values.igst?.value).toBe(15070.95);
    expect(solved.values.roundOff?.value).toBe(-0.45);
    expect(solved.values.total?.value).toBe(98798);
  });

  it('takes a printed figure with broken grouping as witness for a derived taxable value', () => {
    const layout = buildLayout([
      ocrPage([
        // The sub-total misread (6 for 5); the HSN summary's total row lost a comma.
        [294, [515, '1,69,50,518.49']],
        [307, [209, 'Output CGST @ 9%'], [522, '14,35,546.67']],
        [321, [210, 'Output SGST @ 9%'], [521, '14,35,546.67']],
        [336, [245, 'Round Off'], [552, '0.17']],
        [355, [239, 'Grand Total'], [500, 'Rs. 1,88,21,612.00']],
        [563, [80, 'Total'], [152, '1,59,50518.49'], [292, '14,35546.67']],
      ]),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), null, printedAmounts(layout));
    expect(solved.consistent).toBe(true);
    expect(solved.values.taxableValue?.value).toBe(15950518.49);
  });

  it('takes an unreadable SGST as equal to its CGST when the document then adds up', () => {
    const layout = buildLayout([
      ocrPage([
        [400, [300, 'Sub Total'], [500, '16,69,689.00']],
        [412, [300, 'CGST'], [500, '1,55,194 58']],
        [424, [300, 'SGST'], [500, '1,565,194 .58']],
        [436, [300, 'Total PO Value (INR)'], [500, '19,80,078.16']],
      ]),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), null, printedAmounts(layout));
    expect(solved.consistent).toBe(true);
    expect(solved.values.sgst?.value).toBe(155194.58);
  });
});
