import { describe, expect, it } from 'vitest';
import { pageOfCells } from '../../test/test-words.ts';
import { buildLayout } from '../layout.ts';
import {
  collectAmountCandidates,
  completeFromLines,
  completeTaxableFromSlab,
  solveAmounts,
} from './amounts.ts';
import {
  type Candidate,
  deliveryDateFromColumn,
  extractLabelledFields,
  repairOcrDocNumber,
} from './header.ts';
import { extractParties, tidyName } from './parties.ts';
import { findGstinCandidates, resolvePartyGstins } from './party-gstins.ts';
import { findGstins, parseValue } from './values.ts';

const page = pageOfCells;
const none = () => false;

describe('values', () => {
  it('parses dates, money, vehicle and e-way numbers the Indian way', () => {
    expect(parseValue('date', ': 14th August 2025')?.value).toBe('2025-08-14');
    expect(parseValue('money', 'Rs. 1,23,456.78/-')?.value).toBe(123456.78);
    expect(parseValue('money', '(-)0.20')?.value).toBe(-0.2);
    expect(parseValue('vehicle', 'MH 12 AB 1234')?.value).toBe('MH12AB1234');
    expect(parseValue('eway', '7369 2924 0020')?.value).toBe('736929240020');
    expect(parseValue('docno', ': SI/2425/01151')?.value).toBe('SI/2425/01151');
    expect(parseValue('docno', 'Net 45 days')).toBeNull();
  });

  it('keeps the plain reading, failing, when the only passing repair is two glyphs away from it', () => {
    // A made-up number that fails its check character as printed, its O read as a zero: the one
    // reading that passes changes two more glyphs (1 to I, G to 6), a guess at another number.
    expect(findGstins('GSTIN: 29A0KPM1234L1ZG')[0]).toMatchObject({ value: '29AOKPM1234L1ZG', valid: false });
  });

  it('repairs OCR-damaged GSTINs only when exactly one reading passes the checksum', () => {
    expect(findGstins('GSTIN: 29AABCT1332L1ZA')[0]).toMatchObject({ value: '29AABCT1332L1ZA', valid: true });
    // I for 1 among the digits, and a stray inserted character.
    expect(findGstins('GSTIN 29AABCTI332L1ZA')[0]?.value).toBe('29AABCT1332L1ZA');
    expect(findGstins('29AABCT1332L71ZA')[0]?.value).toBe('29AABCT1332L1ZA');
    expect(findGstins('29AABCT1332L1ZB')[0]).toMatchObject({ valid: false });
    // Labels glued on by punctuation, brackets, a stray space inside, a bracket read for J.
    expect(findGstins('GSTIN-29AABCT1332L1ZA')[0]?.value).toBe('29AABCT1332L1ZA');
    expect(findGstins('GSTIN No.29AABCT1332L1ZA')[0]?.value).toBe('29AABCT1332L1ZA');
    expect(findGstins('(29AABCT1332L1ZA)')[0]?.value).toBe('29AABCT1332L1ZA');
    expect(findGstins('GSTIN: 29AABCT 1332L1ZA')[0]?.value).toBe('29AABCT1332L1ZA');
    expect(findGstins('GSTIN : 23CTLP)J4347U22V')[0]?.value).toBe('23CTLPJ4347U2ZU');
    // An account number is no GSTIN, whatever its length.
    expect(findGstins('A/c No. 111297205118679')).toEqual([]);
  });

  it('maps look-alike digits back to letters in an OCR document-number prefix', () => {
    expect(repairOcrDocNumber('S1/2526/01837')).toBe('SI/2526/01837');
    expect(repairOcrDocNumber('P0/2025/028')).toBe('PO/2025/028');
    expect(repairOcrDocNumber('2024/105')).toBe('2024/105');
    // A later part of letters with a zero for its O; a part of digits, or mostly zeros, stays.
    expect(repairOcrDocNumber('ABC/STORE/P0/112')).toBe('ABC/STORE/PO/112');
    expect(repairOcrDocNumber('INV/A00/12')).toBe('INV/A00/12');
  });

  it('undoes a glyph read twice, zeros read as O, lower-case capitals and a slash read as I', () => {
    expect(repairOcrDocNumber('P0O/2026/04417')).toBe('PO/2026/04417');
    expect(repairOcrDocNumber('24TNO0O280')).toBe('24TN000280');
    expect(repairOcrDocNumber('Ti-01243')).toBe('TI-01243');
    expect(repairOcrDocNumber('Sl/25-26/0007')).toBe('SI/25-26/0007');
    expect(repairOcrDocNumber('Rl - 4')).toBe('RI - 4');
    expect(repairOcrDocNumber('Bill/24')).toBe('Bill/24');
    expect(repairOcrDocNumber('P0OI24-25/0417')).toBe('PO/24-25/0417');
    // Printed as such: nothing to undo.
    expect(repairOcrDocNumber('INV/2025-26/2047')).toBe('INV/2025-26/2047');
    expect(repairOcrDocNumber('BOOK/12')).toBe('BOOK/12');
    expect(repairOcrDocNumber('PI25/001')).toBe('PI25/001');
  });
});

