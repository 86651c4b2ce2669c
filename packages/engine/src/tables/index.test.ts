import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { devFixtures } from '../../test/dev-fixtures.ts';
import { layoutCellWords } from '../../test/test-words.ts';
import { openPdf, readPageWords } from '../pdf/text.ts';
import type { PageContent, Word } from '../types.ts';
import { extractLineItems } from './index.ts';

/** Character width, space width and line height of the synthetic "font" (points). */
const CW = 4.5;
const SP = 2.5;
const LH = 9.6;

/**
 * A synthetic page from rows of cells: each cell is `[x, text]`, words laid out left to right
 * from x with a space between words, like a PDF text layer.
 */
function page(n: number, rows: Array<[number, Array<[number, string]>]>): PageContent {
  const words: Word[] = [];
  for (const [y, cells] of rows)
    for (const [x, text] of cells)
      words.push(...layoutCellWords(x, y, text, { charWidth: CW, space: SP, height: LH, page: n }));
  return { page: n, width: 595, height: 842, words, source: 'text' };
}

/** Right-align a number so it ends at `right`. */
const r = (right: number, text: string): [number, string] => [right - text.length * CW, text];

const invoiceHeader: Array<[number, Array<[number, string]>]> = [
  [100, [[390, 'Disc.']]],
  [
    110,
    [
      [30, 'Sl'],
      [60, 'Description of Goods'],
      [250, 'HSN/SAC'],
      [300, 'Qty'],
      [330, 'UOM'],
      [360, 'Rate'],
      [390, '%'],
      [430, 'Amount'],
      [480, 'GST %'],
    ],
  ],
];

