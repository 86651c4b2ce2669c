import { describe, expect, it } from 'vitest';
import { pageOfCells } from '../../test/test-words.ts';
import { buildLayout } from '../layout.ts';
import { amountLabel, collectAmountCandidates, moneyOf, printedAmounts, solveAmounts } from './amounts.ts';

const page = pageOfCells;
const none = () => false;
/** A one-segment OCR reading of `text`. */
const ocrSeg = (text: string) => buildLayout([page([[100, [100, text]]], 'ocr')]).lines[0]!.segments[0]!;

describe('figures after "Rs."', () => {
  it('reads the dot of "Rs." as the abbreviation, not a decimal point', () => {
    expect(moneyOf(ocrSeg('Rs.540'))).toBe(540);
    expect(moneyOf(ocrSeg('Rs.2,350'))).toBe(2350);
    // A figure with three decimals is still one whose separators OCR lost.
    expect(moneyOf(ocrSeg('Rs.61.514'))).toBeNull();
  });

  it('takes the right-most figure of a total row when "Rs." makes another look like paise', () => {
    const layout = buildLayout([
      page([[400, [100, 'TOTAL'], [250, 'Rs.450'], [350, 'Rs.63'], [420, 'Rs.24'], [500, 'Rs.537']]], 'ocr'),
    ]);
    expect(collectAmountCandidates(layout, none).get('total')?.[0]?.value).toBe(537);
  });

  it('takes a right-most total printed in digit groups over tax columns with paise', () => {
    const row = (total: string) =>
      buildLayout([
        page([[400, [100, 'TOTAL .'], [250, 'Rs. 4,860.25'], [350, 'Rs. 4,860.25'], [450, total]]], 'ocr'),
      ]);
    // A grouping comma read as a dot is still a figure in digit groups.
    expect(collectAmountCandidates(row('Rs. 5.57,301'), none).get('total')?.[0]?.value).toBe(557301);
    // A lone digit after the figures is a stray mark: the figure with paise stays.
    expect(collectAmountCandidates(row('4'), none).get('total')?.[0]?.value).toBe(4860.25);
  });
});

describe('round-off labels', () => {
  it('reads "R/OFF" as a round-off and "Round Invoice Total" as the total', () => {
    expect(amountLabel('R/OFF')?.field).toBe('roundOff');
    expect(amountLabel('R. Off')?.field).toBe('roundOff');
    expect(amountLabel('Round Invoice Total')?.field).toBe('total');
    expect(amountLabel('Rounding Total')?.field).toBe('total');
    expect(amountLabel('Rounding')?.field).toBe('roundOff');
  });
});

describe('tax printed per slab', () => {
  it('sums the slab rows when only their sum makes the block add up, however many rows there are', () => {
    const layout = buildLayout([
      page([
        [100, [100, 'Subtotal'], [400, '1,250.00']],
        [114, [200, 'IGST at 0%'], [400, '0.00']],
        [128, [200, 'IGST at 5%'], [400, '25.00']],
        [142, [200, 'IGST at 12%'], [400, '48.00']],
        [156, [200, 'IGST at 18%'], [400, '63.00']],
        [170, [100, 'TOTAL'], [400, '1,386.00']],
      ]),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), null);
    expect(solved.consistent).toBe(true);
    expect(solved.values.igst?.value).toBe(136);
  });
});

