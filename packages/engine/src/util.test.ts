import { describe, expect, it } from 'vitest';
import { alphanumericKey, isAsciiAlphanumeric, mebibytes, phrasePattern } from './util.ts';

describe('phrasePattern', () => {
  it('matches any phrase as whole words, case-insensitively', () => {
    const title = phrasePattern(['tax invoice', 'bill of supply']);
    expect(title.test('TAX INVOICE')).toBe(true);
    expect(title.test('Bill of Supply No. 7')).toBe(true);
    expect(title.test('taxinvoice')).toBe(false);
    expect(title.test('bill of supplyx')).toBe(false);
  });

  it('reads a dot in a phrase as optional (abbreviations)', () => {
    const grn = phrasePattern(['g.r.n.']);
    expect(grn.source).toBe(String.raw`\b(?:g\.?r\.?n\.?)\b`);
    for (const t of ['GRN', 'G.R.N.', 'G.R.N', 'g.rn']) expect(grn.test(t)).toBe(true);
  });

  it('escapes the other characters of a regular expression', () => {
    const p = phrasePattern(['a+b', 'e-invoice']);
    expect(p.test('a+b')).toBe(true);
    expect(p.test('aab')).toBe(false);
    expect(p.test('E-Invoice')).toBe(true);
  });

  it('adds flags: a global pattern counts matches', () => {
    const votes = phrasePattern(['received', 'receipt'], 'g');
    expect('Received 4, receipt 2, RECEIVED'.match(votes)).toHaveLength(3);
  });
});

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
