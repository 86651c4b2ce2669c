import { describe, expect, it } from 'vitest';
import { repairOcrText, repairOcrWord } from './ocr-words.ts';

describe('OCR word repair in names and addresses', () => {
  it('undoes "ri" read as "n" and "t" read as "l" in known address words', () => {
    expect(repairOcrWord('Fandabad')).toBe('Faridabad');
    expect(repairOcrWord('Industnal')).toBe('Industrial');
    expect(repairOcrWord('Seclor')).toBe('Sector');
    expect(repairOcrWord('FABNCATORS')).toBe('FABRICATORS');
    expect(repairOcrText('Malviya Nagar Industnal Area, Ring Road, Jaipur')).toBe(
      'Malviya Nagar Industrial Area, Ring Road, Jaipur',
    );
  });

  it('leaves known words, unknown words and short words as read', () => {
    expect(repairOcrWord('Industrial')).toBeNull();
    expect(repairOcrWord('Kothari')).toBeNull();
    expect(repairOcrWord('Patel')).toBeNull();
    expect(repairOcrWord('Rd')).toBeNull();
    expect(repairOcrText('Shree Agrotech Ltd.')).toBe('Shree Agrotech Ltd.');
  });
});
