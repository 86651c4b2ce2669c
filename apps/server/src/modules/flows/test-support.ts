import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Env, parseEnv } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { jobHandlers } from '../../job-handlers.ts';
import type { JobContext, JobHandler, JobName, JobPayload, JobSender } from '../../jobs/registry.ts';
import { createInlineExecutor, type TaskExecutor } from '../../jobs/worker-pool.ts';
import { createLogger } from '../../lib/logger.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { insertOrganizationWithOwner } from '../organizations/organizations.repo.ts';

/** Test fixtures: real dev-corpus invoices (text layer) and a damaged PDF. */
export const fixturesDir = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));

/** Bytes of a fixture file. */
export async function readFixture(name: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(join(fixturesDir, name)));
}

/** A signed-up user who owns a fresh organisation. */
export async function createMember(
  db: Db,
  name = 'Asha',
): Promise<{ user: SessionUser; membership: Membership }> {
  const id = randomUUID();
  const email = `${id}@example.test`;
  await db.insert(users).values({ id, name, email });
  const org = await insertOrganizationWithOwner(db, id, {
    legalName: `${name} Traders Pvt Ltd`,
    phone: '+919876543210',
    orgType: 'pvt_ltd',
    address: 'Pune',
  });
  return { user: { id, name, email, image: null }, membership: { organizationId: org.id, role: 'owner' } };
}

/** A temp DATA_DIR and the parsed config using it. */
export async function createTestEnv(
  extra: Record<string, string> = {},
): Promise<{ env: Env; dataDir: string; cleanup: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bahi-flows-'));
  const env = parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', EXTRACT_CONCURRENCY: '1', ...extra });
  return { env, dataDir, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
}

/** Records enqueued jobs so a test can run their handlers itself, in order, and twice if it likes. */
export interface RecordingSender extends JobSender {
  sent: Array<{ name: JobName; payload: unknown }>;
}

/** A job sender that records what would be enqueued (service tests call the handlers directly). */
export function createRecordingSender(): RecordingSender {
  const sent: RecordingSender['sent'] = [];
  return {
    sent,
    async send<N extends JobName>(name: N, payload: JobPayload<N>) {
      sent.push({ name, payload });
    },
  };
}

/** Everything a job handler needs, with the real engine run in-thread. */
export function createTestJobContext(
  db: Db,
  { env, jobs, executor = createInlineExecutor() }: { env: Env; jobs: JobSender; executor?: TaskExecutor },
): JobContext {
  return { db, env, logger: createLogger('silent'), executor, jobs, workerId: `test:${randomUUID()}` };
}

/** Runs every job recorded so far with `ctx`, in order, as a worker would (and whatever they enqueue). */
export async function runRecordedJobs(jobs: RecordingSender, ctx: JobContext): Promise<void> {
  while (jobs.sent.length > 0) {
    const job = jobs.sent.shift()!;
    // The handler the worker runs (a helper delivered after its run ended finds nothing to claim: harmless).
    await (jobHandlers[job.name] as JobHandler<typeof job.name>)(job.payload as never, ctx);
  }
}
