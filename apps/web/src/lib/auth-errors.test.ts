import { describe, expect, it } from 'vitest';
import { describeAuthError } from './auth-errors.ts';

describe('describeAuthError', () => {
  it('maps better-auth codes to the product wording', () => {
    expect(describeAuthError({ code: 'INVALID_EMAIL_OR_PASSWORD', status: 401, message: 'x' })).toBe(
      'Invalid email or password',
    );
    expect(describeAuthError({ code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', status: 422 })).toBe(
      'User already exists',
    );
  });

  it('reports rate limiting by status even without a code', () => {
    expect(describeAuthError({ status: 429, message: 'Too many requests. Please try again later.' })).toBe(
      'Too many attempts. Please wait a minute and try again.',
    );
  });

  it('falls back to the server message, then a generic one', () => {
    expect(describeAuthError({ code: 'SOMETHING_NEW', status: 400, message: 'Email not verified' })).toBe(
      'Email not verified',
    );
    expect(describeAuthError(null)).toBe('Something went wrong. Please try again.');
  });
});
