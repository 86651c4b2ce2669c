import { describe, expect, it } from 'vitest';
import { pageOfCells } from '../../test/test-words.ts';
import { extractLineItems } from './index.ts';

/**
 * A made-up OCR'd invoice whose quantity label OCR lost (only the tail of a wrapped label, "TITY",
 * reads under the header) and whose items print a sub-line of rates under their figures
 * ("-Disc 4%" under the price, "18.00%" under the IGST amount, "2%" under the cess) before the
 * rest of the description.
 */
function rateSubLineInvoice() {
  return pageOfCells(
    [
      [
        100,
        [27, 'No'],
        [68, 'Item Name'],
        [222, 'HSN/SAC'],
        [338, 'Unit Price'],
        [414, 'IGST'],
        [468, 'Cess'],
        [518, 'Amount'],
      ],
      [107, [292, 'TITY']],
      [
        125,
        [30, '1'],
        [51, 'Floor'],
        [254, '3405'],
        [301, '12.00'],
        [362, '150.00'],
        [416, '311.04'],
        [476, '34.56'],
        [538, '2,073.60'],
      ],
      [136, [344, '-Disc 4%'], [419, '18.00%'], [491, '2%']],
      [142, [50, 'polish, lemon']],
      [
        176,
        [30, '2'],
        [51, 'Glass'],
        [254, '9603'],
        [306, '4.00'],
        [352, '1,185.00'],
        [416, '568.80'],
        [483, '0.00'],
        [533, '5,308.80'],
      ],
      [188, [419, '12.00%'], [491, '0%']],
      [194, [50, 'wiper set']],
      [
        212,
        [30, '3'],
        [51, 'Mop'],
        [254, '9603'],
        [301, '50.00'],
        [367, '90.00'],
        [416, '745.20'],
        [483, '0.00'],
        [533, '4,885.20'],
      ],
      [224, [344, '-Disc 8%'], [419, '18.00%'], [491, '0%']],
      [230, [50, 'refill, grey']],
      [250, [30, '4'], [51, 'Freight'], [362, '215.00'], [421, '38.70'], [542, '253.70']],
      [262, [419, '18.00%']],
      [300, [166, 'TOTAL'], [345, '10,349.20'], [411, '1,668.24'], [476, '34.56'], [528, '12,570.80']],
    ],
    'ocr',
  );
}

describe('items printed with a sub-line of rates', () => {
  const { lineItems } = extractLineItems([rateSubLineInvoice()], 'invoice');

  it('finds the unlabelled quantity column: a line of percentages only is no row of its own', () => {
    expect(lineItems.slice(0, 3).map((l) => l.quantity)).toEqual([12, 4, 50]);
    expect(lineItems.slice(0, 3).map((l) => l.rate)).toEqual([150, 1185, 90]);
  });

  it('keeps a rate sub-line with a caption ("-Disc 4%") in its item, so descriptions stay whole', () => {
    expect(lineItems.slice(0, 3).map((l) => l.description)).toEqual([
      'Floor polish, lemon',
      'Glass wiper set',
      'Mop refill, grey',
    ]);
  });

  it('reads the GST rate the tax column prints, not an unlabelled percentage column (cess)', () => {
    expect(lineItems.map((l) => l.gstRate)).toEqual([18, 12, 18, 18]);
  });

  it('takes no unit from a header label tail above the first row', () => {
    expect(lineItems[0]?.unit).toBeNull();
  });
});

/**
 * A made-up OCR'd invoice whose rates include tax: the quantity cell prints its unit in brackets
 * glued on ("6(NOS)"), the taxable "Amount" stands before the CGST and SGST columns and the
 * "Total" with tax after them, and the tax heads' "%" | "Amt" sub-labels sit in a header row of
 * their own, further below the heads than a wrapped label would.
 */
function taxInclusiveInvoice() {
  return pageOfCells(
    [
      [
        100,
        [46, 'Particulars'],
        [188, 'HSN'],
        [238, 'Qty'],
        [276, 'Rate'],
        [344, 'Amount'],
        [417, 'CGST'],
        [479, 'SGST'],
        [552, 'Total'],
      ],
      [122, [405, '%'], [439, 'Amt'], [467, '%'], [500, 'Amt']],
      [
        140,
        [46, 'Woollen Shawl'],
        [188, '6117'],
        [220, '6(NOS)'],
        [291, '420.00'],
        [351, '2,400.00'],
        [405, '2.5'],
        [434, '60.00'],
        [467, '2.5'],
        [495, '60.00'],
        [542, '2,520.00'],
      ],
      [
        170,
        [46, 'Silk Stole'],
        [188, '6214'],
        [220, '6(NOS)'],
        [291, '325.50'],
        [351, '1,860.00'],
        [405, '2.5'],
        [434, '46.50'],
        [467, '2.5'],
        [495, '46.50'],
        [542, '1,953.00'],
      ],
      [
        260,
        [134, 'Total'],
        [243, '12'],
        [351, '4,260.00'],
        [429, '106.50'],
        [490, '106.50'],
        [542, '4,473.00'],
      ],
    ],
    'ocr',
  );
}

