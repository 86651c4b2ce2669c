import { describe, expect, it } from 'vitest';
import { layoutCellWords } from '../../test/test-words.ts';
import { buildLayout } from '../layout.ts';
import type { PageContent, Word } from '../types.ts';
import { extractParties, tidyName } from './parties.ts';

/** OCR words: each line is [y, height, [x, text]...]; word boxes hug glyphs, so heights vary. */
function ocrPage(lines: Array<[number, number, ...Array<[number, string]>]>): PageContent {
  const words: Word[] = [];
  for (const [y, h, ...cells] of lines)
    for (const [x, text] of cells)
      words.push(
        ...layoutCellWords(x, y, text, { charWidth: 4, space: 2, height: h, source: 'ocr', conf: 0.92 }),
      );
  return { page: 1, width: 595, height: 842, words, source: 'ocr' };
}
const none = () => false;

describe('parties on scans', () => {
  it('takes the issuer named in the signature block over a larger logo line', () => {
    const layout = buildLayout([
      ocrPage([
        // A software logo, big and alone; the seller's name beside it in smaller type.
        [30, 16, [40, 'QUICKLEDGER']],
        [34, 7, [360, 'Meher Tools & Dies']],
        [46, 7, [360, '14, Kamala Mills Road']],
        [58, 7, [360, 'Pune 411001']],
        [90, 7, [40, 'Tax Invoice']],
        [700, 7, [380, 'for MEHER TOOLS & DIES']],
        [740, 7, [380, 'Authorised Signatory']],
      ]),
    ]);
    expect(extractParties(layout, 'invoice', none).vendor.name?.value).toBe('Meher Tools & Dies');
  });

  it('does not take a title whose words OCR ran together for a name', () => {
    const layout = buildLayout([
      ocrPage([
        [30, 12, [40, 'TAXINVOICE']],
        [46, 7, [40, 'Kaveri Agro Foods']],
        [58, 7, [40, '7, Station Road, Hassan']],
      ]),
    ]);
    expect(extractParties(layout, 'invoice', none).vendor.name?.value).toBe('Kaveri Agro Foods');
  });

  it('prefers a name with an address under it to a logo without one', () => {
    const layout = buildLayout([
      ocrPage([
        [30, 16, [40, 'QUICKLEDGER']],
        [50, 6, [40, 'BILLING MADE SIMPLE']],
        [80, 8, [40, 'Kaveri Agro Foods']],
        [92, 7, [40, '7, Station Road, Hassan']],
        [104, 7, [40, 'Karnataka 573201']],
      ]),
    ]);
    expect(extractParties(layout, 'invoice', none).vendor.name?.value).toBe('Kaveri Agro Foods');
  });

  it("takes the seller's block beside the Bill to heading over an addressed logo line above it", () => {
    const layout = buildLayout([
      ocrPage([
        // A logo with its tagline run into one garbled line, and an address under it.
        [30, 9, [40, 'K Kaveri Freh Agrro Foos Dealr']],
        [42, 7, [40, '7, Station Road']],
        [70, 8, [40, 'Kaveri Agro Foods'], [300, 'Bill to:']],
        [84, 7, [40, '7, Station Road, Hassan'], [300, 'Meher Tools & Dies']],
        [96, 7, [40, 'Address Line 2'], [300, '14, Kamala Mills Road, Pune']],
      ]),
    ]);
    expect(extractParties(layout, 'invoice', none).vendor.name?.value).toBe('Kaveri Agro Foods');
  });

  it('counts an address placeholder under a name beside the Bill to heading as its address', () => {
    const layout = buildLayout([
      ocrPage([
        [30, 7, [40, 'QUICKLEDGER']],
        [70, 8, [40, 'Sahyadri Pumps'], [300, 'Bill to:']],
        [84, 7, [40, 'Address Line 1'], [300, 'Meher Tools & Dies']],
        [96, 7, [40, 'Address Line 2'], [300, '14, Kamala Mills Road, Pune']],
      ]),
    ]);
    expect(extractParties(layout, 'invoice', none).vendor.name?.value).toBe('Sahyadri Pumps');
  });

  it('keeps a business name that carries its town after a comma, over the address line under it', () => {
    const layout = buildLayout([
      ocrPage([
        [30, 9, [40, 'Tax Invoice']],
        [60, 8, [40, 'Kaveri Agro Foods, Hassan']],
        [72, 7, [40, 'Station Layout']],
        [84, 7, [40, 'Hassan']],
      ]),
    ]);
    expect(extractParties(layout, 'invoice', none).vendor.name?.value).toBe('Kaveri Agro Foods, Hassan');
  });

  it('leaves out a scanned name whose company form OCR misread, keeping its address and state', () => {
    const layout = buildLayout([
      ocrPage([
        [30, 9, [40, 'KAUERI AGRD FODDS PRIUAIE LIMIIED']],
        [42, 7, [40, '7, Station Road, Hassan']],
        [54, 7, [40, 'Karnataka 573201']],
      ]),
    ]);
    const { vendor } = extractParties(layout, 'invoice', none);
    expect(vendor.name).toBeNull();
    expect(vendor.address?.value).toContain('Station Road');
  });

  it('reads the wrapped lines of an address value cell in a "label | value" block', () => {
    const layout = buildLayout([
      ocrPage([
        [30, 9, [200, 'Sahyadri Pumps']],
        [42, 7, [200, '7, Station Road, Pune, Maharashtra 411001']],
        [88, 7, [228, 'Customer Detail'], [344, 'Invoice No.'], [424, 'SP/24-25/16']],
        [101, 7, [166, 'M/S'], [214, 'Meher Tools & Dies'], [344, 'Challan No.']],
        [114, 7, [166, 'Address'], [214, '14, Kamala Mills Road,'], [344, 'P.O. No.']],
        [123, 7, [214, 'Near Bus Stand']],
        [127, 7, [344, 'L.R. No.']],
        [131, 7, [214, 'Hassan, Karnataka - 573201']],
        [140, 7, [344, 'Reverse Charge'], [424, 'No']],
        [153, 7, [166, 'Phone'], [214, '9800000000']],
      ]),
    ]);
    const { buyer } = extractParties(layout, 'invoice', none);
    expect(buyer.name?.value).toBe('Meher Tools & Dies');
    expect(buyer.address?.value).toContain('Hassan');
    expect(buyer.stateCode?.value).toBe('29');
  });

  it('takes a block of its own under the letterhead with no heading as the buyer, below review', () => {
    const layout = buildLayout([
      ocrPage([
        [40, 9, [360, 'Sahyadri Pumps']],
        [52, 7, [360, '7, Station Road, Pune 411001']],
        [64, 7, [360, 'GSTIN : 27AAECS1234F1Z5']],
        [120, 8, [20, 'Meher Tools & Dies'], [300, 'Invoice No'], [420, 'SP/16']],
        [134, 7, [20, 'Kamala Mills Road, Hassan']],
        [148, 7, [20, 'Tel : 9800000000'], [300, 'Invoice Date'], [420, '25/01/2024']],
        [162, 7, [20, 'GSTIN/UIN : 29AAFC']],
      ]),
    ]);
    const { buyer } = extractParties(layout, 'invoice', none);
    expect(buyer.name?.value).toBe('Meher Tools & Dies');
    expect(buyer.name?.score).toBeLessThan(0.9);
  });

  it('reads a Tally seller box: first name-like line, address across the box border, GSTIN below', () => {
    const layout = buildLayout([
      ocrPage([
        [36, 6.7, [279, 'Tax Invoice'], [488, '(ORIGINAL FOR RECIPIENT)']],
        // The bold name has no descenders: OCR gives it a smaller box than the address lines.
        [54, 5.8, [44, 'Desai & Associates'], [316, 'Invoice No.'], [452, 'Invoice Date']],
        [64, 6.7, [44, 'No. 39, Sunrise Business Park'], [315, 'TN/24-25/0617'], [451, '23-May-24']],
        [77, 7.0, [44, 'Perungudi, Service Road']],
        // OCR split the PIN code off; the box beside holds two more cells.
        [
          86,
          7.0,
          [44, 'Dist. Chennai, Tamil Nadu'],
          [150, '600054'],
          [316, 'Delivery Note'],
          [452, 'Mode/Terms of Payment'],
        ],
        [97, 7.0, [43, 'GSTIN/UIN : 33CNHFD5550P1ZC'], [451, '30 Days']],
        [108, 7.0, [44, 'State Name : Tamil Nadu, Code : 33']],
        [143, 6.7, [43, '‘Buyer (Bill to)'], [316, "Buyer's Order No."]],
        [152, 9.1, [43, '‘Shetty Paper Mills']],
        [164, 6.7, [44, 'B-42, Laxmi Industrial Estate']],
      ]),
    ]);
    const { vendor, buyer } = extractParties(layout, 'invoice', none);
    expect(vendor.name?.value).toBe('Desai & Associates');
    expect(vendor.address?.value).toBe(
      'No. 39, Sunrise Business Park, Perungudi, Service Road, Dist. Chennai, Tamil Nadu 600054',
    );
    expect(vendor.gstin?.value).toBe('33CNHFD5550P1ZC');
    expect(vendor.stateCode?.value).toBe('33');
    // A stray quote mark before the label and the name is not part of either.
    expect(buyer.name?.value).toBe('Shetty Paper Mills');
  });

  it('keeps a bill-to address out of the ship-to column beside it', () => {
    const layout = buildLayout([
      ocrPage([
        [122, 6.2, [38, 'BILL TO'], [175, 'CONSIGNEE (SHIP TO)']],
        [133, 6.7, [37, 'Malabar Motors Ltd'], [175, 'Malabar Motors Ltd']],
        // The ship-to line starts close enough to read as the same phrase.
        [144, 6.7, [37, 'Ghodbunder Road, Old Mumbai-Pune'], [175, 'Hingna MIDC, Industrial Road']],
        [155, 7.2, [38, 'Thane 400096, Maharashtra'], [175, 'Nagpur 440073, Maharashtra']],
      ]),
    ]);
    const { buyer } = extractParties(layout, 'invoice', none);
    expect(buyer.address?.value).toBe('Ghodbunder Road, Old Mumbai-Pune, Thane 400096, Maharashtra');
  });
});

