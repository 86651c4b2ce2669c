import { describe, expect, it } from 'vitest';
import { pageOfCells } from '../../test/test-words.ts';
import { buildLayout } from '../layout.ts';
import { extractLabelledFields } from './header.ts';

const page = pageOfCells;
const none = () => false;
const pos = (lines: Array<[number, ...Array<[number, string]>]>, source: 'text' | 'ocr' = 'text') =>
  extractLabelledFields(buildLayout([page(lines, source)]), 'invoice', none).get('placeOfSupply')?.[0]?.value;

describe('place of supply', () => {
  it('reads a "State: X Code: NN" cell beside the label as the state, not as another label', () => {
    expect(pos([[100, [290, 'Place of Supply'], [420, 'State :Karnataka Code : (29)']]])).toBe('29');
  });

  it('reads the value beside the first line of a label wrapped in its cell ("Place of" / "Supply")', () => {
    expect(
      pos([
        [100, [50, 'GSTIN'], [120, 'Irrelevant']],
        [112, [50, 'Place of'], [120, 'Gujarat ( 24 )'], [350, 'Transport ID']],
        [124, [50, 'Supply']],
        [150, [50, 'Sr.'], [100, 'Description']],
      ]),
    ).toBe('24');
  });

  it('skips a box edge OCR read as a lone "i" before the label', () => {
    expect(pos([[100, [220, 'i Place of Supply: KA (29)']]], 'ocr')).toBe('29');
  });
});

describe('labels OCR spaced apart', () => {
  it('reads the value after a possessive OCR spaced apart ("Buyer\' s Order No")', () => {
    const f = extractLabelledFields(
      buildLayout([page([[100, [300, "Buyer' s Order No: 4471"]]], 'ocr')]),
      'invoice',
      none,
    );
    expect(f.get('poNumber')?.[0]?.value).toBe('4471');
  });
});

describe('labels after a bullet', () => {
  it('reads a labelled row written as a dash bullet ("- Payment Terms: …")', () => {
    const f = extractLabelledFields(
      buildLayout([page([[100, [36, '- Payment Terms: Credit 30 days']]])]),
      'po',
      none,
    );
    expect(f.get('paymentTerms')?.[0]?.value).toBe('Credit 30 days');
  });
});

describe('place of supply heading a column', () => {
  it('reads the state of the address under a "Place of Supply" column heading', () => {
    expect(
      pos([
        [100, [50, 'Bill to'], [300, 'Place of Supply']],
        [112, [50, 'KAVERI AGRO FOODS'], [300, 'KAVERI AGRO FOODS']],
        [124, [50, '14, Ring Road, Wardha Road,'], [300, '14, Ring Road, Wardha']],
        [136, [50, 'Nagpur, Maharashtra - 440015'], [300, 'Road, Nagpur, Maharashtra -']],
        [148, [300, '440015']],
      ]),
    ).toBe('27');
  });
});

describe('text values wrapped in their cell', () => {
  it('completes a value whose bracket wrapped onto the next line', () => {
    const f = extractLabelledFields(
      buildLayout([
        page(
          [
            [100, [12, 'PAYMENT TERMS: 45 days net (after the goods pass'], [400, 'Freight: Paid']],
            [112, [100, 'inspection)']],
            [140, [12, 'Delivery: Ex works']],
          ],
          'ocr',
        ),
      ]),
      'po',
      none,
    );
    expect(f.get('paymentTerms')?.[0]?.value).toBe('45 days net (after the goods pass inspection)');
  });
});