describe('labelled fields', () => {
  it('reads values after the label, in the next cell, or below; a bare Dated follows its number label', () => {
    const layout = buildLayout([
      page([
        [40, [300, 'Invoice No.'], [440, 'Dated']],
        [52, [300, 'GST/24-25/1245'], [440, '23-Sep-24']],
        [80, [300, "Buyer's Order No."], [440, 'Dated']],
        [92, [300, 'PO/24-25/1055'], [440, '8-Sep-24']],
        [120, [40, 'e-Way Bill No. : 7369 2924 0020']],
        [140, [40, 'Vehicle No.'], [140, 'KA 01 AB 1234']],
      ]),
    ]);
    const f = extractLabelledFields(layout, 'invoice', none);
    const v = (k: string) => f.get(k)?.[0]?.value;
    expect(v('documentNumber')).toBe('GST/24-25/1245');
    expect(v('documentDate')).toBe('2024-09-23');
    expect(v('poNumber')).toBe('PO/24-25/1055');
    expect(v('poDate')).toBe('2024-09-08');
    expect(v('ewayBillNumber')).toBe('736929240020');
    expect(v('vehicleNumber')).toBe('KA01AB1234');
  });

  it('gives a bare Dated to the number label above it when the labels are set flush right at their colons', () => {
    // Made-up layout: "Invoice No :", "Dated :", "Buyer's Order No. :" right-aligned on one colon.
    const layout = buildLayout([
      page([
        [40, [40, 'BUYER (BILL TO)'], [384, 'Invoice No : SP/2425/00408']],
        [52, [40, 'Sahyadri Pumps Ltd'], [407, 'Dated : 9-Nov-24']],
        [64, [40, 'Plot 12, MIDC Road'], [407, 'Terms : Net 30']],
        [76, [40, 'Nashik 422010'], [351, "Buyer's Order No. : PUR-2024-2236"]],
        [88, [407, 'Dated : 28-Oct-24']],
      ]),
    ]);
    const f = extractLabelledFields(layout, 'invoice', none);
    const v = (k: string) => f.get(k)?.[0]?.value;
    expect(v('documentNumber')).toBe('SP/2425/00408');
    expect(v('documentDate')).toBe('2024-11-09');
    expect(v('poNumber')).toBe('PUR-2024-2236');
    expect(v('poDate')).toBe('2024-10-28');
  });

  it('gives a Dated OCR misread to the number label whose right edge it shares, past a line between', () => {
    // Made-up layout: labels set flush right without colons, values in the next cell.
    const layout = buildLayout([
      page(
        [
          [40, [40, 'BUYER (BILL TO)'], [392, 'Invoice No'], [450, 'SP/2425/00463']],
          [52, [40, 'Sahyadri Pumps Ltd']],
          [64, [415, 'Daled'], [450, '18-Dec-24']],
          [76, [40, 'Nashik 422010'], [359, "Buyer's Order No."], [450, 'PUR-24-25-1366']],
          [88, [407, 'Dated :'], [450, '7-Dec-24']],
        ],
        'ocr',
      ),
    ]);
    const f = extractLabelledFields(layout, 'invoice', none);
    const v = (k: string) => f.get(k)?.[0]?.value;
    expect(v('documentDate')).toBe('2024-12-18');
    expect(v('poDate')).toBe('2024-12-07');
  });

  it('reads a number set lower in its cell, past the lines of a party block beside it', () => {
    // Made-up layout: "Invoice" / "No" stacked in a narrow cell, the number centred three lines
    // down and wrapped after its hyphen, a bill-to block filling the lines in between.
    const layout = buildLayout([
      page([
        [100, [40, 'Bill to'], [400, 'Invoice'], [470, 'Dated']],
        [108, [40, 'RIVERSIDE TRADERS'], [405, 'No']],
        [122, [40, '14, Canal Road,']],
        [136, [40, 'Pune-411001'], [395, '981/2023-'], [465, '02-Mar-24']],
        [146, [405, '24']],
      ]),
    ]);
    const f = extractLabelledFields(layout, 'invoice', none);
    expect(f.get('documentNumber')?.[0]?.value).toBe('981/2023-24');
    expect(f.get('documentDate')?.[0]?.value).toBe('2024-03-02');
  });

  it('distrusts a number cut at a separator, and reads a label that ran into the value before it', () => {
    const layout = buildLayout([
      page([
        [100, [300, 'PO No.'], [340, 'ZX/41- PO Date'], [440, '05.06.2026']],
        [112, [300, 'Vendor Code'], [360, 'V-88']],
      ]),
    ]);
    const f = extractLabelledFields(layout, 'po', none);
    const number = f.get('documentNumber')?.[0];
    expect(number?.value).toBe('ZX/41');
    expect(number?.score).toBeLessThan(0.7);
    expect(f.get('documentDate')?.[0]?.value).toBe('2026-06-05');
  });

  it('joins a number wrapped both ways in a narrow centred cell, below review', () => {
    const layout = buildLayout([
      page([
        [88, [345, 'K7_SP']],
        [100, [300, 'PO No.'], [345, 'RW/25-'], [400, 'PO Date'], [440, '05.06.2026']],
        [112, [350, '26']],
        [130, [40, 'SELLER'], [300, 'BUYER']],
      ]),
    ]);
    const number = extractLabelledFields(layout, 'po', none).get('documentNumber')?.[0];
    expect(number?.value).toBe('K7_SPRW/25-26');
    expect(number?.score).toBeLessThan(0.9);
  });

  it('reads a term whose colon opens the value cell, and its text wrapped back under the label', () => {
    const layout = buildLayout([
      page([
        [300, [120, 'Delivery'], [220, ': 6-8 Weeks From Drawing Approval']],
        [315, [120, 'Payment'], [220, ': 30% Advance, Balance Against Proforma Before Dispatch Of']],
        [330, [120, 'Goods']],
        [360, [120, 'Warranty'], [220, ': 18 Months']],
      ]),
    ]);
    const terms = extractLabelledFields(layout, 'po', none).get('paymentTerms')?.[0];
    expect(terms?.value).toBe('30% Advance, Balance Against Proforma Before Dispatch Of Goods');
  });

  it("reads past OCR's marks for a colon after a label, and its euro sign for an e", () => {
    const layout = buildLayout([
      page(
        [
          [266, [87, 'PO No. ©'], [164, '4500095962'], [253, 'Dated'], [330, '22-04-2024']],
          [581, [142, '€-Way Bill No.']],
          [592, [141, '144367428275']],
        ],
        'ocr',
      ),
    ]);
    const f = extractLabelledFields(layout, 'invoice', none);
    expect(f.get('poNumber')?.[0]?.value).toBe('4500095962');
    expect(f.get('poDate')?.[0]?.value).toBe('2024-04-22');
    expect(f.get('ewayBillNumber')?.[0]?.value).toBe('144367428275');
  });
});

