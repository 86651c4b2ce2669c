/**
 * Dev helper: OCR every scanned dev-corpus document once and cache its PageContent[] as JSON
 * (default /tmp/bahi-tables-ocr), so table tuning on scans does not re-run Tesseract each time.
 * Usage: npx tsx packages/engine/dev/dev-ocr-cache.ts [CORPUS_DIR] [CACHE_DIR]
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadImagePages } from '../src/image/load.ts';
import { createTesseractOcr } from '../src/ocr/index.ts';
import { ocrPageImage } from '../src/ocr/page.ts';
import { renderPage } from '../src/pdf/render.ts';
import { openPdf } from '../src/pdf/text.ts';
import type { PageContent } from '../src/types.ts';

const corpus = process.argv[2] ?? new URL('../../../../shared/corpus/dev/', import.meta.url).pathname;
const cache = process.argv[3] ?? '/tmp/bahi-tables-ocr';
mkdirSync(cache, { recursive: true });
// The pipeline renders scans at 300 dpi (extract.ts OCR_DPI); tune on the same OCR it sees.
const RENDER_DPI = Number(process.env.BAHI_OCR_DPI ?? 300);

const ocr = await createTesseractOcr({ workers: 1 });
try {
  for (const name of readdirSync(corpus)
    .filter((f) => f.endsWith('.truth.json'))
    .sort()) {
    const truth = JSON.parse(readFileSync(join(corpus, name), 'utf8'));
    if (!truth.meta?.scanned) continue;
    const stem = name.slice(0, -'.truth.json'.length);
    const out = join(cache, `${stem}.json`);
    if (existsSync(out)) continue;
    const t0 = Date.now();
    const pages: PageContent[] = [];
    if (existsSync(join(corpus, `${stem}.pdf`))) {
      const doc = openPdf(readFileSync(join(corpus, `${stem}.pdf`)));
      for (let i = 0; i < doc.countPages(); i++) {
        const r = renderPage(doc.loadPage(i), RENDER_DPI);
        pages.push(
          await ocrPageImage(ocr, r.gray, {
            pageNumber: i + 1,
            dpi: RENDER_DPI,
            raw: { width: r.width, height: r.height },
          }),
        );
      }
    } else {
      const file = ['.jpg', '.jpeg', '.png'].map((x) => join(corpus, stem + x)).find((f) => existsSync(f));
      if (!file) continue;
      const imgs = await loadImagePages(readFileSync(file));
      for (const [i, img] of imgs.entries()) {
        pages.push(
          await ocrPageImage(ocr, img.gray, {
            pageNumber: i + 1,
            dpi: img.dpi,
            raw: { width: img.width, height: img.height },
          }),
        );
      }
    }
    writeFileSync(out, JSON.stringify(pages));
    console.log(`${stem}: ${pages.length} pages in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  }
} finally {
  await ocr.close();
}
