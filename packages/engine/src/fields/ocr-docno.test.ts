import { describe, expect, it } from 'vitest';
import { repairOcrDocNumber } from './header.ts';
import { parseValue } from './values.ts';

describe('document numbers OCR split or misread', () => {
  it('joins a letter prefix OCR split with a space ("K VT/23-24/088")', () => {
    expect(parseValue('docno', ': K VT/23-24/088')?.value).toBe('KVT/23-24/088');
    expect(parseValue('docno', 'ABC 000417')?.value).toBe('ABC 000417');
  });

  it('reads a leading zero before a letter and a long digit run as the letter O ("0R5523…")', () => {
    expect(repairOcrDocNumber('0R552309812340')).toBe('OR552309812340');
    expect(repairOcrDocNumber('0012345')).toBe('0012345');
  });
});
