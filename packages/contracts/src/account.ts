import { z } from 'zod';

/**
 * The e-mail/password forms. better-auth owns `/api/auth/*` and answers in its own shapes; these schemas
 * are the rules the sign-in and sign-up forms check before asking it, so the form and the server's
 * `minPasswordLength` say the same thing.
 */

/** Shortest password better-auth accepts for a new account. */
export const MIN_PASSWORD_LENGTH = 8;

/** Messages of the sign-in and sign-up forms. */
export const accountMessages = {
  passwordTooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
} as const;

/** The sign-in form: the address is trimmed; a password is sent as typed. */
export const SignInInputSchema = z.object({
  email: z.string().trim(),
  password: z.string(),
});
/** The sign-in form. */
export type SignInInput = z.infer<typeof SignInInputSchema>;

/** The sign-up form: as sign-in, with a name and a password of at least `MIN_PASSWORD_LENGTH` characters. */
export const SignUpInputSchema = SignInInputSchema.extend({
  name: z.string().trim(),
  password: z.string().min(MIN_PASSWORD_LENGTH, accountMessages.passwordTooShort),
});
/** The sign-up form. */
export type SignUpInput = z.infer<typeof SignUpInputSchema>;