describe('scanned PO columns and dates', () => {
  it('reads a delivery date under a column label that OCR ran into its neighbours', () => {
    const layout = buildLayout([
      page(
        [
          [
            250,
            [44, 'Item Material Code Description of Goods'],
            [259, 'HSN Code Delivery Schedule Quantity per'],
          ],
          [
            276,
            [46, '00010'],
            [87, 'RM84369'],
            [138, 'MS Angle 40x40x5 mm'],
            [263, '72162100'],
            [318, '26-0ct-25'],
          ],
        ],
        'ocr',
      ),
    ]);
    expect(deliveryDateFromColumn(layout)?.value).toBe('2025-10-26');
    expect(extractLabelledFields(layout, 'po', none).get('deliveryDate')?.[0]?.value).toBe('2025-10-26');
  });

  it('reads dates with a zero read as O and O read as zero', () => {
    expect(parseValue('date', 'O4-09-2025')?.value).toBe('2025-09-04');
    expect(parseValue('date', '26-0ct-25')?.value).toBe('2025-10-26');
    // A cell border read as a fifth year digit; a month that lost its capital.
    expect(parseValue('date', '07-11-20241')?.value).toBe('2024-11-07');
    expect(parseValue('date', '19-ug-2023')?.value).toBe('2023-08-19');
    expect(parseValue('date', '07-11-202411')).toBeNull();
    expect(parseValue('date', 'Net 30')).toBeNull();
  });
});

describe('parties', () => {
  it('takes the bill-to block as buyer, never the consignee, and the letterhead as supplier', () => {
    const layout = buildLayout([
      page([
        [30, [40, 'Kaveri Fasteners LLP']],
        [42, [40, 'Plot 14, Peenya Industrial Area']],
        [54, [40, 'Bengaluru 560058, Karnataka']],
        [66, [40, 'GSTIN: 29AABCT1332L1ZA']],
        [100, [40, 'Ship To'], [300, 'Bill To']],
        [112, [40, 'Warehouse 2'], [300, 'Nandi Auto Parts']],
        [124, [40, 'Hosur, Tamil Nadu'], [300, 'Electronic City, Bengaluru, Karnataka']],
      ]),
    ]);
    const { vendor, buyer } = extractParties(layout, 'invoice', none);
    expect(vendor.name?.value).toBe('Kaveri Fasteners LLP');
    expect(vendor.gstin?.value).toBe('29AABCT1332L1ZA');
    expect(vendor.address?.value).toBe('Plot 14, Peenya Industrial Area, Bengaluru 560058, Karnataka');
    expect(vendor.stateCode?.value).toBe('29');
    expect(buyer.name?.value).toBe('Nandi Auto Parts');
    expect(buyer.stateCode?.value).toBe('29');
  });
});

