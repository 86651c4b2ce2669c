import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '../src/modules/flows/test-support.ts';
import { createFreshPostgresDatabase, readTestDatabaseUrl } from '../src/test/test-db.ts';
import { TestClient } from '../src/test/test-server.ts';
import { writeDistinctCopies } from './documents.ts';
import { type BahiProcess, startBahiProcess, stopBahiProcess, waitFor, waitUntilReady } from './processes.ts';

// Scale-out on the real PostgreSQL server: one API process (RUN_JOBS=false) and three `npm run worker`
// processes — real child processes, started together on an empty database — work one flow of 300 distinct
// documents together: the run's leader and `flow-run-extract` helpers in the other workers claim documents
// one by one (per-document lease). The leader is SIGKILLed halfway; the others keep extracting, the
// document it held is taken over once its claim lapses, another worker takes the run over once the run
// lease lapses. A second worker is then stopped with SIGTERM mid-document and hands its document back. The
// database ends with exactly 300 document rows and each document's line rows once.

const baseUrl = readTestDatabaseUrl();
const DOCS = 300;
const WORKERS = 3;
/** Short lease so the killed worker's run is taken over within seconds (production default: 90 s). */
const LEASE_SECONDS = 8;

if (!baseUrl) {
  console.warn(
    'apps/server/scale/scale.pg.test.ts skipped: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run the multi-process PostgreSQL scale test',
  );
}