describe('items at tax-inclusive rates', () => {
  const { lineItems } = extractLineItems([taxInclusiveInvoice()], 'invoice');

  it('reads a quantity with its unit glued on in brackets', () => {
    expect(lineItems.map((l) => [l.quantity, l.unit])).toEqual([
      [6, 'NOS'],
      [6, 'NOS'],
    ]);
  });

  it('takes the amount before the tax columns, not the total with tax that equals quantity × rate', () => {
    expect(lineItems.map((l) => l.amount)).toEqual([2400, 1860]);
  });

  it('reads "%" sub-labels in a header row of their own as the tax heads\' rates', () => {
    expect(lineItems.map((l) => l.gstRate)).toEqual([5, 5]);
  });
});

/** A made-up invoice whose item box ends in empty space, a charge row and the totals row. */
function chargeAtFootInvoice(footer: Array<[number, ...Array<[number, string]>]>) {
  return pageOfCells(
    [
      [
        100,
        [20, 'Sr'],
        [50, 'Description'],
        [200, 'HSN'],
        [260, 'Qty'],
        [320, 'Rate'],
        [400, 'GST %'],
        [500, 'Amount'],
      ],
      [
        120,
        [22, '1'],
        [50, 'Teak Chair'],
        [200, '9401'],
        [265, '4'],
        [315, '2,735.00'],
        [405, '18%'],
        [490, '10,940.00'],
      ],
      [
        134,
        [22, '2'],
        [50, 'Side Table'],
        [200, '9403'],
        [265, '2'],
        [315, '1,865.00'],
        [405, '18%'],
        [495, '3,730.00'],
      ],
      ...footer,
    ],
    'ocr',
  );
}

describe('a charge row at the foot of the item box', () => {
  it('is read past the empty space, with no quantity invented', () => {
    const page = chargeAtFootInvoice([
      [230, [50, 'Freight Charges'], [325, '515.00'], [405, '18%'], [505, '515.00']],
      [250, [50, 'Total'], [480, '15,185.00']],
    ]);
    const { lineItems } = extractLineItems([page], 'invoice');
    expect(lineItems.map((l) => l.description)).toEqual(['Teak Chair', 'Side Table', 'Freight Charges']);
    expect(lineItems[2]).toMatchObject({ quantity: null, rate: 515, amount: 515, gstRate: 18 });
  });

  it('is not a figure row without a name (a summary under the gap)', () => {
    const page = chargeAtFootInvoice([[230, [325, '14,670.00'], [405, '18%'], [480, '17,310.60']]]);
    const { lineItems } = extractLineItems([page], 'invoice');
    expect(lineItems).toHaveLength(2);
  });
});

describe('a charge row whose name runs over the figure columns', () => {
  // The charge's name starts in the space after the description label and runs on under the
  // HSN and quantity labels.
  const page = (name: Array<[number, string]>) =>
    pageOfCells([
      [100, [20, 'Sr'], [40, 'Item Description'], [140, 'HSN'], [190, 'Qty'], [240, 'Rate'], [320, 'Amount']],
      [120, [22, '1'], [40, 'Brass Valve'], [140, '8481'], [195, '10'], [235, '380.00'], [315, '3,800.00']],
      [134, ...name],
      [160, [40, 'Total'], [315, '4,440.00']],
    ]);

  it("is the row's description", () => {
    const { lineItems } = extractLineItems(
      [
        page([
          [124, 'Packing charges'],
          [240, '640.00'],
          [320, '640.00'],
        ]),
      ],
      'invoice',
    );
    expect(lineItems[1]).toMatchObject({
      description: 'Packing charges',
      hsnSac: null,
      rate: 640,
      amount: 640,
    });
  });

  it('is no description when it starts under a figure column (a totals label)', () => {
    const { lineItems } = extractLineItems(
      [
        page([
          [190, 'Goods Value Only'],
          [315, '3,800.00'],
        ]),
      ],
      'invoice',
    );
    expect(lineItems[0]?.description).toBe('Brass Valve');
    expect(lineItems.map((l) => l.description)).not.toContain('Goods Value Only');
  });
});

describe('a quantity OCR read as a letter', () => {
  it('is no unit ("Z" for 2)', () => {
    const page = pageOfCells(
      [
        [100, [40, 'Description'], [200, 'Qty'], [260, 'Rate'], [340, 'Amount']],
        [120, [40, 'Gear Box'], [205, '3'], [255, '565.00'], [335, '1,695.00']],
        [134, [40, 'Flexible Coupling'], [205, 'Z'], [255, '245.00'], [340, '490.00']],
        [160, [40, 'Total'], [335, '2,185.00']],
      ],
      'ocr',
    );
    const { lineItems } = extractLineItems([page], 'invoice');
    expect(lineItems[1]).toMatchObject({
      description: 'Flexible Coupling',
      unit: null,
      rate: 245,
      amount: 490,
    });
  });
});
