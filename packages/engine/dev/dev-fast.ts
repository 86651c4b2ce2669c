/**
 * Dev loop for interpretation work (fields, tables, checks): loads each document's pages once
 * (text layer, or OCR through the on-disk cache of dev-score-header.ts) plus its e-invoice QR, keeps
 * them as JSON in /tmp/bahi-pages, then runs only `interpretDocument` and prints NDJSON in the
 * order the corpus scorer expects, so `score.mjs --predictions` scores it in seconds:
 *   npx tsx packages/engine/dev/dev-fast.ts --corpus /tmp/e-scan [--type invoice] --out /tmp/p.ndjson
 *   node ../shared/corpus/score.mjs --corpus /tmp/e-scan --predictions /tmp/p.ndjson --details
 * Pages are cached by corpus file name: delete /tmp/bahi-pages after OCR code changes, or give
 * `--cache-dir DIR` to keep pages (DIR/pages) and OCR words (DIR/ocr) apart from the shared caches
 * (a branch that changes the OCR code).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseIndianDate } from '@bahi/india';
import { fieldFeatures } from '../bench/confidence/features.ts';
import { hasUsableText } from '../src/extract.ts';
import { interpretDocument, type QrReading } from '../src/interpret.ts';
import { profileOf } from '../src/profiles/index.ts';
import type { DocumentType, PageContent } from '../src/types.ts';
import { createCachedOcr } from './dev-cached-ocr.ts';

const args = process.argv.slice(2);
const opt = (f: string) => (args.includes(f) ? args[args.indexOf(f) + 1] : undefined);
const corpus = opt('--corpus') ?? new URL('../../../../shared/corpus/dev/', import.meta.url).pathname;
const out = opt('--out') ?? '/tmp/bahi-fast.ndjson';
const only = opt('--only');
const ocrName = (['paddle', 'native', 'native-fast'] as const).find((n) => n === opt('--ocr')) ?? 'tesseract';
// `--pre '{"removeLines":false}'`: pre-processing overrides to try (pages cached apart).
const pre = opt('--pre');
const cacheDir = opt('--cache-dir');
// `--paddle '{"detLayout":"strips"}'`: PaddleOCR options to try (with a `--cache-dir` of their own).
const paddle = opt('--paddle');
if (paddle && !cacheDir)
  throw new Error('--paddle needs a --cache-dir of its own (the OCR cache is keyed by image)');
const pageCache = `${cacheDir ? join(cacheDir, 'pages') : ocrName === 'tesseract' ? '/tmp/bahi-pages' : `/tmp/bahi-pages-${ocrName}`}${pre ? `-${pre.replace(/[^a-z0-9]+/gi, '_')}` : ''}`;
mkdirSync(pageCache, { recursive: true });
const keyPem = readFileSync(
  new URL('../../../../shared/corpus/dev/einvoice-qr-public-key.pem', import.meta.url),
  'utf8',
);

const ocr = createCachedOcr({
  provider: ocrName,
  preprocess: pre ? JSON.parse(pre) : undefined,
  dir: cacheDir ? join(cacheDir, 'ocr') : undefined,
  paddle: paddle ? JSON.parse(paddle) : undefined,
});

interface Loaded {
  pages: PageContent[];
  pageCount: number;
  qr: QrReading | null;
}

type Img = { page: number; gray: Uint8Array; width: number; height: number; dpi: number };

async function findQr(images: Img[]): Promise<QrReading | null> {
  const { findEinvoiceQr } = await import('../src/qr/index.ts');
  for (const img of images.slice(0, 3)) {
    const qr = await findEinvoiceQr(img.gray, {
      publicKeyPem: keyPem,
      dpi: img.dpi,
      raw: { width: img.width, height: img.height },
    });
    if (qr)
      return { ...qr, page: img.page, docDate: qr.payload.DocDt ? parseIndianDate(qr.payload.DocDt) : null };
  }
  return null;
}

/** The same loading steps as extract.ts (300 dpi OCR renders, 200 dpi QR render of text pages). */
async function load(file: string, type: DocumentType): Promise<Loaded> {
  const bytes = new Uint8Array(readFileSync(file));
  const { ocrPageImage } = await import('../src/ocr/page.ts');
  const pages: PageContent[] = [];
  const images: Img[] = [];
  let pageCount = 0;
  if (file.endsWith('.pdf')) {
    const { openPdf, readPageWords } = await import('../src/pdf/text.ts');
    const { renderPage } = await import('../src/pdf/render.ts');
    const doc = openPdf(bytes);
    pageCount = doc.countPages();
    for (let i = 0; i < pageCount; i++) {
      const page = doc.loadPage(i);
      let content = readPageWords(page, i + 1);
      if (!hasUsableText(content)) {
        const img = renderPage(page, 300);
        const o = await ocrPageImage(ocr, img.gray, {
          pageNumber: i + 1,
          dpi: 300,
          raw: { width: img.width, height: img.height },
        });
        content = { ...o, words: [...content.words, ...o.words], source: 'ocr' };
        images.push({ page: i + 1, gray: img.gray, width: img.width, height: img.height, dpi: 300 });
      }
      pages.push(content);
    }
    const textPages = pages.filter((p) => p.source === 'text');
    if (
      type === 'invoice' &&
      !images.length &&
      textPages.some((p) => p.words.some((w) => /^(?:IRN|e-?invoice|Ack\.?)/i.test(w.text)))
    ) {
      const img = renderPage(doc.loadPage(0), 200);
      images.push({ page: 1, gray: img.gray, width: img.width, height: img.height, dpi: 200 });
    }
  } else {
    const { loadImagePages } = await import('../src/image/load.ts');
    const imgs = await loadImagePages(bytes);
    pageCount = imgs.length;
    for (const [i, img] of imgs.entries()) {
      images.push({ page: i + 1, gray: img.gray, width: img.width, height: img.height, dpi: img.dpi });
      pages.push(
        await ocrPageImage(ocr, img.gray, {
          pageNumber: i + 1,
          dpi: img.dpi,
          raw: { width: img.width, height: img.height },
        }),
      );
    }
  }
  const qr = type === 'invoice' && images.length ? await findQr(images) : null;
  return { pages, pageCount, qr };
}

