import { describe, expect, it } from 'vitest';
import {
  isCurrencyWord,
  isLoneChar,
  isNumericToken,
  isPlainFigure,
  letterRun,
  parseGstRate,
  parseMoney,
  parseQuantity,
  repairNumericToken,
  withoutPercent,
  wordCount,
} from './numbers.ts';
import { classifyLabel, normaliseLabel, UNIT_WORD } from './vocabulary.ts';

describe('table text helpers', () => {
  it('tells figures, lone glyphs and rupee words apart', () => {
    expect(isPlainFigure('1,250.00')).toBe(true);
    expect(isPlainFigure('12.')).toBe(true);
    expect(isPlainFigure('18%')).toBe(false);
    expect(isPlainFigure('.5')).toBe(false);
    expect(isLoneChar('%', '%+|')).toBe(true);
    expect(isLoneChar('', '%+|')).toBe(false);
    expect(isLoneChar('%%', '%+|')).toBe(false);
    expect(withoutPercent('18%')).toBe('18');
    expect(withoutPercent('18')).toBe('18');
    expect(isCurrencyWord('Rs.')).toBe(true);
    expect(isCurrencyWord('₹')).toBe(true);
    expect(isCurrencyWord('INR')).toBe(true);
    expect(isCurrencyWord('Rs..')).toBe(false);
    expect(isCurrencyWord('')).toBe(false);
    expect(isNumericToken('18%')).toBe(true);
  });
  it('measures letter runs and words', () => {
    expect(letterRun('2MT')).toBe(2);
    expect(letterRun('1,250.00')).toBe(0);
    expect(letterRun('Ab-Cde')).toBe(3);
    expect(wordCount('  CGST  @ 9% ')).toBe(3);
  });
  it('reads signs and rupee marks around a quantity', () => {
    expect(parseQuantity('(1,250.00)')).toBe(-1250);
    expect(parseQuantity('(-)0.20')).toBe(-0.2);
    expect(parseQuantity('Rs.450/-')).toBe(450);
    expect(parseQuantity('(')).toBeNull();
    expect(parseQuantity('—')).toBe(0);
  });
});

describe('table numbers', () => {
  it('reads quantities with Indian grouping and all their decimals', () => {
    expect(parseQuantity('1,620')).toBe(1620);
    expect(parseQuantity('16,870')).toBe(16870);
    expect(parseQuantity('748.093')).toBe(748.093);
    expect(parseQuantity('-')).toBe(0);
    expect(parseQuantity('Nos')).toBeNull();
    expect(parseQuantity('12,34')).toBeNull();
  });
  it('reads money and repairs OCR slips in numeric cells', () => {
    expect(parseMoney('2,93,850.00')).toBe(293850);
    expect(parseMoney('(-)0.20')).toBe(-0.2);
    expect(parseMoney('570.00/Nos')).toBe(570);
    expect(parseMoney('1.21.191.07')).toBe(121191.07);
    expect(repairNumericToken('1O,5OO.00')).toBe('10,500.00');
    expect(repairNumericToken('Box')).toBe('Box');
  });
  it('reads GST rate cells as the total GST percent', () => {
    expect(parseGstRate('18%')).toBe(18);
    expect(parseGstRate('12 %')).toBe(12);
    expect(parseGstRate('9%+9%')).toBe(18);
    expect(parseGstRate('18 + 0 | 0 + 0')).toBe(18);
    expect(parseGstRate('Nil')).toBe(0);
    expect(parseGstRate('CGST 9% SGST 9%')).toBe(18);
    expect(parseGstRate('IGST @18%')).toBe(18);
    expect(parseGstRate('')).toBeNull();
  });
});

describe('column vocabulary', () => {
  const kind = (label: string) => classifyLabel(normaliseLabel(label)).kind;
  it('classifies header labels, including OCR misspellings', () => {
    expect(kind('Description of Goods')).toBe('description');
    expect(kind('Descriptlon of Goods')).toBe('description');
    // OCR reads "ri" as one "n" and "rn" as "m" in small or blurred header type.
    expect(kind('Item Descnpton')).toBe('description');
    expect(kind('Particulars')).toBe('description');
    expect(kind('HSN/SAC')).toBe('hsn');
    expect(kind('Qty.')).toBe('quantity');
    expect(kind('Unit Price')).toBe('rate');
    expect(kind('Rate per unit')).toBe('rate');
    expect(kind('per')).toBe('unit');
    expect(kind('UOM')).toBe('unit');
    expect(kind('UM')).toBe('unit');
    expect(kind('Disc %')).toBe('discount');
    expect(kind('Taxable Value')).toBe('amount');
    expect(kind('GST Rate')).toBe('gst');
    expect(kind('IGST Amount')).toBe('taxAmount');
    expect(kind('PO Qty')).toBe('ordered');
    expect(kind('Recd. Qty')).toBe('received');
    expect(kind('Qty Received')).toBe('received');
    expect(kind('Rej. Qty')).toBe('rejected');
    expect(kind('Accepted')).toBe('accepted');
    expect(kind('S.No')).toBe('serial');
    expect(kind('Material Code')).toBe('code');
    // Digits OCR read for look-alike capitals.
    expect(normaliseLabel('16ST')).toBe('igst');
    expect(kind('UNITPRICE')).toBe('rate');
    // "Tax Type" names the head beside each figure: no figure of its own.
    expect(classifyLabel(normaliseLabel('Tax Type'))).toMatchObject({ kind: 'other', taxType: true });
  });
  it('takes a tax-inclusive price for no GST rate column, OCR readings of "Incl." too', () => {
    expect(kind('Rate (Incl. of Tax)')).toBe('other');
    expect(kind('Rate (Ind. of Tax)')).toBe('other');
    expect(kind('Rate Inclusive of GST')).toBe('other');
    expect(kind('GST Rate')).toBe('gst');
    expect(kind('Rate of Tax')).toBe('gst');
  });
  it('prefers the taxable value over a total column', () => {
    const taxable = classifyLabel(normaliseLabel('Taxable Amount (Rs)'));
    const total = classifyLabel(normaliseLabel('Total'));
    expect(taxable.priority).toBeGreaterThan(total.priority);
  });
});

describe('unit words', () => {
  it('knows units in their printed forms, and no other words', () => {
    for (const u of ['Nos', 'NO', 'KGS', 'Sq.ft', 'sqft', 'Boxes', 'PC', 'Pcs', 'MT', 'Bags', 'Ltr'])
      expect(UNIT_WORD.test(u), u).toBe(true);
    for (const w of ['Machine', 'Total', 'GST', '12', 'Nose']) expect(UNIT_WORD.test(w), w).toBe(false);
  });
});
