/**
 * Dev tool: how much of the truth survives OCR. For every scanned dev document
 * (`meta.scanned`), OCR all pages the way the engine does and report which fraction of the
 * truth's header and line-item values appear among the OCR words — numbers as printed (Indian
 * grouping, plain, two decimals), GSTINs and codes exactly, dates in the document's format,
 * free text token by token. It measures the OCR stage alone, independent of field extraction.
 *
 *   npx tsx packages/engine/dev/dev-ocr-recall.ts [--workers N] [--limit N] [--only name,...]
 *     [--pre '{"minDpi":250,"median":3}'] [--params '{...}'] [--init '{"load_system_dawg":"0"}'] [--misses]
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { repairGstin } from '@bahi/india';
import { loadImagePages } from '../src/image/load.ts';
import { createTesseractOcr } from '../src/ocr/index.ts';
import { ocrPageImage, type PreprocessOptions } from '../src/ocr/page.ts';
import { pageImageDpi, renderPage } from '../src/pdf/render.ts';
import { openPdf } from '../src/pdf/text.ts';
import type { PageContent } from '../src/types.ts';

const { values: args } = parseArgs({
  options: {
    corpus: {
      type: 'string',
      default: path.resolve(import.meta.dirname, '../../../../shared/corpus/dev'),
    },
    workers: { type: 'string', default: '1' },
    limit: { type: 'string' },
    only: { type: 'string' },
    pre: { type: 'string' },
    params: { type: 'string' },
    init: { type: 'string' },
    misses: { type: 'boolean', default: false },
  },
});

interface Truth {
  documentType: string;
  fields: Record<string, unknown>;
  lineItems: Array<Record<string, unknown>>;
  meta: { scanned?: boolean; photo?: boolean; dateFormat?: string; pages?: number };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DATE_FIELDS = /date$/i;
const TEXT_FIELDS = new Set([
  'vendorName',
  'vendorAddress',
  'buyerName',
  'buyerAddress',
  'description',
  'paymentTerms',
  'unit',
]);

/** Indian digit grouping: 1234567.5 → "12,34,567.50". */
function formatIndian(n: number, decimals: number): string {
  const [int, frac] = Math.abs(n).toFixed(decimals).split('.') as [string, string | undefined];
  let head = int.slice(0, -3);
  const tail = int.slice(-3);
  const groups: string[] = [];
  while (head.length > 2) {
    groups.unshift(head.slice(-2));
    head = head.slice(0, -2);
  }
  if (head) groups.unshift(head);
  const body = groups.length ? `${groups.join(',')},${tail}` : tail;
  return `${n < 0 ? '-' : ''}${body}${frac !== undefined ? `.${frac}` : ''}`;
}

function numberForms(n: number): string[] {
  const forms = new Set<string>();
  for (const d of [0, 1, 2, 3]) {
    if (d === 0 && !Number.isInteger(n)) continue;
    if (d > 0 && Number(n.toFixed(d)) !== n) continue;
    forms.add(n.toFixed(d));
    forms.add(formatIndian(n, d));
    forms.add(Math.abs(n).toFixed(d));
    forms.add(formatIndian(Math.abs(n), d));
  }
  return [...forms];
}

function dateForms(iso: string): string[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return [iso];
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  const mon = MONTHS[Number(mo) - 1] as string;
  return [
    iso,
    `${d}/${mo}/${y}`,
    `${d}-${mo}-${y}`,
    `${d}.${mo}.${y}`,
    `${d}-${mon}-${y}`,
    `${Number(d)}-${mon}-${y.slice(2)}`,
    `${d}-${mon}-${y.slice(2)}`,
  ];
}

const norm = (s: string) => s.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}%]+$/gu, '');
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Tally {
  atomicFound: number;
  atomicTotal: number;
  tokensFound: number;
  tokensTotal: number;
}
const newTally = (): Tally => ({ atomicFound: 0, atomicTotal: 0, tokensFound: 0, tokensTotal: 0 });