describe('extractLineItems (synthetic pages)', () => {
  it('reads a two-page invoice table with a repeated header, wrapped descriptions and a % discount', () => {
    const p1 = page(1, [
      [40, [[30, 'TAX INVOICE']]],
      ...invoiceHeader,
      [
        130,
        [
          [30, '1'],
          [60, 'MS Angle 40x40x5'],
          [250, '7216'],
          r(315, '120'),
          [330, 'Kg'],
          r(385, '62.50'),
          r(400, '10%'),
          r(460, '6,750.00'),
          r(500, '18%'),
        ],
      ],
      [140, [[60, 'IS 2062 Grade E250']]],
      [
        155,
        [
          [30, '2'],
          [60, 'Hex Bolt M12'],
          [250, '73181500'],
          r(315, '1,000'),
          [330, 'Nos'],
          r(385, '12.60'),
          r(400, '-'),
          r(460, '12,600.00'),
          r(500, '18%'),
        ],
      ],
      [800, [[30, 'Continued on next page']]],
    ]);
    const p2 = page(2, [
      ...invoiceHeader,
      [120, [[60, 'Brought forward'], r(460, '19,350.00')]],
      [
        130,
        [
          [30, '3'],
          [60, 'Cutting Wheel 4"'],
          [250, '68042210'],
          r(315, '50'),
          [330, 'Nos'],
          r(385, '14.00'),
          r(400, '0.00'),
          r(460, '700.00'),
          r(500, '9%+9%'),
        ],
      ],
      [150, [[300, 'Sub Total'], r(460, '20,050.00')]],
      [170, [[300, 'CGST @ 9%'], r(460, '1,804.50')]],
      [
        200,
        [
          [30, 'HSN/SAC'],
          [120, 'Taxable Value'],
          [220, 'CGST Rate'],
          [280, 'CGST Amount'],
        ],
      ],
      [215, [[30, '7216'], r(180, '6,750.00'), [220, '9%'], r(330, '607.50')]],
    ]);
    const res = extractLineItems([p1, p2], 'invoice');
    expect(res.lineItems).toEqual([
      {
        description: 'MS Angle 40x40x5 IS 2062 Grade E250',
        hsnSac: '7216',
        quantity: 120,
        unit: 'Kg',
        rate: 62.5,
        discount: 750,
        amount: 6750,
        gstRate: 18,
      },
      {
        description: 'Hex Bolt M12',
        hsnSac: '73181500',
        quantity: 1000,
        unit: 'Nos',
        rate: 12.6,
        discount: 0,
        amount: 12600,
        gstRate: 18,
      },
      {
        description: 'Cutting Wheel 4"',
        hsnSac: '68042210',
        quantity: 50,
        unit: 'Nos',
        rate: 14,
        discount: 0,
        amount: 700,
        gstRate: 18,
      },
    ]);
    expect(res.lineProvenance).toHaveLength(3);
    expect(res.lineProvenance[2]?.amount?.page).toBe(2);
    expect(res.regions.map((g) => g.page)).toEqual([1, 2]);
    // The table region stops before the sub-total, so header fields below it stay visible.
    expect(res.regions[1]?.y1).toBeLessThan(150);
  });

  it('goes on onto a page that does not repeat the header', () => {
    const p1 = page(1, [
      ...invoiceHeader,
      [
        130,
        [
          [30, '1'],
          [60, 'Hex Bolt M12'],
          [250, '73181500'],
          r(315, '1,000'),
          [330, 'Nos'],
          r(385, '12.60'),
          r(400, '-'),
          r(460, '12,600.00'),
          r(500, '18%'),
        ],
      ],
      [800, [[480, 'Page 1 of 2']]],
    ]);
    const p2 = page(2, [
      [30, [[30, 'Vishwakarma Sales Corporation']]],
      [
        60,
        [
          [30, '2'],
          [60, 'Oil Seal 45x62x8 mm'],
          [250, '40169320'],
          r(315, '28'),
          [330, 'Nos'],
          r(385, '58.50'),
          r(400, '-'),
          r(460, '1,638.00'),
          r(500, '18%'),
        ],
      ],
      [80, [[300, 'Total'], r(460, '14,238.00')]],
    ]);
    const res = extractLineItems([p1, p2], 'invoice');
    expect(res.lineItems.map((l) => [l.description, l.amount])).toEqual([
      ['Hex Bolt M12', 12600],
      ['Oil Seal 45x62x8 mm', 1638],
    ]);
  });

  it('drops rows that are not items: a banner between asterisks, bank details', () => {
    const row = (y: number, desc: string, qty: string, amount: string): [number, Array<[number, string]>] => [
      y,
      [[30, desc], ...(qty ? [r(230, qty)] : []), r(330, amount)],
    ];
    const p = page(1, [
      [
        100,
        [
          [30, 'Description'],
          [210, 'Qty'],
          [300, 'Amount'],
        ],
      ],
      row(115, 'Steel angle 40x40', '10', '4,500.00'),
      row(130, '***** OPENING STOCK *****', '1', '12,345.00'),
      row(145, 'Bank A/c No 001122334455', '1', '1,000.00'),
      row(160, 'Hex bolt M12', '50', '750.00'),
    ]);
    expect(extractLineItems([p], 'invoice').lineItems.map((l) => l.description)).toEqual([
      'Steel angle 40x40',
      'Hex bolt M12',
    ]);
  });

  it('does not read an HSN summary table as line items', () => {
    const p = page(1, [
      [
        100,
        [
          [30, 'HSN/SAC'],
          [120, 'Taxable Value'],
          [220, 'IGST Rate'],
          [280, 'IGST Amount'],
        ],
      ],
      [115, [[30, '7216'], r(180, '6,750.00'), [220, '18%'], r(330, '1,215.00')]],
    ]);
    expect(extractLineItems([p], 'invoice').lineItems).toEqual([]);
  });

  it('reads a GRN with vertically centred description cells and item codes below the name', () => {
    const head: Array<[number, Array<[number, string]>]> = [
      [
        100,
        [
          [280, 'Received'],
          [340, 'Accepted'],
          [400, 'Rejected'],
        ],
      ],
      [
        105,
        [
          [30, 'Sl.'],
          [50, 'Material Description'],
          [200, 'UOM'],
          [235, 'PO Qty'],
        ],
      ],
      [
        110,
        [
          [285, 'Qty'],
          [345, 'Qty'],
          [405, 'Qty'],
        ],
      ],
    ];
    const p = page(1, [
      ...head,
      [125, [[50, 'Corrugated Box 3 Ply']]],
      [129, [[30, '1'], [200, 'Nos'], r(265, '11,940'), r(305, '9,888'), r(365, '9,888'), r(425, '0')]],
      [134, [[50, 'PM-90311']]],
      [147, [[50, 'Stretch Film 23 Micron']]],
      [
        151,
        [
          [30, '2'],
          [50, '500 mm'],
          [200, 'Kg'],
          r(265, '162.115'),
          r(305, '69.958'),
          r(365, '60.5'),
          r(425, '9.458'),
        ],
      ],
      [156, [[50, 'PM-41110']]],
      [190, [[30, 'Total Value of Accepted Material']]],
    ]);
    // Item codes are printed smaller than the name.
    for (const w of p.words) if (/^PM-/.test(w.text)) w.y1 = w.y0 + 7.8;
    expect(extractLineItems([p], 'grn').lineItems).toEqual([
      {
        description: 'Corrugated Box 3 Ply',
        hsnSac: null,
        unit: 'Nos',
        orderedQuantity: 11940,
        receivedQuantity: 9888,
        acceptedQuantity: 9888,
        rejectedQuantity: 0,
      },
      {
        description: 'Stretch Film 23 Micron 500 mm',
        hsnSac: null,
        unit: 'Kg',
        orderedQuantity: 162.115,
        receivedQuantity: 69.958,
        acceptedQuantity: 60.5,
        rejectedQuantity: 9.458,
      },
    ]);
  });

  it('does not take a signature line under a GRN table for a description', () => {
    const p = page(1, [
      [
        100,
        [
          [30, 'S.No'],
          [60, 'Description'],
          [220, 'Challan Qty'],
          [280, 'Received Qty'],
          [350, 'Accepted Qty'],
          [420, 'Rejected Qty'],
          [490, 'Remarks'],
        ],
      ],
      [
        120,
        [
          [35, '1'],
          [60, 'Safety Helmet Yellow'],
          r(260, '100'),
          r(330, '100'),
          r(400, '95'),
          r(470, '5'),
          [490, 'Cracked'],
        ],
      ],
      [135, [[35, '2'], [60, 'Hand Gloves Leather'], r(260, '50'), r(330, '50'), r(400, '50'), r(470, '0')]],
      [
        170,
        [
          [30, 'Store Keeper'],
          [300, 'Quality Control'],
        ],
      ],
    ]);
    expect(
      extractLineItems([p], 'grn').lineItems.map((l) => [
        l.description,
        l.receivedQuantity,
        l.rejectedQuantity,
      ]),
    ).toEqual([
      ['Safety Helmet Yellow', 100, 5],
      ['Hand Gloves Leather', 50, 0],
    ]);
  });

  it('reads the rate printed under the amount in each tax column ("450.00" over "@9%")', () => {
    const p = page(1, [
      [
        108,
        [
          [30, 'Item'],
          [200, 'Qty'],
          [240, 'Rate'],
          [280, 'Taxable'],
          [340, 'CGST'],
          [390, 'SGST'],
          [440, 'IGST'],
          [490, 'Total'],
        ],
      ],
      [
        125,
        [
          [30, 'Annual AMC'],
          r(215, '1'),
          r(270, '5,000.00'),
          r(320, '5,000.00'),
          r(370, '450.00'),
          r(420, '450.00'),
          r(460, '0'),
          r(530, '5,900.00'),
        ],
      ],
      [
        135,
        [
          [340, '@9%'],
          [390, '@9%'],
          [440, '@0%'],
        ],
      ],
      [150, [[30, 'Total'], r(530, '5,900.00')]],
    ]);
    const [line] = extractLineItems([p], 'invoice').lineItems;
    expect(line).toMatchObject({ quantity: 1, rate: 5000, amount: 5000, gstRate: 18 });
  });

  it('sums per-line CGST and SGST rate columns into the total GST rate', () => {
    const p = page(1, [
      [
        95,
        [
          [330, 'CGST'],
          [400, 'SGST'],
        ],
      ],
      [
        108,
        [
          [30, '#'],
          [50, 'Item'],
          [200, 'Qty'],
          [240, 'Rate'],
          [280, 'Amount'],
          [320, 'Rate'],
          [350, 'Amt'],
          [390, 'Rate'],
          [420, 'Amt'],
        ],
      ],
      [
        125,
        [
          [30, '1'],
          [50, 'Annual AMC'],
          r(215, '1'),
          r(265, '9,000.00'),
          r(310, '9,000.00'),
          [320, '9%'],
          r(380, '810.00'),
          [390, '9%'],
          r(450, '810.00'),
        ],
      ],
      [150, [[50, 'Total'], r(310, '9,000.00')]],
    ]);
    const res = extractLineItems([p], 'invoice');
    expect(res.lineItems).toEqual([
      {
        description: 'Annual AMC',
        hsnSac: null,
        quantity: 1,
        unit: null,
        rate: 9000,
        discount: null,
        amount: 9000,
        gstRate: 18,
      },
    ]);
  });
});

