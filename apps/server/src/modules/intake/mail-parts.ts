import { extname } from 'node:path';
import { DOCUMENT_FORMATS, type MailFilters } from '@bahi/contracts';
import { type Attachment, simpleParser } from 'mailparser';

/** A file found in a message, to take as a document (or a zip to expand). */
export interface MailFile {
  name: string;
  bytes: Uint8Array;
}

/** A part of a message not taken, and why (listed on the flow page). */
export interface MailSkip {
  name: string;
  reason: string;
}

/** A message, read: who sent it, what about, and its files. */
export interface ReadMessage {
  messageId: string;
  from: string;
  subject: string;
  date: Date | null;
  files: MailFile[];
  skipped: MailSkip[];
}

/** Pictures smaller than this are logos and signatures, not scans of documents. */
export const TINY_IMAGE_BYTES = 15 * 1024;
/** Names of terms-and-conditions sheets that travel with invoices. */
const TERMS_NAME = /(terms|t\s*&\s*c|t\s*and\s*c|tnc|conditions|disclaimer)/i;

const EXTENSION_BY_TYPE: Record<string, string> = Object.fromEntries([
  ...Object.values(DOCUMENT_FORMATS).map((f) => [f.mime, f.extensions[0]!] as const),
  ['application/zip', '.zip'],
  ['application/x-zip-compressed', '.zip'],
  ['image/heic', '.heic'],
]);

/** An attachment's file name: its own, or one made from its type (`attachment-2.pdf`). */
function nameOf(part: Attachment, index: number): string {
  const given = part.filename?.trim();
  if (given) return given;
  return `attachment-${index + 1}${EXTENSION_BY_TYPE[part.contentType.toLowerCase()] ?? ''}`;
}

/** Why a part is skipped by default as noise (a signature logo, the T&C sheet), or null. */
export function explainNoise(name: string, contentType: string, size: number): string | null {
  if (contentType.startsWith('image/') && size < TINY_IMAGE_BYTES)
    return 'A small picture (a logo or signature), not a document';
  if (TERMS_NAME.test(name)) return 'Terms and conditions, not a document to read';
  return null;
}

/** Why an attachment name is left out by the flow's include/exclude filters, or null. */
export function explainNameFilter(name: string, filters: MailFilters): string | null {
  const lower = name.toLowerCase();
  const excluded = filters.nameExcludes.find((word) => word && lower.includes(word.toLowerCase()));
  if (excluded) return `The name contains "${excluded}", which this flow leaves out`;
  const wanted = filters.nameIncludes.filter(Boolean);
  if (wanted.length > 0 && !wanted.some((word) => lower.includes(word.toLowerCase())))
    return `The name contains none of: ${wanted.join(', ')}`;
  return null;
}

/**
 * Reads a raw message: every attachment (inline PDFs too) becomes a candidate file; a forwarded message's
 * attachments are read one level deep; signature pictures and T&C sheets are skipped (unless the flow says
 * otherwise) and so are parts the name filters leave out, each with its reason. Text bodies are not files.
 */
export async function readMessage(raw: Buffer, filters: MailFilters): Promise<ReadMessage> {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
  const files: MailFile[] = [];
  const skipped: MailSkip[] = [];
  const take = async (parts: Attachment[], depth: number, prefix: string) => {
    for (const [index, part] of parts.entries()) {
      const type = part.contentType.toLowerCase();
      const name = nameOf(part, index);
      if (type === 'message/rfc822' || extname(name).toLowerCase() === '.eml') {
        if (depth > 0) {
          skipped.push({
            name: prefix + name,
            reason: 'A message forwarded inside a forwarded message is not opened',
          });
          continue;
        }
        const inner = await simpleParser(part.content, { skipHtmlToText: true, skipTextToHtml: true });
        await take(inner.attachments, depth + 1, `${name}/`);
        continue;
      }
      if (filters.skipNoise) {
        const noise = explainNoise(name, type, part.size);
        if (noise) {
          skipped.push({ name: prefix + name, reason: noise });
          continue;
        }
      }
      const filtered = explainNameFilter(name, filters);
      if (filtered) {
        skipped.push({ name: prefix + name, reason: filtered });
        continue;
      }
      files.push({ name, bytes: new Uint8Array(part.content) });
    }
  };
  await take(mail.attachments, 0, '');
  const from =
    mail.from?.value
      .map((a) => a.address ?? '')
      .filter(Boolean)
      .join(', ') ?? '';
  return {
    messageId: (mail.messageId ?? '').trim(),
    from,
    subject: mail.subject ?? '',
    date: mail.date ?? null,
    files,
    skipped,
  };
}

/** Why a message is left alone by the sender and subject filters, or null when it is taken. */
export function explainMessageFilter(
  message: { from: string; subject: string },
  filters: MailFilters,
): string | null {
  const senders = filters.senders.map((s) => s.toLowerCase()).filter(Boolean);
  const from = message.from.toLowerCase();
  if (senders.length > 0 && !senders.some((s) => (s.startsWith('@') ? from.endsWith(s) : from === s)))
    return `The sender (${message.from || 'unknown'}) is not one this flow takes mail from`;
  const subject = filters.subjectContains.toLowerCase();
  if (subject && !message.subject.toLowerCase().includes(subject))
    return `The subject does not contain "${filters.subjectContains}"`;
  return null;
}
