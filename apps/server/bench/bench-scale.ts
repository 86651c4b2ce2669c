// `npm run bench:scale`: OCR-bound throughput of ONE flow with 1 and with 2 worker processes on one PostgreSQL.
// Real child processes (`node --import tsx src/main.ts` with RUN_JOBS=false, `... src/worker.ts`), each worker
// with one extraction thread (EXTRACT_CONCURRENCY=1: one core each, as if on its own 1-core machine). The
// work is scanned invoices from the dev corpus (truth `meta.scanned`, not photos), so Tesseract OCR dominates.
// One run's documents are spread over every worker process (the run leader plus `flow-run-extract`
// helpers claiming documents one by one), so a single large flow is what is measured. The workers are
// started and ready before the run starts: process start-up is outside the timed window (the first OCR of
// each worker thread, which starts Tesseract, is inside it).
// DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/postgres); a temporary database
// is created on it and dropped at the end. BENCH_DOCS sets the number of documents (default 24).
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { writeDistinctCopies } from '../scale/documents.ts';
import {
  type BahiProcess,
  startBahiProcess,
  stopBahiProcess,
  waitFor,
  waitUntilReady,
} from '../scale/processes.ts';
import { createFreshPostgresDatabase } from '../src/test/test-db.ts';
import { TestClient } from '../src/test/test-server.ts';

const DOCS = Number(process.env.BENCH_DOCS ?? 24);
const serverUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const corpus = new URL('../../../../shared/corpus/dev/', import.meta.url).pathname;

/** Scanned (OCR) single-page invoice PDFs of the dev corpus, smallest first. */
async function listScannedInvoices(): Promise<string[]> {
  const found: string[] = [];
  for (const name of (await readdir(corpus)).sort()) {
    if (!/^invoice-\d+\.pdf$/.test(name)) continue;
    const truth = JSON.parse(await readFile(join(corpus, name.replace('.pdf', '.truth.json')), 'utf8'));
    if (truth.meta?.scanned && !truth.meta?.photo && (truth.meta?.pages ?? 1) === 1)
      found.push(join(corpus, name));
  }
  return found;
}

/** `process_cpu_seconds_total` (user + system, every thread) from a worker's /metrics text. */
function cpuOf(metrics: string): number {
  return Number(/^process_cpu_seconds_total (\S+)$/m.exec(metrics)?.[1] ?? 0);
}

async function readCpuSeconds(worker: BahiProcess): Promise<number> {
  return cpuOf(await (await fetch(`http://127.0.0.1:${worker.port}/metrics`)).text());
}

const base = await mkdtemp(join(tmpdir(), 'bahi-bench-scale-'));
const db = await createFreshPostgresDatabase(serverUrl);
const sql = new pg.Client({ connectionString: db.url });
const processes: BahiProcess[] = [];
const common = {
  DATABASE_URL: db.url,
  LOG_LEVEL: 'warn',
  BAHI_FOLDER_ROOTS: join(base, 'roots'),
  EXTRACT_CONCURRENCY: '1',
};

