import { describe, expect, it } from 'vitest';
import { isLabelText, phrasePattern, STATE_LINE } from './labels.ts';

describe('phrasePattern', () => {
  it('matches whole phrases at the start, whatever their case', () => {
    const re = phrasePattern(['gst no', 'ph', 'reg. office'], true);
    expect(re.test('GST No. 29')).toBe(true);
    expect(re.test('Ph: 98200 00000')).toBe(true);
    expect(re.test('Reg. Office: Pune')).toBe(true);
    expect(re.test('Phone 98200')).toBe(false);
    expect(re.test('Regd office')).toBe(false);
    expect(re.test('Our GST No')).toBe(false);
  });

  it('matches a phrase anywhere as whole words when not anchored', () => {
    const re = phrasePattern(['bill to', "company's"]);
    expect(re.test("Company's GSTIN")).toBe(true);
    expect(re.test('Details (Bill To)')).toBe(true);
    expect(re.test('Billto')).toBe(false);
  });
});

describe('other labels', () => {
  it('knows rows that name no extracted field', () => {
    expect(isLabelText('GSTIN/UIN: 27AAACS1234F1Z5', 'invoice')).toBe(true);
    expect(isLabelText('FSSAI Lic. 1001', 'invoice')).toBe(true);
    expect(isLabelText('A/c No. 0012', 'invoice')).toBe(true);
    expect(isLabelText('State Code : 27', 'invoice')).toBe(true);
    expect(isLabelText('Sahyadri Pumps', 'invoice')).toBe(false);
  });

  it('reads a state row with its code', () => {
    expect(STATE_LINE.test('State Name : Maharashtra')).toBe(true);
    expect(STATE_LINE.test('Code - 27')).toBe(true);
    expect(STATE_LINE.test('Statement')).toBe(false);
  });
});
