import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { documents } from '../../db/schema/index.ts';
import type { JobContext } from '../../jobs/registry.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { getDocumentFile } from '../documents/documents.service.ts';
import { processFolder, processUrl } from '../legacy/legacy.service.ts';
import { processRun } from '../runs/run-leader.ts';
import { getRun } from '../runs/runs.service.ts';
import { createWorkflow, deleteWorkflow, listWorkflows, updateWorkflow } from './flows.service.ts';
import {
  createMember,
  createRecordingSender,
  createTestEnv,
  createTestJobContext,
  fixturesDir,
  type RecordingSender,
} from './test-support.ts';

let t: TestDb;
let env: Env;
let dataDir: string;
let cleanup: () => Promise<void>;
let jobs: RecordingSender;
let ctx: JobContext;
let asha: Awaited<ReturnType<typeof createMember>>;
let bala: Awaited<ReturnType<typeof createMember>>;
let root: string;

beforeAll(async () => {
  t = await createTestDb();
  const made = await createTestEnv();
  dataDir = made.dataDir;
  root = join(dataDir, 'shared-folders');
  ({ cleanup } = made);
  env = (await createTestEnv({ BAHI_FOLDER_ROOTS: root })).env;
  env.dataDir = dataDir;
  jobs = createRecordingSender();
  ctx = createTestJobContext(t.db, { env, jobs });
  asha = await createMember(t.db, 'Asha');
  bala = await createMember(t.db, 'Bala');
  await mkdir(join(root, 'august'), { recursive: true });
  await copyFile(join(fixturesDir, 'invoice-011.pdf'), join(root, 'august', 'inv-011.pdf'));
  await copyFile(join(fixturesDir, 'corrupt.pdf'), join(root, 'august', 'scan-broken.pdf'));
  await writeFile(join(root, 'august', 'ledger.xlsx'), 'not a document');
  await mkdir(join(root, 'empty'));
});

afterAll(async () => {
  await ctx.executor.close();
  await t.close();
  await cleanup();
});

async function drainJobs() {
  while (jobs.sent.length > 0) {
    const job = jobs.sent.shift()!;
    if (job.name === 'flow-run') await processRun((job.payload as { runId: string }).runId, ctx);
  }
}

const io = (input: { kind: 'upload' | 'local' | 'drive'; url: string }) => ({
  input: { ...input, folderName: '' },
  output: { kind: 'xlsx' as const, sheetId: '', sheetName: '' },
});

