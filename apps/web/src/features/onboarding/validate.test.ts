import { describe, expect, it } from 'vitest';
import { hasErrors, validateOnboarding } from './validate.ts';

describe('validateOnboarding', () => {
  it('reports every missing field with the agreed message', () => {
    expect(validateOnboarding({ orgName: ' ', phone: '', orgType: '', address: '' })).toEqual({
      orgName: 'Organization name is required',
      phone: 'Contact phone is required',
      orgType: 'Organization type is required',
      address: 'Business address is required',
    });
  });

  it('rejects a phone number that is not Indian', () => {
    const errors = validateOnboarding({
      orgName: 'Acme',
      phone: '12345',
      orgType: 'pvt_ltd',
      address: 'Pune',
    });
    expect(errors).toEqual({ phone: 'Please enter a valid phone number' });
  });

  it('accepts a complete form', () => {
    const errors = validateOnboarding({
      orgName: 'Acme Traders Pvt Ltd',
      phone: '+91 98450 12345',
      orgType: 'llp',
      address: '12 MG Road, Bengaluru 560001',
    });
    expect(errors).toEqual({});
    expect(hasErrors(errors)).toBe(false);
  });
});
