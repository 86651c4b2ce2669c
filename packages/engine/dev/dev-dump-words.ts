/**
 * Dev helper: print a PDF's text-layer words grouped into visual lines with x positions,
 * to study table layouts. Usage: npx tsx packages/engine/dev/dev-dump-words.ts FILE.pdf|OCR-CACHE.json
 */
import { readFileSync } from 'node:fs';
import { openPdf, readPageWords } from '../src/pdf/text.ts';
import type { PageContent } from '../src/types.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: dev-dump-words.ts FILE.pdf');
const pages: PageContent[] = [];
if (file.endsWith('.json')) pages.push(...(JSON.parse(readFileSync(file, 'utf8')) as PageContent[]));
else {
  const doc = openPdf(readFileSync(file));
  for (let i = 0; i < doc.countPages(); i++) pages.push(readPageWords(doc.loadPage(i), i + 1));
}
for (const pc of pages) {
  console.log(`=== page ${pc.page} ${pc.width}x${pc.height} words=${pc.words.length}`);
  const ws = [...pc.words].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  let line: typeof ws = [];
  const out = () => {
    if (!line.length) return;
    line.sort((a, b) => a.x0 - b.x0);
    console.log(
      `${line[0]?.y0.toFixed(1)}-${line[0]?.y1.toFixed(1)}: ${line.map((w) => `${w.text}@${w.x0.toFixed(0)}-${w.x1.toFixed(0)}`).join(' ')}`,
    );
    line = [];
  };
  for (const w of ws) {
    const last = line[0];
    if (last && Math.abs(w.y0 - last.y0) > 2) out();
    line.push(w);
  }
  out();
}
