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

/** The socket address of a request served by @hono/node-server; undefined for an in-process call. */
function remoteAddressOf(env: unknown): string | undefined {
  return (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket
    ?.remoteAddress;
}

/**
 * Whether a request comes from this machine: a loopback socket and no proxy in between (a reverse proxy
 * on the same host would otherwise make every outside request look local). A request whose socket is
 * unknown is not trusted: the metrics stay closed unless the address proves otherwise.
 */
function isFromThisMachine(address: string | undefined, forwarded: boolean): boolean {
  if (forwarded) return false;
  if (address === undefined) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
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
    // Without a token, only this machine (a local Prometheus or agent) reads the metrics.
    if (!metricsToken) {
      const forwarded = !!(c.req.header('x-forwarded-for') || c.req.header('forwarded'));
      if (!isFromThisMachine(remoteAddressOf(c.env), forwarded))
        return c.text(
          'metrics are served to this machine only; set METRICS_TOKEN to read them from elsewhere\n',
          403,
        );
    }
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