const docs: Array<{ stem: string; file: string; type: DocumentType }> = [];
for (const name of readdirSync(corpus).sort((a, b) => a.localeCompare(b))) {
  if (!name.endsWith('.truth.json')) continue;
  const stem = name.slice(0, -'.truth.json'.length);
  const truth = JSON.parse(readFileSync(join(corpus, name), 'utf8'));
  const file = ['.pdf', '.png', '.jpg', '.jpeg', '.webp', '.jfif', '.tif', '.tiff', '.gif']
    .map((x) => join(corpus, stem + x))
    .find(existsSync);
  if (file) docs.push({ stem, file, type: truth.documentType });
}
const lines: string[] = [];
for (const type of ['invoice', 'po', 'grn'] as const) {
  if (opt('--type') && opt('--type') !== type) continue;
  for (const d of docs.filter((x) => x.type === type)) {
    if (only && !d.stem.includes(only)) continue;
    const cached = join(pageCache, `${basename(realpathSync(d.file))}.json`);
    let loaded: Loaded;
    if (existsSync(cached)) loaded = JSON.parse(readFileSync(cached, 'utf8'));
    else {
      loaded = await load(d.file, type);
      writeFileSync(cached, JSON.stringify(loaded));
    }
    const r = interpretDocument(loaded.pages, type, loaded.qr);
    const fields = Object.fromEntries(profileOf(type).headerFields.map((f) => [f, r.fields[f] ?? null]));
    lines.push(
      JSON.stringify({
        file: d.file,
        documentType: type,
        fields,
        lineItems: r.lineItems,
        checks: r.checks,
        confidence: r.confidence,
        provenance: r.provenance,
        error: null,
        // What the learned confidence model sees (`npm run bench:confidence` fits on it).
        _features: Object.fromEntries(
          Object.keys(r.confidence).map((f) => [f, fieldFeatures(f, r.evidence)]),
        ),
      }),
    );
    if (only) console.log(JSON.stringify({ fields, checks: r.checks.filter((c) => !c.ok) }, null, 1));
  }
}
await ocr.close();
writeFileSync(out, `${lines.join('\n')}\n`);
console.error(`${lines.length} documents → ${out}`);
