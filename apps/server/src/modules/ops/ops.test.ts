import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, type JobQueue } from '../../jobs/queue.ts';
import { createLogger } from '../../lib/logger.ts';
import { recordDocumentOutcome, startExtractionTimer } from '../../lib/metrics.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { createOpsRoutes } from './ops.routes.ts';
import { startOpsServer } from './ops-server.ts';

// The operations endpoints on a real database (PGlite, or PostgreSQL when DATABASE_URL is set) with the real
// pg-boss queue: readiness names what is missing, metrics carry the counters the job code records.

const logger = createLogger('silent');
let t: TestDb;
let queue: JobQueue | undefined;

beforeAll(async () => {
  t = await createTestDb();
});

afterAll(async () => {
  await queue?.stop();
  await t.close();
});

describe('ops endpoints', () => {
  it('/healthz answers while /readyz names the queue until pg-boss has installed its schema', async () => {
    const app = createOpsRoutes({ db: t.db, logger });
    const health = await app.request('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });

    const notReady = await app.request('/readyz');
    expect(notReady.status).toBe(503);
    const body = (await notReady.json()) as { failed: string[]; checks: Record<string, { ok: boolean }> };
    expect(body.failed).toEqual(['queue']);
    expect(body.checks.database!.ok).toBe(true);

    queue = await createJobQueue(t.handle, t.databaseUrl, logger);
    const ready = await app.request('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
  });

  it('/metrics shows documents by outcome, failures by code, extraction time, queue depth and process metrics', async () => {
    queue ??= await createJobQueue(t.handle, t.databaseUrl, logger);
    // Nobody works this queue here, so the job stays waiting and must show in the depth gauge.
    await queue.send('flow-run', { runId: randomUUID() });
    recordDocumentOutcome('done', null);
    recordDocumentOutcome('failed', 'encrypted_pdf');
    recordDocumentOutcome('failed', 'encrypted_pdf');
    startExtractionTimer()();

    const app = createOpsRoutes({ db: t.db, logger });
    const response = await app.request(
      '/metrics',
      {},
      { incoming: { socket: { remoteAddress: '127.0.0.1' } } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toMatch(/^bahi_documents_processed_total\{status="done"\} 1$/m);
    expect(text).toMatch(/^bahi_documents_processed_total\{status="failed"\} 2$/m);
    expect(text).toMatch(/^bahi_document_failures_total\{code="encrypted_pdf"\} 2$/m);
    expect(text).toMatch(/^bahi_extraction_seconds_count 1$/m);
    expect(text).toMatch(/^bahi_queue_jobs\{queue="flow-run",state="created"\} 1$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('/metrics requires the bearer token when METRICS_TOKEN is set', async () => {
    const app = createOpsRoutes({ db: t.db, logger, metricsToken: 's3cret-token' });
    expect((await app.request('/metrics')).status).toBe(401);
    const wrong = await app.request('/metrics', { headers: { authorization: 'Bearer s3cret-tokeX' } });
    expect(wrong.status).toBe(401);
    const right = await app.request('/metrics', { headers: { authorization: 'Bearer s3cret-token' } });
    expect(right.status).toBe(200);
    // Probes stay open: a load balancer has no token.
    expect((await app.request('/healthz')).status).toBe(200);
  });

  it('/metrics without METRICS_TOKEN answers this machine only, never a request through a proxy', async () => {
    const app = createOpsRoutes({ db: t.db, logger });
    const from = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });
    expect((await app.request('/metrics', {}, from('127.0.0.1'))).status).toBe(200);
    expect((await app.request('/metrics', {}, from('::1'))).status).toBe(200);
    const outside = await app.request('/metrics', {}, from('203.0.113.7'));
    expect(outside.status).toBe(403);
    expect(await outside.text()).toMatch(/set METRICS_TOKEN/);
    const proxied = await app.request(
      '/metrics',
      { headers: { 'x-forwarded-for': '198.51.100.4' } },
      from('127.0.0.1'),
    );
    expect(proxied.status).toBe(403);
    // A request whose socket address is unknown is not taken for a local one (#33).
    expect((await app.request('/metrics')).status).toBe(403);
    // Probes stay open to everyone.
    expect((await app.request('/healthz', {}, from('203.0.113.7'))).status).toBe(200);
  });

  it('serves the same endpoints on their own port for worker processes', async () => {
    const ops = await startOpsServer({ db: t.db, logger, port: 0, host: '127.0.0.1' });
    try {
      const base = `http://127.0.0.1:${ops.port}`;
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect(await (await fetch(`${base}/metrics`)).text()).toContain('bahi_documents_processed_total');
    } finally {
      await ops.close();
    }
  });

  it('/readyz answers 503 naming the database when it is gone', async () => {
    const other = await createTestDb();
    await other.handle.close();
    const app = createOpsRoutes({ db: other.db, logger });
    const response = await app.request('/readyz');
    expect(response.status).toBe(503);
    const body = (await response.json()) as { failed: string[] };
    expect(body.failed).toContain('database');
    // Dropping a PostgreSQL test database needs no open handle; ignore the double close.
    await other.close().catch(() => {});
  });
});
