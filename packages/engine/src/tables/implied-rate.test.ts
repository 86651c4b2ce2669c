import { describe, expect, it } from 'vitest';
import { pageOfLines } from '../../test/test-words.ts';
import { buildLayout } from '../layout.ts';
import { impliedLineRate } from './implied-rate.ts';

const line = (amount: number, rate = amount) => ({ quantity: 1, rate, amount, gstRate: null });

describe('impliedLineRate (the slab whose taxes on the lines the document prints)', () => {
  it('reads 18 % from a CGST and an SGST half printed under heads OCR broke into pieces', () => {
    const layout = buildLayout([
      pageOfLines(['Sub Total  410.00', 'S . G . S . T @9%  36.90', 'C . G . S .I @9%  36.90', 'Total  484']),
    ]);
    expect(impliedLineRate([line(250), line(160)], layout)).toBe(18);
  });

  it('allows a paisa of per-line rounding, and reads a whole tax on a line naming it', () => {
    // 5 % of 530.00 is 26.50; the lines' taxes, each rounded, print 26.52.
    const layout = buildLayout([pageOfLines(['Taxable  530.00', 'GST Amount  26.52'])]);
    expect(impliedLineRate([line(255), line(240), line(35)], layout)).toBe(5);
  });

  it('takes no slab from a lone figure on a line that names no tax, or from a line’s own amount', () => {
    const lone = buildLayout([pageOfLines(['Advance received  180.00'])]);
    expect(impliedLineRate([line(600), line(400)], lone)).toBeNull();
    // 18 % of 1,000.00 is 180.00, but 180.00 is an item's own amount.
    const own = buildLayout([pageOfLines(['Item  180.00', 'Item  90.00', 'Item  90.00'])]);
    expect(impliedLineRate([line(730), line(180), line(90)], own)).toBeNull();
  });

  it('gives nothing when a line already carries a rate or lacks an amount', () => {
    const layout = buildLayout([pageOfLines(['CGST  36.90', 'SGST  36.90'])]);
    expect(impliedLineRate([{ ...line(250), gstRate: 12 }, line(160)], layout)).toBeNull();
    expect(impliedLineRate([line(250), { quantity: 1, rate: 160, amount: null }], layout)).toBeNull();
  });
});