describe.skipIf(!baseUrl)('scale-out on PostgreSQL: 1 API + 3 worker processes', () => {
  let base: string;
  let db: { url: string; drop: () => Promise<void> };
  let sql: pg.Client;
  let api: BahiProcess;
  const workers: BahiProcess[] = [];
  let folder: string;
  let copies: Array<{ name: string; source: string }>;

  const everyProcess = () => [api, ...workers].filter(Boolean);
  const explain = () =>
    everyProcess()
      .map((p) => `--- ${p.name}:\n${p.output().slice(-1500)}`)
      .join('\n');

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'bahi-scale-'));
    folder = join(base, 'roots', 'inbox');
    await mkdir(folder, { recursive: true });
    const samples = ['invoice-018.pdf', 'invoice-040.pdf', 'invoice-011.pdf'].map((f) =>
      join(fixturesDir, f),
    );
    copies = await writeDistinctCopies(samples, folder, DOCS);
    db = await createFreshPostgresDatabase(baseUrl!);
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
  });

  afterAll(async () => {
    for (const p of everyProcess()) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(everyProcess().map((p) => p.exited));
    await sql?.end();
    await db?.drop();
    await rm(base, { recursive: true, force: true });
  });

  it('migrates exactly once when the API and three workers start together on an empty database', {
    timeout: 120_000,
  }, async () => {
    const common = {
      DATABASE_URL: db.url,
      LOG_LEVEL: 'info',
      BAHI_FOLDER_ROOTS: join(base, 'roots'),
      // One extraction thread per worker keeps three workers within this 2-core machine.
      EXTRACT_CONCURRENCY: '1',
      RUN_LEASE_SECONDS: String(LEASE_SECONDS),
    };
    // Each process gets its own DATA_DIR, as on separate machines: only the database is shared.
    const starting = [
      startBahiProcess('api', 'api', { ...common, DATA_DIR: join(base, 'api') }),
      ...Array.from({ length: WORKERS }, (_, i) =>
        startBahiProcess(`worker-${i + 1}`, 'worker', { ...common, DATA_DIR: join(base, `worker-${i + 1}`) }),
      ),
    ];
    const [first, ...rest] = await Promise.all(starting);
    api = first!;
    workers.push(...rest);
    await Promise.all(everyProcess().map((p) => waitUntilReady(p, 100_000)));

    const journal = JSON.parse(
      await readFile(new URL('../drizzle/meta/_journal.json', import.meta.url), 'utf8'),
    ) as { entries: unknown[] };
    const applied = await sql.query('select hash from drizzle.__drizzle_migrations');
    expect(applied.rowCount).toBe(journal.entries.length);
    expect(new Set(applied.rows.map((r) => r.hash)).size).toBe(journal.entries.length);
    for (const p of everyProcess()) expect(p.child.exitCode, `${p.name} exited`).toBeNull();
  });

  it('runs uploads received by the API on workers that cannot see its folder (database blob store)', {
    timeout: 120_000,
  }, async () => {
    expect(api, 'the start-up test must have started the processes').toBeDefined();
    const client = new TestClient(`http://127.0.0.1:${api.port}`);
    expect(
      (
        await client.signUp({
          name: 'Uploader',
          email: 'uploader@example.com',
          password: 'correct horse battery staple',
        })
      ).status,
    ).toBe(200);
    await client.post('/api/organization', {
      orgName: 'Upload Pvt Ltd',
      phone: '+91 98450 12345',
      orgType: 'pvt_ltd',
      address: 'Pune',
    });
    const flow = await client.post('/api/workflows', {
      name: 'Uploads',
      types: ['INVOICE'],
      io: {
        input: { kind: 'upload', url: '', folderName: '' },
        output: { kind: 'xlsx', sheetId: '', sheetName: '' },
      },
    });
    expect(flow.status).toBe(201);
    const form = new FormData();
    for (const name of ['invoice-018.pdf', 'invoice-040.pdf', 'invoice-011.pdf'])
      form.append('files', new Blob([await readFile(join(fixturesDir, name))]), name);
    const uploaded = await client.request(`/api/flows/${flow.body.id}/uploads`, {
      method: 'POST',
      body: form,
    });
    expect(uploaded.status).toBe(201);
    // Workers elsewhere cannot see the API machine's DATA_DIR: take its copy away.
    await rm(join(base, 'api', 'uploads'), { recursive: true, force: true });
    const run = await client.post(`/api/flows/${flow.body.id}/runs`);
    expect(run.status).toBe(202);
    const finished = await waitFor(
      'the upload run',
      async () => {
        const r = (await client.get(`/api/runs/${run.body.id}`)).body;
        return r.status === 'succeeded' || r.status === 'failed' ? r : undefined;
      },
      90_000,
      explain,
    );
    expect(finished.status).toBe('succeeded');
    expect(finished.counts.done + finished.counts.needsReview).toBe(3);
    const { rows } = await sql.query('select id, source_path from documents where flow_id = $1', [
      flow.body.id,
    ]);
    expect(rows).toHaveLength(3);
    // A document records where the API stored its upload (the scan reads no bytes: the upload's name is its
    // hash); the workers that extracted them fetched the bytes from the database into their own cache.
    for (const r of rows) expect(r.source_path).toMatch(/[\\/]api[\\/]uploads[\\/]/);
    const fetched = new Set<string>();
    for (const worker of ['worker-1', 'worker-2', 'worker-3'])
      for (const name of await readdir(join(base, worker, 'upload-cache'), { recursive: true }).catch(
        () => [],
      ))
        if (name.endsWith('.pdf')) fetched.add(basename(name));
    expect([...fetched].sort()).toEqual(rows.map((r) => basename(r.source_path)).sort());
    // The API serves the document's file (the sheet's link back) from the database copy too.
    const file = await client.raw(`/api/documents/${rows[0].id}/file`);
    expect(file.status).toBe(200);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('works 300 documents exactly once although the worker holding the run is SIGKILLed halfway and another stopped', {
    timeout: 240_000,
  }, async () => {
    expect(api, 'the start-up test must have started the processes').toBeDefined();
    const client = new TestClient(`http://127.0.0.1:${api.port}`);
    // The bare BAHI_FOLDER_ROOTS entry belongs to the server's first organisation: the uploads test's.
    expect(
      (await client.signIn({ email: 'uploader@example.com', password: 'correct horse battery staple' }))
        .status,
    ).toBe(200);
    const flow = await client.post('/api/workflows', {
      name: 'Scale inbox',
      types: ['INVOICE'],
      io: {
        input: { kind: 'local', url: folder, folderName: 'inbox' },
        output: { kind: 'xlsx', sheetId: '', sheetName: '' },
      },
    });
    expect(flow.status).toBe(201);
    const run = await client.post(`/api/flows/${flow.body.id}/runs`);
    expect(run.status).toBe(202);
    const runId = run.body.id as string;

    // Halfway: at least half the documents stored. The lease owner's id embeds its process id.
    const owner = await waitFor(
      'half of the documents',
      async () => {
        const { rows } = await sql.query(
          `select r.lease_owner,
                  (select count(*)::int from documents d
                    where d.run_id = r.id and d.status in ('done','needs_review','failed')) as finished
             from runs r where r.id = $1`,
          [runId],
        );
        const row = rows[0] as { lease_owner: string | null; finished: number } | undefined;
        return row?.lease_owner && row.finished >= DOCS / 2 ? row.lease_owner : undefined;
      },
      150_000,
      explain,
    );
    const victim = workers.find((w) => owner.split(':')[1] === String(w.child.pid));
    expect(victim, `lease owner ${owner} is one of the workers`).toBeDefined();
    victim!.child.kill('SIGKILL');
    expect(await victim!.exited).toBe('SIGKILL');
    const killedAt = Date.now();
    const pidOf = (claimant: string) => Number(claimant.split(':')[1]);

    // Graceful stop mid-run: one survivor gets SIGTERM while it is extracting a document. It must exit 0
    // and, by the time it has exited, hold no document any more — handed back (pending again, for the
    // other worker at once) or finished — instead of leaving it to lapse like the killed one.
    const survivors = workers.filter((w) => w !== victim);
    const caught = await waitFor(
      'a surviving worker extracting a document',
      async () => {
        const { rows } = await sql.query(
          `select id, claimed_by from documents where run_id = $1 and status = 'processing'`,
          [runId],
        );
        for (const r of rows as Array<{ id: string; claimed_by: string }>) {
          const worker = survivors.find((w) => w.child.pid === pidOf(r.claimed_by));
          if (worker) return { worker, documentId: r.id, claimant: r.claimed_by };
        }
        return undefined;
      },
      60_000,
      explain,
    );
    const stopped = caught.worker;
    expect(await stopBahiProcess(stopped)).toBe(0);
    const { rows: stillHeld } = await sql.query(
      `select count(*)::int as n from documents where claimed_by = $1 and status = 'processing'`,
      [caught.claimant],
    );
    expect(stillHeld[0].n).toBe(0);
    const handedBack = stopped.output().includes('document handed back on shutdown');
    // SIGTERM may reach the worker after it finished the caught document and claimed another: only a
    // document it says it handed back went to another worker.
    const handedBackIds = stopped
      .output()
      .split('\n')
      .filter((line) => line.includes('document handed back on shutdown'))
      .map((line) => /"documentId":"([^"]+)"/.exec(line)?.[1]);
    const last = survivors.find((w) => w !== stopped)!;

    const finished = await waitFor(
      'the run to finish on another worker',
      async () => {
        const r = (await client.get(`/api/runs/${runId}`)).body;
        return r.status === 'succeeded' || r.status === 'failed' ? r : undefined;
      },
      150_000,
      explain,
    );
    const takeoverSeconds = (Date.now() - killedAt) / 1000;
    expect(finished.status).toBe('succeeded');
    expect(finished.counts.total).toBe(DOCS);
    expect(finished.counts.done + finished.counts.needsReview).toBe(DOCS);

    // The database, not the API's summary, is the proof.
    const { rows: runRows } = await sql.query('select lease_owner, attempts from runs where id = $1', [
      runId,
    ]);
    expect(runRows[0].lease_owner).toBeNull();
    expect(runRows[0].attempts).toBeGreaterThanOrEqual(2); // taken over after the kill
    const { rows: docs } = await sql.query(
      `select d.id, d.file_name, d.status,
              coalesce(jsonb_array_length(d.extraction->'lineItems'), 0)::int as expected_lines,
              (select count(*)::int from document_lines l where l.document_id = d.id) as lines,
              (select count(distinct l.line_no)::int from document_lines l where l.document_id = d.id) as distinct_lines
         from documents d where d.flow_id = $1`,
      [flow.body.id],
    );
    expect(docs).toHaveLength(DOCS);
    expect(new Set(docs.map((d) => d.file_name)).size).toBe(DOCS);
    expect(docs.filter((d) => d.status === 'processing' || d.status === 'pending')).toEqual([]);
    const linesBySource = new Map<string, Set<number>>();
    const sourceOf = new Map(copies.map((c) => [c.name, c.source]));
    for (const d of docs) {
      expect(d.lines, d.file_name).toBe(d.expected_lines);
      expect(d.distinct_lines, d.file_name).toBe(d.lines);
      const source = sourceOf.get(d.file_name)!;
      linesBySource.set(source, (linesBySource.get(source) ?? new Set()).add(d.lines));
    }
    // Copies of one PDF must all have the same rows: a doubled or dropped set would stand out here.
    for (const [source, counts] of linesBySource) {
      expect([...counts], source).toHaveLength(1);
      expect([...counts][0], source).toBeGreaterThan(0);
    }
    const total = await sql.query('select count(*)::int as n from document_lines where flow_id = $1', [
      flow.body.id,
    ]);
    expect(total.rows[0].n).toBe(docs.reduce((sum, d) => sum + d.lines, 0));

    // One run, several processes: documents were extracted by more than one worker (claimed_by keeps who
    // stored each), and every claimant is one of the worker processes.
    const { rows: byWorker } = await sql.query(
      `select claimed_by, count(*)::int as n from documents where run_id = $1 group by claimed_by order by n desc`,
      [runId],
    );
    const workerPids = new Set(workers.map((w) => w.child.pid));
    for (const r of byWorker) expect(workerPids.has(pidOf(r.claimed_by)), r.claimed_by).toBe(true);
    expect(byWorker.length).toBeGreaterThan(1);
    expect(byWorker.reduce((sum, r) => sum + r.n, 0)).toBe(DOCS);
    const role = (claimant: string) =>
      pidOf(claimant) === victim!.child.pid
        ? ' (killed)'
        : pidOf(claimant) === stopped.child.pid
          ? ' (stopped)'
          : '';
    const split = byWorker.map((r) => `${r.n}${role(r.claimed_by)}`).join(' + ');
    // The document the stopped worker held ended once, by whoever stored it.
    const { rows: held } = await sql.query(
      'select status, claimed_by, attempts from documents where id = $1',
      [caught.documentId],
    );
    expect(['done', 'needs_review']).toContain(held[0].status);
    if (handedBackIds.includes(caught.documentId)) expect(held[0].claimed_by).not.toBe(caught.claimant);

    // The API's metrics see the queue; the last worker's metrics counted the documents it stored and the
    // killed worker's document it claimed again once that claim lapsed (it was the only worker left).
    const metrics = await (await fetch(`http://127.0.0.1:${api.port}/metrics`)).text();
    expect(metrics).toContain('bahi_queue_jobs');
    const lastMetrics = await (await fetch(`http://127.0.0.1:${last.port}/metrics`)).text();
    const counted = [
      ...lastMetrics.matchAll(/^bahi_documents_processed_total\{status="[a-z_]+"\} (\d+)/gm),
    ].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(counted).toBeGreaterThan(0);
    const takenOver = Number(
      /^bahi_document_claims_total\{kind="taken_over"\} (\d+)/m.exec(lastMetrics)?.[1] ?? 0,
    );
    console.log(
      `scale test: ${DOCS} documents, ${WORKERS} workers, lease ${LEASE_SECONDS} s; documents per worker ${split}; the stopped worker ${handedBack ? 'handed its document back' : 'finished its document'}; ${takenOver} document(s) taken over; run finished ${takeoverSeconds.toFixed(1)} s after the SIGKILL; the last worker's metrics count ${counted} documents`,
    );

    // Graceful stop: SIGTERM ends the last worker and the API with exit code 0.
    for (const p of [last, api]) expect(await stopBahiProcess(p)).toBe(0);
  });
});
