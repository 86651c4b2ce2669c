import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../test/test-server.ts';
import { fixturesDir } from '../flows/test-support.ts';

// A real server process is killed with SIGKILL in the middle of a run and started again on the same data
// folder (embedded PGlite): the run resumes on its own and ends with exactly one row per document.

const mainTs = fileURLToPath(new URL('../../main.ts', import.meta.url));
const DOCS = 6;

async function findFreePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** What the server processes wrote to stderr, shown when the test fails. */
let stderr = '';

function startChild(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', mainTs], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  return child;
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; server stderr:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('a server killed mid-run', () => {
  it('resumes the run after restart and ends with one row per document', { timeout: 600_000 }, async () => {
    const base = await mkdtemp(join(tmpdir(), 'bahi-kill-'));
    cleanups.push(() => rm(base, { recursive: true, force: true }));
    const folder = join(base, 'roots', 'inbox');
    await mkdir(folder, { recursive: true });
    const samples = ['invoice-018.pdf', 'invoice-040.pdf', 'invoice-011.pdf'];
    for (let i = 0; i < DOCS; i++)
      await copyFile(join(fixturesDir, samples[i % samples.length]!), join(folder, `doc-${i}.pdf`));
    const port = await findFreePort();
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(base, 'data'),
      DATABASE_URL: '', // the embedded default: this process alone owns the database
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'silent',
      BAHI_FOLDER_ROOTS: join(base, 'roots'),
      EXTRACT_CONCURRENCY: '1',
    };
    const url = `http://127.0.0.1:${port}`;
    const healthy = () => fetch(`${url}/healthz`).then((r) => (r.ok ? true : undefined));

    let child = startChild(env);
    cleanups.push(async () => {
      child.kill('SIGKILL');
    });
    // On-disk PGlite's first start (initdb) can take most of a minute on a busy machine.
    await waitFor('first start', healthy, 240_000);
    const client = new TestClient(url);
    expect(
      (
        await client.signUp({
          name: 'Kill',
          email: 'kill@example.com',
          password: 'correct horse battery staple',
        })
      ).status,
    ).toBe(200);
    await client.post('/api/organization', {
      orgName: 'Kill Pvt Ltd',
      phone: '+91 98450 12345',
      orgType: 'pvt_ltd',
      address: 'Pune',
    });
    const flow = await client.post('/api/workflows', {
      name: 'Inbox',
      types: ['INVOICE'],
      io: {
        input: { kind: 'local', url: folder, folderName: 'inbox' },
        output: { kind: 'xlsx', sheetId: '', sheetName: '' },
      },
    });
    const run = await client.post(`/api/flows/${flow.body.id}/runs`);
    expect(run.status).toBe(202);

    // Kill once some documents are finished and others are not.
    await waitFor(
      'some progress',
      async () => {
        const r = (await client.get(`/api/runs/${run.body.id}`)).body;
        return r.counts.done + r.counts.needsReview >= 2 ? r : undefined;
      },
      120_000,
    );
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    child = startChild(env);
    await waitFor('restart', healthy, 240_000);
    const finished = await waitFor(
      'the resumed run to finish',
      async () => {
        const r = (await client.get(`/api/runs/${run.body.id}`)).body;
        return r.status === 'succeeded' || r.status === 'failed' ? r : undefined;
      },
      150_000,
    );
    expect(finished.status).toBe('succeeded');
    expect(finished.counts.total).toBe(DOCS);
    expect(finished.counts.done + finished.counts.needsReview).toBe(DOCS);

    // Six files, three invoices: one row each, and each second copy waits in review as a possible
    // duplicate, out of the sheet, however the restart fell.
    const sheet = (await client.get(`/api/flows/${flow.body.id}/sheet?tab=documents`)).body;
    expect(sheet.total).toBe(samples.length);
    expect(new Set(sheet.rows.map((r: { fileName: string }) => r.fileName)).size).toBe(samples.length);
    const docs = (await client.get(`/api/flows/${flow.body.id}/documents`)).body;
    expect(docs.total).toBe(DOCS);
    expect(
      docs.items.filter((d: { failedChecks: string[] }) => d.failedChecks.includes('possible_duplicate')),
    ).toHaveLength(DOCS - samples.length);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  });
});