describe('totals solver', () => {
  it('takes the rounded total as payable when the exact sum is printed as a total too', () => {
    const layout = buildLayout([
      page([
        [400, [300, 'Taxable Value'], [500, '6,445.60']],
        [412, [300, 'CGST @ 14%'], [500, '902.38']],
        [424, [300, 'SGST @ 14%'], [500, '902.38']],
        [436, [300, 'Total'], [500, '8,250.36']],
        [448, [300, 'Grand Total'], [500, '8,250.00']],
      ]),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), null);
    expect(solved.consistent).toBe(true);
    expect(solved.values.total?.value).toBe(8250);
  });

  it('drops a total far below what the lines sum to (a quantity read from a "Total Qty" row)', () => {
    const layout = buildLayout([page([[400, [200, 'Total Qty & Value'], [330, '12']]])]);
    const cands = collectAmountCandidates(layout, none);
    expect(cands.get('total')?.[0]?.value).toBe(12);
    expect(solveAmounts(cands, 84_250).values.total).toBeUndefined();
    expect(solveAmounts(cands, 40).values.total?.value).toBe(12);
  });

  it('reads tax heads OCR glued to their words, and takes the lines as the base a slab was charged on', () => {
    const layout = buildLayout([
      page(
        [
          [400, [100, 'INPUTPURCHASE CGST9%'], [400, '2,700.00']],
          [412, [100, 'INPUT PURCHASE SGST 9%'], [400, '2,700.00']],
        ],
        'ocr',
      ),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), 30_000);
    expect(solved.values.cgst?.value).toBe(2700);
    expect(solved.values.sgst?.value).toBe(2700);
    expect(solved.values.taxableValue).toBeUndefined();
    expect(completeTaxableFromSlab(solved.values, 30_000)).toBe(true);
    expect(solved.values.taxableValue?.value).toBe(30_000);
    // Taxes that are no slab of the lines (lines printed with tax, say) say nothing about them.
    const other = solveAmounts(collectAmountCandidates(layout, none), 35_400);
    expect(completeTaxableFromSlab(other.values, 35_400)).toBe(false);
  });

  it('reads the taxable value and tax heads from the total row of a tax summary, column by column', () => {
    const layout = buildLayout([
      page([
        [400, [40, 'Total'], [470, '7,080.00']],
        // Tally's summary: tax heads over "Rate | Amount" sub-columns, a total row at the foot.
        [440, [230, 'Central Tax'], [370, 'State Tax']],
        [
          452,
          [40, 'HSN/SAC'],
          [120, 'Taxable Value'],
          [210, 'Rate'],
          [260, 'Amount'],
          [350, 'Rate'],
          [400, 'Amount'],
          [480, 'Total Tax'],
        ],
        [
          464,
          [40, '8421'],
          [130, '6,000.00'],
          [210, '9%'],
          [265, '540.00'],
          [350, '9%'],
          [405, '540.00'],
          [490, '1,080.00'],
        ],
        [476, [40, 'Total'], [130, '6,000.00'], [265, '540.00'], [405, '540.00'], [490, '1,080.00']],
      ]),
    ]);
    const cands = collectAmountCandidates(layout, none);
    expect(cands.get('taxableValue')?.map((c) => c.value)).toContain(6000);
    expect(cands.get('cgst')?.map((c) => c.value)).toEqual([540]);
    expect(cands.get('sgst')?.map((c) => c.value)).toEqual([540]);
    const solved = solveAmounts(cands, null);
    expect(solved.values.taxableValue?.value).toBe(6000);
    expect(solved.values.cgst?.value).toBe(540);
    expect(solved.values.total?.value).toBe(7080);
  });

  it('prefers the readings that add up over a higher-scored total that does not', () => {
    const layout = buildLayout([
      page([
        [400, [300, 'Sub Total'], [500, '2,01,060.00']],
        [412, [300, 'IGST'], [500, '34,549.20']],
        [424, [300, 'Less : Round Off'], [500, '0.20']],
        [436, [300, 'Total'], [500, '2,35,609.00']],
        // An HSN summary's total row further down.
        [500, [40, 'Total'], [300, '2,01,060.00'], [500, '34,549.20']],
      ]),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), null);
    expect(solved.consistent).toBe(true);
    expect(solved.values.total?.value).toBe(235609);
    expect(solved.values.taxableValue?.value).toBe(201060);
    expect(solved.values.roundOff?.value).toBe(-0.2);
  });
});

describe('round-off sign', () => {
  it('takes the sign that makes the document add up when the figure prints none', () => {
    const layout = buildLayout([
      page([
        [100, [300, 'Sub Total'], [500, '2,640.00']],
        [114, [300, 'Add CGST (9%)'], [500, '237.60']],
        [128, [300, 'Add SGST (9%)'], [500, '237.60']],
        [142, [300, 'Round Off'], [500, '0.20']],
        [156, [300, 'TOTAL'], [500, '3,115.00']],
      ]),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), null);
    expect(solved.consistent).toBe(true);
    expect(solved.values.roundOff?.value).toBe(-0.2);
  });
});

describe('the grand total', () => {
  it('is not the tax summary total row, and "Rounded Off Invoice Amount" is a total, not a round-off', () => {
    const layout = buildLayout([
      page([
        [100, [200, 'Total'], [400, '31.50']],
        [114, [200, 'Net Invoice Amount'], [400, '661.50']],
        [128, [200, 'Rounded Off Invoice Amount'], [400, '662.00']],
        [142, [200, 'Total Amount'], [400, '662.00']],
      ]),
    ]);
    const cands = collectAmountCandidates(layout, none);
    expect(cands.get('roundOff') ?? []).toEqual([]);
    const solved = solveAmounts(cands, null);
    expect(solved.values.total?.value).toBe(662);
  });
});

describe('a party block set flush right', () => {
  it('reads the buyer under "Billing Address" whose lines share the heading right edge', () => {
    // Right-aligned lines: each ends at x = 550 (5-point characters).
    const right = (y: number, text: string): [number, [number, string]] => [y, [550 - text.length * 5, text]];
    const layout = buildLayout([
      page([
        [100, [43, 'Sold By :'], [550 - 17 * 5, 'Billing Address :']],
        [114, [43, 'Kaveri Retail Private Ltd'], [550 - 15 * 5, 'Arun menon']],
        right(128, 'computer,sangam vihar'),
        right(142, 'NEW DELHI, DELHI, 110080'),
        right(156, 'State/UT Code: 07'),
      ]),
    ]);
    const { buyer } = extractParties(layout, 'invoice', none);
    expect(buyer.name?.value).toBe('Arun menon');
    expect(buyer.stateCode?.value).toBe('07');
  });
});

describe('a party block of "label | value" rows', () => {
  it('reads the value cell beside a row label, with or without its colon', () => {
    const layout = buildLayout([
      page([
        [147, [56, 'Bill To'], [364, '# Inv. No.:'], [446, 'Inv-12']],
        [160, [56, 'Name:'], [98, 'Meena Iyer'], [364, 'Inv. Date:'], [446, '10-01-25']],
        [172, [56, 'Address:'], [98, '# 14, Ring Road, Delhi-110034']],
        [193, [56, 'State'], [98, 'Delhi 07']],
      ]),
    ]);
    const { buyer } = extractParties(layout, 'invoice', none);
    expect(buyer.name?.value).toBe('Meena Iyer');
    expect(buyer.stateCode?.value).toBe('07');
  });
});