describe('a rate-wise tax summary whose total row prints no "Total"', () => {
  const summary = (lastRow: Array<[number, string]>) =>
    buildLayout([
      page([
        [100, [500, 'Total'], [560, '5,106.00']],
        [
          140,
          [200, 'TAX %'],
          [250, 'Taxable Value'],
          [330, 'CGST'],
          [390, 'SGST'],
          [450, 'IGST'],
          [510, 'Total Tax'],
        ],
        [
          154,
          [20, 'Bank Details'],
          [205, '5'],
          [258, '1,200.00'],
          [330, '30.00'],
          [390, '30.00'],
          [455, '0.00'],
          [515, '60.00'],
        ],
        [
          168,
          [205, '18'],
          [258, '2,500.00'],
          [328, '225.00'],
          [388, '225.00'],
          [455, '0.00'],
          [515, '450.00'],
        ],
        [
          182,
          [20, 'Account No'],
          [205, '28'],
          [262, '700.00'],
          [328, '98.00'],
          [388, '98.00'],
          [455, '0.00'],
          [515, '196.00'],
        ],
        [196, ...lastRow],
      ]),
    ]);

  it('reads the row whose every amount is the sum of the rows above it', () => {
    const layout = summary([
      [258, '4,400.00'],
      [328, '353.00'],
      [388, '353.00'],
      [455, '0.00'],
      [515, '706.00'],
    ]);
    const cands = collectAmountCandidates(layout, none);
    expect(cands.get('taxableValue')?.map((c) => c.value)).toContain(4400);
    expect(cands.get('cgst')?.map((c) => c.value)).toContain(353);
    const solved = solveAmounts(cands, null);
    expect(solved.consistent).toBe(true);
    expect(solved.values.sgst?.value).toBe(353);
    expect(solved.values.taxableValue?.value).toBe(4400);
  });

  it('reads nothing from a last row that is not their sum', () => {
    const layout = summary([
      [258, '4,400.00'],
      [328, '354.00'],
      [388, '353.00'],
      [455, '0.00'],
      [515, '706.00'],
    ]);
    const cands = collectAmountCandidates(layout, none);
    expect(cands.get('cgst')?.map((c) => c.value)).not.toContain(354);
    expect(cands.get('taxableValue')?.map((c) => c.value) ?? []).not.toContain(4400);
  });
});

describe('completing a block from the set that can be completed', () => {
  it('takes the summed heads when only they leave a taxable value the page prints (to the paisa)', () => {
    const layout = buildLayout([
      page([
        [100, [300, 'Net'], [360, 'CGST'], [420, 'SGST'], [480, 'Total']],
        [114, [20, 'Widget'], [300, '1,120.00'], [362, '60.00'], [422, '60.00'], [480, '1,120.00']],
        [128, [20, 'Gadget'], [300, '1,120.00'], [362, '85.42'], [422, '85.42'], [480, '1,120.00']],
        [142, [400, 'Grand Total'], [480, '2,240.00']],
        // A rate-wise summary whose base column is headed "Value" only.
        [180, [200, 'Rate'], [250, 'Value'], [330, 'CGST'], [390, 'SGST']],
        [194, [205, '12'], [258, '1,000.02'], [330, '60.00'], [390, '60.00']],
        [208, [205, '18'], [262, '949.15'], [330, '85.42'], [390, '85.42']],
        [222, [258, '1,949.17'], [328, '145.42'], [388, '145.42']],
      ]),
    ]);
    const cands = collectAmountCandidates(layout, none);
    const solved = solveAmounts(cands, null, printedAmounts(layout));
    expect(solved.consistent).toBe(true);
    expect(solved.values.cgst?.value).toBe(145.42);
    expect(solved.values.taxableValue?.value).toBe(1949.17);
  });
});

describe("an item table's total row under its tax columns", () => {
  it('is read however many item rows stand between the headings and it', () => {
    const items: Array<[number, ...Array<[number, string]>]> = Array.from({ length: 15 }, (_, k) => [
      120 + 14 * k,
      [20, `Pump part ${k + 1}`],
      [250, '1,000.00'],
      [340, '90.00'],
      [400, '90.00'],
      [460, '0.00'],
      [520, '1,180.00'],
    ]);
    const layout = buildLayout([
      page([
        [
          100,
          [20, 'Item'],
          [250, 'Taxable Value'],
          [340, 'CGST'],
          [400, 'SGST'],
          [460, 'IGST'],
          [520, 'Total'],
        ],
        ...items,
        [
          340,
          [20, 'Total'],
          [250, '15,000.00'],
          [340, '1,350.00'],
          [400, '1,350.00'],
          [460, '0.00'],
          [520, '17,700.00'],
        ],
      ]),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), 15_000);
    expect(solved.consistent).toBe(true);
    expect(solved.values.cgst?.value).toBe(1350);
    expect(solved.values.igst?.value).toBe(0);
    expect(solved.values.total?.value).toBe(17700);
  });
});

describe('heads read as zero', () => {
  it('complete nothing: the total is not the taxable value because no tax was charged', () => {
    const layout = buildLayout([
      page([
        [100, [300, 'Sub Total'], [480, '2,45,600.00']],
        [114, [300, 'CGST'], [480, '0.00']],
        [128, [300, 'SGST'], [480, '0.00']],
        [142, [300, 'Total Tax'], [480, '31,450.20']],
        [156, [300, 'Grand Total'], [480, '2,87,050.20']],
      ]),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), null, printedAmounts(layout), true);
    expect(solved.consistent).toBe(false);
    expect(solved.values.taxableValue?.value).toBe(245600);
  });
});

