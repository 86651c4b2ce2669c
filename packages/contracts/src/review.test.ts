import { describe, expect, it } from 'vitest';
import { DocumentCorrectionSchema, readFieldInput } from './review.ts';

describe('readFieldInput', () => {
  it('reads values the way the contract stores them', () => {
    expect(readFieldInput('date', '14/08/2025')).toEqual({ ok: true, value: '2025-08-14' });
    expect(readFieldInput('money', 'Rs. 1,23,456.785')).toEqual({ ok: true, value: 123456.79 });
    expect(readFieldInput('money', '(-)0.40')).toEqual({ ok: true, value: -0.4 });
    expect(readFieldInput('percent', '18%')).toEqual({ ok: true, value: 18 });
    expect(readFieldInput('gstin', ' 29aabct1332l1za ')).toEqual({ ok: true, value: '29AABCT1332L1ZA' });
    expect(readFieldInput('stateCode', 'Karnataka')).toEqual({ ok: true, value: '29' });
    expect(readFieldInput('text', '  Tata   Steel  ')).toEqual({ ok: true, value: 'Tata Steel' });
    expect(readFieldInput('currency', 'usd')).toEqual({ ok: true, value: 'USD' });
  });

  it('clears a field on an empty input', () => {
    expect(readFieldInput('money', '   ')).toEqual({ ok: true, value: null });
  });

  it('says what is wrong in words', () => {
    expect(readFieldInput('date', '31/02/2025')).toMatchObject({ ok: false, message: /date like/ });
    expect(readFieldInput('money', '12,34')).toMatchObject({ ok: false });
    expect(readFieldInput('percent', '180')).toMatchObject({ ok: false });
    // One character off: the check character catches it.
    expect(readFieldInput('gstin', '29AABCT1332L1ZB')).toMatchObject({
      ok: false,
      message: /check character/,
    });
    expect(readFieldInput('stateCode', 'Atlantis')).toMatchObject({ ok: false });
  });
});

describe('DocumentCorrectionSchema', () => {
  it('refuses an empty correction', () => {
    expect(DocumentCorrectionSchema.safeParse({}).success).toBe(false);
    expect(DocumentCorrectionSchema.safeParse({ fields: { total: '100' } }).success).toBe(true);
  });
});