describe('extractLineItems (tax rows under an item)', () => {
  it('does not read the taxes printed under an item as another line', () => {
    const p = page(1, [
      [
        110,
        [
          [14, 'SN'],
          [48, 'Item Code & Description'],
          [257, 'UOM'],
          [303, 'Quantity'],
          [372, 'Rate'],
          [433, 'Discount'],
          [530, 'Amount'],
        ],
      ],
      [
        125,
        [
          [23, '1'],
          [43, 'MONOBLOCK PUMP'],
          [259, 'NOS'],
          r(335, '1.000'),
          r(410, '42,500.00'),
          [435, '0.00 %'],
          r(560, '42,500.00'),
        ],
      ],
      [
        137,
        [
          [43, '7.5 HP, THREE PHASE'],
          [243, '9.00 %'],
          [312, 'CGST'],
          [369, 'SGST'],
          [435, '9.00 %'],
          r(560, '7,650.00'),
        ],
      ],
      [
        149,
        [
          [23, '2'],
          [43, 'MONOBLOCK PUMP 2 HP'],
          [259, 'NOS'],
          r(335, '2.000'),
          r(410, '18,250.00'),
          [435, '0.00 %'],
          r(560, '36,500.00'),
        ],
      ],
      [
        161,
        [
          [43, '2 HP, SINGLE PHASE'],
          [243, '9.00 %'],
          [312, 'CGST'],
          [369, 'SGST'],
          [435, '9.00 %'],
          r(560, '6,570.00'),
        ],
      ],
      [180, [[360, 'Total'], r(560, '79,000.00')]],
    ]);
    const res = extractLineItems([p], 'po');
    expect(res.lineItems.map((l) => [l.quantity, l.rate, l.amount])).toEqual([
      [1, 42500, 42500],
      [2, 18250, 36500],
    ]);
  });
  it('takes a serial number printed against its description off the description, not a number the description starts with', () => {
    const row = (y: number, cells: Array<[number, string]>, amount: string) =>
      [y, [...cells, [250, '85015210'], r(315, '4'), [330, 'Nos'], r(385, '100.00'), r(460, amount)]] as [
        number,
        Array<[number, string]>,
      ];
    const p = page(1, [
      [
        110,
        [
          [30, 'Sl'],
          [44, 'Description of Goods'],
          [250, 'HSN/SAC'],
          [300, 'Qty'],
          [330, 'UOM'],
          [360, 'Rate'],
          [430, 'Amount'],
        ],
      ],
      row(130, [[31, '1 Motor 2 HP Flange']], '400.00'),
      row(
        150,
        [
          [31, '2'],
          [44, '4 Core Cable 1.5 sq mm'],
        ],
        '400.00',
      ),
      row(170, [[44, '3 Phase Starter']], '400.00'),
    ]);
    expect(extractLineItems([p], 'po').lineItems.map((l) => l.description)).toEqual([
      'Motor 2 HP Flange',
      '4 Core Cable 1.5 sq mm',
      '3 Phase Starter',
    ]);
  });
  it('does not read the column label repeated over the first item as part of its description', () => {
    const p = page(1, [
      [
        110,
        [
          [44, 'Description of Service'],
          [250, 'HSN'],
          [300, 'Qty'],
          [330, 'UOM'],
          [360, 'Rate'],
          [430, 'Amount'],
        ],
      ],
      [122, [[250, 'CODE']]],
      [150, [[44, 'DESCRIPTION']]],
      [
        163,
        [
          [44, 'Panel Lights 18 W'],
          [250, '94054090'],
          r(315, '5'),
          [330, 'Nos'],
          r(385, '80.00'),
          r(460, '400.00'),
        ],
      ],
      [
        177,
        [
          [44, 'Particulars of the fitting work'],
          [250, '995461'],
          r(315, '1'),
          [330, 'Job'],
          r(385, '50.00'),
          r(460, '50.00'),
        ],
      ],
    ]);
    expect(extractLineItems([p], 'invoice').lineItems.map((l) => l.description)).toEqual([
      'Panel Lights 18 W',
      'Particulars of the fitting work',
    ]);
  });
});

