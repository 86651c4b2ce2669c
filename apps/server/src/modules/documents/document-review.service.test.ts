import { stat } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { documentEvents, documentLines, documents } from '../../db/schema/index.ts';
import type { JobContext } from '../../jobs/registry.ts';
import { isAppError } from '../../lib/app-error.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { getFlowOutputsStatus } from '../flows/flow-outputs.ts';
import { createWorkflow, getWorkbookPath, requireFlow } from '../flows/flows.service.ts';
import {
  createMember,
  createRecordingSender,
  createTestEnv,
  createTestJobContext,
  type RecordingSender,
  readFixture,
  runRecordedJobs,
} from '../flows/test-support.ts';
import { reprocessDocument } from '../runs/document-reruns.ts';
import { startRun } from '../runs/runs.service.ts';
import { writeStaleFlowOutputs } from '../sheets/flow-outputs-writer.ts';
import { getWorkbookFile } from '../sheets/sheets.service.ts';
import { addUploads } from '../uploads/uploads.service.ts';
import { getDocumentPageImage, listDocumentPages } from './document-pages.ts';
import { approveDocument, correctDocument, getDocumentReview } from './document-review.service.ts';

let t: TestDb;
let env: Env;
let cleanupEnv: () => Promise<void>;
let jobs: RecordingSender;
let ctx: JobContext;
let owner: Awaited<ReturnType<typeof createMember>>;
let stranger: Awaited<ReturnType<typeof createMember>>;
let flowId: string;
let docId: string;

/** Runs every job enqueued so far, like a worker would. */
const drainJobs = () => runRecordedJobs(jobs, ctx);

/** The document's row in the downloaded workbook, by column label. */
async function readWorkbookRow(): Promise<Record<string, unknown>> {
  const file = await getWorkbookFile(t.db, {
    env,
    executor: ctx.executor,
    membership: owner.membership,
    flowId,
  });
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file.path);
  const sheet = book.worksheets[0]!;
  const row: Record<string, unknown> = {};
  sheet.getRow(1).eachCell((cell, column) => {
    row[String(cell.value)] = sheet.getRow(2).getCell(column).value;
  });
  return row;
}

const review = () => ({ db: t.db, env, executor: ctx.executor });

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup: cleanupEnv } = await createTestEnv());
  jobs = createRecordingSender();
  ctx = createTestJobContext(t.db, { env, jobs });
  owner = await createMember(t.db, 'Meera');
  stranger = await createMember(t.db, 'Other Org');
  const wf = await createWorkflow(t.db, {
    env,
    user: owner.user,
    membership: owner.membership,
    input: {
      name: 'Purchase bills',
      types: ['INVOICE'],
      io: {
        input: { kind: 'upload', url: '', folderName: '' },
        output: { kind: 'xlsx', sheetId: '', sheetName: 'Purchase bills' },
      },
    },
  });
  flowId = wf.id;
  await addUploads(t.db, {
    env,
    user: owner.user,
    membership: owner.membership,
    flowId,
    files: [{ name: 'bill.pdf', bytes: await readFixture('invoice-018.pdf') }],
  });
  await startRun(t.db, {
    env,
    jobs,
    user: owner.user,
    flow: await requireFlow(t.db, owner.membership, flowId),
  });
  await drainJobs();
  const [doc] = await t.db.select().from(documents).where(eq(documents.flowId, flowId));
  docId = doc!.id;
}, 120_000);

afterAll(async () => {
  await ctx.executor.close();
  await t.close();
  await cleanupEnv();
});

