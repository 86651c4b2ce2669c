/**
 * Dev helper: print the table headers and columns found on each page of a document, and the rows.
 * Usage: npx tsx packages/engine/dev/dev-columns.ts FILE.pdf|OCR-CACHE.json [invoice|po|grn]
 */
import { readFileSync } from 'node:fs';
import { openPdf, readPageWords } from '../src/pdf/text.ts';
import { groupLines } from '../src/tables/geometry.ts';
import { findHeaders } from '../src/tables/header.ts';
import { extractLineItems } from '../src/tables/index.ts';
import { cleanOcrWords } from '../src/tables/ocr-clean.ts';
import type { DocumentType, PageContent } from '../src/types.ts';

const file = process.argv[2] ?? '';
const type = (process.argv[3] ?? 'invoice') as DocumentType;
let pages: PageContent[];
if (file.endsWith('.json')) pages = JSON.parse(readFileSync(file, 'utf8')) as PageContent[];
else {
  const doc = openPdf(readFileSync(file));
  pages = [];
  for (let i = 0; i < doc.countPages(); i++) pages.push(readPageWords(doc.loadPage(i), i + 1));
}
for (const p of pages) {
  const lines = groupLines(cleanOcrWords(p.words), p.source === 'ocr' ? 0.5 : 0.3);
  for (const h of findHeaders(lines, type)) {
    console.log(`page ${p.page} header lines ${h.first}-${h.last} y ${h.y0.toFixed(1)}-${h.y1.toFixed(1)}`);
    for (const c of h.columns) {
      console.log(
        `  ${c.kind.padEnd(12)} ${c.x0.toFixed(0)}-${c.x1.toFixed(0)} p${c.priority} ${c.gstPart ?? ''} "${c.label}"`,
      );
    }
  }
}
const res = extractLineItems(pages, type);
for (const l of res.lineItems) console.log(JSON.stringify(l));
console.log(JSON.stringify(res.regions));
