import { describe, expect, it } from 'vitest';
import { describeAuthError } from './auth-errors.ts';

describe('describeAuthError', () => {
  it('maps better-auth codes to the product wording', () => {
    expect(describeAuthError({ code: 'INVALID_EMAIL_OR_PASSWORD', status: 401, message: 'x' })).toBe(
      'Invalid email or password',
    );
    expect(describeAuthError({ code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', status: 422 })).toBe(
      'An account with this e-mail already exists.',
    );
  });

  it('reports rate limiting by status even without a code', () => {
    expect(describeAuthError({ status: 429, message: 'Too many requests. Please try again later.' })).toBe(
      'Too many attempts. Please wait a minute and try again.',
    );
  });

  it("shows the server's sentence for a paused account and a weak password", () => {
    const paused =
      'Too many wrong passwords for this account. Try again in 4 minutes, or reset the password.';
    expect(describeAuthError({ code: 'ACCOUNT_SIGN_IN_PAUSED', status: 429, message: paused })).toBe(paused);
    const busy = 'Sign-up is busy. Try again in 3 minutes.';
    expect(describeAuthError({ code: 'SIGN_UP_PAUSED', status: 429, message: busy })).toBe(busy);
    const weak = 'This password is too easy to guess. Add more words that are less common.';
    expect(describeAuthError({ code: 'PASSWORD_TOO_WEAK', status: 400, message: weak })).toBe(weak);
  });

  it('falls back to the server message, then a generic one', () => {
    expect(describeAuthError({ code: 'SOMETHING_NEW', status: 400, message: 'Email not verified' })).toBe(
      'Email not verified',
    );
    expect(describeAuthError(null)).toBe('Something went wrong. Please try again.');
  });
});