describe('extractLineItems (OCR words)', () => {
  const ocr = (p: PageContent): PageContent => ({
    ...p,
    source: 'ocr',
    words: p.words.map((w) => ({ ...w, source: 'ocr' as const, conf: 0.9 })),
  });

  it('cleans OCR specks and a lost serial column out of descriptions, and reads l among capitals as I (and "AII" in mixed case as All)', () => {
    const row = (y: number, lead: Array<[number, string]>, desc: string, qty: string, amount: string) =>
      [
        y,
        [...lead, [75, desc], [310, '73181500'], r(395, qty), [409, 'Nos'], r(482, '10.00'), r(564, amount)],
      ] as [number, Array<[number, string]>];
    const p = ocr(
      page(1, [
        [
          110,
          [
            [75, 'Description of Goods'],
            [319, 'HSN'],
            [359, 'Quantity'],
            [410, 'per'],
            [441, 'Unit Price'],
            [532, 'Amount'],
          ],
        ],
        row(130, [[57, 'WN']], 'Hex Bolt M12', '10', '100.00'),
        row(150, [], 'Gl Sheet 0.8 mm', '20', '200.00'),
        row(170, [[60, '12']], 'Mechanical Seal 35 mm', '30', '300.00'),
        row(190, [], 'MS Angle 40x40x5 mm', '40', '400.00'),
        row(210, [], 'AII-in-One Spanner Set', '50', '500.00'),
      ]),
    );
    expect(extractLineItems([p], 'po').lineItems.map((l) => l.description)).toEqual([
      'Hex Bolt M12',
      'GI Sheet 0.8 mm',
      'Mechanical Seal 35 mm',
      'MS Angle 40x40x5 mm',
      'All-in-One Spanner Set',
    ]);
  });

  it('restores a unit OCR dropped a letter from, and leaves a blank discount cell blank', () => {
    const p = ocr(
      page(1, [
        [
          110,
          [
            [75, 'Description'],
            [300, 'Qty'],
            [340, 'Unit'],
            [380, 'Rate'],
            [430, 'Disc.'],
            [500, 'Amount'],
          ],
        ],
        [
          130,
          [
            [75, 'Copper Cable'],
            r(320, '80'),
            [340, 'Mr'],
            r(410, '10.00'),
            r(460, '80.00'),
            r(530, '720.00'),
          ],
        ],
        [150, [[75, 'Gear Oil'], r(320, '5'), [340, 'Lr'], r(410, '20.00'), r(530, '100.00')]],
      ]),
    );
    const lines = extractLineItems([p], 'invoice').lineItems;
    expect(lines.map((l) => [l.unit, l.discount])).toEqual([
      ['Mtr', 80],
      ['Ltr', null],
    ]);
  });

  it('reads the rupees of a discount cell that prints them over their percentage', () => {
    const p = page(1, [
      [
        110,
        [
          [75, 'Description'],
          [300, 'Qty'],
          [340, 'Rate'],
          [420, 'Discount'],
          [500, 'Amount'],
        ],
      ],
      [
        130,
        [
          [75, 'Induction motor 15 kW'],
          r(320, '2'),
          r(400, '50,000.00'),
          r(460, '6,500.00'),
          r(540, '93,500.00'),
        ],
      ],
      [140, [[75, 'Foot mounted'], r(455, '6.50%')]],
    ]);
    expect(extractLineItems([p], 'po').lineItems[0]).toMatchObject({
      rate: 50000,
      discount: 6500,
      amount: 93500,
    });
  });

  it('joins a line of rates only ("@6 00%" under CGST and SGST) to the item above', () => {
    const p = ocr(
      page(1, [
        [
          110,
          [
            [75, 'Description'],
            [250, 'Rate'],
            [300, 'Qty'],
            [340, 'Amount'],
            [400, 'CGST Amt'],
            [460, 'SGST Amt'],
          ],
        ],
        [
          130,
          [
            [75, 'Printer cable'],
            r(280, '500.00'),
            r(315, '2'),
            r(380, '1,000.00'),
            r(440, '60.00'),
            r(500, '60.00'),
          ],
        ],
        [
          140,
          [
            [400, '@6'],
            [415, '00%'],
            [460, '@6'],
            [475, '00%'],
          ],
        ],
        [
          160,
          [
            [75, 'Toner refill'],
            r(280, '250.00'),
            r(315, '4'),
            r(380, '1,000.00'),
            r(440, '90.00'),
            r(500, '90.00'),
          ],
        ],
        [
          170,
          [
            [400, '@9'],
            [415, '00%'],
            [460, '@9'],
            [475, '00%'],
          ],
        ],
      ]),
    );
    const lines = extractLineItems([p], 'invoice').lineItems;
    expect(lines.map((l) => [l.description, l.amount, l.gstRate])).toEqual([
      ['Printer cable', 1000, 12],
      ['Toner refill', 1000, 18],
    ]);
  });

  it('keeps a unit printed in its plural ("Dozens", "gms") as printed: a plural is no OCR slip', () => {
    const p = ocr(
      page(1, [
        [
          110,
          [
            [75, 'Description'],
            [300, 'Qty'],
            [340, 'Unit'],
            [380, 'Rate'],
            [500, 'Amount'],
          ],
        ],
        [130, [[75, 'Glass tumblers'], r(320, '4'), [340, 'Dozens'], r(410, '240.00'), r(530, '960.00')]],
        [150, [[75, 'Saffron'], r(320, '10'), [340, 'gms'], r(410, '300.00'), r(530, '3,000.00')]],
      ]),
    );
    expect(extractLineItems([p], 'invoice').lineItems.map((l) => l.unit)).toEqual(['Dozens', 'gms']);
  });

  it('takes a "unit" column whose cells are percentages as the GST rate (its label misread)', () => {
    const p = ocr(
      page(1, [
        [
          110,
          [
            [31, 'Sl'],
            [140, 'Item Description'],
            [298, 'HSN/SAC'],
            [345, 'per'],
            [394, 'Quantity'],
            [457, 'Rate'],
            [481, 'UOM'],
            [539, 'Amount'],
          ],
        ],
        [
          130,
          [
            [35, '1'],
            [50, 'Methanol (Commercial Grade)'],
            [296, '29051100'],
            [340, '18 %'],
            r(424, '7,800'),
            r(473, '36.60'),
            [485, 'Ltr'],
            r(567, '2,85,480.00'),
          ],
        ],
        [
          150,
          [
            [35, '2'],
            [50, 'Acetic Acid Glacial'],
            [296, '29152100'],
            [340, '18 %'],
            r(424, '620'),
            r(473, '79.42'),
            [485, 'Kg'],
            r(567, '49,240.40'),
          ],
        ],
      ]),
    );
    const lines = extractLineItems([p], 'invoice').lineItems;
    expect(lines.map((l) => [l.gstRate, l.unit])).toEqual([
      [18, 'Ltr'],
      [18, 'Kg'],
    ]);
  });

  it('sums per-line CGST % and SGST % columns under a header OCR could not read at all', () => {
    // White-on-dark header band read as noise; the rows carry "9%" twice (CGST and SGST).
    const p = ocr(
      page(1, [
        [110, [[371, 'I 11] clo iE ff']]],
        [
          130,
          [
            [44, '1'],
            [56, 'Courier Charges (Domestic)'],
            [227, '996812'],
            r(310, '58.00'),
            r(360, '284.50'),
            r(390, '9%'),
            r(440, '1,485.09'),
            r(470, '9%'),
            r(520, '1,485.09'),
            r(575, '16,501.00'),
          ],
        ],
        [
          150,
          [
            [44, '2'],
            [56, 'Loading and Unloading Charges'],
            [227, '996719'],
            r(310, '5.00'),
            r(360, '4,817.00'),
            r(390, '9%'),
            r(440, '2,167.65'),
            r(470, '9%'),
            r(520, '2,167.65'),
            r(575, '24,085.00'),
          ],
        ],
        [175, [[300, 'Taxable Value'], r(575, '40,586.00')]],
      ]),
    );
    const lines = extractLineItems([p], 'invoice').lineItems;
    expect(lines.map((l) => l.gstRate)).toEqual([18, 18]);
    expect(lines.map((l) => l.amount)).toEqual([16501, 24085]);
  });

  it('names columns whose header labels OCR lost from the row arithmetic, and repairs dropped decimal points', () => {
    // The header band lost "Rate", "GST %" and "Amount"; the numbers below still line up.
    const p = ocr(
      page(1, [
        [
          110,
          [
            [30, 'Sl'],
            [60, 'Description of Goods'],
            [250, 'HSN/SAC'],
            [300, 'Qty'],
          ],
        ],
        [
          130,
          [
            [30, '1'],
            [60, 'Hex Bolt M12'],
            [250, '73181500|'],
            r(315, '1,000'),
            r(385, '12.60'),
            r(420, '18%'),
            r(480, '12,600.00'),
          ],
        ],
        [
          150,
          [
            [30, '2'],
            [60, 'Oil Seal 45x62x8 mm'],
            [250, '40169320'],
            r(315, '28'),
            r(385, '5850'),
            r(420, '18%'),
            r(480, '1,638.00'),
          ],
        ],
        [175, [[300, 'Total'], r(480, '14,238.00')]],
      ]),
    );
    expect(extractLineItems([p], 'invoice').lineItems).toEqual([
      {
        description: 'Hex Bolt M12',
        hsnSac: '73181500',
        quantity: 1000,
        unit: null,
        rate: 12.6,
        discount: null,
        amount: 12600,
        gstRate: 18,
      },
      {
        description: 'Oil Seal 45x62x8 mm',
        hsnSac: '40169320',
        quantity: 28,
        unit: null,
        rate: 58.5,
        discount: null,
        amount: 1638,
        gstRate: 18,
      },
    ]);
  });

  it('balances GRN quantities read with a comma taken for a point, and derives a lost rejected quantity', () => {
    const p = ocr(
      page(1, [
        [
          110,
          [
            [30, 'S.No'],
            [60, 'Item Description'],
            [220, 'UOM'],
            [260, 'PO Qty'],
            [320, 'Received Qty'],
            [390, 'Accepted Qty'],
            [460, 'Rejected Qty'],
          ],
        ],
        [
          130,
          [
            [30, '1'],
            [60, 'Hex Bolt M12'],
            [220, 'Nos'],
            r(290, '1,400'),
            r(370, '1.148'),
            r(440, '1,104'),
            r(510, '44'),
          ],
        ],
        [150, [[30, '2'], [60, 'Gear Oil EP 90'], [220, 'Bucket'], r(290, '22'), r(370, '22'), r(440, '20')]],
      ]),
    );
    const lines = extractLineItems([p], 'grn').lineItems;
    expect(lines.map((l) => [l.receivedQuantity, l.acceptedQuantity, l.rejectedQuantity])).toEqual([
      [1148, 1104, 44],
      [22, 20, 2],
    ]);
  });
});

