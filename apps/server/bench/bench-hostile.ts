/**
 * `npm run bench:hostile`: replays hostile request bodies and files against a real server (embedded
 * PGlite in a temporary DATA_DIR, in this process) and reports, per case, the answer, the time, the
 * slowest and 90th-percentile /healthz answer while the case ran (polled every 50 ms), the event loop's
 * delay (longest, 99th percentile) and utilisation, the longest stretch of main-thread CPU without a break
 * (from a CPU profile: unlike the delays, not inflated by waiting for a CPU on a shared machine) with where
 * it was spent, and the process's resident memory before and at its peak; after the burst, what 70 s idle
 * gives back. Cases: 200 MB JSON bodies and a 200 MB multipart upload without a session, a
 * 200 MB sign-in body (chunked and with its Content-Length), a 200 MB JSON body with a session, NUL and
 * broken characters in every kind of text a person types, a zip bomb and a password-protected zip, a
 * run over a vector-heavy PDF (5,000 page-wide strokes, a few KB) and a 100,000-page PDF, the review
 * screen and the page pictures of both, and a 200-inch PDF page through the engine. /healthz is asked from
 * a worker thread of its own, so its answer times are the server's event loop, not the bench's client work.
 */

import { readdir, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { Session } from 'node:inspector/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { createOcr, extractDocument } from '@bahi/engine';
import { eq } from 'drizzle-orm';
import { zipSync } from 'fflate';
import { documents } from '../src/db/schema/index.ts';
import { readFixture } from '../src/modules/flows/test-support.ts';
import { manyPagesPdf, strokedLinesPdf } from '../src/test/hostile-files.ts';
import { startBenchServer } from './bench-support.ts';

const MB = 1024 * 1024;
const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/**
 * Asks /healthz every 50 ms from a thread of its own while `start`–`stop` (answer times in ms). In the main
 * thread, the bench's own fetches and their answers would be counted as the server's stalls.
 */
function startHealthPoller(url: string) {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    let times = null;
    const poll = async () => {
      for (;;) {
        const asked = performance.now();
        const counted = times; // a poll asked before the case started is not the case's
        await fetch(workerData.url).then((r) => r.arrayBuffer()).catch(() => undefined);
        if (counted && counted === times) times.push(performance.now() - asked);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    parentPort.on('message', (m) => {
      if (m === 'start') times = [];
      else { parentPort.postMessage(times ?? []); times = null; }
    });
    poll();`,
    { eval: true, workerData: { url } },
  );
  worker.unref();
  return {
    start: () => worker.postMessage('start'),
    stop: () =>
      new Promise<number[]>((resolve) => {
        worker.once('message', resolve);
        worker.postMessage('stop');
      }),
    close: () => worker.terminate(),
  };
}

let health: ReturnType<typeof startHealthPoller>;

// The main thread's own CPU profile (1 ms samples) while a case runs. A long delay of the event loop can be
// work that held it or, on a shared machine, a CPU it waited for; a run of consecutive busy samples is work.
const profiler = new Session();
profiler.connect();
await profiler.post('Profiler.enable');
await profiler.post('Profiler.setSamplingInterval', { interval: 1000 });

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string }; children?: number[] }>;
  samples: number[];
}

/** The longest run of consecutive busy samples (≈ ms of CPU the loop spent without a break) and its main frame. */
function longestBusyStretch(profile: CpuProfile): { ms: number; in: string } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // A sample's nearest frame of the project or of a package (file or package name), else the V8 state.
  const where = (id: number) => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { url, functionName } = byId.get(at)!.callFrame;
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
      if (pkg) return pkg;
      if (url.includes('/src/') && !url.includes('node_modules')) return url.split('/').at(-1)!;
      if (!url && at === id && functionName.startsWith('(')) return functionName;
    }
    return 'node';
  };
  let best: number[] = [];
  let current: number[] = [];
  for (const id of profile.samples) {
    if (byId.get(id)!.callFrame.functionName === '(idle)') {
      if (current.length > best.length) best = current;
      current = [];
    } else current.push(id);
  }
  if (current.length > best.length) best = current;
  const counts = new Map<string, number>();
  for (const id of best) counts.set(where(id), (counts.get(where(id)) ?? 0) + 1);
  const top = [...counts].sort((x, y) => y[1] - x[1])[0];
  return { ms: best.length, in: top ? top[0] : '' };
}

/** What one case measured: its answer and time, /healthz answers while it ran, loop stalls and memory. */
interface Measured<T> {
  result: T;
  ms: number;
  before: number;
  peak: number;
  worstHealthMs: number;
  p90HealthMs: number;
  loopMs: number;
  loopP99Ms: number;
  loopBusy: number;
  /** Longest stretch of main-thread CPU without a break (profile samples), and where it was spent. */
  busy: { ms: number; in: string };
}

/**
 * Resident memory sampled every 20 ms while `run` works (the peak seen), /healthz asked every 50 ms (the
 * slowest and the 90th-percentile answer: how long the API stalled), the event loop's delay (the longest
 * and the 99th percentile, sampled every 10 ms) and its utilisation (share of the time it was busy).
 */
async function measure<T>(run: () => Promise<T>): Promise<Measured<T>> {
  global.gc?.();
  // The longest the server's event loop (this process's) was held: a stall, or a CPU shared with others.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const elu = performance.eventLoopUtilization();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  health.start();
  await profiler.post('Profiler.start');
  const started = performance.now();
  try {
    const result = await run();
    const ms = Math.round(performance.now() - started);
    peak = Math.max(peak, process.memoryUsage().rss);
    loop.disable();
    const loopBusy = performance.eventLoopUtilization(elu).utilization;
    const times = (await health.stop()).sort((x, y) => x - y);
    // Last: handing over the profile is itself ~0.5 s of this thread's time after a long case.
    const { profile } = (await profiler.post('Profiler.stop')) as unknown as { profile: CpuProfile };
    return {
      result,
      ms,
      before,
      peak,
      worstHealthMs: times.at(-1) ?? 0,
      p90HealthMs: times[Math.floor(times.length * 0.9)] ?? 0,
      loopMs: loop.max / 1e6,
      loopP99Ms: loop.percentile(99) / 1e6,
      loopBusy,
      busy: longestBusyStretch(profile),
    };
  } finally {
    loop.disable();
    clearInterval(timer);
  }
}

/** A POST of `size` bytes declared in its Content-Length, stopped once the server answers: status and MB sent. */
function sendDeclared(url: string, size: number): Promise<string> {
  const chunk = Buffer.alloc(MB, 0x61);
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: new URL(url).origin,
        'content-length': String(size),
      },
    });
    req.on('response', (res) => {
      answered = true;
      res.resume();
      resolve(`${res.statusCode} after ${mb(sent)} sent`);
      req.destroy();
    });
    req.on('error', (error) => {
      if (!answered) resolve(`connection closed after ${mb(sent)} (${error.message})`);
    });
    const pump = () => {
      while (!answered && sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

/** A body of `size` bytes, produced in 1 MB chunks as it is sent (never whole in this process). */
function streamedBody(size: number, prefix: string, suffix: string): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(MB).fill(0x61);
  let sent = 0;
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      c.enqueue(enc.encode(prefix));
    },
    pull(c) {
      if (sent >= size) {
        c.enqueue(enc.encode(suffix));
        c.close();
        return;
      }
      c.enqueue(chunk);
      sent += chunk.length;
    },
  });
}

async function send(url: string, contentType: string, body: ReadableStream<Uint8Array>, cookie = '') {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': contentType, origin: new URL(url).origin, ...(cookie ? { cookie } : {}) },
      body,
      duplex: 'half',
    } as RequestInit);
    await res.text();
    return res.status;
  } catch (error) {
    return `connection closed (${(error as Error).message})`;
  }
}

// Hostile files are built before the server starts: building the zip bomb takes seconds, and an idle
// keep-alive connection the server closes meanwhile would fail the next request (ECONNRESET).
const zeros = new Uint8Array(24 * MB);
const bomb = zipSync(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`po-${i}.pdf`, zeros])));
const vector = strokedLinesPdf(5000);
const long = manyPagesPdf(100_000);

// A short extraction limit so the vector-heavy PDF's run ends in seconds, not two minutes.
const bench = await startBenchServer('hostile', { EXTRACT_TIMEOUT_MS: '10000', EXTRACT_CONCURRENCY: '1' });
const { server, dataDir } = bench;
health = startHealthPoller(`${server.url}/healthz`);
const startMemory = process.memoryUsage();
const rows: string[][] = [
  [
    'case',
    'answer',
    'ms',
    '/healthz worst / p90 ms',
    'loop delay max / p99 ms',
    'loop busy',
    'longest CPU stretch ms',
    'rss before',
    'rss peak',
  ],
];
const record = (name: string, m: Measured<unknown>) =>
  rows.push([
    name,
    String(m.result),
    String(m.ms),
    `${Math.round(m.worstHealthMs)} / ${Math.round(m.p90HealthMs)}`,
    `${Math.round(m.loopMs)} / ${Math.round(m.loopP99Ms)}`,
    `${Math.round(m.loopBusy * 100)}%`,
    `${m.busy.ms} (${m.busy.in})`,
    mb(m.before),
    mb(m.peak),
  ]);
let overallPeak = process.memoryUsage().rss;
const peakTimer = setInterval(() => {
  overallPeak = Math.max(overallPeak, process.memoryUsage().rss);
}, 20);
try {
  const size = 200 * MB;
  record(
    'anonymous 200 MB sign-in body, chunked',
    await measure(() =>
      send(
        `${server.url}/api/auth/sign-in/email`,
        'application/json',
        streamedBody(size, '{"email":"', '","password":"x"}'),
      ),
    ),
  );
  record(
    'anonymous 200 MB sign-in body, Content-Length',
    await measure(() => sendDeclared(`${server.url}/api/auth/sign-in/email`, size)),
  );
  record(
    'anonymous 200 MB JSON to /api/workflows',
    await measure(() =>
      send(`${server.url}/api/workflows`, 'application/json', streamedBody(size, '{"name":"', '"}')),
    ),
  );
  const boundary = 'bahihostile';
  record(
    'anonymous 200 MB upload to /api/flows/x/uploads',
    await measure(() =>
      send(
        `${server.url}/api/flows/x/uploads`,
        `multipart/form-data; boundary=${boundary}`,
        streamedBody(
          size,
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\n\r\n`,
          `\r\n--${boundary}--\r\n`,
        ),
      ),
    ),
  );
  const email = `bench-${Date.now()}@example.com`;
  const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ name: 'Bench', email, password: 'correct horse battery staple' }),
  });
  const cookie = (signUp.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
  record(
    'signed-in 200 MB JSON to /api/workflows',
    await measure(() =>
      send(`${server.url}/api/workflows`, 'application/json', streamedBody(size, '{"name":"', '"}'), cookie),
    ),
  );
  // A flow to upload into (onboarding first: flows belong to an organisation).
  const postJson = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url, cookie },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ id: string }>);
  await postJson('/api/organization', {
    orgName: 'Bench Traders',
    phone: '+91 98450 12345',
    orgType: 'pvt_ltd',
    address: '12 MG Road, Bengaluru',
  });
  const flow = await postJson('/api/workflows', {
    name: 'Bench uploads',
    types: ['INVOICE'],
    io: {
      input: { kind: 'upload', url: '', folderName: '' },
      output: { kind: 'xlsx', sheetId: '', sheetName: 'Bench' },
    },
  });
  // NUL and unpaired surrogates wherever a person types: each must be a 400 with a field message.
  const send4xx = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: server.url, cookie },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    await res.arrayBuffer();
    return res.status;
  };
  const anyId = '00000000-0000-4000-8000-000000000000';
  record(
    'NUL / lone surrogate in corrections, vendor, override, flow name, search, sign-up (14 requests)',
    await measure(async () => {
      const statuses: number[] = [];
      for (const bad of ['Tata\u0000Steel', 'Tata \uD83D Steel']) {
        statuses.push(await send4xx('PATCH', `/api/documents/${anyId}`, { fields: { vendorName: bad } }));
        statuses.push(await send4xx('PATCH', `/api/vendors/${anyId}`, { displayName: bad }));
        statuses.push(
          await send4xx('POST', `/api/reconcile/invoices/${anyId}/override`, { reason: `paid ${bad}` }),
        );
        statuses.push(await send4xx('PUT', `/api/workflows/${flow.id}`, { name: bad }));
        statuses.push(
          await send4xx('POST', '/api/workflows', {
            name: bad,
            types: ['INVOICE'],
            io: { input: { kind: 'upload' }, output: { kind: 'xlsx' } },
          }),
        );
        statuses.push(
          await send4xx('POST', '/api/auth/sign-up/email', {
            name: bad,
            email: `nul-${Date.now()}@example.com`,
            password: 'correct horse battery staple',
          }),
        );
      }
      statuses.push(await send4xx('GET', `/api/review?q=${encodeURIComponent('a\u0000b')}`));
      statuses.push(await send4xx('GET', `/api/review?vendor=${encodeURIComponent('a\u0000b')}`));
      const counts = new Map<number, number>();
      for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
      return [...counts].map(([status, n]) => `${n}× ${status}`).join(', ');
    }),
  );
  // The probe's zip bomb (built above): eight entries of 24 MB zeros, each under the 25 MB file limit, in ~200 KB.
  record(
    `signed-in ${Math.round(bomb.length / 1024)} KB zip bomb (192 MB inside) to a flow's uploads`,
    await measure(async () => {
      const form = new FormData();
      form.append('files', new Blob([Buffer.from(bomb)]), 'bomb.zip');
      const res = await fetch(`${server.url}/api/flows/${flow.id}/uploads`, {
        method: 'POST',
        headers: { origin: server.url, cookie },
        body: form,
      });
      const body = (await res.json()) as { stored: unknown[] };
      const kept = (await readdir(join(dataDir, 'uploads'), { recursive: true, withFileTypes: true })).filter(
        (e) => e.isFile(),
      );
      const bytes = (await Promise.all(kept.map((e) => stat(join(e.parentPath, e.name))))).reduce(
        (sum, s) => sum + s.size,
        0,
      );
      return `${res.status}, ${body.stored.length} stored, ${mb(bytes)} on disk`;
    }),
  );
  // A zip whose entry is encrypted (ZipCrypto flag): said to be password-protected, not damaged.
  const locked = zipSync({ 'bill.pdf': [new Uint8Array(2048).fill(7), { level: 0 }] });
  const lockedView = new DataView(locked.buffer, locked.byteOffset, locked.byteLength);
  lockedView.setUint16(6, lockedView.getUint16(6, true) | 1, true);
  record(
    "signed-in password-protected zip to a flow's uploads",
    await measure(async () => {
      const form = new FormData();
      form.append('files', new Blob([Buffer.from(locked)]), 'locked.zip');
      const res = await fetch(`${server.url}/api/flows/${flow.id}/uploads`, {
        method: 'POST',
        headers: { origin: server.url, cookie },
        body: form,
      });
      const body = (await res.json()) as { skipped: Array<{ reason: string }> };
      return `${res.status}: ${body.skipped[0]?.reason.split(',')[0] ?? 'nothing skipped'}`;
    }),
  );

  // Hostile PDFs through a run, then their review screen and page pictures.
  const pages = await postJson('/api/workflows', {
    name: 'Bench pages',
    types: ['INVOICE'],
    io: {
      input: { kind: 'upload', url: '', folderName: '' },
      output: { kind: 'xlsx', sheetId: '', sheetName: 'Pages' },
    },
  });
  const form = new FormData();
  form.append('files', new Blob([Buffer.from(await readFixture('invoice-018.pdf'))]), 'invoice.pdf');
  form.append('files', new Blob([vector]), 'vector-heavy.pdf');
  form.append('files', new Blob([long]), 'hundred-thousand-pages.pdf');
  await fetch(`${server.url}/api/flows/${pages.id}/uploads`, {
    method: 'POST',
    headers: { origin: server.url, cookie },
    body: form,
  });
  record(
    `run over a ${Math.round(vector.length / 1024)} KB vector-heavy PDF (5,000 wide strokes), a ${mb(long.length)} 100,000-page PDF and an invoice`,
    await measure(async () => {
      const run = await postJson(`/api/flows/${pages.id}/runs`, {});
      let status = '';
      for (let i = 0; i < 1200 && !['succeeded', 'failed'].includes(status); i++) {
        await new Promise((r) => setTimeout(r, 250));
        status = (
          (await fetch(`${server.url}/api/runs/${run.id}`, { headers: { cookie } }).then((r) =>
            r.json(),
          )) as {
            status: string;
          }
        ).status;
      }
      const docs = await server.db.select().from(documents).where(eq(documents.flowId, pages.id));
      return `run ${status}; ${docs.map((d) => `${d.fileName.split('.')[0]}: ${d.errorCode ?? d.status}`).join(', ')}`;
    }),
  );
  // The failed documents are not drawn; to measure drawing itself, they are marked read as if the engine
  // had read them (a file that reads fine but draws slowly, like a dense CAD drawing).
  const docs = await server.db.select().from(documents).where(eq(documents.flowId, pages.id));
  const byName = (prefix: string) => docs.find((d) => d.fileName.startsWith(prefix))!;
  const getText = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { cookie } });
    const body = Buffer.from(await res.arrayBuffer());
    return { res, body };
  };
  record(
    'review screen of the failed 100,000-page PDF (not drawn)',
    await measure(async () => {
      const { res, body } = await getText(`/api/documents/${byName('hundred').id}/review`);
      const review = JSON.parse(body.toString()) as { pages: unknown[]; pagesError: string | null };
      return `${res.status}, ${review.pages.length} pages: ${review.pagesError}`;
    }),
  );
  await server.db.update(documents).set({ status: 'done' }).where(eq(documents.flowId, pages.id));
  record(
    'review screen of the 100,000-page PDF, marked read',
    await measure(async () => {
      const { res, body } = await getText(`/api/documents/${byName('hundred').id}/review`);
      const review = JSON.parse(body.toString()) as { pages: unknown[]; pagesError: string | null };
      return `${res.status}, ${review.pages.length} pages listed (${mb(body.length)} answer): ${review.pagesError}`;
    }),
  );
  record(
    'page 1 of the vector-heavy PDF at 2400 px, marked read',
    await measure(async () => {
      const { res, body } = await getText(`/api/documents/${byName('vector').id}/pages/1?width=2400`);
      return `${res.status} ${res.headers.get('x-bahi-page-placeholder') ? 'placeholder' : 'drawn'}, ${Math.round(body.length / 1024)} KB`;
    }),
  );
  record(
    'page 1 of the vector-heavy PDF at 640 px, marked read',
    await measure(async () => {
      const { res, body } = await getText(`/api/documents/${byName('vector').id}/pages/1?width=640`);
      return `${res.status} ${res.headers.get('x-bahi-page-placeholder') ? 'placeholder' : 'drawn'}, ${Math.round(body.length / 1024)} KB`;
    }),
  );
  record(
    'page 1 of the vector-heavy PDF at 2400 px again (kept placeholder)',
    await measure(async () => {
      const { res } = await getText(`/api/documents/${byName('vector').id}/pages/1?width=2400`);
      return `${res.status} ${res.headers.get('x-bahi-page-placeholder') ? 'placeholder' : 'drawn'}`;
    }),
  );
  // Memory after the burst, before the engine case below loads the engine into this thread: extraction
  // and preview threads stop after an idle minute, giving theirs back (OS threads of the process counted).
  const threads = async () => (await readdir('/proc/self/task').catch(() => [])).length;
  const burstRss = process.memoryUsage().rss;
  const burstThreads = await threads();
  await new Promise((r) => setTimeout(r, 70_000));
  global.gc?.();
  const idle = process.memoryUsage();
  const idleRss = idle.rss;
  rows.push([
    'idle 70 s after the burst (worker threads retired)',
    `rss ${mb(burstRss)} → ${mb(idleRss)}, threads ${burstThreads} → ${await threads()}; ` +
      `JS heap ${mb(idle.heapTotal)}, external ${mb(idle.external)} (buffers, PGlite's WebAssembly memory) ` +
      `(at start: rss ${mb(startMemory.rss)}, heap ${mb(startMemory.heapTotal)}, external ${mb(startMemory.external)})`,
    '70000',
    '',
    '',
    '',
    '',
    mb(burstRss),
    mb(idleRss),
  ]);
  const pdf = new TextEncoder().encode(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
      '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 14400 14400]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );
  // The provider the server uses by default, one inference thread as in an extraction worker.
  const ocr = await createOcr(undefined, { workers: 1 });
  try {
    record(
      'engine: 200-inch PDF page',
      await measure(async () => (await extractDocument(pdf, { type: 'invoice', ocr })).error?.code ?? 'ok'),
    );
  } finally {
    await ocr.close();
  }
} finally {
  clearInterval(peakTimer);
  profiler.disconnect();
  await health.close();
  await bench.close();
}
rows.push(['whole bench', '', '', '', '', '', '', '', `peak ${mb(overallPeak)}`]);
console.log(
  `load average while it ran: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')} on ${availableParallelism()} cores`,
);
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
