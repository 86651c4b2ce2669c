/**
 * Batches: one PDF (or multi-frame image) that holds several documents, scanned or printed in one
 * go. The file's pages are cut into documents where a page is plainly the first page of another
 * one; a page that may continue the document before it stays with it. Cutting a document in two
 * loses its total and lines, so the rules here split only on strong evidence:
 * - a printed page counter: "Page 1 of 3" starts a document, "Page 2 of 3" continues one;
 * - otherwise, a page whose own reading gives a document number (read surely) that differs from
 *   the number of the document being built, with its own date, and its own issuer identity or
 *   total: a continuation page repeats its document's number or prints none.
 * Copies of one document ("Original for recipient", "Duplicate for transporter") carry the same
 * number and so stay one document.
 */
import { isValidGstin } from '@bahi/india';
import { interpretDocument } from './interpret.ts';
import { buildLines } from './layout.ts';
import { profileOf } from './profiles/index.ts';
import type { DocumentType, PageContent } from './types.ts';
import { alphanumericKey } from './util.ts';

/** A document found in a batch: 0-based indexes into the pages array, `to` inclusive. */
export interface PageSpan {
  from: number;
  to: number;
}

/** A page's own reading, as far as the split needs it. */
export interface PageSignal {
  counter: { at: number; of: number } | null;
  number: string | null;
  sure: boolean;
  dated: boolean;
  identity: string | null;
  totalled: boolean;
}

/** Confidence from which a page's own document number is believed for a split. */
const SURE_NUMBER = 0.8;

/** Most pages a page counter may count: no document is near this long, so a larger "of" is another figure. */
const MAX_COUNTED_PAGES = 500;

const COUNTER =
  /\bpage\s*(?:no\.?\s*)?[:-]?\s*(\d{1,3})\s*(?:of|\/)\s*(\d{1,3})\b|\b(\d{1,3})\s*of\s*(\d{1,3})\s*pages?\b/i;

/** "Page 2 of 3", "Page No. 1/2", "1 of 2 pages": the page's place in its document. */
export function readPageCounter(lines: string[]): { at: number; of: number } | null {
  for (const text of lines) {
    const m = COUNTER.exec(text);
    if (!m) continue;
    // "Page 2 of 3" fills the first two groups, "2 of 3 pages" the last two.
    const [, pageAt, pageOf, pagesAt, pagesOf] = m;
    const at = Number(pageAt ?? pagesAt);
    const of = Number(pageOf ?? pagesOf);
    if (at >= 1 && of >= at && of <= MAX_COUNTED_PAGES) return { at, of };
  }
  return null;
}

/** A document number compared across pages: case, spaces and punctuation do not count. */
const numberKey = (v: unknown) => (typeof v === 'string' ? alphanumericKey(v) : '');

export function readPageSignal(page: PageContent, type: DocumentType): PageSignal {
  const lines = buildLines(page).map((l) => l.text);
  const r = interpretDocument([page], type, null);
  const number = numberKey(r.fields.documentNumber) || null;
  // Who issues the document: the vendor on an invoice, the buying company on a PO or GRN.
  const issuer =
    profileOf(type).issuer === 'vendor'
      ? r.fields.vendorGstin
      : (r.fields.buyerGstin ?? r.fields.vendorGstin);
  return {
    counter: readPageCounter(lines),
    number,
    sure: number !== null && (r.confidence.documentNumber ?? 0) >= SURE_NUMBER,
    dated: r.fields.documentDate != null,
    identity: typeof issuer === 'string' && isValidGstin(issuer) ? issuer : null,
    totalled: r.fields.total != null,
  };
}

/** Whether `next` is the first page of another document than the one whose first page is `head`. */
function startsAnother(head: PageSignal, next: PageSignal): boolean {
  // A counter that restarts is the printer's own cut, unless the page repeats the number of the
  // document before it (a copy of it: "Original", "Duplicate", each "Page 1 of 1").
  if (next.counter) return next.counter.at === 1 && !(next.number && next.number === head.number);
  if (next.number && next.number === head.number) return false;
  // Another issuer (a GSTIN whose check character holds on both pages): another document when the
  // page also has a number of its own, or its own date and total.
  if (next.identity && head.identity && next.identity !== head.identity)
    return (next.number !== null && head.number !== null) || (next.dated && next.totalled);
  if (!next.number || !head.number) return false;
  // A continuation page can quote another number (a PO or challan number in a footnote): a first
  // page also carries its own date and who issued it or what it totals.
  if (next.sure && head.sure) return next.dated && (next.identity !== null || next.totalled);
  // Numbers read less surely: each page must be a whole document on its own.
  return next.dated && next.totalled && head.dated && head.totalled;
}

/**
 * Cut a file's pages into the documents it holds (one span when it holds one, always at least
 * one). Pages are read one at a time for the cut only; each document is then read as a whole.
 */
export function splitPages(pages: PageContent[], type: DocumentType): PageSpan[] {
  if (pages.length < 2) return [{ from: 0, to: Math.max(0, pages.length - 1) }];
  const signals = pages.map((p) => readPageSignal(p, type));
  const spans: PageSpan[] = [];
  let from = 0;
  let head = signals[0]!;
  for (let i = 1; i < pages.length; i++) {
    if (!startsAnother(head, signals[i]!)) {
      // A first page whose number was not read takes the number its continuation prints.
      if (!head.sure && signals[i]!.sure && !signals[i]!.counter)
        head = { ...head, ...pickNumber(signals[i]!) };
      continue;
    }
    spans.push({ from, to: i - 1 });
    from = i;
    head = signals[i]!;
  }
  spans.push({ from, to: pages.length - 1 });
  return spans;
}

const pickNumber = (s: PageSignal) => ({ number: s.number, sure: s.sure });