describe('a party heading centred over its block', () => {
  it('reads the block set to the left of the heading, the colon-aligned labels included', () => {
    const layout = buildLayout([
      page([
        [88, [80, 'Receiver Details (Bill To)'], [330, 'Consignee Details (Ship To)']],
        [102, [44, 'Name: Nilgiri Tools Pvt Ltd'], [300, 'Name: Nilgiri Tools Pvt Ltd']],
        [112, [34, 'Address: 14, Ring Road, Pune'], [300, 'Address: 14, Ring Road, Pune']],
        [124, [44, 'State Code: 27'], [300, 'State Code: 27']],
      ]),
    ]);
    const { buyer } = extractParties(layout, 'invoice', none);
    expect(buyer.name?.value).toBe('Nilgiri Tools Pvt Ltd');
    expect(buyer.stateCode?.value).toBe('27');
  });
});

describe('a party block of row labels in cells of their own', () => {
  it('reads "M/S | name" and "Name | name" rows under a heading centred over them', () => {
    const layout = buildLayout([
      page([
        [88, [228, 'Client Details'], [344, 'Invoice No.'], [424, 'KT/2025-26/16']],
        [102, [166, 'M/S'], [202, 'Harini Traders'], [344, 'Challan No.']],
        [115, [166, 'Address'], [202, '8/3, Lake Road, Kolkata 700091']],
        [165, [166, 'State'], [202, 'West Bengal']],
      ]),
    ]);
    expect(extractParties(layout, 'invoice', none).buyer.name?.value).toBe('Harini Traders');
    const named = buildLayout([
      page([
        [100, [56, 'Bill To'], [364, 'Inv. No.:'], [446, 'VS-12']],
        [114, [56, 'Name'], [98, 'Veda Stores'], [364, 'Inv. Date:'], [446, '10-01-25']],
        [128, [56, 'Address'], [98, '12, Park Street, Kolkata']],
      ]),
    ]);
    expect(extractParties(named, 'invoice', none).buyer.name?.value).toBe('Veda Stores');
  });
});

describe('a PO with no letterhead', () => {
  it('reads the supplier under an indented "To," and the issuer from its "For," sign-off', () => {
    const layout = buildLayout([
      page([
        [206, [250, 'Purchase Order']],
        [238, [46, 'PO NO:'], [120, 'KS/PO/26-27/004']],
        [276, [46, 'To,']],
        [292, [65, 'Deccan Motors Limited']],
        [306, [65, 'Plot 12, MIDC Area, Pune 411019']],
        [401, [46, 'S.No.'], [90, 'Description'], [300, 'Quantity'], [400, 'Total']],
        [555, [46, 'For,']],
        [566, [46, 'Kaveri Sales']],
      ]),
    ]);
    const { vendor, buyer } = extractParties(layout, 'po', none);
    expect(vendor.name?.value).toBe('Deccan Motors Limited');
    expect(buyer.name?.value).toBe('Kaveri Sales');
  });
});

describe('a PO whose "Buyer" row names a purchasing group', () => {
  it('keeps the letterhead as the buyer', () => {
    const layout = buildLayout([
      page([
        [32, [200, 'NARMADA STEEL & POWER LIMITED']],
        [46, [200, 'Plot 7, Urla Industrial Area, Raipur 493221']],
        [66, [240, 'PURCHASE ORDER']],
        [120, [40, 'Vendor Address'], [300, 'Information']],
        [130, [40, 'KAVYA ENGINEERING WORKS'], [300, 'Order No.'], [400, '7100012345']],
        [144, [40, 'Office 12, Ring Road'], [300, 'Date'], [400, '12.03.2026']],
        [188, [40, 'Raipur 492006'], [300, 'Buyer'], [400, 'Projects']],
      ]),
    ]);
    expect(extractParties(layout, 'po', none).buyer.name?.value).toBe('NARMADA STEEL & POWER LIMITED');
  });
});

describe('a total rounded to the rupee without a round-off row', () => {
  it('adds up, and the lines give the taxable value no row prints', () => {
    const layout = buildLayout([
      page([
        [100, [100, 'Input Cgst 9%'], [420, '7,627.52']],
        [114, [100, 'Input Sgst 9%'], [420, '7,627.52']],
        [128, [100, 'Total'], [420, '1,00,005.00']],
      ]),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), 84750);
    expect(solved.consistent).toBe(true);
    expect(solved.values.taxableValue?.value).toBe(84750);
    expect(solved.values.roundOff).toBeUndefined();
  });
});

describe('dates OCR cut into cells', () => {
  it('reads "Date: 23 | Jan | 2025" as one date, and a "Dated" whose value sits four lines below', () => {
    const split = buildLayout([
      page([[100, [100, 'Bill No: IN-15'], [369, 'Date: 23'], [431, 'Jan'], [464, '2025']]]),
    ]);
    expect(extractLabelledFields(split, 'invoice', none).get('documentDate')?.[0]?.value).toBe('2025-01-23');
    const below = buildLayout([
      page([
        [100, [482, 'INVOICE No'], [547, 'Dated']],
        [104, [41, 'FARHAN QURESHI']],
        [106, [495, 'No']],
        [123, [41, 'B-47, Karol Bagh,']],
        [134, [41, 'New Delhi-110005'], [478, '4102/2019-20'], [547, '09-Nov-19']],
      ]),
    ]);
    expect(extractLabelledFields(below, 'invoice', none).get('documentDate')?.[0]?.value).toBe('2019-11-09');
  });
});

