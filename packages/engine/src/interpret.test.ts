import { describe, expect, it } from 'vitest';
import { rescaleLinesToTaxable } from './interpret.ts';

describe('rescaleLinesToTaxable', () => {
  it('scales lines whose decimal points OCR dropped so the lines sum to the taxable value', () => {
    const lines = [
      { quantity: 10, rate: 25, discount: null, amount: 250 },
      // 553.50 read as 55350, so the amount 90,774.00 as 9077400.
      { quantity: 164, rate: 55350, discount: null, amount: 9077400 },
    ];
    expect(rescaleLinesToTaxable(lines, 91024)).toBe(true);
    expect(lines[1]).toEqual({ quantity: 164, rate: 553.5, discount: null, amount: 90774 });
    expect(lines[0]).toEqual({ quantity: 10, rate: 25, discount: null, amount: 250 });
  });

  it('changes nothing when the lines already add up, or when several repairs would', () => {
    const ok = [{ quantity: 2, rate: 50, amount: 100 }];
    expect(rescaleLinesToTaxable(ok, 100)).toBe(false);
    // Either line divided by 10 gives the same sum: no way to tell which was misread.
    const twins = [
      { quantity: 1, rate: 1000, amount: 1000 },
      { quantity: 1, rate: 1000, amount: 1000 },
    ];
    expect(rescaleLinesToTaxable(twins, 1100)).toBe(false);
    expect(twins[0]?.amount).toBe(1000);
  });
});