describe("a head's slab rows under its own total row", () => {
  it('takes the printed total row, not the sum of the slab rows and the total row', () => {
    const layout = buildLayout([
      page([
        [100, [300, 'Taxable Value'], [480, '5,00,000.00']],
        [114, [300, 'CGST'], [480, '36,000.00']],
        [128, [300, 'UTGST @ 2.5%'], [480, '2,500.00']],
        [142, [300, 'UTGST @ 6%'], [480, '12,000.00']],
        [156, [300, 'UTGST @ 9%'], [480, '21,500.00']],
        [170, [300, 'Total UTGST'], [480, '36,000.00']],
        [184, [300, 'Total'], [480, '5,72,000.00']],
      ]),
    ]);
    const cands = collectAmountCandidates(layout, none);
    expect(cands.get('sgst')?.map((c) => c.value)).not.toContain(72000);
    const solved = solveAmounts(cands, null);
    expect(solved.consistent).toBe(true);
    expect(solved.values.cgst?.value).toBe(36000);
    expect(solved.values.sgst?.value).toBe(36000);
  });
});

describe('figures OCR split at the decimal point', () => {
  it('reads "29,173 54" under a summary heading as one figure with paise', () => {
    const layout = buildLayout([
      page(
        [
          [
            100,
            [40, "Tax'ble Amt"],
            [130, 'CGST Amt'],
            [200, 'SGST Amt'],
            [270, 'Round off Amt'],
            [360, 'Total Inv. Amt'],
          ],
          [
            112,
            [40, '3,24,150'],
            [84, '40'],
            [130, '29,173'],
            [164, '54'],
            [200, '29,173.54'],
            [280, '0'],
            [287, '52'],
            [365, '3,82,498.00'],
          ],
        ],
        'ocr',
      ),
    ]);
    const cands = collectAmountCandidates(layout, none);
    expect(cands.get('cgst')?.[0]?.value).toBe(29173.54);
    expect(cands.get('taxableValue')?.[0]?.value).toBe(324150.4);
    const solved = solveAmounts(cands, null);
    expect(solved.consistent).toBe(true);
    expect(solved.values.roundOff?.value).toBe(0.52);
  });
});

describe("an order's total", () => {
  const textSeg = (text: string) => buildLayout([page([[100, [100, text]]])]).lines[0]!.segments[0]!;

  it('reads "Order Total" and "Challan Total" as the total, "Total Freight" not', () => {
    expect(amountLabel('Order Total')?.field).toBe('total');
    expect(amountLabel('Challan Total:')?.field).toBe('total');
    expect(amountLabel('PO Total')?.field).toBe('total');
    expect(amountLabel('Total Freight')).toBeNull();
    expect(amountLabel('Total Packing Charges')).toBeNull();
    expect(amountLabel('Total Amount')?.field).toBe('total');
  });

  it("reads a text layer's figure printed to three places whose third is a zero", () => {
    expect(moneyOf(textSeg('Rs.418250.450'))).toBe(418250.45);
    expect(moneyOf(textSeg('1,250.755'))).toBeNull();
    expect(moneyOf(ocrSeg('5120.370'))).toBeNull();
    const layout = buildLayout([page([[100, [300, 'Challan Total: Rs.418250.450']]])]);
    expect(collectAmountCandidates(layout, none).get('total')?.[0]?.value).toBe(418250.45);
  });
});

describe('abbreviations printed with spaced dots', () => {
  it('reads "S . G . S . T @9%" as SGST, the label ending where it ends in the original', () => {
    expect(amountLabel('S . G . S . T @9%')).toEqual({ field: 'sgst', end: 13 });
    expect(amountLabel('C. G. S. T.')?.field).toBe('cgst');
    expect(amountLabel('A . B . C Traders')).toBeNull();
    const layout = buildLayout([page([[100, [100, 'S . G . S . T @9%'], [300, '27.45']]], 'ocr')]);
    expect(collectAmountCandidates(layout, none).get('sgst')?.[0]?.value).toBe(27.45);
  });
});