describe('party names', () => {
  it('drop what OCR or the layout glued on, and are never a heading word', () => {
    expect(tidyName('<74 Konkan Marine Tools')).toBe('Konkan Marine Tools');
    expect(tidyName('Narmada Castings Ltd. (Formerly Rewa Alloys) PO/NCL/25-26/314')).toBe(
      'Narmada Castings Ltd. (Formerly Rewa Alloys)',
    );
    expect(tidyName('Notes')).toBe('');
    expect(tidyName('Ref No.')).toBe('');
    expect(tidyName('Bangalore')).toBe('');
    expect(tidyName('New Delhi')).toBe('');
    expect(tidyName('Kerala Traders')).toBe('Kerala Traders');
    expect(tidyName('Order Date :')).toBe('');
    expect(tidyName('Shree Ganesh Trading Co.')).toBe('Shree Ganesh Trading Co.');
    expect(tidyName('Details of Consianee (Shipped to)')).toBe('');
    expect(tidyName('3M India Limited')).toBe('3M India Limited');
  });

  it('join a name that wraps after a joining word or before its company form', () => {
    const layout = buildLayout([
      page([
        [100, [40, 'Bill To:']],
        [114, [40, 'Mehta Tiles And']],
        [128, [40, 'Sanitaryware']],
        [142, [40, '12, Station Road, Jaipur']],
      ]),
    ]);
    expect(extractParties(layout, 'invoice', none).buyer.name?.value).toBe('Mehta Tiles And Sanitaryware');
    const form = buildLayout([
      page([
        [100, [40, 'Supplier :']],
        [114, [40, 'M/S DEVGIRI MOTORS']],
        [128, [40, 'LIMITED']],
        [142, [40, 'PLOT NO 2 MIDC THANE BELAPUR ROAD']],
      ]),
    ]);
    expect(extractParties(form, 'po', none).vendor.name?.value).toBe('DEVGIRI MOTORS LIMITED');
  });

  it('join a name printed as a row value whose company form wrapped under the value', () => {
    // "Company:" is 8 characters of 5 pt at x 40, then a 3 pt space: the value starts at x 83.
    const layout = buildLayout([
      page([
        [100, [40, 'Bill To']],
        [114, [40, 'Company: Sahyadri Pumps']],
        [123, [83, 'Private Limited']],
        [135, [40, 'Address: 12, Station Road']],
        [144, [83, 'Jaipur']],
      ]),
    ]);
    expect(extractParties(layout, 'invoice', none).buyer.name?.value).toBe('Sahyadri Pumps Private Limited');
  });
});

describe('labelled numbers', () => {
  it('pass over a cell holding only the colon, and read Tally\'s "Voucher No." and "Order ID"', () => {
    const inv = buildLayout([
      page([
        [100, [387, 'Invoice No.'], [465, ':'], [478, 'TI-0042']],
        [114, [11, 'Order ID: OD518822046113950007']],
      ]),
    ]);
    const fields = extractLabelledFields(inv, 'invoice', none);
    expect(fields.get('documentNumber')?.[0]?.value).toBe('TI-0042');
    expect(fields.get('poNumber')?.[0]?.value).toBe('OD518822046113950007');
    const po = buildLayout([
      page([
        [100, [292, 'Voucher No.'], [417, 'Dated']],
        [114, [292, 'PO/KMPL/26-27/41'], [417, '14-Apr-26']],
      ]),
    ]);
    expect(extractLabelledFields(po, 'po', none).get('documentNumber')?.[0]?.value).toBe('PO/KMPL/26-27/41');
  });

  it('passes over one speck OCR read after a label, but not a word of text', () => {
    const scan = buildLayout([
      page([[100, [14, 'Invoice No D'], [100, ': SPL/1016-22'], [200, 'Date : 28-7-2023']]], 'ocr'),
    ]);
    expect(extractLabelledFields(scan, 'invoice', none).get('documentNumber')?.[0]?.value).toBe(
      'SPL/1016-22',
    );
    const worded = buildLayout([page([[100, [14, 'Invoice No Due'], [100, ': SPL/1016-22']]], 'ocr')]);
    expect(extractLabelledFields(worded, 'invoice', none).get('documentNumber')).toBeUndefined();
  });

  it('reads the value under a label from the words under it, when it ran into a longer text on its left', () => {
    // The PO number printed close after the issuer's long name: one segment, read from the label's edge on.
    const name = 'Sahyadri Pumps Pvt. Ltd. (Formerly Sahyadri Motors)';
    // One word space after the name's last letter (5 pt letters, 3 pt spaces).
    const x = 33 + name.replace(/ /g, '').length * 5 + name.split(' ').length * 3;
    const po = buildLayout([
      page([
        [100, [33, 'Invoice To'], [x, 'Voucher No.'], [x + 130, 'Dated']],
        [114, [33, name], [x, 'PO/SPL/26-27/88'], [x + 130, '7-Jan-26']],
      ]),
    ]);
    expect(po.lines[1]!.segments[0]!.text).toContain('PO/SPL');
    expect(extractLabelledFields(po, 'po', none).get('documentNumber')?.[0]?.value).toBe('PO/SPL/26-27/88');
  });
});

describe('a PO written as a letter', () => {
  it('names its issuer from the company under the closing when no letterhead is read', () => {
    const layout = buildLayout([
      page([
        [100, [41, 'Purchase Order - SP/PO/26-27/013']],
        [114, [41, 'Details of supplier']],
        [128, [41, 'M/S KONKAN MOTORS PVT LTD']],
        [142, [41, 'Plot 7, MIDC Airoli, Navi Mumbai 400708']],
        [156, [41, 'GSTIN - 27AAACB2900K1ZZ']],
        [300, [36, 'Thanking you and assuring our best services all the time Regards']],
        [314, [36, 'Mr. Anil Deshmukh']],
        [328, [36, 'Mob - 9876543210']],
        [342, [36, 'Sahyadri Engineering']],
        [356, [36, 'MAIL ID: SALES@SAHYADRI.EXAMPLE']],
      ]),
    ]);
    const { vendor, buyer } = extractParties(layout, 'po', none);
    expect(vendor.name?.value).toBe('KONKAN MOTORS PVT LTD');
    expect(buyer.name?.value).toBe('Sahyadri Engineering');
  });
});