describe('bill-to beside ship-to and the invoice box', () => {
  it('reads the bill-to block past lines that carry the ship-to copy and invoice labels', () => {
    const layout = buildLayout([
      ocrPage([
        [124, 5.8, [39, 'BILL TO'], [215, 'SHIP TO'], [438, 'Invoice No. : GRP/25-26/2206']],
        [
          135,
          6.5,
          [39, 'AT Life Sciences LLP'],
          [215, 'AT Life Sciences LLP'],
          [433, 'Invoice Date'],
          [491, '19/09/2025'],
        ],
        [145, 6.5, [39, 'Gala No. 101'], [215, 'Gala No. 101']],
        [154, 6.5, [39, 'Avinashi Road, Main Road'], [215, 'Avinashi Road, Main Road']],
        // A box edge read as a digit left of the column.
        [163, 6.5, [20, '3'], [39, 'Coimbatore, Tamil Nadu 641098'], [215, 'Coimbatore, Tamil Nadu 641098']],
        [174, 6.7, [39, 'GSTIN/UIN : 33BZWFA696022ZK'], [412, "Buyer's Order No. : PUR-2025-0701"]],
        [
          200,
          6.5,
          [44, '1'],
          [56, 'Courier Charges (Domestic)'],
          [227, '996812'],
          [292, '58.00'],
          [341, '284.50'],
        ],
      ]),
    ]);
    const { buyer } = extractParties(layout, 'invoice', none);
    expect(buyer.name?.value).toBe('AT Life Sciences LLP');
    expect(buyer.address?.value).toBe(
      'Gala No. 101, Avinashi Road, Main Road, Coimbatore, Tamil Nadu 641098',
    );
    expect(buyer.gstin?.value).toBe('33BZWFA6960Z2ZK');
  });
});

