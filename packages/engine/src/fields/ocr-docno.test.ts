import { describe, expect, it } from 'vitest';
import { repairOcrDocNumber } from './header.ts';
import { parseValue } from './values.ts';

describe('document numbers OCR split or misread', () => {
  it('joins a letter prefix OCR split with a space ("K VT/23-24/088")', () => {
    expect(parseValue('docno', ': K VT/23-24/088')?.value).toBe('KVT/23-24/088');
    expect(parseValue('docno', 'ABC 000417')?.value).toBe('ABC 000417');
  });

  it('joins the parts of a number OCR split after an underscore ("KA_ WH2024…")', () => {
    expect(parseValue('docno', ': # KA_ WH20240917001')?.value).toBe('KA_WH20240917001');
    expect(parseValue('docno', 'KA_WH2024 0917')?.value).toBe('KA_WH2024');
  });

  it('reads a leading zero before a letter and a long digit run as the letter O ("0R5523…")', () => {
    expect(repairOcrDocNumber('0R552309812340')).toBe('OR552309812340');
    expect(repairOcrDocNumber('0012345')).toBe('0012345');
  });

  it('reads one glyph read twice, as a digit and as its letter, as that letter once', () => {
    expect(repairOcrDocNumber('P0O/2026/04417')).toBe('PO/2026/04417');
    expect(repairOcrDocNumber('OP0/24-25/0417')).toBe('OPO/24-25/0417');
    expect(repairOcrDocNumber('B8S/7')).toBe('BS/7');
    expect(repairOcrDocNumber('5I/2526/0044')).toBe('SI/2526/0044');
  });

  it('reads an IRN, an e-way bill and a vehicle number whatever OCR did to their look-alikes and spacing', () => {
    const irn = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
    expect(parseValue('irn', irn.replaceAll('1', 'l').replaceAll('0', 'o'))?.value).toBe(irn);
    expect(parseValue('eway', 'E-Way Bill 1234 5678 9012')?.value).toBe('123456789012');
    expect(parseValue('vehicle', 'MH 12 AB 1234')?.value).toBe('MH12AB1234');
  });
});
