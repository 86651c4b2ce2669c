// Outgoing mail, as the environment configures it: the SMTP server of SMTP_HOST…, or none. The modules
// reach a `Mailer` only through `mailerFor`, so tests and a later implementation (an HTTP mail API) plug in
// here.
import type { Env } from '../../config/env.ts';
import type { Mailer } from './mailer.ts';
import { createSmtpMailer } from './smtp-mailer.ts';

const mailers = new WeakMap<Env, Mailer>();

/** The mailer of this configuration (one per process), or null when no outgoing mail is configured. */
export function mailerFor(env: Env): Mailer | null {
  if (!env.smtp) return null;
  let mailer = mailers.get(env);
  if (!mailer) {
    mailer = createSmtpMailer(env.smtp);
    mailers.set(env, mailer);
  }
  return mailer;
}

export { assertSafeMail, type Mailer, MailRefusedError, type OutgoingMail } from './mailer.ts';
