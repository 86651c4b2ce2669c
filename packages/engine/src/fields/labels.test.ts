import { describe, expect, it } from 'vitest';
import { wordPhrases } from '../phrases.ts';
import { isLabelText, matchStart, STATE_LINE } from './labels.ts';

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

describe('labels OCR misread at their start', () => {
  it('reads a capital I read as l ("lnvoice To") and a box edge glued to the word ("lDated")', () => {
    expect(matchStart('lnvoice To', [wordPhrases(['invoice to'], { atStart: true })])).toBe(
      'lnvoice To'.length,
    );
    expect(matchStart('lDated', [wordPhrases(['dated'], { atStart: true })])).toBe('lDated'.length);
    expect(matchStart('lane 4', [wordPhrases(['dated'], { atStart: true })])).toBeNull();
  });
});
