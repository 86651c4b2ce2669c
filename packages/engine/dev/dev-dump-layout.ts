/**
 * Dev tool: print a document's lines and segments as the engine sees them.
 *   npx tsx packages/engine/dev/dev-dump-layout.ts FILE   (scans use the OCR cache of dev-score-header.ts)
 */
import { readFileSync } from 'node:fs';
import { buildLayout } from '../src/layout.ts';
import { openPdf, readPageWords } from '../src/pdf/text.ts';
import type { PageContent } from '../src/types.ts';
import { createCachedOcr } from './dev-cached-ocr.ts';

const ocr = createCachedOcr();

const bytes = new Uint8Array(readFileSync(process.argv[2]!));
const pages: PageContent[] = [];
if (process.argv[2]!.endsWith('.pdf')) {
  const doc = openPdf(bytes);
  for (let i = 0; i < doc.countPages(); i++) {
    const p = readPageWords(doc.loadPage(i), i + 1);
    if (p.words.length > 5) pages.push(p);
    else {
      const { renderPage } = await import('../src/pdf/render.ts');
      const { ocrPageImage } = await import('../src/ocr/page.ts');
      const img = renderPage(doc.loadPage(i), 300);
      pages.push(
        await ocrPageImage(ocr, img.gray, {
          pageNumber: i + 1,
          dpi: 300,
          raw: { width: img.width, height: img.height },
        }),
      );
    }
  }
} else {
  const { loadImagePages } = await import('../src/image/load.ts');
  const { ocrPageImage } = await import('../src/ocr/page.ts');
  for (const [i, img] of (await loadImagePages(bytes)).entries())
    pages.push(
      await ocrPageImage(ocr, img.gray, {
        pageNumber: i + 1,
        dpi: img.dpi,
        raw: { width: img.width, height: img.height },
      }),
    );
}
await ocr.close();
for (const line of buildLayout(pages).lines)
  console.log(
    line.page,
    line.y0.toFixed(0),
    line.height.toFixed(1),
    line.segments.map((s) => `[${s.x0.toFixed(0)}]${s.text}`).join(' | '),
  );
