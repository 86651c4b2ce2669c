import { EnvError, loadEnv } from './config/env.ts';
import { createDb } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import './io-wiring.ts';
import { jobWiring } from './job-handlers.ts';
import { startJobRuntime } from './jobs/runtime.ts';
import { createLogger } from './lib/logger.ts';
import { startOpsServer } from './modules/ops/ops-server.ts';

// Entry point of `npm run worker`: works the job queue (flow runs, workbooks) and serves no HTTP. Start as
// many as needed against one PostgreSQL (DATABASE_URL); they share the pg-boss queue.
try {
  const env = loadEnv();
  // Workbooks and downloads a worker writes under DATA_DIR are its own (0600 / 0700), as the server's.
  process.umask(0o077);
  const logger = createLogger(env.logLevel);
  if (!env.databaseUrl) {
    logger.warn(
      'DATABASE_URL is not set: a separate worker cannot share the embedded PGlite database; use npm start',
    );
  }
  const handle = await createDb(env);
  await migrateDatabase(handle);
  const runtime = await startJobRuntime({ handle, env, logger, work: true, wiring: jobWiring });
  // A worker has no API port; METRICS_PORT gives it /healthz, /readyz and /metrics for probes and Prometheus.
  const ops =
    env.metricsPort === undefined
      ? undefined
      : await startOpsServer({
          db: handle.db,
          logger,
          metricsToken: env.metricsToken,
          port: env.metricsPort,
          host: env.host,
        });
  logger.info(
    { workerId: runtime.workerId, threads: runtime.executor.size, metricsPort: ops?.port },
    'Bahi worker is running',
  );
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    setTimeout(() => process.exit(1), 10_000).unref();
    await runtime.stop();
    await ops?.close();
    await handle.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
} catch (error) {
  console.error(
    error instanceof EnvError ? error.message : ['Bahi worker failed to start:', error].join(' '),
  );
  process.exit(1);
}