describe('flow CRUD and organisation scoping', () => {
  it('creates, updates and deletes flows; another organisation sees and changes nothing', async () => {
    const created = await createWorkflow(t.db, {
      env,
      user: asha.user,
      membership: asha.membership,
      input: {
        name: '  GRNs  ',
        types: ['GRN'],
        io: io({ kind: 'upload', url: 'ignored' }),
      },
    });
    expect(created).toMatchObject({
      name: 'GRNs',
      types: ['GRN'],
      status: 'inactive',
      uid: asha.user.id,
      lastRunAt: null,
    });
    expect(created.io.input.url).toBe('');

    expect(await listWorkflows(t.db, bala.membership)).toEqual([]);
    await expect(
      updateWorkflow(t.db, {
        env,
        user: bala.user,
        membership: bala.membership,
        flowId: created.id,
        input: { name: 'x' },
      }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      deleteWorkflow(t.db, { env, user: bala.user, membership: bala.membership, flowId: created.id }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      updateWorkflow(t.db, {
        env,
        user: asha.user,
        membership: asha.membership,
        flowId: 'not-a-uuid',
        input: { name: 'x' },
      }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });

    const updated = await updateWorkflow(t.db, {
      env,
      user: asha.user,
      membership: asha.membership,
      flowId: created.id,
      input: {
        name: 'Goods receipts',
        types: ['PO'],
      },
    });
    expect(updated).toMatchObject({ name: 'Goods receipts', types: ['PO'] });
    expect(updated.updatedAt).toBeGreaterThanOrEqual(created.updatedAt);
    await deleteWorkflow(t.db, { env, user: asha.user, membership: asha.membership, flowId: created.id });
    expect(await listWorkflows(t.db, asha.membership)).toEqual([]);
  });

  it('validates the name and the single document type', async () => {
    await expect(
      createWorkflow(t.db, {
        env,
        user: asha.user,
        membership: asha.membership,
        input: {
          name: ' ',
          types: ['PO'],
          io: io({ kind: 'upload', url: '' }),
        },
      }),
    ).rejects.toThrow('Flow name is required');
    await expect(
      createWorkflow(t.db, {
        env,
        user: asha.user,
        membership: asha.membership,
        input: {
          name: 'Two types',
          types: ['PO', 'GRN'],
          io: io({ kind: 'upload', url: '' }),
        },
      }),
    ).rejects.toThrow('Choose one document type');
  });

  it('refuses local folders outside the roots, and all of them when no roots are configured', async () => {
    await expect(
      createWorkflow(t.db, {
        env,
        user: asha.user,
        membership: asha.membership,
        input: {
          name: 'x',
          types: ['PO'],
          io: io({ kind: 'local', url: '../' }),
        },
      }),
    ).rejects.toThrow('This folder does not exist, or your organisation may not read it.');
    const noRoots = (await createTestEnv()).env;
    await expect(
      createWorkflow(t.db, {
        env: noRoots,
        user: asha.user,
        membership: asha.membership,
        input: {
          name: 'x',
          types: ['PO'],
          io: io({ kind: 'local', url: root }),
        },
      }),
    ).rejects.toThrow(/BAHI_FOLDER_ROOTS/);
  });
});

async function deleteAllFlows(member: typeof asha) {
  for (const flow of await listWorkflows(t.db, member.membership))
    await deleteWorkflow(t.db, { env, user: member.user, membership: member.membership, flowId: flow.id });
}

describe('folders bound to their organisation', () => {
  const local = (url: string) => ({
    name: 'Local',
    types: ['INVOICE' as const],
    io: io({ kind: 'local', url }),
  });
  const missing = 'This folder does not exist, or your organisation may not read it.';

  it("keeps a bare root to the server's first organisation and a named one to its own", async () => {
    const balaRoot = join(dataDir, 'bala-folders');
    await mkdir(balaRoot, { recursive: true });
    const both = (
      await createTestEnv({ BAHI_FOLDER_ROOTS: `${root},${balaRoot}=${bala.membership.organizationId}` })
    ).env;
    await expect(
      createWorkflow(t.db, { env: both, user: asha.user, membership: asha.membership, input: local(root) }),
    ).resolves.toMatchObject({
      name: 'Local',
    });
    await expect(
      createWorkflow(t.db, {
        env: both,
        user: bala.user,
        membership: bala.membership,
        input: local(balaRoot),
      }),
    ).resolves.toMatchObject({
      name: 'Local',
    });
    // Another organisation's folder is answered exactly as a folder that does not exist.
    for (const path of [root, join(root, 'august'), join(root, 'no-such-folder')])
      await expect(
        createWorkflow(t.db, { env: both, user: bala.user, membership: bala.membership, input: local(path) }),
      ).rejects.toThrow(missing);
    await expect(
      createWorkflow(t.db, {
        env: both,
        user: asha.user,
        membership: asha.membership,
        input: local(balaRoot),
      }),
    ).rejects.toThrow(missing);
    await expect(
      processUrl(t.db, {
        env: both,
        jobs,
        user: bala.user,
        membership: bala.membership,
        input: {
          url: join(root, 'august', 'inv-011.pdf'),
          type: 'INVOICE',
        },
      }),
    ).rejects.toThrow(missing);
    await deleteAllFlows(asha);
    await deleteAllFlows(bala);
  });

  it('tells an organisation with no folder granted to ask the administrator', async () => {
    await expect(
      createWorkflow(t.db, { env, user: bala.user, membership: bala.membership, input: local(root) }),
    ).rejects.toThrow(/No local folders are open to your organisation/);
  });
});

describe('local folder flows', () => {
  it('processes a folder: documents extracted, unsupported files listed as skipped, a broken one failed', async () => {
    const { runId } = await processFolder(t.db, {
      env,
      jobs,
      user: asha.user,
      membership: asha.membership,
      input: {
        folderPath: join(root, 'august'),
        type: 'INVOICE',
      },
    });
    await drainJobs();
    const run = await getRun(t.db, asha.membership, runId);
    expect(run.status).toBe('succeeded');
    expect(run.counts).toMatchObject({ total: 2, failed: 1, skipped: 1 });
    expect(run.skipped).toEqual([
      { name: 'ledger.xlsx', reason: expect.stringContaining('Not a supported') },
    ]);
    // The sheet's link back serves the file while its folder is still allowed, and not after.
    const [doc] = await t.db.select().from(documents).where(eq(documents.fileName, 'inv-011.pdf'));
    expect((await getDocumentFile(t.db, { env, membership: asha.membership, id: doc!.id })).path).toBe(
      join(root, 'august', 'inv-011.pdf'),
    );
    await expect(
      getDocumentFile(t.db, { env, membership: bala.membership, id: doc!.id }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    const rootsRemoved = { ...env, flows: { ...env.flows, folderRoots: [] } };
    await expect(
      getDocumentFile(t.db, { env: rootsRemoved, membership: asha.membership, id: doc!.id }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    // The same ad-hoc folder again reuses its flow and finds nothing new.
    const again = await processFolder(t.db, {
      env,
      jobs,
      user: asha.user,
      membership: asha.membership,
      input: {
        folderPath: join(root, 'august'),
        type: 'INVOICE',
      },
    });
    await drainJobs();
    expect((await getRun(t.db, asha.membership, again.runId)).counts).toMatchObject({
      total: 0,
      alreadyProcessed: 2,
    });
    expect(await listWorkflows(t.db, asha.membership)).toHaveLength(1);
  });

  it('fails an empty folder run with the product message', async () => {
    const { runId } = await processFolder(t.db, {
      env,
      jobs,
      user: asha.user,
      membership: asha.membership,
      input: {
        folderPath: join(root, 'empty'),
        type: 'PO',
      },
    });
    await drainJobs();
    expect((await getRun(t.db, asha.membership, runId)).error?.message).toBe(
      'No documents found in this folder',
    );
  });

  it('processes a single file by path, and refuses Drive links without a Google connection', async () => {
    const { runId } = await processUrl(t.db, {
      env,
      jobs,
      user: asha.user,
      membership: asha.membership,
      input: {
        url: join(root, 'august', 'inv-011.pdf'),
        type: 'INVOICE',
      },
    });
    await drainJobs();
    const run = await getRun(t.db, asha.membership, runId);
    expect(run.status).toBe('succeeded');
    await expect(
      processUrl(t.db, {
        env,
        jobs,
        user: asha.user,
        membership: asha.membership,
        input: {
          url: 'https://drive.google.com/file/d/1ZyXwVuTsRqPoNmLk/view',
          type: 'PO',
        },
      }),
    ).rejects.toMatchObject({ code: 'validation', message: expect.stringMatching(/^Google is not set up/) });
    await expect(
      processUrl(t.db, {
        env,
        jobs,
        user: asha.user,
        membership: asha.membership,
        input: {
          url: 'https://drive.google.com/nope',
          type: 'PO',
        },
      }),
    ).rejects.toMatchObject({ code: 'validation' });
    await expect(
      processUrl(t.db, {
        env,
        jobs,
        user: asha.user,
        membership: asha.membership,
        input: { url: join(root, '..', 'db'), type: 'PO' },
      }),
    ).rejects.toMatchObject({ code: 'validation' });
  });
});