describe('extractLineItems (marketplace rows with per-line tax sub-rows)', () => {
  // Sl | Description | Unit Price | Discount | Qty | Net Amount | Tax Rate | Tax Type | Tax Amount | Total
  const header: Array<[number, Array<[number, string]>]> = [
    [
      100,
      [
        [30, 'Sl.'],
        [50, 'Description'],
        [200, 'Unit'],
        [240, 'Discount'],
        [285, 'Qty'],
        [310, 'Net'],
        [360, 'Tax'],
        [395, 'Tax'],
        [430, 'Tax'],
        [480, 'Total'],
      ],
    ],
    [
      110,
      [
        [30, 'No'],
        [200, 'Price'],
        [310, 'Amount'],
        [360, 'Rate'],
        [395, 'Type'],
        [430, 'Amount'],
        [480, 'Amount'],
      ],
    ],
  ];
  const taxRow = (y: number, head: string): [number, Array<[number, string]>] => [
    y,
    [[360, '9%'], [395, head], r(470, '₹18.00')],
  ];

  it('reads an item whose tax type cell says IGST/CGST without ending the table, and a shipping row with no quantity', () => {
    const p = page(1, [
      ...header,
      [
        125,
        [
          [30, '1'],
          [50, 'Steel Flask 1L'],
          r(235, '₹200.00'),
          r(275, '₹0.00'),
          r(295, '1'),
          r(350, '₹200.00'),
          [360, '9%'],
          [395, 'CGST'],
          r(470, '₹18.00'),
          r(530, '₹236.00'),
        ],
      ],
      taxRow(137, 'SGST'),
      [
        149,
        [
          [50, 'Shipping Charges'],
          r(235, '₹40.00'),
          r(275, '-₹40.00'),
          r(350, '₹0.00'),
          [360, '0%'],
          [395, 'IGST'],
          r(470, '₹0.00'),
          r(530, '₹0.00'),
        ],
      ],
      [175, [[30, 'TOTAL:'], r(470, '₹36.00'), r(530, '₹236.00')]],
    ]);
    const { lineItems } = extractLineItems([p], 'invoice');
    expect(lineItems).toHaveLength(2);
    expect(lineItems[0]).toMatchObject({
      description: 'Steel Flask 1L',
      quantity: 1,
      rate: 200,
      amount: 200,
    });
    // The discount prints signed; nothing prints a quantity, so none is invented.
    expect(lineItems[1]).toMatchObject({
      description: 'Shipping Charges',
      quantity: null,
      rate: 40,
      discount: 40,
      amount: 0,
    });
  });
});