/** Values that are normalised from names rather than printed as such. */
const NOT_PRINTED = new Set(['currency', 'vendorStateCode', 'buyerStateCode', 'placeOfSupply']);

function scoreValue(
  key: string,
  value: unknown,
  hay: string,
  tokens: Set<string>,
  tally: Tally,
  misses: string[],
): void {
  if (value === null || value === undefined || value === '' || NOT_PRINTED.has(key)) return;
  if (key === 'vehicleNumber') {
    tally.atomicTotal++;
    // Printed with spaces or dashes between its parts ("MH 12 AB 1234").
    if (hay.replace(/[\s-]/g, '').includes(String(value).toLowerCase())) tally.atomicFound++;
    else misses.push(`${key}=${String(value)}`);
    return;
  }
  if (typeof value === 'string' && TEXT_FIELDS.has(key)) {
    for (const t of value
      .split(/[\s,]+/)
      .map(norm)
      .filter(Boolean)) {
      tally.tokensTotal++;
      if (tokens.has(t)) tally.tokensFound++;
      else misses.push(`${key}~${t}`);
    }
    return;
  }
  const forms =
    typeof value === 'number'
      ? numberForms(value)
      : DATE_FIELDS.test(key)
        ? dateForms(String(value))
        : [String(value)];
  tally.atomicTotal++;
  let found = forms.some((f) =>
    new RegExp(`(?<![\\p{N}])${escapeRe(f.toLowerCase())}(?![\\p{N}])`, 'u').test(hay),
  );
  // The field extractor repairs look-alike characters in GSTINs (checksum-guarded); count those.
  if (!found && /gstin$/i.test(key)) found = hay.split(' ').some((w) => repairGstin(w) === String(value));
  if (found) tally.atomicFound++;
  else misses.push(`${key}=${String(value)}`);
}

async function ocrDocument(
  file: string,
  ocr: Awaited<ReturnType<typeof createTesseractOcr>>,
  pre?: Partial<PreprocessOptions>,
): Promise<PageContent[]> {
  const bytes = new Uint8Array(readFileSync(file));
  if (file.endsWith('.pdf')) {
    const doc = openPdf(bytes);
    const pages: Promise<PageContent>[] = [];
    for (let i = 0; i < doc.countPages(); i++) {
      const page = doc.loadPage(i);
      const dpi = pageImageDpi(page) ?? 200;
      const r = renderPage(page, dpi);
      pages.push(
        ocrPageImage(ocr, r.gray, {
          pageNumber: i + 1,
          dpi,
          raw: { width: r.width, height: r.height },
          preprocess: pre,
        }),
      );
    }
    return Promise.all(pages);
  }
  const imgs = await loadImagePages(bytes);
  return Promise.all(
    imgs.map((p, i) =>
      ocrPageImage(ocr, p.gray, {
        pageNumber: i + 1,
        dpi: p.dpi,
        raw: { width: p.width, height: p.height },
        preprocess: pre,
      }),
    ),
  );
}

