import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { documents, flowAutomations, runs } from '../../db/schema/index.ts';
import { type GoogleStandIn, installLoopbackGuard, startGoogleStandIn } from '../../test/google-stand-in.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { createWorkflow } from '../flows/flows.service.ts';
import {
  createMember,
  createRecordingSender,
  createTestEnv,
  createTestJobContext,
  readFixture,
  runRecordedJobs,
} from '../flows/test-support.ts';
import { fireDueFlows } from '../runs/flow-triggers.ts';
import { buildConsentUrl, completeOAuth } from './google.service.ts';

// "On arrival" for a Google Drive folder, against the loopback Drive stand-in and a real database: the
// flows' clock starts a run when a new file appears in the folder, once across two workers ticking at the
// same instant, and never again for files the flow has already taken.

let t: TestDb;
let env: Env;
let cleanupEnv: () => Promise<void>;
let google: GoogleStandIn;
let guard: ReturnType<typeof installLoopbackGuard>;
let member: Awaited<ReturnType<typeof createMember>>;

beforeAll(async () => {
  guard = installLoopbackGuard();
  google = await startGoogleStandIn();
  t = await createTestDb();
  ({ env, cleanup: cleanupEnv } = await createTestEnv({
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_CLIENT_SECRET: google.clientSecret,
    GOOGLE_OAUTH_BASE_URL: google.url,
    GOOGLE_API_BASE_URL: google.url,
  }));
  member = await createMember(t.db);
  const consent = await fetch(await buildConsentUrl(env, member.user, member.membership), {
    redirect: 'manual',
  });
  const back = new URL(consent.headers.get('location') ?? '');
  await completeOAuth(t.db, {
    env,
    sessionUser: member.user,
    query: {
      code: back.searchParams.get('code') ?? undefined,
      state: back.searchParams.get('state') ?? undefined,
    },
  });
});

afterAll(async () => {
  await t?.close();
  await cleanupEnv?.();
  await google?.close();
  guard?.restore();
});

const T0 = new Date('2026-03-02T03:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

async function addPdf(folder: string, name: string, fixture: string, modifiedTime?: string) {
  return google.addFile({
    name,
    mimeType: 'application/pdf',
    content: Buffer.from(await readFixture(fixture)),
    parent: folder,
    ...(modifiedTime ? { modifiedTime } : {}),
  });
}

describe('a Drive folder on arrival', () => {
  it('starts a run when new files appear, once across workers, and not again for files taken', {
    timeout: 180_000,
  }, async () => {
    const folder = google.addFolder('Arrivals');
    const jobs = createRecordingSender();
    const ctxA = createTestJobContext(t.db, { env, jobs });
    const ctxB = createTestJobContext(t.db, { env, jobs });
    const wf = await createWorkflow(t.db, {
      env,
      ...member,
      input: {
        name: 'Drive arrivals',
        types: ['INVOICE'],
        io: {
          input: { kind: 'drive', url: `https://drive.google.com/drive/folders/${folder}`, folderName: '' },
          output: { kind: 'xlsx', sheetId: '', sheetName: '' },
        },
        trigger: { kind: 'arrival' },
      },
      now: T0,
    });
    const runsOf = () => t.db.select().from(runs).where(eq(runs.flowId, wf.id));
    // An empty folder, and one holding only a Google Doc: nothing to read, no run.
    expect(await fireDueFlows(ctxA, minutes(1))).not.toContain(wf.id);
    google.addFile({
      name: 'Notes',
      mimeType: 'application/vnd.google-apps.document',
      content: Buffer.from('notes'),
      parent: folder,
    });
    expect(await fireDueFlows(ctxA, minutes(2))).not.toContain(wf.id);

    // The first invoice arrives: two workers tick at once, one run.
    await addPdf(folder, 'first.pdf', 'invoice-011.pdf');
    const [a, b] = await Promise.all([fireDueFlows(ctxA, minutes(3)), fireDueFlows(ctxB, minutes(3))]);
    expect([...a, ...b].filter((id) => id === wf.id)).toHaveLength(1);
    expect(await runsOf()).toHaveLength(1);
    // While that run has not read the file yet, the next tick does not start another.
    expect(await fireDueFlows(ctxA, minutes(4))).not.toContain(wf.id);
    await runRecordedJobs(jobs, ctxA);
    expect((await runsOf())[0]!.status).toBe('succeeded');
    // Taken: ticks after it start nothing.
    expect(await fireDueFlows(ctxA, minutes(5))).not.toContain(wf.id);
    expect(await fireDueFlows(ctxB, minutes(6))).not.toContain(wf.id);

    // A second invoice arrives, dated in the past by the uploader's sync client: still new, one more run,
    // which reads only it.
    await addPdf(folder, 'second.pdf', 'invoice-018.pdf', '2020-01-01T00:00:00.000Z');
    const [c, d] = await Promise.all([fireDueFlows(ctxA, minutes(7)), fireDueFlows(ctxB, minutes(7))]);
    expect([...c, ...d].filter((id) => id === wf.id)).toHaveLength(1);
    await runRecordedJobs(jobs, ctxA);
    const all = await runsOf();
    expect(all).toHaveLength(2);
    expect(all.every((run) => run.startedByUserId === null)).toBe(true);
    const docs = await t.db.select().from(documents).where(eq(documents.flowId, wf.id));
    expect(docs.map((doc) => doc.fileName).sort()).toEqual(['first.pdf', 'second.pdf']);
    expect(await fireDueFlows(ctxA, minutes(8))).not.toContain(wf.id);
    const [row] = await t.db.select().from(flowAutomations).where(eq(flowAutomations.flowId, wf.id));
    expect(row!.sourceError).toBeNull();
  });

  it('a revoked Google connection shows the error on the flow and backs off', async () => {
    const folder = google.addFolder('Revoked');
    await addPdf(folder, 'waiting.pdf', 'invoice-040.pdf');
    const jobs = createRecordingSender();
    const ctx = createTestJobContext(t.db, { env, jobs });
    const wf = await createWorkflow(t.db, {
      env,
      ...member,
      input: {
        name: 'Drive revoked',
        types: ['INVOICE'],
        io: {
          input: { kind: 'drive', url: `https://drive.google.com/drive/folders/${folder}`, folderName: '' },
          output: { kind: 'xlsx', sheetId: '', sheetName: '' },
        },
        trigger: { kind: 'arrival' },
      },
      now: T0,
    });
    google.revokeAll();
    google.expireAccessTokens();
    expect(await fireDueFlows(ctx, minutes(1))).not.toContain(wf.id);
    const [row] = await t.db.select().from(flowAutomations).where(eq(flowAutomations.flowId, wf.id));
    expect(row!.sourceError).toMatch(/Google/);
    expect(row!.failures).toBe(1);
    expect(row!.retryAt!.getTime()).toBeGreaterThan(minutes(1).getTime());
  });
});