describe('extractLineItems (amounts that carry tax)', () => {
  it('names an unreadable column before the rate as the quantity, and repairs no figure when no row adds up', () => {
    const p = page(1, [
      [
        110,
        [
          [30, 'No'],
          [60, 'Product Name'],
          [200, 'HSN'],
          [250, 'XQRTA'],
          [300, 'Unit Price'],
          [380, 'GST'],
          [450, 'Amount'],
        ],
      ],
      // Amount = quantity × rate + 18 % GST: no row is quantity × rate.
      [
        130,
        [
          [30, '1'],
          [60, 'Floor polish'],
          [200, '3402'],
          r(280, '12.00'),
          r(345, '300.00'),
          r(410, '648.00'),
          r(490, '4,248.00'),
        ],
      ],
      [
        145,
        [
          [30, '2'],
          [60, 'Hand wash'],
          [200, '3402'],
          r(280, '2.00'),
          r(345, '2,500.00'),
          r(410, '900.00'),
          r(490, '5,900.00'),
        ],
      ],
      [170, [[60, 'Total'], r(490, '10,148.00')]],
    ]);
    const { lineItems } = extractLineItems([p], 'invoice');
    expect(lineItems).toHaveLength(2);
    // 2,500.00 stays as printed; 5,900 ÷ 2 = 2,950 is not the rate. The GST column's figure is
    // what the amount carries over quantity × rate: the line's amount is its taxable value.
    expect(lineItems[1]).toMatchObject({ quantity: 2, rate: 2500, amount: 5000 });
    expect(lineItems[0]).toMatchObject({ quantity: 12, rate: 300, amount: 3600 });
  });

  it('takes the taxable value from a total column that adds the row’s tax amounts', () => {
    const p = page(1, [
      [
        110,
        [
          [30, 'Product'],
          [250, 'Qty'],
          [300, 'Price'],
          [360, 'Tax (%)'],
          [420, 'Tax'],
          [480, 'Total'],
        ],
      ],
      [
        130,
        [
          [30, 'Steel water bottle'],
          r(265, '2'),
          r(340, '278.61'),
          r(395, '18%'),
          r(450, '100.30'),
          r(510, '657.52'),
        ],
      ],
      // No quantity printed: what is left after the tax is a whole number of prices.
      [145, [[30, 'Design service'], r(340, '1,20,000'), r(450, '21,600'), r(510, '1,41,600')]],
      [170, [[30, 'Total'], r(510, '7,99,52')]],
    ]);
    const { lineItems } = extractLineItems([p], 'invoice');
    expect(lineItems[0]).toMatchObject({ quantity: 2, rate: 278.61, amount: 557.22, gstRate: 18 });
    expect(lineItems[1]).toMatchObject({ rate: 120000, amount: 120000 });
  });
});

