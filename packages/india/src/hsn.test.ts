import { describe, expect, it } from 'vitest';
import { isSac, isValidHsnSac } from './hsn.ts';

describe('isValidHsnSac', () => {
  it('accepts 4, 6 and 8 digit HSN codes and SAC codes', () => {
    for (const code of ['8471', '847130', '84713010', '998314', '9983', '0401', '8471.30', '8471 30 10']) {
      expect(isValidHsnSac(code)).toBe(true);
    }
  });

  it('rejects other lengths, letters and non-existent chapters', () => {
    for (const code of ['847', '84713', '8471301', '847130100', '84A1', '', '0000', '7701', '00123456']) {
      expect(isValidHsnSac(code)).toBe(false);
    }
  });
});

describe('isSac', () => {
  it('is six digits starting 99', () => {
    expect(isSac('998314')).toBe(true);
    expect(isSac('9983 14')).toBe(true);
    expect(isSac('9983')).toBe(false);
    expect(isSac('847130')).toBe(false);
    expect(isSac('99831400')).toBe(false);
  });
});
