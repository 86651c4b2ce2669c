import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createOpsRoutes, type OpsDeps } from './ops.routes.ts';

/** A running operations endpoint (worker processes serve no API, only this). */
export interface OpsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `/healthz`, `/readyz` and `/metrics` on their own port: how a worker process (`npm run worker`,
 * METRICS_PORT) is probed and scraped, since it has no API port.
 */
export async function startOpsServer(
  deps: OpsDeps & { port: number; host?: string | undefined },
): Promise<OpsServer> {
  const app = createOpsRoutes(deps);
  const server = serve({ fetch: app.fetch, port: deps.port, hostname: deps.host });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