describe('extractLineItems (no header read)', () => {
  it('reads rows whose figures print "Rs." before them, and keeps a discount percentage out of the GST rate', () => {
    const p = page(1, [
      [60, [[30, 'BILL TO']]],
      [
        130,
        [
          [30, '1'],
          [60, 'WIDGET ALPHA'],
          [200, '8471'],
          r(265, '10'),
          [290, 'Rs. 150.00'],
          [350, '1.6%'],
          [420, 'Rs. 1,500.00'],
        ],
      ],
      [
        145,
        [
          [30, '2'],
          [60, 'WIDGET BETA'],
          [200, '8473'],
          r(265, '20'),
          [290, 'Rs. 80.00'],
          [350, '2.0%'],
          [420, 'Rs. 1,600.00'],
        ],
      ],
      [
        160,
        [
          [30, '3'],
          [60, 'WIDGET GAMMA'],
          [200, '8517'],
          r(265, '30'),
          [290, 'Rs. 45.00'],
          [350, '1.2%'],
          [420, 'Rs. 1,350.00'],
        ],
      ],
      [
        200,
        [
          [350, 'TOTAL'],
          [420, 'Rs. 4,450.00'],
        ],
      ],
    ]);
    const { lineItems } = extractLineItems([p], 'invoice');
    expect(lineItems.map((l) => [l.description, l.hsnSac, l.quantity, l.rate, l.amount, l.gstRate])).toEqual([
      ['WIDGET ALPHA', '8471', 10, 150, 1500, null],
      ['WIDGET BETA', '8473', 20, 80, 1600, null],
      ['WIDGET GAMMA', '8517', 30, 45, 1350, null],
    ]);
  });
});

