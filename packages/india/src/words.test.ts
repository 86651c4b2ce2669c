import { describe, expect, it } from 'vitest';
import { amountToWords, isCleanAmountInWords, parseAmountInWords } from './words.ts';

describe('amountToWords', () => {
  it.each([
    [0, 'Rupees Zero Only'],
    [0.5, 'Rupees Zero and Fifty Paise Only'],
    [1, 'Rupees One Only'],
    [15, 'Rupees Fifteen Only'],
    [99, 'Rupees Ninety Nine Only'],
    [100, 'Rupees One Hundred Only'],
    [1010, 'Rupees One Thousand Ten Only'],
    [100000, 'Rupees One Lakh Only'],
    [123456.78, 'Rupees One Lakh Twenty Three Thousand Four Hundred Fifty Six and Seventy Eight Paise Only'],
    [
      123456789.05,
      'Rupees Twelve Crore Thirty Four Lakh Fifty Six Thousand Seven Hundred Eighty Nine and Five Paise Only',
    ],
    [10000000, 'Rupees One Crore Only'],
    [1000000000000, 'Rupees One Lakh Crore Only'],
    [-5.25, 'Minus Rupees Five and Twenty Five Paise Only'],
  ])('%s → %s', (value, words) => {
    expect(amountToWords(value)).toBe(words);
  });

  it('rounds to the paisa first', () => {
    expect(amountToWords(0.999)).toBe('Rupees One Only');
    expect(amountToWords(0.1 + 0.2)).toBe('Rupees Zero and Thirty Paise Only');
  });
});

describe('round trips', () => {
  it.each([0, 0.5, 1, 99, 100, 100000, 123456789.05, 0.01, 1000.1, 99999999.99, 1234567890123.45])(
    '%s',
    (value) => {
      expect(parseAmountInWords(amountToWords(value))).toBe(value);
    },
  );

  it('holds for a sweep of amounts', () => {
    for (let v = 0; v < 2_000_000; v += 7919.37) {
      const value = Math.round(v * 100) / 100;
      expect(parseAmountInWords(amountToWords(value))).toBe(value);
    }
  });
});

describe('parseAmountInWords', () => {
  it.each([
    ['INR One Lakh Twenty-Three Thousand Four Hundred Fifty-Six and Seventy-Eight Paise Only', 123456.78],
    ['Rupees Fifty and Paise Forty Only', 50.4],
    ['Indian Rupee Five Thousand Only', 5000],
    ['Rs. Eleven Thousand Eight Hundred Only', 11800],
    ['Rupees Two Crores Fifty Lakhs Only', 25000000],
    ['RUPEES THREE LAKHS AND TWENTY THOUSAND ONLY', 320000],
    ['rupees one thousand and five hundred only', 1500],
    ['Rupees Five Hundred Fifty Paise Only', 500.5],
    ['Twelve Hundred Only', 1200],
    ['Amount Chargeable (in words): INR Fourty Two Thousand Only E. & O.E', 42000],
    ['Rupees Ninty Lacs Only', 9000000],
    ['Rupees One Hundred Twenty Three Thousand Only', 123000],
    ['Rupees Zero and Paise Five Only', 0.05],
    ['Minus Rupees Ten Only', -10],
    ['ELEVEN LAKH FOUR THOUSAND TWO HUNDRED NINETY RUPEES THIRTY SIX', 1104290.36],
    ['Five Thousand Rupees Only', 5000],
    ['Rupees FortyTwo Thousand TwentyNine Only', 42029],
    ['rupees fortyfive thousand only', 45000],
  ])('%s → %s', (text, value) => {
    expect(parseAmountInWords(text)).toBe(value);
  });

  it('returns null without number words', () => {
    expect(parseAmountInWords('')).toBeNull();
    expect(parseAmountInWords('Rupees Only')).toBeNull();
    expect(parseAmountInWords('Total amount in words')).toBeNull();
  });

  it('rejects paise above 99', () => {
    expect(parseAmountInWords('Rupees Ten and Paise One Hundred Only')).toBeNull();
  });
});

describe('isCleanAmountInWords', () => {
  it('accepts number words with rupees, and, only', () => {
    expect(isCleanAmountInWords('Rupees Ninety Eight Thousand Seven Hundred Ninety Eight Only')).toBe(true);
    expect(isCleanAmountInWords('INR One Lakh and Paise Forty Only')).toBe(true);
  });
  it('refuses OCR fragments and doubled words', () => {
    expect(isCleanAmountInWords('INR nety Eight Eight Thousand Thousand Seven Hundred Hundre')).toBe(false);
    expect(isCleanAmountInWords('Rupees Ninety Eigh Only')).toBe(false);
    expect(isCleanAmountInWords('')).toBe(false);
  });
});
