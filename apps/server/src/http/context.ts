import type { Env } from '../config/env.ts';
import type { Db } from '../db/client.ts';
import type { JobSender } from '../jobs/registry.ts';
import type { TaskExecutor } from '../jobs/worker-pool.ts';
import type { Logger } from '../lib/logger.ts';
import type { Auth } from '../modules/auth/auth.ts';
import type { Membership, SessionUser } from '../modules/auth/identity.ts';

/** Hono environment shared by every route: per-request values set by middleware. */
export interface AppEnv {
  Variables: {
    user: SessionUser | null;
    membership: Membership | null;
    /** The better-auth session id of the caller (null when signed out): which organisation it works in. */
    sessionId: string | null;
  };
}

/** Everything the HTTP layer needs, built once at start-up and passed to every module. */
export interface AppDeps {
  env: Env;
  db: Db;
  auth: Auth;
  logger: Logger;
  /** Enqueues background jobs (flow runs); absent only in tests that build the app without a queue. */
  jobs?: JobSender;
  /** Worker-thread pool for CPU-heavy work requested by a route (workbook downloads). */
  executor?: TaskExecutor;
}
