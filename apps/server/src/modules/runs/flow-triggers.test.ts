import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { flowAutomations, notifications, runs } from '../../db/schema/index.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { nextRunAfter } from '../flows/flow-schedule.ts';
import { createWorkflow, listWorkflows } from '../flows/flows.service.ts';
import {
  createMember,
  createRecordingSender,
  createTestEnv,
  createTestJobContext,
  readFixture,
  runRecordedJobs,
} from '../flows/test-support.ts';
import { getOrganization, updateOrganization } from '../organizations/organizations.service.ts';
import { addUploads } from '../uploads/uploads.service.ts';
import { backOffMs, fireDueFlows } from './flow-triggers.ts';

// The flows' clock with a fake "now": a schedule and a watched folder start runs by themselves, each
// occurrence or arrival once even when two workers tick at the same instant, and a source that fails backs
// off instead of being read every minute.

let t: TestDb;
let env: Env;
let dataDir: string;
let cleanup: () => Promise<void>;
let member: Awaited<ReturnType<typeof createMember>>;

beforeAll(async () => {
  t = await createTestDb();
  member = await createMember(t.db);
  const base = await createTestEnv();
  dataDir = base.dataDir;
  await mkdir(join(dataDir, 'watched'), { recursive: true });
  ({ env } = await createTestEnv({
    BAHI_FOLDER_ROOTS: `${join(dataDir, 'watched')}=${member.membership.organizationId}`,
  }));
  cleanup = async () => {
    await base.cleanup();
  };
});

afterAll(async () => {
  await t.close();
  await cleanup();
});

