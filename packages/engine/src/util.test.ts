import { describe, expect, it } from 'vitest';
import { alphanumericKey, isAsciiAlphanumeric, mebibytes } from './util.ts';

describe('mebibytes', () => {
  it('is 1024 × 1024 bytes each', () => {
    expect(mebibytes(16)).toBe(16 * 1024 * 1024);
  });
});

describe('alphanumericKey', () => {
  it('keeps ASCII letters (upper-cased) and digits only', () => {
    expect(alphanumericKey('inv/24-25/007')).toBe('INV2425007');
    expect(alphanumericKey(' SP 0042 ')).toBe('SP0042');
    expect(alphanumericKey('№ 5 – é')).toBe('5');
  });

  it('tells ASCII letters and digits from the rest', () => {
    expect([...'aZ5-é '].map(isAsciiAlphanumeric)).toEqual([true, true, true, false, false, false]);
  });
});
