import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../../config/env.ts';
import { assertSafeMail, type Mailer, type OutgoingMail, type SentMail } from './mailer.ts';

/** How long to wait for the mail server at each step, so a dead server fails the job instead of hanging it. */
const TIMEOUT_MS = 30_000;

/**
 * A `Mailer` over SMTP (nodemailer): TLS from the start when `secure`, else STARTTLS when offered; the
 * login when a user is configured. One pooled transport per process.
 */
export function createSmtpMailer(config: SmtpConfig): Mailer & { close(): void } {
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure,
    auth: config.user ? { user: config.user, pass: config.password ?? '' } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
    // Never follow a `file://` or `http://` path the content might name: our bodies are inline strings.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(mail: OutgoingMail): Promise<SentMail> {
      assertSafeMail(mail);
      const info = await transport.sendMail({
        from: config.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      return { messageId: String(info.messageId ?? '') };
    },
    close: () => transport.close(),
  };
}