const T0 = new Date('2026-03-02T03:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);
const io = (input: { kind: 'upload' | 'local'; url: string }) => ({
  input: { ...input, folderName: '' },
  output: { kind: 'xlsx' as const, sheetId: '', sheetName: '' },
});

async function runsOf(flowId: string) {
  return t.db.select().from(runs).where(eq(runs.flowId, flowId));
}

describe('schedules', () => {
  it('daily HH:MM is read on the wall clock of the time zone', () => {
    const daily = { kind: 'daily' as const, time: '07:30', timeZone: 'Asia/Kolkata' };
    // 03:00Z is 08:30 in India: today's 07:30 has passed, so tomorrow 07:30 IST = 02:00Z.
    expect(nextRunAfter(daily, T0)?.toISOString()).toBe('2026-03-03T02:00:00.000Z');
    expect(nextRunAfter(daily, new Date('2026-03-02T01:00:00Z'))?.toISOString()).toBe(
      '2026-03-02T02:00:00.000Z',
    );
    // Across a DST change: New York's 07:30 is 12:30Z in winter, 11:30Z after 8 March 2026.
    const ny = { ...daily, timeZone: 'America/New_York' };
    expect(nextRunAfter(ny, new Date('2026-03-07T13:00:00Z'))?.toISOString()).toBe(
      '2026-03-08T11:30:00.000Z',
    );
    expect(nextRunAfter({ kind: 'manual' }, T0)).toBeNull();
  });

  it('a flow every 15 minutes starts its own runs, once per occurrence across two workers', async () => {
    const jobs = createRecordingSender();
    const wf = await createWorkflow(t.db, {
      env,
      ...member,
      input: {
        name: 'Every quarter hour',
        types: ['INVOICE'],
        io: io({ kind: 'upload', url: '' }),
        trigger: { kind: 'every', minutes: 15 },
      },
      now: T0,
    });
    expect(wf.nextRunAt).toBe(minutes(15).getTime());
    await addUploads(t.db, {
      env,
      ...member,
      flowId: wf.id,
      files: [{ name: 'standing.pdf', bytes: await readFixture('invoice-011.pdf') }],
    });
    const ctxA = createTestJobContext(t.db, { env, jobs });
    const ctxB = createTestJobContext(t.db, { env, jobs });
    // Not due yet.
    expect(await fireDueFlows(ctxA, minutes(14))).not.toContain(wf.id);
    expect(await runsOf(wf.id)).toHaveLength(0);
    // Due: two workers tick at the same instant; one run.
    const [a, b] = await Promise.all([fireDueFlows(ctxA, minutes(15)), fireDueFlows(ctxB, minutes(15))]);
    expect([...a, ...b].filter((id) => id === wf.id)).toHaveLength(1);
    const first = await runsOf(wf.id);
    expect(first).toHaveLength(1);
    expect(first[0]!.startedByUserId).toBeNull();
    const [listed] = (await listWorkflows(t.db, member.membership)).filter((f) => f.id === wf.id);
    expect(listed!.nextRunAt).toBe(minutes(30).getTime());
    await runRecordedJobs(jobs, ctxA);
    // The next occurrence starts the next run.
    expect(await fireDueFlows(ctxA, minutes(30))).toContain(wf.id);
    expect(await runsOf(wf.id)).toHaveLength(2);
    await runRecordedJobs(jobs, ctxA);
  });

  it('a schedule whose source is empty starts no run (and does not fail every occurrence)', async () => {
    const jobs = createRecordingSender();
    const ctx = createTestJobContext(t.db, { env, jobs });
    const wf = await createWorkflow(t.db, {
      env,
      ...member,
      input: {
        name: 'Empty daily',
        types: ['INVOICE'],
        io: io({ kind: 'upload', url: '' }),
        trigger: { kind: 'daily', time: '09:00', timeZone: 'Asia/Kolkata' },
      },
      now: T0,
    });
    // 03:00Z is 08:30 IST: the first occurrence is 03:30Z today.
    expect(wf.nextRunAt).toBe(minutes(30).getTime());
    expect(await fireDueFlows(ctx, minutes(31))).not.toContain(wf.id);
    expect(await runsOf(wf.id)).toHaveLength(0);
    const [listed] = (await listWorkflows(t.db, member.membership)).filter((f) => f.id === wf.id);
    expect(listed!.nextRunAt).toBe(minutes(30 + 24 * 60).getTime());
  });
});

describe("the organisation's time zone", () => {
  it('a daily schedule runs on the organisation clock across a date boundary, and follows a new zone', {
    timeout: 120_000,
  }, async () => {
    const own = await createMember(t.db, 'Meera');
    const org = (await getOrganization(t.db, own.membership.organizationId))!;
    expect(org.timeZone).toBe('Asia/Kolkata');
    const jobs = createRecordingSender();
    const ctx = createTestJobContext(t.db, { env, jobs });
    // 18:45Z on 2 March is 00:15 on 3 March in India: the next 00:30 is the same UTC evening, not the
    // next UTC day (which a schedule read in UTC would give).
    const clock = new Date('2026-03-02T18:45:00.000Z');
    const wf = await createWorkflow(t.db, {
      env,
      ...own,
      input: {
        name: 'Just after midnight',
        types: ['INVOICE'],
        io: io({ kind: 'upload', url: '' }),
        // The zone a browser sends is not the one used: the organisation's is.
        trigger: { kind: 'daily', time: '00:30', timeZone: 'UTC' },
      },
      now: clock,
    });
    expect(new Date(wf.nextRunAt!).toISOString()).toBe('2026-03-02T19:00:00.000Z');
    expect(wf.trigger).toEqual({ kind: 'daily', time: '00:30', timeZone: 'Asia/Kolkata' });
    await addUploads(t.db, {
      env,
      ...own,
      flowId: wf.id,
      files: [{ name: 'night.pdf', bytes: await readFixture('invoice-011.pdf') }],
    });
    expect(await fireDueFlows(ctx, new Date('2026-03-02T18:59:00.000Z'))).not.toContain(wf.id);
    expect(await fireDueFlows(ctx, new Date('2026-03-02T19:00:30.000Z'))).toContain(wf.id);
    await runRecordedJobs(jobs, ctx);
    const listed = async () => (await listWorkflows(t.db, own.membership)).find((f) => f.id === wf.id)!;
    expect(new Date((await listed()).nextRunAt!).toISOString()).toBe('2026-03-03T19:00:00.000Z');

    // The organisation moves to London time: 00:30 there is 00:30Z (no summer time in early March).
    const after = await updateOrganization(t.db, {
      ...own,
      now: new Date('2026-03-02T20:00:00.000Z'),
      input: {
        legalName: org.legalName,
        phone: org.phone,
        orgType: org.orgType,
        address: org.address,
        timeZone: 'Europe/London',
      },
    });
    expect(after.timeZone).toBe('Europe/London');
    const moved = await listed();
    expect(moved.trigger).toEqual({ kind: 'daily', time: '00:30', timeZone: 'Europe/London' });
    expect(new Date(moved.nextRunAt!).toISOString()).toBe('2026-03-03T00:30:00.000Z');
    // A profile saved without a zone keeps the one chosen.
    const kept = await updateOrganization(t.db, {
      ...own,
      input: { legalName: org.legalName, phone: org.phone, orgType: org.orgType, address: org.address },
    });
    expect(kept.timeZone).toBe('Europe/London');
    const bad = await updateOrganization(t.db, {
      ...own,
      input: { ...kept, timeZone: 'Mars/Olympus' },
    }).catch((e: unknown) => e);
    expect((bad as Error).message).toMatch(/Unknown time zone/);
  });
});

describe('watched folder', () => {
  it('starts a run when a new file appears, and not again for the same files', {
    timeout: 120_000,
  }, async () => {
    const folder = join(dataDir, 'watched', 'inbox');
    await mkdir(folder, { recursive: true });
    const jobs = createRecordingSender();
    const ctx = createTestJobContext(t.db, { env, jobs });
    const wf = await createWorkflow(t.db, {
      env,
      ...member,
      input: {
        name: 'Watched',
        types: ['INVOICE'],
        io: io({ kind: 'local', url: folder }),
        trigger: { kind: 'arrival' },
      },
      now: T0,
    });
    expect(wf.nextRunAt).toBeNull();
    // An empty folder: nothing to do.
    expect(await fireDueFlows(ctx, minutes(1))).not.toContain(wf.id);
    await writeFile(join(folder, 'first.pdf'), await readFixture('invoice-011.pdf'));
    const [a, b] = await Promise.all([
      fireDueFlows(ctx, minutes(2)),
      fireDueFlows(createTestJobContext(t.db, { env, jobs }), minutes(2)),
    ]);
    expect([...a, ...b].filter((id) => id === wf.id)).toHaveLength(1);
    await runRecordedJobs(jobs, ctx);
    const [run] = await runsOf(wf.id);
    expect(run!.status).toBe('succeeded');
    // Nothing new: no run.
    expect(await fireDueFlows(ctx, minutes(3))).not.toContain(wf.id);
    // A second file arrives: a second run, which reads only the new file.
    await writeFile(join(folder, 'second.pdf'), await readFixture('invoice-018.pdf'));
    expect(await fireDueFlows(ctx, minutes(4))).toContain(wf.id);
    await runRecordedJobs(jobs, ctx);
    const all = await runsOf(wf.id);
    expect(all).toHaveLength(2);
    const second = all.find((r) => r.id !== run!.id)!;
    expect(second.counts.alreadyProcessed).toBe(1);
  });

  it('an upload inbox on arrival runs once files are dropped in', { timeout: 120_000 }, async () => {
    const jobs = createRecordingSender();
    const ctx = createTestJobContext(t.db, { env, jobs });
    const wf = await createWorkflow(t.db, {
      env,
      ...member,
      input: {
        name: 'Dropped',
        types: ['INVOICE'],
        io: io({ kind: 'upload', url: '' }),
        trigger: { kind: 'arrival' },
      },
      now: T0,
    });
    expect(await fireDueFlows(ctx, minutes(1))).not.toContain(wf.id);
    await addUploads(t.db, {
      env,
      ...member,
      flowId: wf.id,
      files: [{ name: 'dropped.pdf', bytes: await readFixture('invoice-040.pdf') }],
    });
    expect(await fireDueFlows(ctx, minutes(2))).toContain(wf.id);
    await runRecordedJobs(jobs, ctx);
    const [run] = await runsOf(wf.id);
    expect(run!.status).toBe('succeeded');
    expect(await fireDueFlows(ctx, minutes(3))).not.toContain(wf.id);
  });

  it('a folder that is gone shows the error, backs off and tells the owner once', async () => {
    const folder = join(dataDir, 'watched', 'gone');
    await mkdir(folder, { recursive: true });
    const jobs = createRecordingSender();
    const ctx = createTestJobContext(t.db, { env, jobs });
    const wf = await createWorkflow(t.db, {
      env,
      ...member,
      input: {
        name: 'Gone',
        types: ['INVOICE'],
        io: io({ kind: 'local', url: folder }),
        trigger: { kind: 'arrival' },
      },
      now: T0,
    });
    const { rm } = await import('node:fs/promises');
    await rm(folder, { recursive: true });
    await fireDueFlows(ctx, minutes(1));
    const state = async () =>
      (await t.db.select().from(flowAutomations).where(eq(flowAutomations.flowId, wf.id)))[0]!;
    let row = await state();
    expect(row.sourceError).toMatch(/folder does not exist/);
    expect(row.failures).toBe(1);
    expect(row.retryAt!.getTime()).toBe(minutes(1).getTime() + backOffMs(1));
    // Within the back-off nothing is tried; after it, the next failure doubles the wait.
    await fireDueFlows(ctx, minutes(1.5));
    expect((await state()).failures).toBe(1);
    await fireDueFlows(ctx, minutes(2));
    row = await state();
    expect(row.failures).toBe(2);
    expect(row.retryAt!.getTime()).toBe(minutes(2).getTime() + 2 * 60_000);
    expect(backOffMs(30)).toBe(60 * 60_000);
    const bells = await t.db.select().from(notifications).where(eq(notifications.userId, member.user.id));
    expect(bells.filter((n) => n.kind === 'flow.source.failed' && n.title.includes('Gone'))).toHaveLength(1);
    const [listed] = (await listWorkflows(t.db, member.membership)).filter((f) => f.id === wf.id);
    expect(listed!.sourceError).toMatch(/folder does not exist/);
    // The folder comes back: the error clears and its files run.
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'back.pdf'), await readFixture('invoice-040.pdf'));
    expect(await fireDueFlows(ctx, minutes(10))).toContain(wf.id);
    expect((await state()).sourceError).toBeNull();
    await runRecordedJobs(jobs, ctx);
  });
});