describe('PO supplier addressed with "To,"', () => {
  it('reads the supplier under "To." when OCR turns the comma into a dot', () => {
    const layout = buildLayout([
      ocrPage([
        [91, 12.2, [212, 'DJS Life Sciences Private Ltd.']],
        [108, 6.1, [131, 'Plot No. 401, Sahibabad Industrial Area, Ghaziabad 201086, Uttar Pradesh']],
        [161, 6.7, [92, 'To.'], [392, 'PO No. : DLS/PUR/24-25/246']],
        [170, 6.7, [92, 'Siddhi Electric Company Pvt Ltd'], [392, 'Date : 29.12.2024']],
        [180, 6.7, [92, 'Flat No. 190, Prestige Tech Park']],
        [190, 6.7, [92, 'Noida 201066, Uttar Pradesh']],
      ]),
    ]);
    const { vendor, buyer } = extractParties(layout, 'po', none);
    expect(vendor.name?.value).toBe('Siddhi Electric Company Pvt Ltd');
    expect(vendor.stateCode?.value).toBe('09');
    expect(buyer.name?.value).toBe('DJS Life Sciences Private Ltd.');
  });
});

describe('state of a party on scans', () => {
  it('takes the state its GSTIN names when the address spells that state with an OCR slip', () => {
    const layout = buildLayout([
      ocrPage([
        [100, 6.5, [40, 'Buyer']],
        [110, 6.5, [40, 'Kovai Traders']],
        [120, 6.5, [40, 'Plot No 303, Avinashi Road']],
        [130, 6.5, [40, 'Coimbatore, Tami Nadu 641058']],
        [140, 6.5, [40, 'GSTIN 33CQNCS2698R1ZC']],
      ]),
    ]);
    expect(extractParties(layout, 'invoice', none).buyer.stateCode?.value).toBe('33');
    // Without the GSTIN's word for it, a misspelt state is read for review only.
    const bare = buildLayout([
      ocrPage([
        [100, 6.5, [40, 'Buyer']],
        [110, 6.5, [40, 'Kovai Traders']],
        [120, 6.5, [40, 'Coimbatore, Tami Nadu 641058']],
      ]),
    ]);
    const state = extractParties(bare, 'invoice', none).buyer.stateCode;
    expect(state?.value).toBe('33');
    expect(state?.score).toBeLessThan(0.8);
  });
});

