import { describe, expect, it } from 'vitest';
import { reconcile } from './fields.ts';

const read = (text: string) => ({ value: Number(text.replace(/[ ,]/g, '')), text });

describe('reconcile (one OCR slip in a row that does not add up)', () => {
  it('replaces the one figure a single digit slip from what the other two give', () => {
    // 12 × 250.00 = 3,000.00: the amount read "3,600.00" is one digit off.
    const r = reconcile(read('12'), read('250.00'), 0, read('3,600.00'));
    expect(r).toMatchObject({ quantity: 12, rate: 250, amount: 3000, how: 'replaced' });
  });

  it('keeps a row as read when two figures are each one slip away (no telling which OCR misread)', () => {
    // 4 × 25 ≠ 50: a misread quantity 2, a rate 12.50 whose "1" OCR dropped, or an amount of 100.
    const r = reconcile(read('4'), read('25'), 0, read('50'));
    expect(r).toMatchObject({ quantity: 4, rate: 25, amount: 50, how: 'read' });
  });

  it('between two equally near figures, does not take OCR to have printed a digit that is not there', () => {
    // 7 × 64 ≠ 64: a misread 1 (one glyph read as another) rather than a rate of 4 with a "6" added.
    const r = reconcile(read('7'), read('64'), 0, read('64'));
    expect(r).toMatchObject({ quantity: 1, rate: 64, amount: 64, how: 'replaced' });
  });

  it('replaces nothing two digits off (the arithmetic is off for another reason)', () => {
    // A rate of 260.00 against an amount of 225.00: no single slip explains it.
    const r = reconcile(read('1.00'), read('260.00'), 0, read('225.00'));
    expect(r).toMatchObject({ quantity: 1, rate: 260, amount: 225, how: 'read' });
  });

  it('takes an amount printed to the whole rupee as adding up (no decimal point to put back)', () => {
    // 1 × 1,20,345.5625 printed as 1,20,346: not 1,203.46 with a dropped point.
    const r = reconcile(read('1'), read('120345.5625'), 0, read('1,20,346'));
    expect(r).toMatchObject({ quantity: 1, rate: 120345.5625, amount: 120346, how: 'read' });
  });

  it('between two equally near figures, replaces the one OCR split into pieces', () => {
    // "3.500 00" is 3,500.00 read as two words; the quantity 22 is printed cleanly.
    const r = reconcile(read('22'), { value: 3.5, text: '3.500 00' }, 0, read('77,000.00'));
    expect(r).toMatchObject({ quantity: 22, rate: 3500, amount: 77000, how: 'replaced' });
  });
});

describe('reconcile (a figure printed whole)', () => {
  it('does not replace a quantity printed "1.00" by a fraction (two digits off, not one)', () => {
    // 1.00 × 2,370.00 ≠ 2,133.00: an unread discount, not a quantity of 0.9.
    const r = reconcile(read('1.00'), read('2370.00'), 0, read('2133.00'));
    expect(r.quantity).toBe(1);
  });
});
