import { describe, expect, it } from 'vitest';
import { isPlaceName, lowerWords, repairOcrText, repairOcrWord } from './ocr-words.ts';

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

  it('puts back a zero read for an o, a lost thin glyph, and a dash read as a dot', () => {
    expect(repairOcrWord('Nagp0r')).toBeNull();
    expect(repairOcrText('Plot 7, Ind0re - 452001')).toBe('Plot 7, Indore - 452001');
    expect(repairOcrText('Unit 10, Sector 20')).toBe('Unit 10, Sector 20');
    expect(repairOcrText('Sahyadri Bulding, Pune')).toBe('Sahyadri Building, Pune');
    expect(repairOcrText('Pune \u00b7 411001')).toBe('Pune - 411001');
    // Too short to say which glyph was lost.
    expect(repairOcrWord('Pak')).toBeNull();
  });

  it('leaves known words, unknown words and short words as read', () => {
    expect(repairOcrWord('Industrial')).toBeNull();
    expect(repairOcrWord('Kothari')).toBeNull();
    expect(repairOcrWord('Patel')).toBeNull();
    expect(repairOcrWord('Rd')).toBeNull();
    expect(repairOcrText('Shree Agrotech Ltd.')).toBe('Shree Agrotech Ltd.');
  });

  it('reads a legal form OCR misread at the end of a name as "Ltd"', () => {
    expect(repairOcrText('SAHYADRI PUMPS(P)LTO.')).toBe('SAHYADRI PUMPS(P)LTD.');
    expect(repairOcrText('Sahyadri Pumps Pvt Lid')).toBe('Sahyadri Pumps Pvt Ltd');
    // Not a legal form: a word inside the name, or one that only starts like it.
    expect(repairOcrText('Lido Pumps')).toBe('Lido Pumps');
    expect(repairOcrText('Sahyadri Lid Works')).toBe('Sahyadri Lid Works');
  });
});

describe('words and places', () => {
  it('splits a text into its lower-case words', () => {
    expect(lowerWords('Plot 14, MIDC-Area  (Phase II)')).toEqual(['plot', 'midc', 'area', 'phase', 'ii']);
    expect(lowerWords(' 411 ')).toEqual([]);
  });

  it('knows a line that names only a place', () => {
    expect(isPlaceName('Navi Mumbai')).toBe(true);
    expect(isPlaceName('Tamil Nadu')).toBe(true);
    expect(isPlaceName('Navi Traders')).toBe(false);
  });
});
