import { describe, expect, it } from 'vitest';
import { getProviderLabel } from './provider-label.ts';

describe('getProviderLabel', () => {
  it('labels Google by mode', () => {
    expect(getProviderLabel({ id: 'google', name: 'Google' }, 'signin')).toBe('Continue with Google');
    expect(getProviderLabel({ id: 'google', name: 'Google' }, 'signup')).toBe('Sign up with Google');
  });
  it('labels other providers "Continue with <name>" in both modes', () => {
    expect(getProviderLabel({ id: 'okta', name: 'Okta' }, 'signup')).toBe('Continue with Okta');
  });
});