describe('extractLineItems (a receipt: each name on its own line above its figures)', () => {
  it('reads the name over the code and figures, the HSN code from the name column, and stops at the GST summary', () => {
    const p = page(1, [
      [100, [[30, 'Item name']]],
      [
        110,
        [
          [30, 'HSN code'],
          [110, 'Qty'],
          [150, 'Sale price'],
          [220, 'Disc'],
          [260, 'Total Amt'],
        ],
      ],
      [125, [[30, 'Masala Chai Large']]],
      [135, [[30, '996331'], r(125, '1'), r(200, '180.00'), r(245, '0.00'), r(300, '180.00')]],
      [147, [[30, 'Filter Coffee']]],
      [157, [[30, '996331'], r(125, '2'), r(200, '60.00'), r(245, '0.00'), r(300, '120.00')]],
      [172, [r(200, '300.00'), r(300, '300.00')]],
      [190, [[30, 'GST SUMMARY']]],
      [
        200,
        [
          [30, 'HSN Code'],
          [110, 'CGST Rate'],
          [170, 'SGST Rate'],
          [240, 'Taxable value'],
        ],
      ],
      [212, [[30, '996331'], r(140, '2.50%'), r(200, '2.50%'), r(300, '300.00')]],
    ]);
    const { lineItems } = extractLineItems([p], 'invoice');
    expect(lineItems.map((l) => [l.description, l.hsnSac, l.quantity, l.rate, l.amount])).toEqual([
      ['Masala Chai Large', '996331', 1, 180, 180],
      ['Filter Coffee', '996331', 2, 60, 120],
    ]);
  });
});

describe('extractLineItems (dev corpus text PDFs)', () => {
  const cases: Array<[string, 'invoice' | 'po' | 'grn']> = [
    ['invoice-003', 'invoice'],
    ['invoice-009', 'invoice'],
    ['invoice-024', 'invoice'],
    ['po-001', 'po'],
    ['grn-010', 'grn'],
  ];
  for (const [name, type] of cases) {
    it(`${name}: lines equal the truth`, () => {
      const doc = openPdf(readFileSync(new URL(`${name}.pdf`, devFixtures)));
      const pages: PageContent[] = [];
      for (let i = 0; i < doc.countPages(); i++) pages.push(readPageWords(doc.loadPage(i), i + 1));
      const truth = JSON.parse(readFileSync(new URL(`${name}.truth.json`, devFixtures), 'utf8'));
      const got = extractLineItems(pages, type).lineItems;
      expect(got.length).toBe(truth.lineItems.length);
      // The corpus convention (shared/corpus/README.md): a "0.00" discount cell is 0. Some synthetic
      // truth files leave a printed all-zero discount column null; the engine follows the convention.
      const printedZeroDiscounts = got.every((l) => l.discount === 0);
      got.forEach((line, i) => {
        const want = { ...truth.lineItems[i] };
        if (printedZeroDiscounts && want.discount === null) want.discount = 0;
        for (const [k, v] of Object.entries(want)) {
          if (k === 'description' || k === 'unit')
            expect(String(line[k]).toLowerCase(), `${i}.${k}`).toBe(String(v).toLowerCase());
          else expect(line[k], `${i}.${k}`).toEqual(v);
        }
      });
    });
  }
});
