import { describe, expect, it } from 'vitest';
import {
  formatAgo,
  formatCount,
  formatDateTime,
  formatIndianPhone,
  formatInr,
  formatPageRange,
  formatRelativeTime,
  getFirstName,
  getGreeting,
  getInitials,
} from './format.ts';

describe('getGreeting', () => {
  it.each([
    [0, 'Good morning'],
    [11, 'Good morning'],
    [12, 'Good afternoon'],
    [16, 'Good afternoon'],
    [17, 'Good evening'],
    [23, 'Good evening'],
  ])('hour %i → %s', (hour, expected) => {
    expect(getGreeting(hour)).toBe(expected);
  });
});

describe('formatInr / formatCount', () => {
  it('uses Indian lakh/crore grouping', () => {
    expect(formatInr(1234567)).toBe('₹12,34,567');
    expect(formatInr(0)).toBe('₹0');
    expect(formatCount(10000000)).toBe('1,00,00,000');
  });
});

describe('getInitials', () => {
  it('takes first and last word initials', () => {
    expect(getInitials('Asha Rani Verma')).toBe('AV');
  });
  it('uses two letters of a single name or the e-mail', () => {
    expect(getInitials('Priya')).toBe('PR');
    expect(getInitials('', 'k.iyer@example.in')).toBe('KI');
    expect(getInitials(null, null)).toBe('?');
  });
});

describe('getFirstName', () => {
  it('returns the first word, else the e-mail local part', () => {
    expect(getFirstName('  Ravi Kumar ')).toBe('Ravi');
    expect(getFirstName('', 'meera@example.in')).toBe('meera');
    expect(getFirstName(undefined)).toBe('there');
  });
});

describe('formatRelativeTime', () => {
  const now = new Date('2025-10-14T12:00:00Z');
  it('covers seconds to days', () => {
    expect(formatRelativeTime('2025-10-14T11:59:50Z', now)).toBe('just now');
    expect(formatRelativeTime('2025-10-14T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatRelativeTime('2025-10-14T09:00:00Z', now)).toBe('3 hours ago');
    expect(formatRelativeTime('2025-10-13T12:00:00Z', now)).toBe('yesterday');
  });
  it('switches to a date after a week', () => {
    expect(formatRelativeTime('2025-09-01T12:00:00Z', now)).toBe('1 Sept 2025');
  });
  it('returns empty text for an invalid date', () => {
    expect(formatRelativeTime('not a date', now)).toBe('');
  });
});

describe('formatIndianPhone', () => {
  it('groups mobile numbers 5-5 after the country code and leaves others as stored', () => {
    expect(formatIndianPhone('+919845012345')).toBe('+91 98450 12345');
    expect(formatIndianPhone('+911123456789')).toBe('+911123456789'); // Delhi landline (STD 11)
    expect(formatIndianPhone('')).toBe('');
  });
});

const now = Date.parse('2026-11-21T12:00:00Z');

describe('formatAgo', () => {
  it('shows minutes, hours and days in short form', () => {
    expect(formatAgo(now - 10_000, now)).toBe('just now');
    expect(formatAgo(now - 5 * 60_000, now)).toBe('5m ago');
    expect(formatAgo(now - 3 * 3_600_000 - 59 * 60_000, now)).toBe('3h ago');
    expect(formatAgo(now - 2 * 86_400_000, now)).toBe('2d ago');
    expect(formatAgo(now - 40 * 86_400_000, now)).toBe('40d ago');
  });
  it('accepts ISO strings and ignores future clocks and bad input', () => {
    expect(formatAgo('2026-11-21T10:00:00Z', now)).toBe('2h ago');
    expect(formatAgo(now + 60_000, now)).toBe('just now');
    expect(formatAgo('not a date', now)).toBe('');
    expect(formatAgo(null, now)).toBe('');
  });
});

describe('formatDateTime', () => {
  it('shows day, month and clock time in Indian English', () => {
    const text = formatDateTime('2026-11-21T11:46:00Z', 'Asia/Kolkata');
    expect(text).toMatch(/^21 Nov(,)? 5:16\s?pm$/i);
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('nope')).toBe('—');
  });
});

describe('formatPageRange', () => {
  it('says where one document of a batch file is, and nothing for a whole file', () => {
    expect(formatPageRange([3, 4], 'scan.pdf')).toBe('Pages 3–4 of scan.pdf');
    expect(formatPageRange([2, 2], 'scan.pdf')).toBe('Page 2 of scan.pdf');
    expect(formatPageRange(null, 'scan.pdf')).toBeNull();
  });
});
