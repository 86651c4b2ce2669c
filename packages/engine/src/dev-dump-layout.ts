import { readFileSync } from 'node:fs';
import { buildLayout } from './layout.ts';
import { openPdf, readPageWords } from './pdf/text.ts';

const doc = openPdf(readFileSync(process.argv[2]!));
const pages = [];
for (let i = 0; i < doc.countPages(); i++) pages.push(readPageWords(doc.loadPage(i), i + 1));
const l = buildLayout(pages);
for (const line of l.lines)
  console.log(
    line.page,
    line.y0.toFixed(0),
    line.height.toFixed(1),
    line.segments.map((s) => `[${s.x0.toFixed(0)}]${s.text}`).join(' | '),
  );
