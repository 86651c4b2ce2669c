import { PROFILES } from './profiles/index.ts';
import type { DocumentType, PageContent } from './types.ts';

/**
 * Decide whether a document is an invoice, a PO or a GRN from its wording. A title near the top
 * of page 1 decides; otherwise the vocabulary of the whole first page votes (a GRN mentions its
 * PO and the supplier's invoice, so receipt words outrank order words, which outrank invoice words).
 */
export function classifyDocument(pages: PageContent[]): DocumentType {
  const first = pages[0];
  if (!first) return 'invoice';
  const top = first.words
    .filter((w) => w.y0 < first.height * 0.3)
    .map((w) => w.text)
    .join(' ');
  for (const p of PROFILES) if (p.title.test(top)) return p.type;
  const all = first.words.map((w) => w.text).join(' ');
  const count = (re: RegExp) => (all.match(re) ?? []).length;
  const grn = count(/\b(?:GRN|MRN|received|accepted|rejected|receipt)\b/gi);
  const po = count(/\b(?:purchase order|delivery schedule|vendor)\b/gi);
  const inv = count(/\b(?:invoice|IRN|bill to|buyer)\b/gi);
  if (grn >= 3 && grn >= po) return 'grn';
  if (po > inv) return 'po';
  return 'invoice';
}
