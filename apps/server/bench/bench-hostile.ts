/**
 * `npm run bench:hostile`: replays hostile request bodies and files against a real server (embedded
 * PGlite in a temporary DATA_DIR, in this process) and reports, per case, the answer, the time and
 * the process's resident memory before and after (peak of the sampled RSS). Cases: a 200 MB JSON
 * body and a 200 MB multipart upload sent without a session, a 200 MB JSON body with one, a zip bomb
 * uploaded into a flow, and a 200-inch PDF page through the engine.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createOcr, extractDocument } from '@bahi/engine';
import { zipSync } from 'fflate';
import { startBenchServer } from './bench-support.ts';

const MB = 1024 * 1024;
const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/** Resident memory sampled every 20 ms while `run` works: the peak seen. */
async function measure<T>(
  run: () => Promise<T>,
): Promise<{ result: T; ms: number; before: number; peak: number }> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  try {
    const result = await run();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, ms: Math.round(performance.now() - started), before, peak };
  } finally {
    clearInterval(timer);
  }
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

const bench = await startBenchServer('hostile');
const { server, dataDir } = bench;
const rows: string[][] = [['case', 'answer', 'ms', 'rss before', 'rss peak']];
const record = (name: string, m: { result: unknown; ms: number; before: number; peak: number }) =>
  rows.push([name, String(m.result), String(m.ms), mb(m.before), mb(m.peak)]);
try {
  const size = 200 * MB;
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
  // The probe's zip bomb: eight entries of 24 MB zeros, each under the 25 MB file limit, in ~200 KB.
  const zeros = new Uint8Array(24 * MB);
  const bomb = zipSync(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`po-${i}.pdf`, zeros])));
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
  await bench.close();
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