describe('letterhead beside the bill-to heading', () => {
  it('reads the supplier whose name starts the line of the "Bill to" heading, under a software logo', () => {
    const layout = buildLayout([
      ocrPage([
        [40, 7, [440, 'INVOICE 17']],
        // A billing software's logo and tagline, then the seller's block level with "Bill to:".
        [50, 18, [100, 'TALLYWISE']],
        [78, 7, [100, 'BILLS MADE SIMPLE']],
        [130, 8, [40, 'Sahyadri Pumps'], [240, 'Bill to:']],
        [150, 7, [40, '12, Canal Road, Kothrud'], [240, 'Kaveri Agro Foods']],
        [164, 7, [40, 'Pune, Maharashtra (MH - 27), India'], [240, 'Ring Road, Nagpur']],
      ]),
    ]);
    const { vendor, buyer } = extractParties(layout, 'invoice', none);
    expect(vendor.name?.value).toBe('Sahyadri Pumps');
    expect(buyer.name?.value).toBe('Kaveri Agro Foods');
  });

  it('takes no row value left after its colon (a label OCR lost) for the letterhead', () => {
    const layout = buildLayout([
      ocrPage([
        [60, 8, [40, ': Maharashtra'], [300, 'Dated']],
        [72, 8, [40, 'Kaveri Agro Foods']],
        [84, 7, [40, '14, Ring Road, Nagpur']],
        [110, 7, [40, 'Purchase Order']],
      ]),
    ]);
    expect(extractParties(layout, 'po', none).buyer.name?.value).toBe('Kaveri Agro Foods');
  });
});

describe('a name OCR ran into the next cell', () => {
  it('drops a document number and the stray mark after it', () => {
    expect(tidyName('Kaveri Agro Foods Ltd. (Formerly Kaveri Mills) PO/KAF/25-26/118 L')).toBe(
      'Kaveri Agro Foods Ltd. (Formerly Kaveri Mills)',
    );
  });
});

describe('a state misspelt in an address', () => {
  it('reads a long state name one letter off as that state', () => {
    const layout = buildLayout([
      ocrPage([
        [100, 8, [40, 'Bill To: Kaveri Agro Foods']],
        [112, 7, [40, '#Lane 4, Block C']],
        [124, 7, [40, 'Mysuru Karnatka']],
        [136, 7, [40, 'India']],
      ]),
    ]);
    const state = extractParties(layout, 'invoice', none).buyer.stateCode;
    expect(state?.value).toBe('29');
    expect(state?.score).toBeLessThan(0.8);
  });
});
