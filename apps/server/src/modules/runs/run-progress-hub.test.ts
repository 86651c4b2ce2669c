import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runs } from '../../db/schema/index.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { createWorkflow } from '../flows/flows.service.ts';
import { createMember, createTestEnv } from '../flows/test-support.ts';
import { createRunProgressHub } from './run-progress-hub.ts';
import { insertRun, type RunRow } from './runs.repo.ts';
import { applyLiveCounts, toProgress } from './runs.service.ts';

describe('the run progress hub', () => {
  let t: TestDb;
  let run: RunRow;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    t = await createTestDb();
    const made = await createTestEnv();
    cleanup = made.cleanup;
    const member = await createMember(t.db, 'Asha');
    const flow = await createWorkflow(t.db, {
      env: made.env,
      user: member.user,
      membership: member.membership,
      input: {
        name: 'Inbox',
        types: ['INVOICE'],
        io: {
          input: { kind: 'upload', url: '', folderName: '' },
          output: { kind: 'xlsx', sheetId: '', sheetName: 'Invoices' },
        },
      },
    });
    run = await insertRun(t.db, {
      flowId: flow.id,
      organizationId: member.membership.organizationId,
      startedByUserId: member.user.id,
      source: { kind: 'flow' },
    });
  });

  afterAll(async () => {
    await t.close();
    await cleanup();
  });

  it('reads a run once per poll however many streams wait on it', async () => {
    const hub = createRunProgressHub(t.db, { pollMs: 20, maxStreamsPerUser: 1000, maxStreams: 1000 });
    const signal = new AbortController().signal;
    const seen = await Promise.all(Array.from({ length: 300 }, () => hub.next(run.id, signal)));
    expect(hub.polls).toBe(1);
    expect(seen.every((r) => r?.id === run.id && r.status === 'queued')).toBe(true);
    // A run nobody has (deleted, or never was) ends its waiters with null instead of hanging.
    expect(await hub.next('00000000-0000-4000-8000-000000000000', signal)).toBeNull();
  });

  it('hands each waiter the run as it is now, finished included', async () => {
    const hub = createRunProgressHub(t.db, { pollMs: 20, maxStreamsPerUser: 10, maxStreams: 10 });
    const signal = new AbortController().signal;
    await t.db.update(runs).set({ status: 'succeeded', finishedAt: new Date() }).where(eq(runs.id, run.id));
    expect((await hub.next(run.id, signal))?.status).toBe('succeeded');
  });

  it('stops waiting when the stream closes, and polls nothing for nobody', async () => {
    const hub = createRunProgressHub(t.db, { pollMs: 50, maxStreamsPerUser: 10, maxStreams: 10 });
    const closed = new AbortController();
    const waiting = hub.next(run.id, closed.signal);
    closed.abort();
    expect(await waiting).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(hub.polls).toBeLessThanOrEqual(1);
  });

  it('names every document in flight, nothing between documents, and the scan note while scanning', () => {
    const running = { ...run, status: 'running', currentFile: 'Scanning: old.pdf' };
    const scanned = { ...running, counts: { scanned: true } };
    const doc = (fileName: string, pagesRead = 0, pageCount: number | null = null) => ({
      fileName,
      pagesRead,
      pageCount,
    });
    expect(
      applyLiveCounts(scanned, { processing: 3 }, [doc('a.pdf'), doc('b.pdf'), doc('c.pdf')]).currentFile,
    ).toBe('a.pdf, b.pdf and 1 more');
    expect(applyLiveCounts(scanned, { processing: 2 }, [doc('a.pdf'), doc('b.pdf')]).currentFile).toBe(
      'a.pdf and b.pdf',
    );
    expect(applyLiveCounts(scanned, { done: 4 }, []).currentFile).toBeNull();
    expect(applyLiveCounts(running, {}, []).currentFile).toBe('Scanning: old.pdf');
  });

  it('moves the bar with pages: each document in flight counts for the share of its pages read', () => {
    const scanned = { ...run, status: 'running', counts: { scanned: true } };
    const live = applyLiveCounts(scanned, { done: 2, processing: 2 }, [
      { fileName: 'scan.pdf', pagesRead: 3, pageCount: 4 },
      { fileName: 'new.pdf', pagesRead: 0, pageCount: null },
    ]);
    expect(live.partialDone).toBe(0.75);
    expect(toProgress(live)).toMatchObject({ done: 2, total: 4, partialDone: 0.75 });
  });

  it('caps open streams per user and per process, and frees a slot when a stream closes', () => {
    const hub = createRunProgressHub(t.db, { pollMs: 20, maxStreamsPerUser: 2, maxStreams: 3 });
    const first = hub.admit('asha');
    hub.admit('asha');
    expect(() => hub.admit('asha')).toThrow(/Too many live progress views/);
    hub.admit('bala');
    expect(() => hub.admit('chitra')).toThrow(expect.objectContaining({ code: 'rate_limited' }));
    first();
    first(); // closing twice frees one slot, not two
    expect(hub.openStreams).toBe(2);
    hub.admit('asha');
    expect(() => hub.admit('asha')).toThrow(/Too many/);
  });
});

describe('progress streams over HTTP', () => {
  let server: TestServer;

  beforeAll(async () => {
    // No job runner: the run stays queued, so its streams stay open.
    server = await startTestServer({ env: { RUN_JOBS: 'false' } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("refuses a user's streams past the cap with 429, and takes one again when a stream closes", async () => {
    const { client } = await server.createOnboardedUser('Asha Traders');
    const flow = await client.post('/api/workflows', {
      name: 'Inbox',
      types: ['INVOICE'],
      io: {
        input: { kind: 'upload', url: '', folderName: '' },
        output: { kind: 'xlsx', sheetId: '', sheetName: 'Invoices' },
      },
    });
    const form = new FormData();
    form.append('files', new Blob(['%PDF-1.4 placeholder']), 'a.pdf');
    await client.request(`/api/flows/${flow.body.id}/uploads`, { method: 'POST', body: form });
    const started = await client.post(`/api/flows/${flow.body.id}/runs`);
    expect(started.status).toBe(202);
    const open: AbortController[] = [];
    const openStream = async () => {
      const controller = new AbortController();
      const response = await client.raw(`/api/runs/${started.body.id}/events`, { signal: controller.signal });
      if (response.status === 200) {
        open.push(controller);
        // The first progress event arrives at once, before the stream waits on the hub.
        const reader = response.body!.getReader();
        const { value } = await reader.read();
        expect(new TextDecoder().decode(value)).toContain('event: progress');
      }
      return response;
    };
    for (let i = 0; i < 20; i++) expect((await openStream()).status).toBe(200);
    const refused = await openStream();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /Too many live progress views/,
    );
    // Another user is not held back by Asha's tabs.
    const other = await server.createOnboardedUser('Bala Stores');
    expect((await other.client.raw(`/api/runs/${started.body.id}/events`)).status).toBe(404);
    open.shift()!.abort();
    await expect.poll(async () => (await openStream()).status, { timeout: 5000 }).toBe(200);
    for (const controller of open) controller.abort();
  });
});
