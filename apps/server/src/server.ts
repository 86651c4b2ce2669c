import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { serve } from '@hono/node-server';
import { type Env, loadEnv } from './config/env.ts';
import { resolveAuthSecret } from './config/secret.ts';
import { createDb, type Db } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { createApp } from './http/app.ts';
import './io-wiring.ts';
import { jobWiring } from './job-handlers.ts';
import { closePreviewPools } from './jobs/previews.ts';
import { type JobRuntime, startJobRuntime } from './jobs/runtime.ts';
import { createLogger, type Logger } from './lib/logger.ts';
import { createAuth } from './modules/auth/auth.ts';
import { recordSignIn } from './modules/team/team.service.ts';

/** The built web app served on the same port. */
/** No permission for group or others on anything the server creates. */
const PRIVATE_UMASK = 0o077;

export const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** A running server. */
export interface RunningServer {
  /** Base URL clients use (PUBLIC_URL, or the loopback address when port 0 was requested). */
  url: string;
  port: number;
  env: Env;
  db: Db;
  logger: Logger;
  /** Milliseconds each start-up phase took (openDb, migrate, auth, jobs, app). */
  startupMs: Record<string, number>;
  /** Stops accepting requests, closes open connections and the database. Idempotent. */
  close(): Promise<void>;
}

/** Options for `startServer`. */
export interface StartServerOptions {
  /** Environment variables layered over process.env (e.g. `{ PORT: '0', DATA_DIR: tmp }`). */
  env?: Record<string, string | undefined>;
  /** Built web app folder; defaults to apps/web/dist. */
  webDist?: string;
  /** Logger to use instead of one built from LOG_LEVEL. */
  logger?: Logger;
}

/**
 * Starts Bahi: parses config, opens and migrates the database, configures auth and serves the API and the
 * web app. With PORT=0 it listens on a random port and, unless PUBLIC_URL is set, uses that address as
 * the public URL (tests).
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const env = loadEnv(options.env);
  // Everything the server writes under DATA_DIR (uploads, workbooks, the database, secrets) is
  // its own: files 0600, folders 0700, whatever the account's default. (Worker threads share the
  // process's mask; only the main thread may set it.)
  if (isMainThread) process.umask(PRIVATE_UMASK);
  const logger = options.logger ?? createLogger(env.logLevel);

  // Listen first so a random port is known before better-auth is told its base URL.
  let handle: ((request: Request, env: unknown) => Response | Promise<Response>) | undefined;
  const server = serve({
    port: env.port,
    hostname: env.host,
    fetch: (request, bindings) =>
      handle
        ? handle(request, bindings)
        : new Response('Starting', { status: 503, headers: { 'retry-after': '1' } }),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  if (env.port === 0 && !env.publicUrlConfigured) {
    const host = !env.host || env.host === '0.0.0.0' || env.host === '::' ? 'localhost' : env.host;
    env.publicUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  }

  let dbHandle: Awaited<ReturnType<typeof createDb>> | undefined;
  let jobRuntime: JobRuntime | undefined;
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Keep-alive sockets would hold close() open; we are shutting down anyway.
      if ('closeAllConnections' in server) server.closeAllConnections();
    });
  // Milliseconds per start-up phase, logged by main.ts so slow starts can be explained.
  const startupMs: Record<string, number> = {};
  let lap = performance.now();
  const markPhase = (name: string) => {
    const now = performance.now();
    startupMs[name] = Math.round(now - lap);
    lap = now;
  };
  try {
    dbHandle = await createDb(env);
    markPhase('openDb');
    await migrateDatabase(dbHandle);
    markPhase('migrate');
    const secret = await resolveAuthSecret(env);
    const appDb = dbHandle.db;
    const auth = createAuth({
      env,
      db: appDb,
      secret,
      logger,
      onSignIn: (session) => recordSignIn(appDb, session),
    });
    markPhase('auth');
    jobRuntime = await startJobRuntime({
      handle: dbHandle,
      env,
      logger,
      work: env.flows.runJobs,
      wiring: jobWiring,
    });
    markPhase('jobs');
    const app = createApp(
      { env, db: dbHandle.db, auth, logger, jobs: jobRuntime.queue, executor: jobRuntime.executor },
      { webDist: options.webDist ?? defaultWebDist },
    );
    handle = (request, bindings) => app.fetch(request, bindings);
    markPhase('app');
  } catch (error) {
    await stopListening();
    await jobRuntime?.stop();
    await dbHandle?.close();
    throw error;
  }

  let closing: Promise<void> | undefined;
  const db = dbHandle;
  return {
    url: env.publicUrl,
    port,
    env,
    db: db.db,
    logger,
    startupMs,
    close() {
      closing ??= (async () => {
        await stopListening();
        await jobRuntime?.stop();
        await closePreviewPools();
        await db.close();
      })();
      return closing;
    },
  };
}
