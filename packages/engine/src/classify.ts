import { PROFILES, profileOf } from './profiles/index.ts';
import type { DocumentType, PageContent } from './types.ts';

/** Share of page 1, from the top, where a title names the document (letterhead and title block). */
const TITLE_BAND = 0.3;
/** Receipt words needed for a GRN with no title: invoices and POs say one or two in passing. */
const MIN_RECEIPT_VOTES = 3;

/**
 * Decide whether a document is an invoice, a PO or a GRN from its wording. A title near the top
 * of page 1 decides; otherwise the vocabulary of the whole first page votes (a GRN mentions its
 * PO and the supplier's invoice, so receipt words outrank order words, which outrank invoice words).
 */
export function classifyDocument(pages: PageContent[]): DocumentType {
  const first = pages[0];
  if (!first) return 'invoice';
  const top = first.words
    .filter((w) => w.y0 < first.height * TITLE_BAND)
    .map((w) => w.text)
    .join(' ');
  for (const p of PROFILES) if (p.title.test(top)) return p.type;
  const all = first.words.map((w) => w.text).join(' ');
  const votes = (type: DocumentType) => (all.match(profileOf(type).votes) ?? []).length;
  const grn = votes('grn');
  const po = votes('po');
  const inv = votes('invoice');
  if (grn >= MIN_RECEIPT_VOTES && grn >= po) return 'grn';
  if (po > inv) return 'po';
  return 'invoice';
}
