import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../db/schema/index.ts';
import { manyPagesPdf, strokedLinesPdf } from '../../test/hostile-files.ts';
import { startTestServer, type TestClient, type TestServer } from '../../test/test-server.ts';
import { readFixture } from '../flows/test-support.ts';

// Page pictures and page lists are drawn on worker threads under a time limit and a limit on drawing
// operations: a hostile page never stalls the API (#33).

let t: TestServer;
let a: TestClient;
let docId: string;
let storedPath: string;

/** Puts `bytes` in place of the document's stored file and forgets every picture drawn of it. */
async function replaceFile(bytes: Uint8Array, status = 'done'): Promise<void> {
  await writeFile(storedPath, bytes);
  await rm(join(t.dataDir, 'previews'), { recursive: true, force: true });
  await t.server.db.update(documents).set({ status }).where(eq(documents.id, docId));
}

/** Polls /healthz every 25 ms while `work` runs; the slowest answer in milliseconds. */
async function worstHealthLatency<T>(
  work: Promise<T>,
): Promise<{ result: T; worstMs: number; polls: number }> {
  let done = false;
  let worstMs = 0;
  let polls = 0;
  const poller = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${t.url}/healthz`);
      await res.arrayBuffer();
      worstMs = Math.max(worstMs, performance.now() - started);
      polls++;
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  try {
    return { result: await work, worstMs, polls };
  } finally {
    done = true;
    await poller;
  }
}

beforeAll(async () => {
  t = await startTestServer({ env: { EXTRACT_CONCURRENCY: '1', PREVIEW_TIMEOUT_MS: '6000' } });
  a = (await t.createOnboardedUser('Asha Traders')).client;
  const flow = await a.post('/api/workflows', {
    name: 'Bills',
    types: ['INVOICE'],
    io: {
      input: { kind: 'upload', url: '', folderName: '' },
      output: { kind: 'xlsx', sheetId: '', sheetName: 'Bills' },
    },
  });
  const form = new FormData();
  form.append('files', new Blob([Buffer.from(await readFixture('invoice-018.pdf'))]), 'bill.pdf');
  expect((await a.request(`/api/flows/${flow.body.id}/uploads`, { method: 'POST', body: form })).status).toBe(
    201,
  );
  const run = await a.post(`/api/flows/${flow.body.id}/runs`);
  for (let i = 0; i < 600; i++) {
    if (['succeeded', 'failed'].includes((await a.get(`/api/runs/${run.body.id}`)).body.status)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const [row] = await t.server.db.select().from(documents).where(eq(documents.flowId, flow.body.id));
  docId = row!.id;
  storedPath = row!.sourcePath!;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('page pictures off the main loop', () => {
  it('answers a page that overruns the time limit with a placeholder while /healthz stays quick', async () => {
    // 3,000 page-wide strokes: under the operation limit, about a minute of drawing at 2400 pixels.
    await replaceFile(strokedLinesPdf(3000));
    const started = performance.now();
    const {
      result: res,
      worstMs,
      polls,
    } = await worstHealthLatency(a.raw(`/api/documents/${docId}/pages/1?width=2400`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-bahi-page-placeholder')).toBe('1');
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(polls).toBeGreaterThan(5);
    expect(worstMs).toBeLessThan(200);
    // The placeholder is kept: the page is not drawn again.
    const again = performance.now();
    const second = await a.raw(`/api/documents/${docId}/pages/1?width=2400`);
    expect(second.headers.get('x-bahi-page-placeholder')).toBe('1');
    expect(performance.now() - again).toBeLessThan(1000);
  }, 60_000);

  it('refuses a page with too many drawing operations at once, with a placeholder', async () => {
    await replaceFile(strokedLinesPdf(20_000));
    const started = performance.now();
    const res = await a.raw(`/api/documents/${docId}/pages/1?width=2400`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-bahi-page-placeholder')).toBe('1');
    // Counted and refused, not drawn (drawing it would take minutes): seconds at most, thread start-up included.
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 30_000);

  it('counts a 100,000-page PDF without listing every page, and stays responsive', async () => {
    await replaceFile(manyPagesPdf(100_000));
    const { result: review, worstMs } = await worstHealthLatency(a.get(`/api/documents/${docId}/review`));
    expect(review.status).toBe(200);
    expect(review.body.pages).toHaveLength(100);
    expect(review.body.pagesError).toBe('This document has 100000 pages; the first 100 are shown.');
    expect(worstMs).toBeLessThan(200);
    expect((await a.raw(`/api/documents/${docId}/pages/101`)).status).toBe(404);
  }, 60_000);

  it('does not draw a failed or pending document', async () => {
    await replaceFile(strokedLinesPdf(3), 'failed');
    const review = await a.get(`/api/documents/${docId}/review`);
    expect(review.body.pages).toEqual([]);
    expect(review.body.pagesError).toMatch(/could not be read/);
    const page = await a.raw(`/api/documents/${docId}/pages/1`);
    expect(page.status).toBe(404);
    await replaceFile(strokedLinesPdf(3), 'pending');
    expect((await a.get(`/api/documents/${docId}/review`)).body.pagesError).toMatch(/once the document/);
    expect((await a.raw(`/api/documents/${docId}/pages/1`)).status).toBe(404);
  });
});
