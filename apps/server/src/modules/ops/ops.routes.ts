import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { Db } from '../../db/client.ts';
import type { Logger } from '../../lib/logger.ts';
import { metricsContentType, renderMetrics, setQueueDepth } from '../../lib/metrics.ts';
import { checkReadiness, readQueueDepth } from './ops.service.ts';

/** What the operations endpoints need. */
export interface OpsDeps {
  db: Db;
  logger: Logger;
  /** When set, `/metrics` answers only `Authorization: Bearer <token>` (METRICS_TOKEN). */
  metricsToken?: string | undefined;
}

/** Constant-time comparison, so the token cannot be guessed byte by byte from response times. */
function isSameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `/healthz` (the process answers), `/readyz` (database and queue reachable; 503 naming the failed one) and
 * `/metrics` (Prometheus text). Outside /api: load balancers and Prometheus call them without a session, and
 * they must never be cached.
 */
export function createOpsRoutes({ db, logger, metricsToken }: OpsDeps): Hono {
  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    c.header('cache-control', 'no-store');
  });

  app.get('/healthz', (c) => c.json({ ok: true as const }));

  app.get('/readyz', async (c) => {
    const readiness = await checkReadiness(db);
    if (!readiness.ok) {
      const failed = Object.entries(readiness.checks)
        .filter(([, check]) => !check.ok)
        .map(([name]) => name);
      logger.warn({ failed, checks: readiness.checks }, 'not ready');
      return c.json({ ...readiness, failed }, 503);
    }
    return c.json(readiness, 200);
  });

  app.get('/metrics', async (c) => {
    if (metricsToken) {
      const header = c.req.header('authorization') ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!isSameToken(given, metricsToken)) {
        c.header('www-authenticate', 'Bearer realm="metrics"');
        return c.text('metrics need the METRICS_TOKEN bearer token\n', 401);
      }
    }
    try {
      setQueueDepth(await readQueueDepth(db));
    } catch (error) {
      // Still serve the process metrics; an unreachable queue shows on /readyz.
      logger.warn({ err: error }, 'queue depth unavailable for /metrics');
    }
    c.header('content-type', metricsContentType);
    return c.body(await renderMetrics());
  });
  return app;
}
