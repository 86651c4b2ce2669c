import { stat } from 'node:fs/promises';
import { flowMessages } from '@bahi/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runs } from '../../db/schema/index.ts';
import { isAppError } from '../../lib/app-error.ts';
import { removeDocument } from '../../modules/documents/documents.service.ts';
import { createWorkflow, getWorkbookPath, requireFlow } from '../../modules/flows/flows.service.ts';
import { readFixture } from '../../modules/flows/test-support.ts';
import { createSheet } from '../../modules/legacy/legacy.service.ts';
import { reprocessDocument } from '../../modules/runs/document-reruns.ts';
import { startRun } from '../../modules/runs/runs.service.ts';
import { loadSheetContent } from '../../modules/sheets/sheets.service.ts';
import { addUploads } from '../../modules/uploads/uploads.service.ts';
import { createFlowHarness, type FlowHarness } from '../../test/flow-harness.ts';
import { SINKS } from './index.ts';
import type { SinkAdapter } from './sink.ts';

// A sink kind written in this file only — rows kept in memory — and given to the services through the
// registry: making the output, starting a run, a run's end and a person's removal all reach it without
// knowing it. The flow contract's `io.output.kind` is a closed enum of @bahi/contracts, so the in-memory
// sink takes the `sheets` entry for these tests, which is all the services see of a kind.

let h: FlowHarness;
const realSheets = SINKS.sheets;

beforeAll(async () => {
  h = await createFlowHarness();
});

afterEach(() => {
  SINKS.sheets = realSheets;
});

afterAll(() => h.close());

/** Keeps the file names of the documents each write would put in the output; `fail` makes writes throw. */
function createMemorySink(state: { writes: string[][]; fail: boolean }): SinkAdapter {
  return {
    async checkRunnable() {},
    async create(_ctx, { flow, sheetName, saveOutput }) {
      await saveOutput({ kind: 'sheets', sheetId: `memory-${flow.id}`, sheetName });
      return { sheetId: `memory-${flow.id}`, url: `memory://${flow.id}` };
    },
    async write(_ctx, _flow, content) {
      if (state.fail) throw new Error('the memory is full');
      state.writes.push(content.documents.map((row) => String(row.fileName)));
    },
    toRunError: (error) => ({ code: 'sheet_write_failed', message: `Memory: ${(error as Error).message}` }),
    failureLogs: { run: 'memory write failed', catchUp: 'memory catches up later' },
  };
}

describe('the sink registry', () => {
  it('runs a sink kind registered only here through every service that writes rows', async () => {
    const { t, env, jobs, ctx, member } = h;
    const state = { writes: [] as string[][], fail: false };
    SINKS.sheets = createMemorySink(state);
    const wf = await createWorkflow(t.db, {
      env,
      user: member.user,
      membership: member.membership,
      input: {
        name: 'To memory',
        types: ['INVOICE'],
        io: {
          input: { kind: 'upload', url: '', folderName: '' },
          output: { kind: 'sheets', sheetId: '', sheetName: 'Memory' },
        },
      },
    });
    const created = await createSheet(t.db, {
      env,
      executor: ctx.executor,
      membership: member.membership,
      input: { workflowId: wf.id },
    });
    expect(created).toEqual({ sheetId: `memory-${wf.id}`, sheetName: 'Memory', url: `memory://${wf.id}` });
    await addUploads(t.db, {
      env,
      user: member.user,
      membership: member.membership,
      flowId: wf.id,
      files: [{ name: 'invoice-011.pdf', bytes: await readFixture('invoice-011.pdf') }],
    });
    const flow = await requireFlow(t.db, member.membership, wf.id);
    const run = await startRun(t.db, { env, jobs, user: member.user, flow });
    await h.drainJobs();
    const [finished] = await t.db.select().from(runs).where(eq(runs.id, run.id));
    expect(finished?.status).toBe('succeeded');
    expect(state.writes).toEqual([['invoice-011.pdf']]);
    // Every flow keeps its workbook besides its own output.
    expect((await stat(getWorkbookPath(env.dataDir, flow))).isFile()).toBe(true);

    // A sink whose write fails makes the run's error from it.
    state.fail = true;
    const [doc] = (await loadSheetContent(t.db, env, flow)).documents;
    const again = await reprocessDocument(t.db, {
      env,
      jobs,
      user: member.user,
      membership: member.membership,
      id: String(doc!.documentId),
    });
    await h.drainJobs();
    const [failed] = await t.db.select().from(runs).where(eq(runs.id, again.runId));
    expect(failed).toMatchObject({
      status: 'failed',
      errorCode: 'sheet_write_failed',
      errorMessage: 'Memory: the memory is full',
    });

    // A person's removal rewrites it too, through the flow's outputs job (sent once, for this flow).
    state.fail = false;
    await removeDocument(t.db, {
      user: member.user,
      membership: member.membership,
      id: String(doc!.documentId),
      jobs,
    });
    expect(jobs.sent).toEqual([{ name: 'flow-workbook', payload: { flowId: flow.id } }]);
    expect(state.writes).toHaveLength(1);
    await h.drainJobs();
    expect(state.writes).toEqual([['invoice-011.pdf'], []]);

    // With the real entry back, the same flow needs Google to run (and this server has none configured).
    SINKS.sheets = realSheets;
    const refused = await startRun(t.db, { env, jobs, user: member.user, flow }).catch((e: unknown) => e);
    expect(isAppError(refused, 'validation')).toBe(true);
    expect((refused as Error).message).toBe(flowMessages.googleNotConfigured);
  });
});