describe('numbered section headings', () => {
  it('"3. Party Details" over an e-invoice party table is no party heading', () => {
    const layout = buildLayout([
      page([
        [100, [38, '3. Party Details']],
        [114, [42, 'Supplier :'], [311, 'Recipient :']],
        [128, [42, 'GSTIN/UIN : 08AABCT1332L1ZB'], [311, 'GSTIN/UIN : 08AAACR5055K1Z3']],
        [142, [42, 'Kulkarni Food Products'], [311, 'KVR Fabricators LLP']],
        [156, [42, 'Jaipur 302017, Rajasthan'], [311, 'Jaipur 302021, Rajasthan']],
      ]),
    ]);
    const { vendor, buyer } = extractParties(layout, 'invoice', none);
    expect(vendor.name?.value).toBe('Kulkarni Food Products');
    expect(buyer.name?.value).toBe('KVR Fabricators LLP');
  });
});

describe('numbered terms', () => {
  it('read a label after its list number ("4.Payment :-", "2 Payment Terms :")', () => {
    const a = buildLayout([page([[100, [36, '4.Payment :- 45 Days Credit']]])]);
    expect(extractLabelledFields(a, 'po', none).get('paymentTerms')?.[0]?.value).toBe('45 Days Credit');
    const b = buildLayout([page([[100, [57, '2 Payment Terms'], [177, ': 100% payment within 30 days']]])]);
    expect(extractLabelledFields(b, 'po', none).get('paymentTerms')?.[0]?.value).toBe(
      '100% payment within 30 days',
    );
  });
});

describe('a PO delivery date', () => {
  it('reads Tally\'s "Due on" column and an SAP "Scheduled Del Dt" item text', () => {
    const tally = buildLayout([
      page([
        [100, [39, 'Sl'], [104, 'Description of Goods'], [254, 'Due on'], [296, 'Quantity']],
        [114, [39, '1'], [104, 'Induction Motor 11 KW'], [254, '30-Mar-26'], [296, '2 Nos']],
      ]),
    ]);
    expect(deliveryDateFromColumn(tally)?.value).toBe('2026-03-30');
    const sap = buildLayout([page([[100, [43, 'Scheduled Del Dt:14.07.2026']]])]);
    expect(extractLabelledFields(sap, 'po', none).get('deliveryDate')?.[0]?.value).toBe('2026-07-14');
  });
});

describe('a "Total" row above the taxes', () => {
  it('is the taxable value when a tax on top of it makes the document add up', () => {
    const layout = buildLayout([
      page([
        [100, [127, 'Total Price'], [220, ': Rs 32,50,000.00/']],
        [114, [127, 'IGST 18%'], [220, ': Rs 5,85,000.00/']],
        [128, [127, 'Total'], [220, ': Rs 38,35,000.00/']],
      ]),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), null);
    expect(solved.consistent).toBe(true);
    expect(solved.values.taxableValue?.value).toBe(3250000);
    expect(solved.values.igst?.value).toBe(585000);
    expect(solved.values.total?.value).toBe(3835000);
  });

  it('is never the taxable value when no tax is charged on it', () => {
    const layout = buildLayout([page([[100, [127, 'Total'], [220, '4,490.00']]])]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), null);
    expect(solved.values.total?.value).toBe(4490);
    expect(solved.values.taxableValue).toBeUndefined();
  });
});

describe('readings that cannot be right', () => {
  it('drop a taxable value above the total when nothing adds up', () => {
    const layout = buildLayout([
      page([
        [100, [300, 'Sub Total'], [500, '2,728.00']],
        [114, [300, 'CGST @ 9%'], [500, '5.00']],
        [128, [300, 'Grand Total'], [500, '2,720.00']],
      ]),
    ]);
    const solved = solveAmounts(collectAmountCandidates(layout, none), null);
    expect(solved.consistent).toBe(false);
    expect(solved.values.taxableValue).toBeUndefined();
    expect(solved.values.total?.value).toBe(2720);
  });

  it('drop a party name OCR could barely read', () => {
    const ocrPage = page(
      [
        [100, [40, 'Bill To:']],
        [114, [40, 'B aladll']],
        [128, [40, '12, MG Road, Chennai']],
      ],
      'ocr',
    );
    for (const w of ocrPage.words) if (w.text === 'aladll') w.conf = 0.12;
    expect(extractParties(buildLayout([ocrPage]), 'invoice', none).buyer.name).toBeNull();
  });
});