async function main(): Promise<void> {
  const dir = args.corpus as string;
  const only = args.only ? new Set(args.only.split(',')) : null;
  let names = readdirSync(dir)
    .filter((f) => f.endsWith('.truth.json'))
    .map((f) => f.replace('.truth.json', ''))
    .filter((n) => (only ? only.has(n) : true));
  const truths = new Map<string, Truth>();
  for (const n of names)
    truths.set(n, JSON.parse(readFileSync(path.join(dir, `${n}.truth.json`), 'utf8')) as Truth);
  names = names.filter((n) => truths.get(n)?.meta.scanned);
  if (args.limit) names = names.slice(0, Number(args.limit));
  const pre = args.pre ? (JSON.parse(args.pre) as Partial<PreprocessOptions>) : undefined;
  const ocr = await createTesseractOcr({
    workers: Number(args.workers),
    parameters: args.params ? (JSON.parse(args.params) as Record<string, string>) : undefined,
    initParameters: args.init ? (JSON.parse(args.init) as Record<string, string>) : undefined,
  });
  const header = newTally();
  const lines = newTally();
  let pagesDone = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  // A few documents in flight keep every worker busy without holding every page image in
  // memory at once; results print in order.
  const inFlight = Math.max(2, ocr.workers * 2);
  let running = 0;
  const waiting: Array<() => void> = [];
  const acquire = async () => {
    if (running >= inFlight) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
  };
  const release = () => {
    running--;
    waiting.shift()?.();
  };
  const jobs = names.map(async (name) => {
    await acquire();
    const truth = truths.get(name) as Truth;
    const file = readdirSync(dir).find((f) => f.startsWith(`${name}.`) && !f.endsWith('.json')) as string;
    const start = performance.now();
    const pages = await ocrDocument(path.join(dir, file), ocr, pre).finally(release);
    return { name, truth, pages, seconds: (performance.now() - start) / 1000 };
  });
  for (const job of jobs) {
    const { name, truth, pages, seconds } = await job;
    pagesDone += pages.length;
    const words = pages.flatMap((p) => p.words);
    const hay = words.map((w) => w.text.toLowerCase()).join(' ');
    const tokens = new Set(words.flatMap((w) => w.text.split(/,/)).map(norm));
    for (const w of words) tokens.add(norm(w.text));
    const h = newTally();
    const l = newTally();
    const misses: string[] = [];
    for (const [k, v] of Object.entries(truth.fields)) scoreValue(k, v, hay, tokens, h, misses);
    for (const item of truth.lineItems)
      for (const [k, v] of Object.entries(item)) scoreValue(k, v, hay, tokens, l, misses);
    for (const [t, d] of [
      [header, h],
      [lines, l],
    ] as const) {
      t.atomicFound += d.atomicFound;
      t.atomicTotal += d.atomicTotal;
      t.tokensFound += d.tokensFound;
      t.tokensTotal += d.tokensTotal;
    }
    const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1).padStart(5) : '  n/a');
    console.log(
      `${name.padEnd(12)} ${truth.meta.photo ? 'photo' : 'scan '} p${pages.length} ${seconds.toFixed(1).padStart(5)}s  header ${pct(h.atomicFound, h.atomicTotal)}% values ${pct(h.tokensFound, h.tokensTotal)}% text  lines ${pct(l.atomicFound, l.atomicTotal)}% values ${pct(l.tokensFound, l.tokensTotal)}% text`,
    );
    if (args.misses && misses.length) console.log(`   missed: ${misses.slice(0, 40).join(' | ')}`);
  }
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  await ocr.close();
  const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : 'n/a');
  console.log(
    `\nTOTAL ${names.length} docs ${pagesDone} pages in ${elapsed.toFixed(1)}s (${(pagesDone / elapsed).toFixed(2)} pages/s, ${args.workers} worker(s)); CPU ${cpuSeconds.toFixed(1)}s = ${(cpuSeconds / pagesDone).toFixed(2)} CPU-s/page`,
  );
  console.log(
    `header values ${pct(header.atomicFound, header.atomicTotal)}% (${header.atomicFound}/${header.atomicTotal})  header text tokens ${pct(header.tokensFound, header.tokensTotal)}%`,
  );
  console.log(
    `line values   ${pct(lines.atomicFound, lines.atomicTotal)}% (${lines.atomicFound}/${lines.atomicTotal})  line text tokens   ${pct(lines.tokensFound, lines.tokensTotal)}%`,
  );
  const all = header.atomicFound + lines.atomicFound + header.tokensFound + lines.tokensFound;
  const total = header.atomicTotal + lines.atomicTotal + header.tokensTotal + lines.tokensTotal;
  console.log(`ALL ${pct(all, total)}%`);
}

await main();
