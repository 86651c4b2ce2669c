import { describe, expect, it } from 'vitest';
import { parseValue, repairOcrDateText } from './values.ts';

describe('dates OCR misread', () => {
  it('reads the O of a month name OCR took for a zero, with spaces around the separators', () => {
    expect(parseValue('date', '0ctober 21, 2019')?.value).toBe('2019-10-21');
    expect(parseValue('date', '05 - 0ct - 2023')?.value).toBe('2023-10-05');
  });

  it('reads a numeric date OCR spaced around its slashes, keeping the text length', () => {
    expect(parseValue('date', '17 / 03 / 2021')?.value).toBe('2021-03-17');
    expect(repairOcrDateText('17 / 03 / 2021 x')).toHaveLength('17 / 03 / 2021 x'.length);
  });

  it('reads a date printed month first when its second number can only be the day', () => {
    expect(parseValue('date', '03/27/2024')?.value).toBe('2024-03-27');
    expect(parseValue('date', '03/07/2024')?.value).toBe('2024-07-03');
    expect(repairOcrDateText('03/27/2024')).toHaveLength(10);
  });

  it('leaves a quantity and a fraction alone', () => {
    expect(parseValue('date', '12 / 5')).toBeNull();
    expect(repairOcrDateText('0ctane 95')).toBe('0ctane 95');
  });
});
