import { describe, expect, it } from 'vitest';
import { daysBetween, financialYear, isoFromPortalDate, normaliseInvoiceNumber } from './invoice-number.ts';

describe('normaliseInvoiceNumber', () => {
  it('makes the contract examples one key', () => {
    expect(normaliseInvoiceNumber('AC/25-26/0142')).toBe('AC142');
    expect(normaliseInvoiceNumber('ac-142')).toBe('AC142');
    expect(normaliseInvoiceNumber('AC/2025-26/142')).toBe('AC142');
  });

  it('deletes every financial-year form the contract names, with either separator', () => {
    for (const n of [
      'SF/2025-26/77',
      'SF/25-26/77',
      'SF/25/26/77',
      'SF/2025-2026/77',
      'SF/2025/2026/77',
      'SF-77-25-26',
    ])
      expect(normaliseInvoiceNumber(n)).toBe('SF77');
    expect(normaliseInvoiceNumber('2025-26/9')).toBe('9');
    expect(normaliseInvoiceNumber('DN/99-00/5')).toBe('DN5'); // the century turns
  });

  it('keeps two numbers that are not a year pair', () => {
    expect(normaliseInvoiceNumber('SF/25-27/77')).toBe('SF252777');
    expect(normaliseInvoiceNumber('SF/2025-2027/1')).toBe('SF202520271');
    expect(normaliseInvoiceNumber('24-26')).toBe('2426');
    // 25-2026 is not one of the forms
    expect(normaliseInvoiceNumber('X/25-2026')).toBe('X252026');
  });

  it('takes a token only where no digit touches it', () => {
    expect(normaliseInvoiceNumber('125-26')).toBe('12526');
    expect(normaliseInvoiceNumber('25-267')).toBe('25267');
    expect(normaliseInvoiceNumber('A2025-26B')).toBe('AB');
  });

  it('scans left to right: a pair that is not a year pair does not hide one starting at its second number', () => {
    expect(normaliseInvoiceNumber('12-25-26')).toBe('12');
    expect(normaliseInvoiceNumber('25-26-27')).toBe('27');
    expect(normaliseInvoiceNumber('2024-2025-26')).toBe('26'); // 2024-2025 is the first pair found
  });

  it('drops leading zeros of each digit run, a run of zeros staying 0', () => {
    expect(normaliseInvoiceNumber('INV-000123')).toBe('INV123');
    expect(normaliseInvoiceNumber('B-007/C-0090')).toBe('B7C90');
    expect(normaliseInvoiceNumber('Z-000')).toBe('Z0');
    // digit runs are those left after separators are deleted
    expect(normaliseInvoiceNumber('0/0/12')).toBe('12');
  });

  it('upper-cases and deletes everything but A–Z and 0–9', () => {
    expect(normaliseInvoiceNumber(' gst #  12 (a) ')).toBe('GST12A');
    expect(normaliseInvoiceNumber('बिल-12')).toBe('12');
  });
});

describe('dates', () => {
  it('puts January–March in the financial year that began the April before', () => {
    expect(financialYear('2026-03-31')).toBe(2025);
    expect(financialYear('2026-04-01')).toBe(2026);
    expect(financialYear('2025-12-31')).toBe(2025);
  });

  it('reads portal dates and counts days across a year end', () => {
    expect(isoFromPortalDate('05-11-2025')).toBe('2025-11-05');
    expect(isoFromPortalDate('31-02-2025')).toBeNull();
    expect(isoFromPortalDate('2025-11-05')).toBeNull();
    expect(daysBetween('2025-12-28', '2026-01-03')).toBe(6);
    expect(daysBetween('2026-01-03', '2025-12-28')).toBe(-6);
  });
});
