#!/usr/bin/env node
// Engine benchmark (`npm run bench:engine`): side by side in one run, on the same inputs.
//
//   1. Text-layer PDFs: Debian's `pdftotext` (one process per file, one per core at a time)
//      vs the whole `bahi extract` CLI (one process per document type, `--jobs` = cores).
//   2. Scanned pages: native `tesseract` (OMP_THREAD_LIMIT=1, one process per core) vs the
//      engine's OCR path (`createOcr` + `ocrPageImage`) on the same page images, once per
//      provider (PP-OCRv4, the default, and tesseract.js).
//
// Prints docs/s or pages/s, the ratio engine ÷ reference, and peak RSS of each side.
// Options: --docs N (text documents, default 100), --pages N (scanned pages, default 24),
//          --jobs N (default: cores), --corpus DIR, --skip-text, --skip-ocr,
//          --providers paddle,native (engine OCR providers to run; default: all available).
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const engineDir = path.resolve(here, '..');
const repoDir = path.resolve(engineDir, '../..');

const { values: opts } = parseArgs({
  options: {
    docs: { type: 'string', default: '100' },
    pages: { type: 'string', default: '24' },
    jobs: { type: 'string', default: String(os.availableParallelism()) },
    corpus: { type: 'string', default: path.resolve(repoDir, '../shared/corpus/dev') },
    'skip-text': { type: 'boolean', default: false },
    'skip-ocr': { type: 'boolean', default: false },
    // Internal: run the engine OCR side in this (child) process and print JSON.
    'ocr-child': { type: 'string' },
    // Internal: a worker thread of the engine OCR child.
    'ocr-thread': { type: 'string' },
    'ocr-provider': { type: 'string', default: 'paddle' },
    providers: { type: 'string' },
  },
});

const jobs = Math.max(1, Number(opts.jobs));

/** How the table names each engine OCR provider, given its worker count. */
const PROVIDER_LABELS = {
  paddle: (n) => `PP-OCRv4, ${n} worker threads × 1 inference thread`,
  tesseract: (n) => `tesseract.js ×${n}`,
  native: (n) => `native tesseract best_int ×${n}`,
};

if (opts['ocr-thread']) {
  await runOcrThread(opts['ocr-thread']);
  // The thread answers messages until it is terminated; the benchmark below is the parent's.
  await new Promise(() => {});
} else if (opts['ocr-child']) {
  await runEngineOcrChild(opts['ocr-child']);
  process.exit(0);
}

/** True when `cmd` runs (used to skip a side whose tool is not installed). */
function haveCommand(cmd, args = ['--version']) {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return !r.error;
}

const haveGnuTime = existsSync('/usr/bin/time');

/**
 * Run a command, resolving with its wall time and peak RSS (KiB, through GNU time when present).
 * Output is discarded unless `capture` is set.
 */
function run(cmd, args, { env, capture = false } = {}) {
  return new Promise((resolve, reject) => {
    const rssFile = haveGnuTime
      ? path.join(os.tmpdir(), `bahi-bench-rss-${process.pid}-${Math.random().toString(36).slice(2)}`)
      : null;
    const [bin, argv] = rssFile
      ? ['/usr/bin/time', ['-f', '%M %U %S', '-o', rssFile, cmd, ...args]]
      : [cmd, args];
    const start = performance.now();
    const child = spawn(bin, argv, {
      env: { ...process.env, ...env },
      stdio: ['ignore', capture ? 'pipe' : 'ignore', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - start) / 1000;
      let rssKb = null;
      let cpuSeconds = null;
      if (rssFile && existsSync(rssFile)) {
        const [rss, user, sys] = (readFileSync(rssFile, 'utf8').trim().split('\n').pop() ?? '')
          .split(' ')
          .map(Number);
        rssKb = rss || null;
        cpuSeconds = Number.isFinite(user) && Number.isFinite(sys) ? user + sys : null;
        rmSync(rssFile, { force: true });
      }
      resolve({ code, seconds, rssKb, cpuSeconds, stdout, stderr });
    });
  });
}

/** Run `items` through `fn` with at most `limit` in flight; returns results in order. */
async function pool(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

/** Total CPU seconds of finished runs, or null when any is unknown. */
function sumCpu(results) {
  let total = 0;
  for (const r of results) {
    if (r.cpuSeconds == null) return null;
    total += r.cpuSeconds;
  }
  return total;
}

function loadTruths(dir) {
  const out = [];
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.truth.json')) continue;
    const name = f.slice(0, -'.truth.json'.length);
    const truth = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
    const file = readdirSync(dir).find((g) => g.startsWith(`${name}.`) && !g.endsWith('.json'));
    if (file)
      out.push({ name, type: truth.documentType, meta: truth.meta ?? {}, file: path.join(dir, file) });
  }
  return out;
}