describe('document review', () => {
  it('shows the document with its pages in the frame of its boxes, drawn once per width', async () => {
    const view = await getDocumentReview(t.db, { env, membership: owner.membership, id: docId });
    expect(view.flowName).toBe('Purchase bills');
    // The flow's only document: nothing before, after or left to review.
    expect([view.previousId, view.nextId, view.nextToReviewId]).toEqual([null, null, null]);
    expect(view.pages).toHaveLength(1);
    // An A4 page in points, which is what provenance boxes are given in.
    expect(view.pages[0]).toMatchObject({ number: 1, imageUrl: `/api/documents/${docId}/pages/1` });
    expect(view.pages[0]!.width).toBeGreaterThan(500);
    expect(view.pages[0]!.height).toBeGreaterThan(700);
    const { path } = await getDocumentPageImage(t.db, {
      env,
      membership: owner.membership,
      id: docId,
      page: 1,
      width: 1000,
    });
    expect(path).toMatch(/p1-w1280\.png$/);
    const first = await stat(path);
    expect(
      await getDocumentPageImage(t.db, {
        env,
        membership: owner.membership,
        id: docId,
        page: 1,
        width: 1100,
      }),
    ).toEqual({ path, placeholder: false });
    expect((await stat(path)).mtimeMs).toBe(first.mtimeMs);
    await expect(
      getDocumentPageImage(t.db, { env, membership: owner.membership, id: docId, page: 2, width: 1000 }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it("keeps another organisation out of a document's review, pages and changes", async () => {
    const calls = [
      () => getDocumentReview(t.db, { env, membership: stranger.membership, id: docId }),
      () => listDocumentPages(t.db, { env, membership: stranger.membership, id: docId }),
      () =>
        correctDocument(review(), {
          user: stranger.user,
          membership: stranger.membership,
          id: docId,
          input: {
            fields: { total: '1' },
            lines: [],
          },
        }),
      () => approveDocument(review(), { user: stranger.user, membership: stranger.membership, id: docId }),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ code: 'not_found' });
    const [row] = await t.db.select().from(documents).where(eq(documents.id, docId));
    expect((row!.extraction as { fields: { total: number } }).fields.total).toBe(248693);
  });

  it('corrects a value: checks run again, the trail keeps old and new, and the workbook follows', async () => {
    const wrong = await correctDocument(review(), {
      user: owner.user,
      membership: owner.membership,
      id: docId,
      input: {
        fields: { total: '2,50,000' },
        lines: [],
      },
    });
    expect(wrong.corrected).toEqual(['total']);
    expect(wrong.document.status).toBe('needs_review');
    expect(wrong.document.failedChecks).toEqual(
      expect.arrayContaining(['taxes_sum_to_total', 'amount_in_words_matches_total']),
    );
    expect(wrong.events).toMatchObject([
      { kind: 'corrected', field: 'total', oldValue: 248693, newValue: 250000, userName: 'Meera' },
    ]);
    expect((await readWorkbookRow()).Total).toBe(250000);

    const right = await correctDocument(review(), {
      user: owner.user,
      membership: owner.membership,
      id: docId,
      input: {
        fields: { total: '248693.00' },
        lines: [],
      },
    });
    expect(right.document.failedChecks).not.toContain('taxes_sum_to_total');
    expect(right.document.failedChecks).not.toContain('amount_in_words_matches_total');
    expect(right.events.map((e) => [e.oldValue, e.newValue])).toEqual([
      [248693, 250000],
      [250000, 248693],
    ]);
    expect((await readWorkbookRow()).Total).toBe(248693);
  });

  it('corrects a line cell and its stored line row', async () => {
    const view = await correctDocument(review(), {
      user: owner.user,
      membership: owner.membership,
      id: docId,
      input: {
        fields: {},
        lines: [{ line: 1, field: 'unit', value: 'KGS' }],
      },
    });
    expect(view.corrected).toContain('lineItems.1.unit');
    const [line] = await t.db.select().from(documentLines).where(eq(documentLines.documentId, docId));
    expect((line!.data as { unit: string }).unit).toBe('KGS');
  });

  it('refuses a value that does not read, naming the field, and changes nothing', async () => {
    const before = await t.db.select().from(documentEvents).where(eq(documentEvents.documentId, docId));
    const error = await correctDocument(review(), {
      user: owner.user,
      membership: owner.membership,
      id: docId,
      input: {
        fields: { documentDate: '31/02/2024', vendorGstin: '27DEQFU9689H2ZQ' },
        lines: [{ line: 9, field: 'amount', value: '10' }],
      },
    }).catch((e: unknown) => e);
    expect(isAppError(error, 'validation')).toBe(true);
    expect(Object.keys((error as { fields: Record<string, string> }).fields).sort()).toEqual([
      'fields.documentDate',
      'fields.vendorGstin',
      'lineItems.9.amount',
    ]);
    const after = await t.db.select().from(documentEvents).where(eq(documentEvents.documentId, docId));
    expect(after).toHaveLength(before.length);
  });

  it('approves once: the sheet reads "Approved", a second approval adds nothing', async () => {
    const approved = await approveDocument(review(), {
      user: owner.user,
      membership: owner.membership,
      id: docId,
    });
    expect(approved.document).toMatchObject({ status: 'done', reviewFlag: 'approved' });
    expect(approved.approvedBy).toBe('Meera');
    await approveDocument(review(), { user: owner.user, membership: owner.membership, id: docId });
    const events = await t.db.select().from(documentEvents).where(eq(documentEvents.documentId, docId));
    expect(events.filter((e) => e.kind === 'approved')).toHaveLength(1);
    expect((await readWorkbookRow()).Review).toBe('Approved');
  });

  it('a correction after approval asks for a look again', async () => {
    const view = await correctDocument(review(), {
      user: owner.user,
      membership: owner.membership,
      id: docId,
      input: {
        fields: { poNumber: 'PUR-2024-1081' },
        lines: [],
      },
    });
    expect(view.approvedAt).toBeNull();
    expect(view.document.reviewFlag).not.toBe('approved');
  });

  it('a re-run keeps what a person corrected, over the new reading, and asks for a new approval', async () => {
    await approveDocument(review(), { user: owner.user, membership: owner.membership, id: docId });
    await reprocessDocument(t.db, { env, jobs, user: owner.user, membership: owner.membership, id: docId });
    await drainJobs();
    const view = await getDocumentReview(t.db, { env, membership: owner.membership, id: docId });
    const extraction = view.document.extraction as {
      fields: Record<string, unknown>;
      lineItems: Array<Record<string, unknown>>;
    };
    expect(extraction.fields.poNumber).toBe('PUR-2024-1081');
    expect(extraction.lineItems[0]?.unit).toBe('KGS');
    expect(extraction.fields.total).toBe(248693);
    expect(view.corrected).toEqual(expect.arrayContaining(['poNumber', 'lineItems.1.unit']));
    expect(view.approvedAt).toBeNull();
    // The engine's own reading is kept beside the corrected one, and the sheet shows the person's values.
    const [row] = await t.db.select().from(documents).where(eq(documents.id, docId));
    expect((row!.extracted as { fields: Record<string, unknown> }).fields.poNumber).toBe('PUR-2024-1080');
    const [line] = await t.db.select().from(documentLines).where(eq(documentLines.documentId, docId));
    expect((line!.data as { unit: string }).unit).toBe('KGS');
    expect((await readWorkbookRow())['PO No.']).toBe('PUR-2024-1081');
    expect(view.events.length).toBeGreaterThanOrEqual(6);
  });
  it('answers a correction before the outputs are written: the flow-workbook job writes them, once', async () => {
    jobs.sent.length = 0;
    await correctDocument(
      { ...review(), jobs },
      {
        user: owner.user,
        membership: owner.membership,
        id: docId,
        input: { fields: { documentNumber: 'QX/2207' }, lines: [] },
      },
    );
    // Saved and answered; the outputs are stale and their job is sent once, for this flow.
    expect(jobs.sent.filter((j) => j.name === 'flow-workbook')).toEqual([
      { name: 'flow-workbook', payload: { flowId } },
    ]);
    jobs.sent.length = 0;
    const stale = await getFlowOutputsStatus(t.db, { membership: owner.membership, flowId });
    expect(stale.upToDate).toBe(false);
    const flow = await requireFlow(t.db, owner.membership, flowId);
    expect(flow.workbookWrittenAt).toBeNull();
    // The job writes the workbook with the correction, and says so.
    await writeStaleFlowOutputs(ctx, flowId);
    const written = await getFlowOutputsStatus(t.db, { membership: owner.membership, flowId });
    expect(written).toMatchObject({ upToDate: true, error: null });
    expect(written.writtenAt).not.toBeNull();
    expect(Object.values(await readWorkbookRow())).toContain('QX/2207');
    // Delivered again, it finds them up to date and writes nothing.
    const path = getWorkbookPath(env.dataDir, flow);
    const mtime = (await stat(path)).mtimeMs;
    await writeStaleFlowOutputs(ctx, flowId);
    expect((await stat(path)).mtimeMs).toBe(mtime);
    expect(await getFlowOutputsStatus(t.db, { membership: owner.membership, flowId })).toEqual(written);
  });
});
