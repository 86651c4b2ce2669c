/**
 * Dev tool: load and OCR the real-world images (phone photos, thermal receipts, screenshots,
 * WebP/GIF/JFIF) in `shared/corpus/real` and report what came out: pages, size, resolution
 * used, words and mean confidence, time, and any QR code. There is no truth for these files;
 * the point is that every one loads and OCRs without crashing and yields readable words.
 *
 *   npx tsx packages/engine/dev/dev-real-smoke.ts [--workers N] [--limit N] [--show]
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ImageLoadError, loadImagePages } from '../src/image/load.ts';
import { createTesseractOcr } from '../src/ocr/index.ts';
import { ocrPageImage } from '../src/ocr/page.ts';
import { findEinvoiceQr } from '../src/qr/index.ts';

const { values: args } = parseArgs({
  options: {
    dir: { type: 'string', default: path.resolve(import.meta.dirname, '../../../../shared/corpus/real') },
    workers: { type: 'string', default: '1' },
    limit: { type: 'string' },
    show: { type: 'boolean', default: false },
  },
});

const IMAGE = /\.(jpe?g|jfif|png|webp|gif|tiff?)$/i;

async function main(): Promise<void> {
  const dir = args.dir as string;
  let files = readdirSync(dir)
    .filter((f) => IMAGE.test(f))
    .sort();
  if (args.limit) files = files.slice(0, Number(args.limit));
  const ocr = await createTesseractOcr({ workers: Number(args.workers) });
  let failures = 0;
  const jobs = files.map(async (f) => {
    const start = performance.now();
    try {
      const pages = await loadImagePages(new Uint8Array(readFileSync(path.join(dir, f))));
      const contents = await Promise.all(
        pages.map((p, i) =>
          ocrPageImage(ocr, p.gray, {
            pageNumber: i + 1,
            dpi: p.dpi,
            raw: { width: p.width, height: p.height },
          }),
        ),
      );
      const first = pages[0];
      const qr = first
        ? await findEinvoiceQr(first.gray, {
            dpi: first.dpi,
            raw: { width: first.width, height: first.height },
          })
        : null;
      const words = contents.flatMap((c) => c.words);
      const conf = words.length ? words.reduce((s, w) => s + w.conf, 0) / words.length : 0;
      return {
        f,
        line: `${pages.length}p ${first?.width}x${first?.height} @${first?.dpi}dpi  ${String(words.length).padStart(4)} words conf ${conf.toFixed(2)}  ${((performance.now() - start) / 1000).toFixed(1)}s${qr ? `  QR ${qr.payload.DocNo ?? qr.payload.Irn ?? 'e-invoice'}` : ''}`,
        text: words
          .slice(0, 40)
          .map((w) => w.text)
          .join(' '),
      };
    } catch (err) {
      failures++;
      const code = err instanceof ImageLoadError ? err.code : 'crash';
      return { f, line: `FAILED ${code}: ${err instanceof Error ? err.message : String(err)}`, text: '' };
    }
  });
  for (const job of jobs) {
    const r = await job;
    console.log(`${r.f.slice(0, 60).padEnd(60)} ${r.line}`);
    if (args.show && r.text) console.log(`    ${r.text}`);
  }
  await ocr.close();
  console.log(`\n${files.length} images, ${failures} failed`);
}

await main();
