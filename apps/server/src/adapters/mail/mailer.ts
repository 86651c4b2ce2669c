// Outgoing mail: what the modules hand over and what an implementation promises. One implementation per
// file (smtp-mailer.ts); `index.ts` picks the one the environment configures.

/** One message to one person, in plain text and simple HTML (no remote images, scripts or styles). */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** What the mail server said when it took the message. */
export interface SentMail {
  messageId: string;
}

/** Sends mail. Throws `MailRefusedError` for a message it will not send, any other error for a failed attempt. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<SentMail>;
}

/** A message refused before any connection: an address or subject that could forge headers. */
export class MailRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailRefusedError';
  }
}

/** A line break or any other control character: in a header it would start a header of its own. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters (header injection) is the point.
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** One plain address: no display name, no list, no comment (what a person types for a vendor). */
const PLAIN_ADDRESS = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\]]+$/;

/**
 * Refuses what would let a recipient or subject inject headers or extra recipients. Implementations call
 * it before sending, so a caller that forgot to check still cannot send a forged message.
 */
export function assertSafeMail(mail: OutgoingMail): void {
  if (CONTROL_CHARS.test(mail.to) || !PLAIN_ADDRESS.test(mail.to))
    throw new MailRefusedError('The recipient must be one plain e-mail address');
  if (CONTROL_CHARS.test(mail.subject)) throw new MailRefusedError('The subject must be one line');
}
