import { describe, expect, it } from 'vitest';
import { findDates, formatIndianDate, parseIndianDate } from './dates.ts';

describe('parseIndianDate', () => {
  it.each([
    ['14/08/2025', '2025-08-14'],
    ['14-08-2025', '2025-08-14'],
    ['14.08.2025', '2025-08-14'],
    ['14/8/25', '2025-08-14'],
    ['4/8/2025', '2025-08-04'],
    ['01/02/2025', '2025-02-01'], // day first, never 2 January
    ['12/11/2025', '2025-11-12'],
    ['14-Aug-25', '2025-08-14'],
    ['14 Aug 2025', '2025-08-14'],
    ['14-AUG-2025', '2025-08-14'],
    ['14/Aug/2025', '2025-08-14'],
    ['14th August 2025', '2025-08-14'],
    ['14th of August, 2025', '2025-08-14'],
    ['1st Sept 2025', '2025-09-01'],
    ['2nd Sep 2025', '2025-09-02'],
    ['23rd March 2024', '2024-03-23'],
    ['August 14, 2025', '2025-08-14'],
    ['Aug 14 2025', '2025-08-14'],
    ['Aug. 14th, 2025', '2025-08-14'],
    ['2025-08-14', '2025-08-14'],
    ['2025/08/14', '2025-08-14'],
    ['29/02/2024', '2024-02-29'],
    ['31-Dec-99', '2099-12-31'],
    [' 14.08.2025. ', '2025-08-14'],
    ['2025-04-04 16:27:20', '2025-04-04'],
    ['2025-04-04T16:27:20+05:30', '2025-04-04'],
    ['04/04/2025 16:27', '2025-04-04'],
    ['14/08/2025 10:30 AM', '2025-08-14'],
  ])('%s → %s', (text, iso) => {
    expect(parseIndianDate(text)).toBe(iso);
  });

  it.each([
    ['20250814'],
    ['31/02/2025'],
    ['29/02/2025'],
    ['31/04/2025'],
    ['32/01/2025'],
    ['00/01/2025'],
    ['14/13/2025'],
    ['14/00/2025'],
    ['2025-13-01'],
    ['14/08-2025'],
    ['14 Augustus 2025'],
    ['Date: 14/08/2025'],
    ['14/08/2025 Bengaluru'],
    ['14/08/2025 99'],
    ['14/08/2025 and 15/08/2025'],
    ['2025-26'],
    ['hello'],
    [''],
  ])('%s → null', (text) => {
    expect(parseIndianDate(text)).toBeNull();
  });
});

describe('findDates', () => {
  it('finds every date with its position', () => {
    const text = 'Invoice INV/2025-26/0042 dated 14.08.2025, due 13-Sep-25; PO of 1st Aug 2025.';
    const found = findDates(text);
    expect(found.map((d) => d.iso)).toEqual(['2025-08-14', '2025-09-13', '2025-08-01']);
    for (const d of found) {
      expect(parseIndianDate(text.slice(d.index, d.index + d.length))).toBe(d.iso);
    }
    expect(text.slice(found[0]!.index, found[0]!.index + found[0]!.length)).toBe('14.08.2025');
  });

  it('skips impossible dates and numbers that merely look like dates', () => {
    expect(findDates('bad 31/02/2025, ok 28/02/2025')).toEqual([
      { iso: '2025-02-28', index: 19, length: 10 },
    ]);
    expect(findDates('Ref 123/08/2025 and 14/08/20251 and 20250814')).toEqual([]);
    expect(findDates('Market rate 5 per kg, Mayur Traders')).toEqual([]);
  });

  it('finds month-name dates next to labels', () => {
    expect(findDates('Date:14-Aug-2025Time')).toEqual([{ iso: '2025-08-14', index: 5, length: 11 }]);
    expect(findDates('Ack Date : 2025-08-14 10:32:00')[0]?.iso).toBe('2025-08-14');
  });
});

describe('formatIndianDate', () => {
  it('formats ISO dates day-first', () => {
    expect(formatIndianDate('2025-08-14')).toBe('14/08/2025');
    expect(formatIndianDate('2025-08-14', '-')).toBe('14-08-2025');
    expect(formatIndianDate('2025-02-30')).toBeNull();
    expect(formatIndianDate('14/08/2025')).toBeNull();
  });
});