const mb = (kb) => (kb == null ? 'n/a' : `${(kb / 1024).toFixed(0)} MB`);
const rows = [];
const notes = [];

const corpus = opts.corpus;
if (!existsSync(corpus)) {
  console.error(`corpus not found: ${corpus} (pass --corpus DIR)`);
  process.exit(1);
}
const docs = loadTruths(corpus);
const work = mkdtempSync(path.join(os.tmpdir(), 'bahi-bench-'));
console.log(
  `bahi engine benchmark — ${os.availableParallelism()} cores, ${jobs} parallel jobs per side, corpus ${corpus}`,
);

try {
  if (!opts['skip-text']) await benchText();
  if (!opts['skip-ocr']) await benchOcr();
} finally {
  if (!process.env.BAHI_BENCH_KEEP) rmSync(work, { recursive: true, force: true });
}

printTable();

async function benchText() {
  const textDocs = docs.filter((d) => !d.meta.scanned && d.file.endsWith('.pdf'));
  if (textDocs.length === 0) {
    notes.push('text: no text-layer PDFs in the corpus; skipped');
    return;
  }
  const want = Math.max(1, Number(opts.docs));
  const dir = path.join(work, 'text');
  mkdirSync(dir);
  // Copies under distinct names until there are `want` documents, keeping each type's share.
  const files = [];
  for (let i = 0; files.length < want; i++) {
    const d = textDocs[i % textDocs.length];
    const dest = path.join(dir, `${d.name}-copy${Math.floor(i / textDocs.length)}.pdf`);
    copyFileSync(d.file, dest);
    files.push({ type: d.type, file: dest });
  }
  console.log(`\ntext layer: ${files.length} documents (copies of ${textDocs.length} text-layer dev PDFs)`);

  if (haveCommand('pdftotext', ['-v'])) {
    const start = performance.now();
    const results = await pool(files, jobs, (f) => run('pdftotext', ['-layout', f.file, '-']));
    const seconds = (performance.now() - start) / 1000;
    const failed = results.filter((r) => r.code !== 0).length;
    const rss = Math.max(...results.map((r) => r.rssKb ?? 0)) || null;
    rows.push({
      side: 'text',
      name: 'pdftotext -layout',
      unit: 'docs',
      n: files.length,
      seconds,
      rssKb: rss,
      cpu: sumCpu(results),
      failed,
    });
    console.log(`  pdftotext: ${seconds.toFixed(2)} s`);
  } else {
    notes.push('text: pdftotext not installed (apt-get install poppler-utils); reference side skipped');
  }

  const cli = path.join(engineDir, 'bin', 'bahi.mjs');
  const byType = new Map();
  for (const f of files) byType.set(f.type, [...(byType.get(f.type) ?? []), f.file]);
  const start = performance.now();
  let rss = 0;
  let cpu = 0;
  let lines = 0;
  let errors = 0;
  let failed = 0;
  for (const [type, list] of byType) {
    const r = await run(process.execPath, [cli, 'extract', '--type', type, '--jobs', String(jobs), ...list], {
      capture: true,
    });
    if (r.code !== 0) {
      failed += list.length;
      notes.push(
        `bahi extract --type ${type} exited ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`,
      );
    }
    rss = Math.max(rss, r.rssKb ?? 0);
    cpu += r.cpuSeconds ?? Number.NaN;
    for (const line of r.stdout.split('\n')) {
      if (!line.trim()) continue;
      lines++;
      try {
        if (JSON.parse(line).error) errors++;
      } catch {
        errors++;
      }
    }
  }
  const seconds = (performance.now() - start) / 1000;
  if (lines !== files.length) notes.push(`bahi extract printed ${lines} results for ${files.length} files`);
  if (errors) notes.push(`bahi extract: ${errors} documents came back with an error`);
  rows.push({
    side: 'text',
    name: 'bahi extract (CLI, full extraction)',
    unit: 'docs',
    n: files.length,
    seconds,
    rssKb: rss || null,
    cpu: Number.isFinite(cpu) ? cpu : null,
    failed,
  });
  console.log(`  bahi extract: ${seconds.toFixed(2)} s`);
}

