import { describe, expect, it } from 'vitest';
import { accountMessages, MIN_PASSWORD_LENGTH, SignInInputSchema, SignUpInputSchema } from './account.ts';

describe('account forms', () => {
  it('asks a new account for a password of at least the minimum length', () => {
    const short = SignUpInputSchema.safeParse({ name: 'Asha', email: 'a@b.in', password: 'x'.repeat(7) });
    expect(short.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['password', accountMessages.passwordTooShort],
    ]);
    expect(accountMessages.passwordTooShort).toBe(
      `Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
    );
  });

  it('trims the name and address but sends the password as typed', () => {
    expect(SignUpInputSchema.parse({ name: ' Asha ', email: ' a@b.in ', password: ' pass word ' })).toEqual({
      name: 'Asha',
      email: 'a@b.in',
      password: ' pass word ',
    });
    // Signing in checks no length: an old, shorter password must still be able to sign in.
    expect(SignInInputSchema.parse({ email: 'a@b.in', password: 'short' })).toEqual({
      email: 'a@b.in',
      password: 'short',
    });
  });
});
