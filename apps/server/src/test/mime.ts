import { randomBytes } from 'node:crypto';

// Real MIME for mail tests, built by hand so each test says exactly what the message holds: attachments,
// inline parts, a forwarded message (message/rfc822), non-ASCII file names (RFC 2231 and RFC 2047).

/** One part of a test message. */
export interface MimePart {
  name: string;
  type: string;
  bytes: Uint8Array | string;
  /** Content-Disposition inline (a PDF shown in the body) instead of attachment. */
  inline?: boolean;
}

/** A test message. */
export interface MimeMessage {
  from: string;
  to?: string;
  subject: string;
  messageId?: string;
  date?: Date;
  text?: string;
  parts?: MimePart[];
  /** Raw messages attached as forwarded mail (message/rfc822). */
  forwarded?: string[];
}

function base64Lines(bytes: Uint8Array | string): string {
  const b64 = Buffer.from(bytes).toString('base64');
  return b64.replace(/.{1,76}/g, '$&\r\n');
}

/** `filename` parameters that survive any reader: RFC 2231 for non-ASCII, and an RFC 2047 `name`. */
function nameParams(name: string): { disposition: string; type: string } {
  if (/^[\x20-\x7e]*$/.test(name) && !/["\\]/.test(name))
    return { disposition: `filename="${name}"`, type: `name="${name}"` };
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return {
    disposition: `filename*=utf-8''${encoded}`,
    type: `name="=?UTF-8?B?${Buffer.from(name).toString('base64')}?="`,
  };
}

/** Builds the message as CRLF text, ready for IMAP APPEND. */
export function buildMessage(message: MimeMessage): string {
  const boundary = `b-${randomBytes(8).toString('hex')}`;
  const headers = [
    `From: ${message.from}`,
    `To: ${message.to ?? 'invoices@buyer.example'}`,
    `Subject: =?UTF-8?B?${Buffer.from(message.subject).toString('base64')}?=`,
    `Date: ${(message.date ?? new Date()).toUTCString()}`,
    `Message-ID: ${message.messageId ?? `<${randomBytes(8).toString('hex')}@mail.example>`}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
  ];
  const body: string[] = [
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    message.text ?? 'Please find the documents attached.',
  ];
  for (const part of message.parts ?? []) {
    const params = nameParams(part.name);
    body.push(
      `--${boundary}`,
      `Content-Type: ${part.type}; ${params.type}`,
      `Content-Disposition: ${part.inline ? 'inline' : 'attachment'}; ${params.disposition}`,
      'Content-Transfer-Encoding: base64',
      '',
      base64Lines(part.bytes),
    );
  }
  for (const raw of message.forwarded ?? []) {
    body.push(
      `--${boundary}`,
      'Content-Type: message/rfc822',
      'Content-Disposition: attachment; filename="forwarded.eml"',
      '',
      raw,
    );
  }
  body.push(`--${boundary}--`, '');
  return `${headers.join('\r\n')}\r\n\r\n${body.join('\r\n')}`;
}
