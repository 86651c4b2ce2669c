import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { hasDovecot, startDovecot, type TestMailServer } from '../../test/dovecot.ts';
import { buildMessage } from '../../test/mime.ts';
import { TestClient } from '../../test/test-server.ts';
import { readFixture } from '../flows/test-support.ts';

// A real server process is killed with SIGKILL while it takes mail in (a message claimed, its attachment
// perhaps stored, not yet finished) and started again on the same data folder: nothing is lost and nothing
// is doubled — every message's attachment is one document.

const mainTs = fileURLToPath(new URL('../../main.ts', import.meta.url));
const MESSAGES = 60;
let stderr = '';
const cleanups: Array<() => Promise<void>> = [];

afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

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
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!hasDovecot())('a server killed while it takes mail in', () => {
  it('takes every message once after the restart', { timeout: 600_000 }, async () => {
    const mail: TestMailServer = await startDovecot();
    cleanups.push(() => mail.stop());
    const base = await mkdtemp(join(tmpdir(), 'bahi-mail-kill-'));
    cleanups.push(() => rm(base, { recursive: true, force: true }));
    const pdf = await readFixture('invoice-011.pdf');
    const client = await mail.connect();
    await client.mailboxCreate('Bills');
    for (let i = 0; i < MESSAGES; i++) {
      const copy = Buffer.concat([Buffer.from(pdf), Buffer.from(`\n% copy ${i}\n`)]);
      await client.append(
        'Bills',
        buildMessage({
          from: 'billing@vendor.example',
          subject: `Bill ${i}`,
          parts: [{ name: `bill-${i}.pdf`, type: 'application/pdf', bytes: copy }],
        }),
        [],
      );
    }
    await client.logout();

    const port = await freePort();
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(base, 'data'),
      DATABASE_URL: '',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'silent',
      EXTRACT_CONCURRENCY: '1',
    };
    const url = `http://127.0.0.1:${port}`;
    const healthy = () => fetch(`${url}/healthz`).then((r) => (r.ok ? true : undefined));
    let child = startChild(env);
    cleanups.push(async () => {
      child.kill('SIGKILL');
    });
    await waitFor('first start', healthy, 240_000);
    const api = new TestClient(url);
    await api.signUp({ name: 'Kill', email: 'kill@example.com', password: 'correct horse battery staple' });
    await api.post('/api/organization', {
      orgName: 'Kill Pvt Ltd',
      phone: '+91 98450 12345',
      orgType: 'pvt_ltd',
      address: 'Pune',
    });
    const flow = await api.post('/api/workflows', {
      name: 'Bills by mail',
      types: ['INVOICE'],
      io: {
        input: {
          kind: 'email',
          url: '',
          folderName: '',
          mail: {
            host: mail.host,
            port: mail.port,
            tls: false,
            user: mail.user,
            password: mail.password,
            folder: 'Bills',
          },
        },
        output: { kind: 'xlsx', sheetId: '', sheetName: '' },
      },
    });
    expect(flow.status).toBe(201);
    const run = await api.post(`/api/flows/${flow.body.id}/runs`);
    expect(run.status).toBe(202);
    const taken = async () =>
      (
        (await api.get(`/api/flows/${flow.body.id}/intake`)).body.items as Array<{
          status: string;
          name: string;
        }>
      ).filter((i) => i.status === 'taken');
    // Kill as soon as the first messages are in: the poll is still going.
    const before = await waitFor(
      'mail being taken in',
      async () => {
        const items = await taken();
        return items.length >= 2 ? items.length : undefined;
      },
      120_000,
    );
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(before).toBeLessThan(MESSAGES);

    child = startChild(env);
    await waitFor('restart', healthy, 240_000);
    const finished = await waitFor(
      'the resumed run to finish',
      async () => {
        const r = (await api.get(`/api/runs/${run.body.id}`)).body;
        return r.status === 'succeeded' || r.status === 'failed' ? r : undefined;
      },
      300_000,
    );
    // The resumed run may have been scanned before the kill; a second run takes whatever arrived after.
    const again = await api.post(`/api/flows/${flow.body.id}/runs`);
    if (again.status === 202)
      await waitFor(
        'the second run',
        async () => {
          const r = (await api.get(`/api/runs/${again.body.id}`)).body;
          return r.status === 'succeeded' || r.status === 'failed' ? r : undefined;
        },
        300_000,
      );
    expect(finished.status).toBe('succeeded');
    const items = await taken();
    expect(items).toHaveLength(MESSAGES);
    expect(new Set(items.map((i) => i.name)).size).toBe(MESSAGES);
    const docs = (await api.get(`/api/flows/${flow.body.id}/documents?limit=200`)).body;
    expect(docs.total).toBe(MESSAGES);
    expect(new Set(docs.items.map((d: { fileName: string }) => d.fileName)).size).toBe(docs.items.length);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  });
});
