import { accountMessages } from '@bahi/contracts';

/** The parts of a better-auth client error the sign-in forms look at. */
export interface AuthErrorLike {
  code?: string | undefined;
  message?: string | undefined;
  status?: number | undefined;
}

/** True when sign-up was refused because the address already has an account. */
export function isAccountExistsError(error: AuthErrorLike): boolean {
  return (error.code?.toUpperCase() ?? '').startsWith('USER_ALREADY_EXISTS');
}

/**
 * Turns a better-auth error into the sentence shown under the form. better-auth's codes are stable
 * (`INVALID_EMAIL_OR_PASSWORD`, `USER_ALREADY_EXISTS`…) while its messages vary by version, so we
 * switch on code and status first and only fall back to the server's message.
 */
export function describeAuthError(error: AuthErrorLike | null | undefined): string {
  if (!error) return 'Something went wrong. Please try again.';
  const code = error.code?.toUpperCase() ?? '';
  // A paused account, or sign-up paused against address harvesting: the server's sentence says for how long.
  if ((code === 'ACCOUNT_SIGN_IN_PAUSED' || code === 'SIGN_UP_PAUSED') && error.message) return error.message;
  if (error.status === 429 || code === 'TOO_MANY_REQUESTS' || code === 'RATE_LIMITED') {
    return 'Too many attempts. Please wait a minute and try again.';
  }
  if (code === 'INVALID_EMAIL_OR_PASSWORD' || code === 'INVALID_PASSWORD' || code === 'USER_NOT_FOUND') {
    return 'Invalid email or password';
  }
  if (isAccountExistsError(error)) return 'An account with this e-mail already exists.';
  if (code === 'PASSWORD_TOO_SHORT') return accountMessages.passwordTooShort;
  if (code === 'INVALID_EMAIL') return 'Please enter a valid email address';
  if (error.status === 401) return 'Invalid email or password';
  if (error.message) return error.message;
  return 'Something went wrong. Please try again.';
}
