import { describe, expect, it } from 'vitest';
import { STATES, stateByCode, stateCodeFromText } from './states.ts';

describe('STATES', () => {
  it('covers 01–38, 97 and 99 with unique codes', () => {
    const codes = STATES.map((s) => s.code);
    const expected = [...Array.from({ length: 38 }, (_, i) => String(i + 1).padStart(2, '0')), '97', '99'];
    expect(codes).toEqual(expected);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('has the post-2020 and post-2019 entries right', () => {
    expect(stateByCode('26')?.name).toBe('Dadra and Nagar Haveli and Daman and Diu');
    expect(stateByCode('25')).toMatchObject({ name: 'Daman and Diu', historical: true });
    expect(stateByCode('28')).toMatchObject({ name: 'Andhra Pradesh (Old)', historical: true });
    expect(stateByCode('37')).toMatchObject({ name: 'Andhra Pradesh', kind: 'state' });
    expect(stateByCode('38')).toMatchObject({ name: 'Ladakh', kind: 'ut' });
    expect(stateByCode('01')?.kind).toBe('ut');
    expect(stateByCode('97')?.kind).toBe('other');
  });

  it('is frozen', () => {
    expect(Object.isFrozen(STATES)).toBe(true);
  });
});

describe('stateByCode', () => {
  it('finds codes with or without the leading zero', () => {
    expect(stateByCode('29')?.name).toBe('Karnataka');
    expect(stateByCode('9')?.name).toBe('Uttar Pradesh');
    expect(stateByCode(' 07 ')?.name).toBe('Delhi');
  });

  it('returns undefined for codes not on the list', () => {
    for (const code of ['00', '39', '40', '98', '123', 'KA', '']) expect(stateByCode(code)).toBeUndefined();
  });
});

describe('stateCodeFromText', () => {
  it.each([
    ['Karnataka', '29'],
    ['KARNATAKA', '29'],
    ['karnataka', '29'],
    ['KA', '29'],
    ['ka', '29'],
    ['29-Karnataka', '29'],
    ['29 - Karnataka', '29'],
    ['29', '29'],
    ['9', '09'],
    ['Karnataka (29)', '29'],
    ['State: Karnataka, Code: 29', '29'],
    ['Karnataka, Code : 29', '29'],
    ['State Name : Maharashtra, Code : 27', '27'],
    ['Orissa', '21'],
    ['Odisha', '21'],
    ['Pondicherry', '34'],
    ['Puducherry', '34'],
    ['Uttaranchal', '05'],
    ['Uttarakhand', '05'],
    ['Delhi', '07'],
    ['New Delhi', '07'],
    ['J&K', '01'],
    ['Jammu & Kashmir', '01'],
    ['Tamilnadu', '33'],
    ['Tamil Nadu', '33'],
    ['Andhra Pradesh', '37'],
    ['Telangana', '36'],
    ['TS', '36'],
    ['Ladakh', '38'],
    ['Dadra and Nagar Haveli and Daman and Diu', '26'],
    ['Dadra & Nagar Haveli', '26'],
    ['Daman and Diu', '25'],
    ['West Bengal', '19'],
    ['Place of Supply: 33-Tamil Nadu', '33'],
    ['Bengaluru, Karnataka 560001', '29'],
    ['Other Territory', '97'],
  ])('%s → %s', (text, code) => {
    expect(stateCodeFromText(text)).toBe(code);
  });

  it('prefers the name when a stray number disagrees and no code is labelled', () => {
    expect(stateCodeFromText('Plot 12, Peenya, Karnataka')).toBe('29');
  });

  it('never reads stray numbers as a state code', () => {
    expect(stateCodeFromText('Plot No. 12, Sector 5')).toBeNull();
    expect(stateCodeFromText('GSTIN: 27AAPFU0939F1ZV')).toBeNull();
  });

  it('takes a code written next to a misspelt name, and a labelled code over the name', () => {
    expect(stateCodeFromText('33-Tamilnad')).toBe('33');
    expect(stateCodeFromText('Karnatak (29)')).toBe('29');
    expect(stateCodeFromText('State Code: 07')).toBe('07');
    expect(stateCodeFromText('State: Karnataka, Code: 27')).toBe('27');
    expect(stateCodeFromText('State Code : 39')).toBeNull();
  });

  it('takes the last state named, as addresses end with the state', () => {
    expect(stateCodeFromText('Punjab National Bank Building, Connaught Place, New Delhi')).toBe('07');
    expect(stateCodeFromText('Karnataka Sangha Hall, Matunga, Mumbai, Maharashtra')).toBe('27');
    expect(stateCodeFromText('Andhra Pradesh (Old)')).toBe('28');
  });

  it('ignores state names used as street or business names', () => {
    expect(stateCodeFromText('Gat No 101 Goa Road')).toBeNull();
    expect(stateCodeFromText('Near Delhi Gate, Agra, Uttar Pradesh')).toBe('09');
    expect(stateCodeFromText('Goa Road, Goa')).toBe('30');
  });

  it('does not match abbreviations inside words or longer text', () => {
    expect(stateCodeFromText('GARDEN')).toBeNull();
    expect(stateCodeFromText('Ground floor, Gandhi Road')).toBeNull();
    expect(stateCodeFromText('MUMBAI GA')).toBeNull();
  });

  it('returns null for nothing recognisable', () => {
    expect(stateCodeFromText('')).toBeNull();
    expect(stateCodeFromText('XX')).toBeNull();
    expect(stateCodeFromText('00')).toBeNull();
    expect(stateCodeFromText('39')).toBeNull();
    expect(stateCodeFromText('Narnia')).toBeNull();
  });
});
