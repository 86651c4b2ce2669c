import { describe, expect, it } from 'vitest';
import { TolerancesFormSchema, toTolerancesFormValues } from './tolerances-form.ts';

describe('TolerancesFormSchema', () => {
  it('reads the boxes as numbers, an empty box as 0', () => {
    expect(TolerancesFormSchema.parse({ qtyPct: '2.5', pricePct: '', amountRupees: '10.25' })).toEqual({
      qtyPct: 2.5,
      pricePct: 0,
      amountRupees: 10.25,
    });
  });

  it("refuses with the contract's words, by box", () => {
    const result = TolerancesFormSchema.safeParse({ qtyPct: '-1', pricePct: '101', amountRupees: '1.005' });
    expect(
      Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message])),
    ).toEqual({
      qtyPct: 'Cannot be negative',
      pricePct: 'At most 100 %',
      amountRupees: 'Rupees and paise only',
    });
  });

  it('fills the boxes from the stored tolerances', () => {
    expect(toTolerancesFormValues({ qtyPct: 0, pricePct: 1.5, amountRupees: 100 })).toEqual({
      qtyPct: '0',
      pricePct: '1.5',
      amountRupees: '100',
    });
  });
});
