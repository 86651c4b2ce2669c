import { describe, expect, it } from 'vitest';
import { amountsEqual, formatIndianNumber, parseIndianAmount, roundMoney, toPaise } from './numbers.ts';

describe('parseIndianAmount', () => {
  it.each([
    ['1,23,456.78', 123456.78],
    ['Rs. 1,23,456.78/-', 123456.78],
    ['Rs.1,23,456.78', 123456.78],
    ['Rs 500/-', 500],
    ['₹ 1,23,456', 123456],
    ['₹1,23,456.00', 123456],
    ['INR 500.00', 500],
    ['inr 500', 500],
    ['1,104,290.36 INR', 1104290.36],
    ['1,234.5', 1234.5],
    ['(1,234.00)', -1234],
    ['(₹ 1,234.00)', -1234],
    ['-0.40', -0.4],
    ['(-)0.20', -0.2],
    ['(-) 1,234.00', -1234],
    ['- 12.00', -12],
    ['−12.00', -12],
    ['₹ -12.00', -12],
    ['1,234.50-', -1234.5],
    ['0.40 Cr', 0.4],
    ['1,500.00 Dr', 1500],
    ['1,500.00 Dr.', 1500],
    ['1,234,567.89', 1234567.89],
    ['12,34,56,789.05', 123456789.05],
    ['1234567', 1234567],
    ['0', 0],
    ['.5', 0.5],
    ['12.345', 12.35],
    ['12.344', 12.34],
    ['  42  ', 42],
    ['+42', 42],
  ])('%s → %s', (text, value) => {
    expect(parseIndianAmount(text)).toBe(value);
  });

  it.each([
    [''],
    ['abc'],
    ['Rs.'],
    ['12,34'],
    ['1,2,3'],
    ['1,23,4567'],
    ['12,345,67'],
    ['1.2.3'],
    ['12a'],
    ['Total 500'],
    ['14/08/2025'],
    ['-'],
    ['()'],
  ])('%s → null', (text) => {
    expect(parseIndianAmount(text)).toBeNull();
  });

  it('never returns negative zero', () => {
    expect(Object.is(parseIndianAmount('-0.00'), 0)).toBe(true);
  });
});

describe('formatIndianNumber', () => {
  it('groups the Indian way', () => {
    expect(formatIndianNumber(1234567.8)).toBe('12,34,567.80');
    expect(formatIndianNumber(123456789.05)).toBe('12,34,56,789.05');
    expect(formatIndianNumber(100000)).toBe('1,00,000.00');
    expect(formatIndianNumber(1000)).toBe('1,000.00');
    expect(formatIndianNumber(999)).toBe('999.00');
    expect(formatIndianNumber(0)).toBe('0.00');
  });

  it('honours fraction digits and rounds half away from zero', () => {
    expect(formatIndianNumber(1234567, 0)).toBe('12,34,567');
    expect(formatIndianNumber(1.005)).toBe('1.01');
    expect(formatIndianNumber(2.5, 0)).toBe('3');
    expect(formatIndianNumber(0.125, 3)).toBe('0.125');
  });

  it('signs negatives but not values that round to zero', () => {
    expect(formatIndianNumber(-1234567.8)).toBe('-12,34,567.80');
    expect(formatIndianNumber(-0.001)).toBe('0.00');
  });

  it('still groups numbers too large for exact paise', () => {
    expect(formatIndianNumber(1e17)).toBe('1,00,00,00,00,00,00,00,000.00');
  });

  it('round-trips with parseIndianAmount', () => {
    for (const v of [0.01, 99.99, 1234.5, 100000, 9876543.21, -45.6]) {
      expect(parseIndianAmount(formatIndianNumber(v))).toBe(v);
    }
  });
});

describe('roundMoney and toPaise', () => {
  it('removes float drift', () => {
    expect(roundMoney(0.1 + 0.2)).toBe(0.3);
    expect(roundMoney(1.005)).toBe(1.01);
    expect(roundMoney(2.675)).toBe(2.68);
    expect(roundMoney(-2.675)).toBe(-2.68);
    expect(roundMoney(1234.5678)).toBe(1234.57);
    expect(Object.is(roundMoney(-0.001), 0)).toBe(true);
  });

  it('gives integer paise', () => {
    expect(toPaise(123456.78)).toBe(12345678);
    expect(toPaise(0.1 + 0.2)).toBe(30);
    expect(toPaise(-19.99)).toBe(-1999);
    expect(Number.isInteger(toPaise(1.115))).toBe(true);
  });

  it('rejects non-finite values', () => {
    expect(() => toPaise(Number.NaN)).toThrow(RangeError);
    expect(() => roundMoney(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('amountsEqual', () => {
  it('uses a one-paisa tolerance by default', () => {
    expect(amountsEqual(100, 100.01)).toBe(true);
    expect(amountsEqual(100, 100.02)).toBe(false);
    expect(amountsEqual(0.1 + 0.2, 0.3)).toBe(true);
    expect(amountsEqual(118000.01, 118000)).toBe(true);
  });

  it('honours an explicit tolerance', () => {
    expect(amountsEqual(100, 101, 1)).toBe(true);
    expect(amountsEqual(100, 101.5, 1)).toBe(false);
    expect(amountsEqual(100, 100.01, 0)).toBe(false);
  });
});
