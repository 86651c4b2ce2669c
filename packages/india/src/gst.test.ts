import { describe, expect, it } from 'vitest';
import {
  expectedTaxHeads,
  gstSlabsOn,
  isValidGstHeadRate,
  isValidGstRate,
  splitGstRate,
  supplyTypeFor,
} from './gst.ts';

describe('gstSlabsOn', () => {
  it('uses the pre-GST-2.0 slabs up to 21 Sep 2025', () => {
    expect(gstSlabsOn('2025-09-21')).toEqual([0, 0.1, 0.25, 1.5, 3, 5, 6, 12, 18, 28]);
    expect(gstSlabsOn('2017-07-01')).toEqual([0, 0.1, 0.25, 1.5, 3, 5, 6, 12, 18, 28]);
  });

  it('uses the GST 2.0 slabs from 22 Sep 2025, keeping 28 for notified goods', () => {
    expect(gstSlabsOn('2025-09-22')).toEqual([0, 0.1, 0.25, 1.5, 3, 5, 18, 28, 40]);
    expect(gstSlabsOn('2026-04-01')).toContain(40);
  });

  it('returns every historical slab without a usable date', () => {
    const all = gstSlabsOn();
    expect(all).toEqual([0, 0.1, 0.25, 1.5, 3, 5, 6, 12, 18, 28, 40]);
    expect(gstSlabsOn('22/09/2025')).toEqual(all);
  });

  it('returns a fresh array each time', () => {
    gstSlabsOn('2025-01-01').push(99);
    expect(gstSlabsOn('2025-01-01')).not.toContain(99);
  });
});

describe('isValidGstRate', () => {
  it('checks either side of 22 Sep 2025', () => {
    expect(isValidGstRate(12, '2025-09-21')).toBe(true);
    expect(isValidGstRate(12, '2025-09-22')).toBe(false);
    expect(isValidGstRate(40, '2025-09-21')).toBe(false);
    expect(isValidGstRate(40, '2025-09-22')).toBe(true);
    expect(isValidGstRate(28, '2025-10-01')).toBe(true);
    expect(isValidGstRate(18, '2025-10-01')).toBe(true);
    expect(isValidGstRate(6, '2025-10-01')).toBe(false);
  });

  it('rejects rates that were never slabs', () => {
    expect(isValidGstRate(10)).toBe(false);
    expect(isValidGstRate(0.18)).toBe(false);
    expect(isValidGstRate(0.1 + 0.15)).toBe(true); // 0.25 with float noise
  });

  it('checks head rates', () => {
    expect(isValidGstHeadRate(9, 'cgst', '2025-10-01')).toBe(true);
    expect(isValidGstHeadRate(6, 'sgst', '2025-10-01')).toBe(false);
    expect(isValidGstHeadRate(6, 'sgst', '2025-08-01')).toBe(true);
    expect(isValidGstHeadRate(18, 'igst')).toBe(true);
    expect(isValidGstHeadRate(18, 'cgst')).toBe(false);
  });
});

describe('supply type', () => {
  it('is intra within a state and inter across states', () => {
    expect(supplyTypeFor('29', '29')).toBe('intra');
    expect(supplyTypeFor('29', '27')).toBe('inter');
    expect(supplyTypeFor('9', '09')).toBe('intra');
    expect(expectedTaxHeads('29', '29')).toBe('cgst_sgst');
    expect(expectedTaxHeads('07', '06')).toBe('igst');
  });

  it('splits rates into heads', () => {
    expect(splitGstRate(18, 'intra')).toEqual({ cgst: 9, sgst: 9, igst: 0 });
    expect(splitGstRate(18, 'inter')).toEqual({ cgst: 0, sgst: 0, igst: 18 });
    expect(splitGstRate(0.25, 'intra')).toEqual({ cgst: 0.125, sgst: 0.125, igst: 0 });
    expect(splitGstRate(5, 'intra')).toEqual({ cgst: 2.5, sgst: 2.5, igst: 0 });
    expect(splitGstRate(0.1, 'intra')).toEqual({ cgst: 0.05, sgst: 0.05, igst: 0 });
  });
});