describe('titles, labels and a PO delivery site', () => {
  it('reads "Purchase Order – KT/PO/26-27/208" as the number, and a label before a title', () => {
    const po = buildLayout([page([[100, [41, 'Purchase Order – KT/PO/26-27/208']]])]);
    expect(extractLabelledFields(po, 'po', none).get('documentNumber')?.[0]?.value).toBe('KT/PO/26-27/208');
    const inv = buildLayout([page([[100, [196, 'Invoice Date.11-03-2023']]])]);
    const fields = extractLabelledFields(inv, 'invoice', none);
    expect(fields.get('documentDate')?.[0]?.value).toBe('2023-03-11');
    expect(fields.get('documentNumber')).toBeUndefined();
  });

  it("takes a PO's delivery-address GSTIN as the buyer's when no other is the buyer's", () => {
    const layout = buildLayout([
      page([
        [100, [21, 'VENDOR ADDRESS:'], [305, 'DELIVERY ADDRESS:']],
        [114, [21, 'Devgiri Motors Ltd'], [305, 'Godavari Steel Plant Urla']],
        [128, [21, 'GSTN No : 22AAKFP5521C1ZP'], [305, 'GSTN No : 22AABCM7788D1ZG']],
      ]),
    ]);
    const gstins = resolvePartyGstins(
      { vendor: null, buyer: null },
      findGstinCandidates(layout, 'po', none, () => Number.POSITIVE_INFINITY),
      'po',
    );
    expect(gstins.vendor?.value).toBe('22AAKFP5521C1ZP');
    expect(gstins.buyer?.value).toBe('22AABCM7788D1ZG');
    expect(gstins.buyer!.score).toBeLessThan(0.9);
  });
});

describe('a party block of "label | : value" rows', () => {
  it('reads the name and address from the value cells', () => {
    const layout = buildLayout([
      page([
        [100, [11, 'Details of the Receiver (Billed to)'], [286, 'Details of the Consignee(Shipped to)']],
        [
          114,
          [11, 'Name'],
          [79, ': Sahyadri Environment Pvt. Ltd.'],
          [286, 'Name'],
          [354, ': Sahyadri Site'],
        ],
        [
          128,
          [11, 'Address'],
          [79, ': Plot No. 50, Sector 25, Pradhi'],
          [286, 'Address'],
          [354, ': Spine Road'],
        ],
        [142, [79, ': Pune, Maharashtra'], [354, ': Bhosadi MIDC']],
        [156, [11, 'GSTIN'], [79, ': 27AAECM8421K1Z8'], [286, 'GSTIN'], [354, ': 27AAECM8421K1Z8']],
      ]),
    ]);
    const { buyer } = extractParties(layout, 'invoice', none);
    expect(buyer.name?.value).toBe('Sahyadri Environment Pvt. Ltd.');
    expect(buyer.address?.value).toBe('Plot No. 50, Sector 25, Pradhi, Pune, Maharashtra');
    expect(buyer.gstin?.value).toBe('27AAECM8421K1Z8');
  });
});

describe('an item row with per-line tax columns', () => {
  it('is no row of the totals block', () => {
    const layout = buildLayout([
      page([
        [
          100,
          [67, 'SKU-7731 )'],
          [297, '₹500.00 1'],
          [355, '₹500.00'],
          [401, '18%'],
          [432, 'IGST'],
          [467, '₹90.00'],
          [510, '₹590.00'],
        ],
        [114, [44, 'TOTAL:'], [473, '₹97.20 ₹637.20']],
        [128, [300, 'IGST @ 18%'], [500, '97.20']],
      ]),
    ]);
    const igst = collectAmountCandidates(layout, none).get('igst') ?? [];
    expect(igst.map((c) => c.value)).toEqual([97.2]);
  });
});

describe('completeFromLines', () => {
  const cand = (field: string, value: number): Candidate => ({
    field,
    value,
    page: 1,
    bbox: [0, 0, 1, 1],
    source: 'text',
    score: 1,
  });
  const printed = (...vs: number[]) => new Map(vs.map((v) => [Math.round(v * 100), cand('printed', v)]));

  it('takes the lines as the taxable value and splits a printed tax by the supply', () => {
    const intra: Record<string, Candidate> = { total: cand('total', 764) };
    expect(completeFromLines(intra, 647.46, printed(116.54, 764), 'intra')).toBe(true);
    expect([intra.taxableValue?.value, intra.cgst?.value, intra.sgst?.value]).toEqual([647.46, 58.27, 58.27]);
    const inter: Record<string, Candidate> = { total: cand('total', 499) };
    expect(completeFromLines(inter, 475.24, printed(23.76), 'inter')).toBe(true);
    expect([inter.taxableValue?.value, inter.igst?.value, inter.cgst]).toEqual([475.24, 23.76, undefined]);
  });

  it('reads nothing when the difference is printed nowhere, is nil, or a tax head was read', () => {
    expect(completeFromLines({ total: cand('total', 764) }, 647.46, printed(), 'intra')).toBe(false);
    // Lines that sum to the total may carry their tax: no taxable value from them.
    expect(completeFromLines({ total: cand('total', 319) }, 319, printed(319), 'inter')).toBe(false);
    const withHead = { total: cand('total', 764), igst: cand('igst', 10) };
    expect(completeFromLines(withHead, 647.46, printed(116.54), 'inter')).toBe(false);
  });
});

describe("an e-way bill's transporter", () => {
  it('is never a party: its GSTIN beside "Transport ID" is not the supplier\'s', () => {
    // Made-up GSTINs; only the transporter's passes its check character, as on a sample bill.
    const layout = buildLayout([
      page([
        [40, [40, 'SUNRISE TOOLS']],
        [60, [40, 'GSTIN : 27ABCDE1234F1Z9'], [300, 'TAX INVOICE']],
        [90, [300, 'Transporter ID'], [380, '29AABCT1332L1ZA']],
        [104, [300, 'Transport ID : 29AABCT1332L1ZA']],
      ]),
    ]);
    const found = findGstinCandidates(layout, 'invoice', none, () => Number.POSITIVE_INFINITY);
    expect(found.map((c) => c.value)).toEqual(['27ABCDE1234F1Z9']);
    const { vendor } = resolvePartyGstins({ vendor: null, buyer: null }, found, 'invoice');
    expect(vendor?.value).toBe('27ABCDE1234F1Z9');
  });
});