try {
  const scanned = await listScannedInvoices();
  if (scanned.length === 0) throw new Error(`no scanned invoices in ${corpus}`);
  // One folder; each measurement is a new flow over it, so both work the same documents from scratch.
  const folder = join(base, 'roots', 'scans');
  await mkdir(folder, { recursive: true });
  await writeDistinctCopies(scanned, folder, DOCS, 'scan');
  await sql.connect();
  const api = await startBahiProcess('api', 'api', { ...common, DATA_DIR: join(base, 'api') });
  processes.push(api);
  await waitUntilReady(api, 180_000);
  const client = new TestClient(`http://127.0.0.1:${api.port}`);
  await client.signUpWithOrganization({ name: 'Bench', email: 'bench@example.com' }, 'Bench Pvt Ltd');

  /** Starts `workerCount` workers, waits until they are ready, then times one run of one flow. */
  async function measure(
    workerCount: number,
  ): Promise<{ seconds: number; docsPerSecond: number; failed: number; perWorker: string }> {
    const workers = await Promise.all(
      Array.from({ length: workerCount }, (_, i) =>
        startBahiProcess(`worker-${workerCount}-${i}`, 'worker', {
          ...common,
          DATA_DIR: join(base, `worker-${workerCount}-${i}`),
        }),
      ),
    );
    processes.push(...workers);
    await Promise.all(workers.map((w) => waitUntilReady(w, 180_000)));
    const flow = await client.post('/api/workflows', {
      name: `Scans with ${workerCount} worker(s)`,
      types: ['INVOICE'],
      io: {
        input: { kind: 'local', url: folder, folderName: 'scans' },
        output: { kind: 'xlsx', sheetId: '', sheetName: '' },
      },
    });
    if (flow.status !== 201) throw new Error(`flow failed: ${flow.status} ${JSON.stringify(flow.body)}`);
    const cpuBefore = await Promise.all(workers.map(readCpuSeconds));
    const started = performance.now();
    const run = await client.post(`/api/flows/${flow.body.id}/runs`);
    if (run.status !== 202) throw new Error(`run failed to start: ${run.status}`);
    const runIds = [run.body.id as string];
    await waitFor(
      `the ${workerCount}-worker run`,
      async () => {
        const { rows } = await sql.query(
          `select count(*)::int as open from runs where id = any($1::uuid[]) and status in ('queued','running')`,
          [runIds],
        );
        return rows[0].open === 0 ? true : undefined;
      },
      3_600_000,
      () => workers.map((w) => w.output().slice(-800)).join('\n'),
    );
    const seconds = (performance.now() - started) / 1000;
    const { rows } = await sql.query(
      `select count(*)::int as docs, count(*) filter (where status = 'failed')::int as failed
         from documents where run_id = any($1::uuid[])`,
      [runIds],
    );
    // Each worker's own metrics: how many documents it stored, its mean extraction wall time and the CPU
    // seconds its process (all threads) used during the run — wall time per document growing while CPU per
    // document stays put means the cores were shared with something else, not that Bahi did more work.
    const perWorker: string[] = [];
    for (const [i, w] of workers.entries()) {
      const text = await (await fetch(`http://127.0.0.1:${w.port}/metrics`)).text();
      const sum = Number(/^bahi_extraction_seconds_sum (\S+)$/m.exec(text)?.[1] ?? 0);
      const n = Number(/^bahi_extraction_seconds_count (\S+)$/m.exec(text)?.[1] ?? 0);
      const cpu = cpuOf(text) - cpuBefore[i]!;
      perWorker.push(
        `${n} docs, ${(n ? sum / n : 0).toFixed(1)} s/doc wall, ${(n ? cpu / n : 0).toFixed(1)} CPU s/doc`,
      );
    }
    for (const w of workers) await stopBahiProcess(w);
    return {
      seconds,
      docsPerSecond: rows[0].docs / seconds,
      failed: rows[0].failed,
      perWorker: perWorker.join('; '),
    };
  }

  const loadBefore = loadavg()[0]!;
  const one = await measure(1);
  const two = await measure(2);
  const ratio = two.docsPerSecond / one.docsPerSecond;
  console.log(
    [
      `bench:scale one flow of ${DOCS} scanned (OCR) invoices, PostgreSQL, 1 extraction thread per worker process`,
      `1 worker:  ${one.docsPerSecond.toFixed(3)} documents/s (${one.seconds.toFixed(1)} s, ${one.failed} failed; ${one.perWorker})`,
      `2 workers: ${two.docsPerSecond.toFixed(3)} documents/s (${two.seconds.toFixed(1)} s, ${two.failed} failed; ${two.perWorker})`,
      `ratio ${ratio.toFixed(2)}x (goal >= 1.8x)`,
      `machine: ${availableParallelism()} cores, load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`,
    ].join('\n'),
  );
} finally {
  for (const p of processes) await stopBahiProcess(p, 5000);
  await sql.end().catch(() => {});
  await db.drop();
  await rm(base, { recursive: true, force: true });
}