describe('completing a lesser set', () => {
  it("never takes another total than the best set's (an item row's) to make a remainder the page prints", () => {
    const layout = buildLayout([
      page([
        [100, [300, 'Net'], [360, 'CGST'], [420, 'SGST'], [480, 'Total']],
        [114, [20, 'Widget'], [300, '1,120.00'], [362, '60.00'], [422, '60.00'], [480, '1,120.00']],
        [128, [20, 'Gadget'], [300, '1,120.00'], [362, '85.42'], [422, '85.42'], [480, '1,120.00']],
        [142, [400, 'Grand Total'], [480, '2,240.00']],
        [160, [20, 'Advance received'], [480, '1,000.00']],
      ]),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), null, printedAmounts(layout));
    expect(solved.consistent).toBe(false);
    expect(solved.values.total?.value).toBe(2240);
  });
});

describe("a table's total row", () => {
  it("is never another table's, under headings of its own further down", () => {
    const layout = buildLayout([
      page([
        [100, [20, 'Item'], [250, 'Taxable Value'], [340, 'CGST'], [400, 'SGST'], [460, 'Amount']],
        [114, [20, 'Gear box'], [250, '2,000.00'], [340, '180.00'], [400, '180.00'], [460, '2,360.00']],
        // An HSN summary with its columns set elsewhere: its total row is its own.
        [160, [20, 'HSN'], [120, 'Taxable Value'], [200, 'CGST'], [260, 'SGST'], [400, 'Total Tax']],
        [174, [20, '8483'], [120, '2,000.00'], [200, '180.00'], [260, '180.00'], [400, '360.00']],
        [188, [20, 'Total'], [120, '2,000.00'], [200, '180.00'], [260, '180.00'], [400, '360.00']],
      ]),
    ]);
    const cands = collectAmountCandidates(layout, none);
    // Read under the first table's headings, the summary's total tax would be an SGST of 360.
    expect(cands.get('sgst')?.map((c) => c.value)).not.toContain(360);
  });
});

describe('a tax table’s total row in whole rupees', () => {
  it('reads figures with a rupee sign under "CGST" over "Rate | Amt." sub-columns', () => {
    const item = (
      y: number,
      name: string,
      base: string,
      tax: string,
    ): [number, ...Array<[number, string]>] => [
      y,
      [20, name],
      [150, '4'],
      [250, base],
      [330, '9%'],
      [380, tax],
      [430, '9%'],
      [480, tax],
    ];
    const layout = buildLayout([
      page(
        [
          [100, [20, 'Item'], [150, 'Qty'], [250, 'Taxable Value'], [360, 'CGST'], [460, 'SGST']],
          [114, [330, 'Rate'], [380, 'Amt.'], [430, 'Rate'], [480, 'Amt.']],
          item(128, 'Sluice valve', 'Rs.2,000', 'Rs.180'),
          item(142, 'Gate valve', 'Rs.1,000', 'Rs.90'),
          item(156, 'Check valve', 'Rs.3,000', 'Rs.270'),
          [170, [20, 'Total'], [150, '12'], [250, 'Rs.6,000'], [380, 'Rs.540'], [480, 'Rs.540']],
        ],
        'ocr',
      ),
    ]);
    const cands = collectAmountCandidates(layout, none);
    expect(cands.get('taxableValue')?.map((c) => c.value)).toContain(6000);
    expect(cands.get('cgst')?.map((c) => c.value)).toContain(540);
    expect(cands.get('sgst')?.map((c) => c.value)).toContain(540);
    // A bare count under no money heading is no figure of the row.
    expect(cands.get('total')?.map((c) => c.value) ?? []).not.toContain(12);
  });
});

describe('a taxable value the taxes and total imply', () => {
  const block = (taxable: string) =>
    buildLayout([
      page(
        [
          [100, [100, 'Taxable Value'], [400, taxable]],
          [114, [100, 'CGST'], [400, '3,000.00']],
          [128, [100, 'SGST'], [400, '3,000.00']],
          [142, [100, 'Total'], [400, '44,164.27']],
        ],
        'ocr',
      ),
    ]);
  const solve = (taxable: string) => {
    const layout = block(taxable);
    return solveAmounts(collectAmountCandidates(layout, none), null, printedAmounts(layout));
  };

  it('is total less taxes when the page prints its digits with the separators lost', () => {
    const solved = solve('3816427');
    expect(solved.values.taxableValue?.value).toBe(38164.27);
    expect(solved.consistent).toBe(true);
  });

  it('stays empty when nothing on the page prints it', () => {
    expect(solve('-').values.taxableValue).toBeUndefined();
  });
});
