import { formatIndianDate } from '@bahi/india';

/** What the message says: whose link, for whom, until when. */
export interface VendorLinkMailFacts {
  organizationName: string;
  vendorName: string;
  url: string;
  /** `YYYY-MM-DD`, the last day the link works. */
  expiresOn: string;
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** One line for a header: names come from people, and a line break in a subject would start a new header. */
function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters (header injection) is the point.
  const CONTROL = /[\u0000-\u001f\u007f]+/g;
  return text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * The onboarding e-mail: a plain-text body and a simple HTML one with the same words. Nothing is fetched
 * by the reader (no images, fonts or styles from elsewhere); names are escaped, never markup.
 */
export function composeVendorLinkMail(facts: VendorLinkMailFacts): {
  subject: string;
  text: string;
  html: string;
} {
  const org = oneLine(facts.organizationName);
  const vendor = oneLine(facts.vendorName);
  const until = formatIndianDate(facts.expiresOn) ?? facts.expiresOn;
  const subject = `${org}: please fill in your vendor details`.slice(0, 200);
  const text = [
    `Dear ${vendor},`,
    '',
    `${org} asks you to fill in your vendor details (PAN, GSTINs, bank account, Udyam registration and contacts) on this page:`,
    '',
    facts.url,
    '',
    `The link works until ${until} and takes one submission. No account is needed.`,
    'If you did not expect this message, you can ignore it.',
  ].join('\n');
  const url = escapeHtml(facts.url);
  const html = [
    '<!doctype html><html><body>',
    `<p>Dear ${escapeHtml(vendor)},</p>`,
    `<p>${escapeHtml(org)} asks you to fill in your vendor details (PAN, GSTINs, bank account, Udyam registration and contacts) on this page:</p>`,
    `<p><a href="${url}">${url}</a></p>`,
    `<p>The link works until ${escapeHtml(until)} and takes one submission. No account is needed.</p>`,
    '<p>If you did not expect this message, you can ignore it.</p>',
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
