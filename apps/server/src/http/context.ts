import type { Env } from '../config/env.ts';
import type { Db } from '../db/client.ts';
import type { JobSender } from '../jobs/registry.ts';
import type { TaskExecutor } from '../jobs/worker-pool.ts';
import type { Logger } from '../lib/logger.ts';
import type { Auth } from '../modules/auth/auth.ts';

/** The signed-in user as loaded by the session middleware. */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  image: string | null;
}

/** Roles a member can hold in an organisation. */
export type MembershipRole = 'owner' | 'admin' | 'member';

/** The caller's membership: which organisation every query is scoped to. */
export interface Membership {
  organizationId: string;
  role: MembershipRole;
}

/** Hono environment shared by every route: per-request values set by middleware. */
export interface AppEnv {
  Variables: {
    user: SessionUser | null;
    membership: Membership | null;
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