async function benchOcr() {
  const scanned = docs.filter((d) => d.meta.scanned && d.file.endsWith('.pdf'));
  if (scanned.length === 0) {
    notes.push('ocr: no scanned PDFs in the corpus; skipped');
    return;
  }
  const want = Math.max(1, Number(opts.pages));
  const dir = path.join(work, 'pages');
  mkdirSync(dir);
  // Render the scanned pages once, at the scan's own resolution, to PNG files both sides read.
  const { register } = await import('tsx/esm/api');
  register();
  const { openPdf } = await import('../src/pdf/text.ts');
  const { pageImageDpi, renderPage } = await import('../src/pdf/render.ts');
  const pages = [];
  for (const d of scanned) {
    const doc = openPdf(new Uint8Array(readFileSync(d.file)));
    for (let i = 0; i < doc.countPages() && pages.length < want; i++) {
      const page = doc.loadPage(i);
      const dpi = pageImageDpi(page) ?? 200;
      const r = renderPage(page, dpi);
      const file = path.join(dir, `${d.name}-p${i + 1}.png`);
      writeFileSync(file, r.png);
      pages.push({ file, dpi });
    }
    if (pages.length >= want) break;
  }
  writeFileSync(path.join(dir, 'pages.json'), JSON.stringify(pages));
  console.log(
    `\nscanned pages: ${pages.length} page images rendered from ${scanned.length} scanned dev PDFs at their scan resolution`,
  );

  if (haveCommand('tesseract')) {
    const start = performance.now();
    const results = await pool(pages, jobs, (p) =>
      run('tesseract', [p.file, 'stdout', '--psm', '3', '--dpi', String(p.dpi), 'tsv'], {
        env: { OMP_THREAD_LIMIT: '1' },
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const failed = results.filter((r) => r.code !== 0).length;
    const rss = Math.max(...results.map((r) => r.rssKb ?? 0)) || null;
    rows.push({
      side: 'ocr',
      name: 'tesseract (native, OMP_THREAD_LIMIT=1)',
      unit: 'pages',
      n: pages.length,
      seconds,
      rssKb: rss,
      cpu: sumCpu(results),
      failed,
    });
    console.log(`  tesseract: ${seconds.toFixed(2)} s`);
  } else {
    notes.push('ocr: tesseract not installed (apt-get install tesseract-ocr); reference side skipped');
  }

  // The engine side runs in a child process so its peak RSS is its own; one child per provider.
  // The native provider runs Debian's tesseract program; without it that row is skipped.
  const available = ['paddle', 'tesseract', ...(haveCommand('tesseract') ? ['native'] : [])];
  const providers = opts.providers
    ? available.filter((p) => opts.providers.split(',').includes(p))
    : available;
  for (const provider of providers) {
    const r = await run(
      process.execPath,
      [
        path.join(here, 'bench-engine.mjs'),
        '--ocr-child',
        dir,
        '--jobs',
        String(jobs),
        '--ocr-provider',
        provider,
      ],
      { capture: true },
    );
    if (r.code !== 0) {
      notes.push(`engine OCR (${provider}) failed: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      continue;
    }
    const res = JSON.parse(r.stdout.trim().split('\n').pop());
    rows.push({
      side: 'ocr',
      name: `engine OCR (${PROVIDER_LABELS[provider](res.workers)} + pre-processing)`,
      unit: 'pages',
      n: res.pages,
      seconds: res.seconds,
      rssKb: r.rssKb ?? res.maxRssKb,
      cpu: res.cpuSeconds,
      failed: 0,
      extra: `start-up ${res.startSeconds.toFixed(1)} s excluded; ${res.words} words`,
    });
    console.log(`  engine OCR (${provider}): ${res.seconds.toFixed(2)} s`);
  }
}

/**
 * CPU seconds this process's finished child processes used (Linux /proc: cutime + cstime in
 * clock ticks), so providers that run native programs are charged for them.
 */
function childCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

/** Child process: OCR every page image of `dir` through the engine and print a JSON summary. */
async function runEngineOcrChild(dir) {
  const pages = JSON.parse(readFileSync(path.join(dir, 'pages.json'), 'utf8'));
  // PP-OCR runs an inference synchronously on its JavaScript thread, so pages overlap only across
  // threads: like the CLI's --jobs and the server's pool, one engine with one inference thread per
  // worker thread, pages handed to whichever is free. The Tesseract providers run their own pools.
  const threaded = opts['ocr-provider'] === 'paddle' && jobs > 1;
  const t0 = performance.now();
  const lanes = threaded
    ? await Promise.all(Array.from({ length: jobs }, () => startOcrThread(dir)))
    : [await ocrLane(dir, opts['ocr-provider'], jobs)];
  const startSeconds = (performance.now() - t0) / 1000;
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const children0 = childCpuSeconds();
  // Two pages per worker in flight: workers never wait, and memory stays bounded the way a
  // pipeline with `--jobs` bounds it.
  let next = 0;
  const counts = await Promise.all(
    lanes.map(async (lane) => {
      let words = 0;
      const perLane = threaded ? 1 : jobs * 2;
      await Promise.all(
        Array.from({ length: perLane }, async () => {
          while (next < pages.length) {
            const i = next++;
            words += await lane.ocr(i);
          }
        }),
      );
      return words;
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6 + childCpuSeconds() - children0;
  await Promise.all(lanes.map((lane) => lane.close()));
  const words = counts.reduce((a, b) => a + b, 0);
  process.stdout.write(
    `${JSON.stringify({ pages: pages.length, seconds, cpuSeconds, startSeconds, words, workers: jobs, maxRssKb: process.resourceUsage().maxRSS })}\n`,
  );
}

/** An OCR engine in this thread: `ocr(i)` reads page `i` of `dir` and gives its word count. */
async function ocrLane(dir, provider, workers) {
  const { register } = await import('tsx/esm/api');
  register();
  const { createOcr } = await import('../src/ocr/providers.ts');
  const { ocrPageImage } = await import('../src/ocr/page.ts');
  const pages = JSON.parse(readFileSync(path.join(dir, 'pages.json'), 'utf8'));
  const ocr = await createOcr(provider, { workers });
  return {
    async ocr(i) {
      const p = pages[i];
      const page = await ocrPageImage(ocr, new Uint8Array(readFileSync(p.file)), {
        pageNumber: i + 1,
        dpi: p.dpi,
      });
      return page.words.length;
    },
    close: () => ocr.close(),
  };
}

/** A worker thread running {@link ocrLane} with one inference thread; resolves once its engine is up. */
async function startOcrThread(dir) {
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(new URL(import.meta.url), {
    argv: ['--ocr-thread', dir, '--ocr-provider', opts['ocr-provider']],
  });
  const pending = [];
  worker.on('message', (m) => pending.shift()?.(m));
  worker.on('error', (err) => {
    console.error(err);
    process.exit(1);
  });
  const ask = (m) =>
    new Promise((resolve) => {
      pending.push(resolve);
      if (m !== undefined) worker.postMessage(m);
    });
  await ask();
  return {
    ocr: (i) => ask(i),
    close: async () => {
      await ask('close');
      await worker.terminate();
    },
  };
}

/** Worker thread side of {@link startOcrThread}. */
async function runOcrThread(dir) {
  const { parentPort } = await import('node:worker_threads');
  const lane = await ocrLane(dir, opts['ocr-provider'], 1);
  parentPort.on('message', async (m) => {
    if (m === 'close') {
      await lane.close();
      parentPort.postMessage('closed');
    } else parentPort.postMessage(await lane.ocr(m));
  });
  parentPort.postMessage('ready');
}

function printTable() {
  console.log(
    '\n| side | tool | items | seconds | rate | ratio (engine ÷ reference) | CPU-s per item | CPU ratio | peak RSS |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const side of ['text', 'ocr']) {
    const sideRows = rows.filter((r) => r.side === side);
    const ref = sideRows[0];
    for (const r of sideRows) {
      const rate = r.n / r.seconds;
      const ratio = r === ref || sideRows.length < 2 ? '' : `${(rate / (ref.n / ref.seconds)).toFixed(2)}×`;
      const cpuPer = r.cpu == null ? null : r.cpu / r.n;
      const refCpuPer = ref.cpu == null ? null : ref.cpu / ref.n;
      // Throughput by CPU time: what the rate ratio would be on an otherwise idle machine.
      const cpuRatio =
        r === ref || cpuPer == null || refCpuPer == null ? '' : `${(refCpuPer / cpuPer).toFixed(2)}×`;
      console.log(
        `| ${side} | ${r.name} | ${r.n}${r.failed ? ` (${r.failed} failed)` : ''} | ${r.seconds.toFixed(2)} | ${rate.toFixed(2)} ${r.unit}/s | ${ratio} | ${cpuPer == null ? 'n/a' : cpuPer.toFixed(3)} | ${cpuRatio} | ${mb(r.rssKb)} |`,
      );
    }
  }
  const goals = [];
  const text = rows.filter((r) => r.side === 'text');
  if (text.length === 2)
    goals.push(
      `text: goal ≥ 1.0× pdftotext → ${(text[1].n / text[1].seconds / (text[0].n / text[0].seconds)).toFixed(2)}×`,
    );
  const ocr = rows.filter((r) => r.side === 'ocr');
  const native = ocr.find((r) => r.name.startsWith('tesseract (native'));
  for (const engine of native ? ocr.filter((r) => r !== native) : [])
    goals.push(
      `ocr: goal ≥ 0.9× native tesseract → ${engine.name}: ${(engine.n / engine.seconds / (native.n / native.seconds)).toFixed(2)}×`,
    );
  for (const r of rows) if (r.extra) goals.push(`${r.name}: ${r.extra}`);
  if (goals.length) console.log(`\n${goals.join('\n')}`);
  if (notes.length) console.log(`\nnotes:\n- ${notes.join('\n- ')}`);
  console.log(
    `\nload average at end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (other work on the machine skews both sides)`,
  );
}
