// `npm run bench:flow`: a flow over N text-layer documents (default 500, copies of the dev corpus's text PDFs
// in a temp folder) end to end — real server, session, local-folder source, pg-boss queue, worker-thread
// extraction pool, workbook — printing documents/s, peak RSS and the API's worst /healthz latency meanwhile.
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startServer } from '../src/server.ts';
import { TestClient } from '../src/test/test-server.ts';

const count = Number(process.argv[2] ?? process.env.BENCH_DOCS ?? 500);
const corpus = new URL('../../../../shared/corpus/dev/', import.meta.url);

/** Invoices of the dev corpus that have a text layer (the truth's meta says whether it is a scan). */
async function listTextInvoices(): Promise<string[]> {
  const dir = corpus.pathname;
  const out: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    if (!/^invoice-\d+\.pdf$/.test(name)) continue;
    const truth = JSON.parse(await readFile(join(dir, name.replace('.pdf', '.truth.json')), 'utf8'));
    if (!truth.meta?.scanned && !truth.meta?.photo) out.push(join(dir, name));
  }
  return out;
}

const base = await mkdtemp(join(tmpdir(), 'bahi-bench-'));
const folder = join(base, 'folders', 'invoices');
await mkdir(folder, { recursive: true });
const sources = await listTextInvoices();
if (sources.length === 0) throw new Error(`no text-layer invoices found in ${corpus.pathname}`);
for (let i = 0; i < count; i++)
  await copyFile(sources[i % sources.length]!, join(folder, `inv-${String(i).padStart(4, '0')}.pdf`));

const server = await startServer({
  env: {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: join(base, 'data'),
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    PUBLIC_URL: '',
    LOG_LEVEL: 'silent',
    BAHI_FOLDER_ROOTS: join(base, 'folders'),
  },
  webDist: join(base, 'no-web'),
  logger: pino({ level: 'silent' }),
});

let peakRss = process.memoryUsage().rss;
const rssTimer = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100);

try {
  const client = new TestClient(server.url);
  await client.signUpWithOrganization({ name: 'Bench', email: 'bench@example.com' }, 'Bench Pvt Ltd');
  const flow = await client.post('/api/workflows', {
    name: 'Bench invoices',
    types: ['INVOICE'],
    io: {
      input: { kind: 'local', url: folder, folderName: 'invoices' },
      output: { kind: 'xlsx', sheetId: '', sheetName: 'Bench' },
    },
  });
  if (flow.status !== 201) throw new Error(`flow failed: ${flow.status} ${JSON.stringify(flow.body)}`);

  const started = Date.now();
  const run = await client.post(`/api/flows/${flow.body.id}/runs`);
  let worstHealthMs = 0;
  let resets = 0;
  let status = run.body.status as string;
  let last = run.body;
  while (status === 'queued' || status === 'running') {
    await new Promise((r) => setTimeout(r, 500));
    const t0 = performance.now();
    try {
      await fetch(`${server.url}/healthz`);
      worstHealthMs = Math.max(worstHealthMs, performance.now() - t0);
      last = (await client.get(`/api/runs/${run.body.id}`)).body;
    } catch {
      // A keep-alive socket closed by the server as we reused it: not a server failure; ask again.
      resets++;
      continue;
    }
    status = last.status;
  }
  const seconds = (Date.now() - started) / 1000;
  const workbook = await client.raw(`/api/flows/${flow.body.id}/sheet.xlsx`);
  const bytes = (await workbook.arrayBuffer()).byteLength;
  const c = last.counts;
  console.log(
    [
      `bench:flow ${count} documents (${sources.length} distinct text-layer invoices), ${server.env.flows.extractConcurrency} extraction threads, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`,
      `run ${status}: done ${c.done}, needs review ${c.needsReview}, failed ${c.failed} in ${seconds.toFixed(1)} s`,
      `throughput ${(count / seconds).toFixed(2)} documents/s (scan + extract + store + workbook)`,
      `peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MB (server + worker threads)`,
      `worst /healthz latency during the run ${worstHealthMs.toFixed(0)} ms (${resets} keep-alive resets retried)`,
      `machine load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${availableParallelism()} cores`,
      `workbook ${(bytes / 1024).toFixed(0)} KB`,
    ].join('\n'),
  );
} finally {
  clearInterval(rssTimer);
  await server.close();
  await rm(base, { recursive: true, force: true });
}
