import { describe, expect, it } from 'vitest';
import { buildLayout } from '../layout.ts';
import type { PageContent, Word } from '../types.ts';
import { extractParties } from './parties.ts';

/** OCR words: each line is [y, height, [x, text]...]; word boxes hug glyphs, so heights vary. */
function ocrPage(lines: Array<[number, number, ...Array<[number, string]>]>): PageContent {
  const words: Word[] = [];
  for (const [y, h, ...cells] of lines)
    for (const [x, text] of cells) {
      let cx = x;
      for (const t of text.split(' ')) {
        words.push({
          text: t,
          x0: cx,
          y0: y,
          x1: cx + t.length * 4,
          y1: y + h,
          page: 1,
          source: 'ocr',
          conf: 0.92,
        });
        cx += t.length * 4 + 2;
      }
    }
  return { page: 1, width: 595, height: 842, words, source: 'ocr' };
}
const none = () => false;

describe('parties on scans', () => {
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
    // Without the GSTIN's word for it, a misspelt state stays unread.
    const bare = buildLayout([
      ocrPage([
        [100, 6.5, [40, 'Buyer']],
        [110, 6.5, [40, 'Kovai Traders']],
        [120, 6.5, [40, 'Coimbatore, Tami Nadu 641058']],
      ]),
    ]);
    expect(extractParties(bare, 'invoice', none).buyer.stateCode).toBeNull();
  });
});
