import { readFileSync } from 'node:fs';
import { getFieldKind } from '@bahi/contracts/extraction';
import { describe, expect, it } from 'vitest';
import { interpretDocument } from '../src/interpret.ts';
import type { DocumentType, PageContent } from '../src/types.ts';

// Scanned and photographed documents of the synthetic dev corpus (shared/corpus/dev), kept as the
// OCR words the engine read from them (tesseract through `ocrPageImage`), so interpretation is
// tested on real OCR output without running OCR. Expectations are the corpus's hand-made truth
// files, not engine output: every header field and every line value must match, text compared as
// the corpus scorer compares it (ignoring case, spaces, dots, commas and dashes).
const fixture = (name: string) => new URL(`./fixtures/ocr/${name}`, import.meta.url);

/** Values as the scorer compares them: free text without case, spaces or punctuation it ignores. */
function comparable(type: DocumentType, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [
      k,
      typeof v === 'string' && getFieldKind(type, k) === 'text'
        ? v.replace(/[\s.,\-\u2013\u2014]/g, '').toLowerCase()
        : v,
    ]),
  );
}

describe.each(['invoice-012', 'po-012', 'grn-001'])('OCR golden %s', (name) => {
  const truth = JSON.parse(readFileSync(fixture(`${name}.truth.json`), 'utf8')) as {
    documentType: DocumentType;
    fields: Record<string, unknown>;
    lineItems: Array<Record<string, unknown>>;
  };
  const pages = JSON.parse(readFileSync(fixture(`${name}.pages.json`), 'utf8')) as PageContent[];

  it('reads every header field and line value of the scan', () => {
    const r = interpretDocument(pages, truth.documentType, null);
    const type = truth.documentType;
    expect(comparable(type, r.fields)).toEqual(comparable(type, truth.fields));
    const lines = r.lineItems.map(({ provenance: _p, ...values }) => comparable(type, values));
    expect(lines).toEqual(truth.lineItems.map((l) => comparable(type, l)));
  });
});
