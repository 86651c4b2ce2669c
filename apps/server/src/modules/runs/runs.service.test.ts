import { rm } from 'node:fs/promises';
import { and, count, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDIAN_MONEY_FORMAT } from '../../adapters/sinks/xlsx-workbook.ts';
import type { Env } from '../../config/env.ts';
import { documentLines, documents, flowUploads, runs } from '../../db/schema/index.ts';
import type { JobContext } from '../../jobs/registry.ts';
import { type TaskExecutor, WorkerCrashError } from '../../jobs/worker-pool.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { listActivities } from '../activity/activity.service.ts';
import { describeDocumentError } from '../documents/document-outcome.ts';
import { approveDocument } from '../documents/document-review.service.ts';
import { removeDocument } from '../documents/documents.service.ts';
import { findFlowById } from '../flows/flows.repo.ts';
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
import { listNotifications } from '../notifications/notifications.service.ts';
import { getSheetView, writeFlowWorkbook } from '../sheets/sheets.service.ts';
import { addUploads } from '../uploads/uploads.service.ts';
import { helpExtractRun } from './claim-loop.ts';
import { reprocessDocument, retryDocument } from './document-reruns.ts';
import { processRun } from './run-leader.ts';
import { getRun, listRuns, startRun } from './runs.service.ts';

let t: TestDb;
let env: Env;
let cleanupEnv: () => Promise<void>;
let jobs: RecordingSender;
let ctx: JobContext;
let member: Awaited<ReturnType<typeof createMember>>;

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup: cleanupEnv } = await createTestEnv());
  jobs = createRecordingSender();
  ctx = createTestJobContext(t.db, { env, jobs });
  member = await createMember(t.db);
});

afterAll(async () => {
  await ctx.executor.close();
  await t.close();
  await cleanupEnv();
});

/** Runs every job enqueued so far, like a worker would. */
const drainJobs = () => runRecordedJobs(jobs, ctx);

async function createUploadFlow(name: string, owner = member) {
  const wf = await createWorkflow(t.db, {
    env,
    user: owner.user,
    membership: owner.membership,
    input: {
      name,
      types: ['INVOICE'],
      io: {
        input: { kind: 'upload', url: '', folderName: '' },
        output: { kind: 'xlsx', sheetId: '', sheetName: name },
      },
    },
  });
  return requireFlow(t.db, owner.membership, wf.id);
}

async function countDocs(flowId: string) {
  const [row] = await t.db.select({ n: count() }).from(documents).where(eq(documents.flowId, flowId));
  return Number(row?.n);
}

async function countLines(documentId: string) {
  const [row] = await t.db
    .select({ n: count() })
    .from(documentLines)
    .where(eq(documentLines.documentId, documentId));
  return Number(row?.n);
}

/** A well-formed one-page PDF (cross-reference table and all) whose page draws nothing. */
function buildBlankPdf(): Uint8Array {
  const objects = [
    '<</Type/Catalog/Pages 2 0 R>>',
    '<</Type/Pages/Kids[3 0 R]/Count 1>>',
    '<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj${body}endobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) pdf += `${String(at).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

describe('an upload gone from the server', () => {
  it('fails its document in plain words and the run still succeeds', async () => {
    const flow = await createUploadFlow('Gone');
    await addUploads(t.db, {
      env,
      user: member.user,
      membership: member.membership,
      flowId: flow.id,
      files: [{ name: 'vanished.pdf', bytes: await readFixture('invoice-018.pdf') }],
    });
    // The stored copy disappears between upload and run (a cleared data folder, a partial restore).
    const [upload] = await t.db.select().from(flowUploads).where(eq(flowUploads.flowId, flow.id));
    await rm(upload?.storedPath ?? '', { force: true });
    const run = await startRun(t.db, { env, jobs, user: member.user, flow });
    await drainJobs();
    const [doc] = await t.db.select().from(documents).where(eq(documents.flowId, flow.id));
    expect(doc).toMatchObject({ status: 'failed', errorCode: 'source_unavailable' });
    expect(doc?.errorMessage).toMatch(/no longer stored on the server; upload it again/);
    expect((await getRun(t.db, member.membership, run.id)).status).toBe('succeeded');
  });
});

describe('a document that takes too long to read', () => {
  it('fails that document in words, with its own code, and the run finishes with the others', async () => {
    // An organisation of its own: its invoice must not make another test's copy a possible duplicate.
    const owner = await createMember(t.db, 'Slow Owner');
    const flow = await createUploadFlow('Slow', owner);
    await addUploads(t.db, {
      env,
      user: owner.user,
      membership: owner.membership,
      flowId: flow.id,
      files: [
        { name: 'good.pdf', bytes: await readFixture('invoice-018.pdf') },
        { name: 'slow.pdf', bytes: buildBlankPdf() },
        { name: 'slower.pdf', bytes: new TextEncoder().encode('%PDF-1.4 slower') },
      ],
    });
    // slow.pdf overruns the engine's own limit; slower.pdf's thread is stopped by the pool's hard limit.
    const slow: TaskExecutor = {
      ...ctx.executor,
      size: 1,
      async extract(task, onPage) {
        if (task.fileName === 'slower.pdf')
          throw new WorkerCrashError('the worker thread overran its 150000 ms limit', true);
        const results = await ctx.executor.extract(task, onPage);
        if (task.fileName !== 'slow.pdf') return results;
        return results.map((result) => ({
          ...result,
          error: { code: 'too_large', message: 'processing exceeded the time limit of 120000 ms' },
        }));
      },
    };
    const run = await startRun(t.db, { env, jobs, user: owner.user, flow });
    await runRecordedJobs(jobs, { ...ctx, executor: slow });
    const docs = await t.db.select().from(documents).where(eq(documents.flowId, flow.id));
    const byName = Object.fromEntries(docs.map((d) => [d.fileName, d]));
    for (const name of ['slow.pdf', 'slower.pdf']) {
      expect(byName[name]).toMatchObject({ status: 'failed', errorCode: 'timeout' });
      expect(byName[name]?.errorMessage).toMatch(/^This document took too long to read/);
      expect(byName[name]?.errorMessage).not.toMatch(/on our side/);
    }
    expect(byName['good.pdf']?.status).not.toBe('failed');
    const finished = await getRun(t.db, owner.membership, run.id);
    expect(finished.status).toBe('succeeded');
    expect(finished.counts).toMatchObject({ total: 3, failed: 2 });
  });
});

describe('possible duplicates', () => {
  it('flags the same invoice uploaded again under another name, in another flow, for review', async () => {
    const owner = await createMember(t.db, 'Dup Owner');
    const makeFlow = async (name: string) =>
      requireFlow(
        t.db,
        owner.membership,
        (
          await createWorkflow(t.db, {
            env,
            user: owner.user,
            membership: owner.membership,
            input: {
              name,
              types: ['INVOICE'],
              io: {
                input: { kind: 'upload', url: '', folderName: '' },
                output: { kind: 'xlsx', sheetId: '', sheetName: name },
              },
            },
          })
        ).id,
      );
    const bytes = await readFixture('invoice-018.pdf');
    const first = await makeFlow('August');
    await addUploads(t.db, {
      env,
      user: owner.user,
      membership: owner.membership,
      flowId: first.id,
      files: [{ name: 'tax-invoice.pdf', bytes }],
    });
    await startRun(t.db, { env, jobs, user: owner.user, flow: first });
    await drainJobs();
    const second = await makeFlow('September');
    await addUploads(t.db, {
      env,
      user: owner.user,
      membership: owner.membership,
      flowId: second.id,
      files: [{ name: 'scan-from-accounts.pdf', bytes }],
    });
    await startRun(t.db, { env, jobs, user: owner.user, flow: second });
    await drainJobs();
    const [original] = await t.db.select().from(documents).where(eq(documents.flowId, first.id));
    const [copy] = await t.db.select().from(documents).where(eq(documents.flowId, second.id));
    expect(original!.failedChecks).not.toContain('possible_duplicate');
    expect(copy).toMatchObject({ status: 'needs_review', reviewFlag: 'review', duplicateOf: original!.id });
    expect(copy!.failedChecks).toContain('possible_duplicate');
    // Held out of the sheet, so nothing is booked twice, until a person says it is not a duplicate.
    const sheet = () =>
      getSheetView(t.db, {
        env,
        membership: owner.membership,
        flowId: second.id,
        query: { tab: 'documents', dir: 'asc', page: 1 },
      });
    expect((await sheet()).rows).toEqual([]);
    await approveDocument(
      { db: t.db, env },
      { user: owner.user, membership: owner.membership, id: copy!.id },
    );
    expect((await sheet()).rows.map((r) => r.fileName)).toEqual(['scan-from-accounts.pdf']);
  });

  it('removes a document from its flow: its rows leave the sheet and a later run does not read it again', async () => {
    const owner = await createMember(t.db, 'Remover');
    const created = await createWorkflow(t.db, {
      env,
      user: owner.user,
      membership: owner.membership,
      input: {
        name: 'Removals',
        types: ['INVOICE'],
        io: {
          input: { kind: 'upload', url: '', folderName: '' },
          output: { kind: 'xlsx', sheetId: '', sheetName: 'Removals' },
        },
      },
    });
    const flow = await requireFlow(t.db, owner.membership, created.id);
    await addUploads(t.db, {
      env,
      user: owner.user,
      membership: owner.membership,
      flowId: flow.id,
      files: [
        { name: 'keep.pdf', bytes: await readFixture('invoice-018.pdf') },
        { name: 'wrong-file.pdf', bytes: await readFixture('invoice-040.pdf') },
      ],
    });
    await startRun(t.db, { env, jobs, user: owner.user, flow });
    await drainJobs();
    const docs = await t.db.select().from(documents).where(eq(documents.flowId, flow.id));
    const wrong = docs.find((d) => d.fileName === 'wrong-file.pdf')!;
    // Another organisation cannot see it, let alone remove it.
    await expect(
      removeDocument(t.db, { user: member.user, membership: member.membership, id: wrong.id }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    const removed = await removeDocument(t.db, {
      user: owner.user,
      membership: owner.membership,
      id: wrong.id,
    });
    expect(removed.status).toBe('removed');
    const view = await getSheetView(t.db, {
      env,
      membership: owner.membership,
      flowId: flow.id,
      query: {
        tab: 'documents',
        dir: 'asc',
        page: 1,
      },
    });
    expect(view.rows.map((r) => r.fileName)).toEqual(['keep.pdf']);
    const [lines] = await t.db
      .select({ n: count() })
      .from(documentLines)
      .where(eq(documentLines.documentId, wrong.id));
    expect(Number(lines?.n)).toBe(0);
    // The inbox no longer lists it, and the next run does not bring it back.
    const again = await startRun(t.db, { env, jobs, user: owner.user, flow });
    await drainJobs();
    expect((await getRun(t.db, owner.membership, again.id)).counts).toMatchObject({
      total: 0,
      alreadyProcessed: 2,
    });
    expect(
      (
        await getSheetView(t.db, {
          env,
          membership: owner.membership,
          flowId: flow.id,
          query: { tab: 'documents', dir: 'asc', page: 1 },
        })
      ).total,
    ).toBe(1);
    // Removing twice is harmless.
    expect(
      (await removeDocument(t.db, { user: owner.user, membership: owner.membership, id: wrong.id })).status,
    ).toBe('removed');
  });
});

describe('blank documents', () => {
  it('fail as empty documents in plain words and never become a workbook row', async () => {
    const flow = await createUploadFlow('Blank scans');
    // A blank scan (white page image) and a PDF whose one page draws nothing.
    const blankPng = await sharp({
      create: { width: 1240, height: 1754, channels: 3, background: '#ffffff' },
    })
      .png()
      .toBuffer();
    const blankPdf = buildBlankPdf();
    await addUploads(t.db, {
      env,
      user: member.user,
      membership: member.membership,
      flowId: flow.id,
      files: [
        { name: 'blank-scan.png', bytes: new Uint8Array(blankPng) },
        { name: 'blank-page.pdf', bytes: blankPdf },
      ],
    });
    const run = await startRun(t.db, { env, jobs, user: member.user, flow });
    // Every failed document is logged as a warning an operator can search by organisation, flow and code.
    const logged: string[] = [];
    const quiet = ctx.logger;
    ctx.logger = pino({ level: 'warn' }, { write: (line: string) => logged.push(line) });
    try {
      await drainJobs();
    } finally {
      ctx.logger = quiet;
    }
    const failures = logged
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === 'document failed');
    expect(failures).toHaveLength(2);
    for (const entry of failures)
      expect(entry).toMatchObject({
        level: 40,
        organizationId: flow.organizationId,
        flowId: flow.id,
        runId: run.id,
        documentId: expect.any(String),
        errorCode: 'empty_document',
      });
    const finished = await getRun(t.db, member.membership, run.id);
    expect(finished.counts).toMatchObject({ total: 2, failed: 2, done: 0, needsReview: 0 });
    const docs = await t.db.select().from(documents).where(eq(documents.flowId, flow.id));
    for (const d of docs) {
      expect(d.status, d.fileName).toBe('failed');
      expect(d.errorCode, d.fileName).toBe('empty_document');
      expect(d.errorMessage).toBe(describeDocumentError('empty_document'));
    }
    const view = await getSheetView(t.db, {
      env,
      membership: member.membership,
      flowId: flow.id,
      query: {
        tab: 'documents',
        dir: 'asc',
        page: 1,
      },
    });
    expect(view.total).toBe(0);
  });
});

describe('a flow over uploads, end to end with the real engine', () => {
  let flowId: string;
  let firstRunId: string;

  it('processes new documents: done, needs review or failed in plain words', async () => {
    const flow = await createUploadFlow('Invoices');
    flowId = flow.id;
    const upload = await addUploads(t.db, {
      env,
      user: member.user,
      membership: member.membership,
      flowId: flow.id,
      files: [
        { name: 'invoice-018.pdf', bytes: await readFixture('invoice-018.pdf') },
        { name: 'corrupt.pdf', bytes: await readFixture('corrupt.pdf') },
        { name: 'invoice-040.pdf', bytes: await readFixture('invoice-040.pdf') },
        { name: 'notes.txt', bytes: new TextEncoder().encode('not a document') },
      ],
    });
    expect(upload.stored.map((s) => s.fileName).sort()).toEqual([
      'corrupt.pdf',
      'invoice-018.pdf',
      'invoice-040.pdf',
    ]);
    expect(upload.skipped).toEqual([
      { name: 'notes.txt', reason: expect.stringContaining('Not a supported document type') },
    ]);

    const run = await startRun(t.db, { env, jobs, user: member.user, flow });
    firstRunId = run.id;
    expect(run.status).toBe('queued');
    await drainJobs();

    const finished = await getRun(t.db, member.membership, run.id);
    expect(finished.status).toBe('succeeded');
    expect(finished.counts.total).toBe(3);
    expect(finished.counts.done + finished.counts.needsReview).toBe(2);
    expect(finished.counts.failed).toBe(1);
    expect(finished.durationMs).toBeGreaterThanOrEqual(0);

    const docs = await t.db.select().from(documents).where(eq(documents.flowId, flow.id));
    const corrupt = docs.find((d) => d.fileName === 'corrupt.pdf')!;
    expect(corrupt.status).toBe('failed');
    // mupdf may repair the damaged file into zero pages; either way the user reads plain words.
    expect(['unreadable_file', 'empty_document']).toContain(corrupt.errorCode);
    expect(corrupt.errorMessage).toBe(describeDocumentError(corrupt.errorCode!));
    expect(corrupt.errorMessage).not.toMatch(/xref|startxref|PDF has no pages/);
    expect(corrupt.processedAt).toBeNull();
    const good = docs.find((d) => d.fileName === 'invoice-018.pdf')!;
    expect((good.extraction as { fields: Record<string, unknown> }).fields.documentNumber).toBe('TI-01650');
    expect(await countLines(good.id)).toBeGreaterThan(0);

    const after = await findFlowById(t.db, flow.id);
    expect(after?.status).toBe('success');
    expect(after?.lastRunAt).not.toBeNull();
    const bell = await listNotifications(t.db, {
      organizationId: member.membership.organizationId,
      userId: member.user.id,
    });
    expect(bell.items[0]?.kind).toBe('flow.run.finished');
    // The bell's link opens the flow's sheet in the web app.
    expect(bell.items[0]?.link).toBe(`/parse?sheet=${flow.id}`);
    const activity = await listActivities(t.db, member.membership.organizationId);
    expect(activity.map((a) => a.kind)).toEqual(
      expect.arrayContaining(['flow.created', 'flow.run.started', 'flow.run.finished']),
    );
  });

  it('writes the workbook: tabs, header, frozen pane, Indian number format, rows equal the extraction', async () => {
    const flow = (await findFlowById(t.db, flowId))!;
    const path = getWorkbookPath(env.dataDir, flow);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path);
    // An invoice flow also says how its invoices matched their purchase orders (none here: no PO read).
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Documents', 'Line Items', 'Matches']);
    const matches = workbook.getWorksheet('Matches')!;
    expect(matches.getRow(1).getCell(1).value).toBe('Invoice No.');
    const labels = (matches.getRow(1).values as unknown[]).map(String);
    const reasons = String(matches.getRow(2).getCell(labels.indexOf('Reasons')).value ?? '');
    expect(reasons).toMatch(/No purchase order found for it/);
    const sheet = workbook.getWorksheet('Documents')!;
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 3)).toEqual(['File Name', 'Document Link', 'Document No.']);
    expect(header).toContain('Total');
    expect(sheet.rowCount).toBe(3); // header + the two readable invoices (failed ones are not rows)
    const totalCol = header.indexOf('Total') + 1;
    const docs = await t.db.select().from(documents).where(eq(documents.flowId, flowId));
    for (let r = 2; r <= 3; r++) {
      const row = sheet.getRow(r);
      const doc = docs.find((d) => d.fileName === row.getCell(1).value)!;
      const fields = (doc.extraction as { fields: Record<string, unknown> }).fields;
      expect(row.getCell(3).value).toBe(fields.documentNumber);
      expect(row.getCell(totalCol).value).toBe(fields.total);
      // ExcelJS reads the literal commas back without their escapes.
      expect(row.getCell(totalCol).numFmt?.replaceAll('\\', '')).toBe(
        INDIAN_MONEY_FORMAT.replaceAll('\\', ''),
      );
      expect((row.getCell(2).value as { hyperlink: string }).hyperlink).toBe(
        `${env.publicUrl}/api/documents/${doc.id}/file`,
      );
    }
    // What a finance person reads: the verdict in words, the time as a date-time cell in India's zone,
    // a filter on every column of every tab, and columns as wide as their content.
    const reviewCol = header.indexOf('Review') + 1;
    const processedCol = header.indexOf('Processed At') + 1;
    for (let r = 2; r <= 3; r++) {
      const row = sheet.getRow(r);
      const doc = docs.find((d) => d.fileName === row.getCell(1).value)!;
      expect(row.getCell(reviewCol).value).toBe(doc.reviewFlag === 'ok' ? 'OK' : 'Needs review');
      const processed = row.getCell(processedCol);
      expect(processed.value).toBeInstanceOf(Date);
      expect(processed.numFmt).toBe('dd-mm-yyyy hh:mm');
      // Stored as the wall clock of Asia/Kolkata (UTC + 5:30), to the second.
      expect((processed.value as Date).getTime()).toBe(
        Math.floor(doc.processedAt!.getTime() / 1000) * 1000 + 330 * 60_000,
      );
    }
    for (const tab of workbook.worksheets) {
      expect(String(tab.autoFilter), tab.name).toMatch(/^A1:[A-Z]+1$/);
      const widths = (tab.columns ?? []).map((c) => c.width ?? 0);
      const labels = (tab.getRow(1).values as unknown[]).slice(1).map(String);
      expect(widths).toHaveLength(labels.length);
      for (const [i, label] of labels.entries())
        expect(widths[i], label).toBeGreaterThanOrEqual(label.length);
    }
    const fileCol = sheet.getColumn(1);
    const longestName = Math.max(...docs.map((d) => d.fileName.length));
    expect(fileCol.width).toBeGreaterThanOrEqual(longestName);
    const lines = workbook.getWorksheet('Line Items')!;
    const [lineTotal] = await t.db
      .select({ n: count() })
      .from(documentLines)
      .where(eq(documentLines.flowId, flowId));
    expect(lines.rowCount - 1).toBe(Number(lineTotal?.n));
    expect(lines.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    // Both tabs start alike: the columns they share come first, in the same order.
    expect((lines.getRow(1).values as unknown[]).slice(1, 4)).toEqual([
      'File Name',
      'Document No.',
      'Line No.',
    ]);
    expect(header.indexOf('File Name')).toBeLessThan(header.indexOf('Document No.'));
  });

  it('serves the sheet view from the database, sorted and paged', async () => {
    const view = await getSheetView(t.db, {
      env,
      membership: member.membership,
      flowId,
      query: {
        tab: 'documents',
        sort: 'total',
        dir: 'desc',
        page: 1,
      },
    });
    expect(view.total).toBe(2);
    expect(Number(view.rows[0]!.total)).toBeGreaterThanOrEqual(Number(view.rows[1]!.total));
    const lines = await getSheetView(t.db, {
      env,
      membership: member.membership,
      flowId,
      query: {
        tab: 'lines',
        dir: 'asc',
        page: 1,
      },
    });
    expect(lines.rows[0]).toMatchObject({ lineNo: 1 });
    await expect(
      getSheetView(t.db, {
        env,
        membership: member.membership,
        flowId,
        query: {
          tab: 'documents',
          sort: 'nope; drop table',
          dir: 'asc',
          page: 1,
        },
      }),
    ).rejects.toMatchObject({ code: 'validation' });
  });

  it('is idempotent: a second run adds nothing; a new file adds exactly one row', async () => {
    const flow = await requireFlow(t.db, member.membership, flowId);
    const before = await countDocs(flowId);
    const again = await startRun(t.db, { env, jobs, user: member.user, flow });
    await drainJobs();
    const second = await getRun(t.db, member.membership, again.id);
    expect(second.status).toBe('succeeded');
    expect(second.counts.total).toBe(0);
    expect(second.counts.alreadyProcessed).toBe(3);
    expect(await countDocs(flowId)).toBe(before);

    await addUploads(t.db, {
      env,
      user: member.user,
      membership: member.membership,
      flowId,
      files: [
        { name: 'invoice-011.pdf', bytes: await readFixture('invoice-011.pdf') },
        { name: 'invoice-018.pdf', bytes: await readFixture('invoice-018.pdf') }, // same again: no new document
      ],
    });
    const third = await startRun(t.db, { env, jobs, user: member.user, flow });
    await drainJobs();
    expect((await getRun(t.db, member.membership, third.id)).counts.total).toBe(1);
    expect(await countDocs(flowId)).toBe(before + 1);
    const history = await listRuns(t.db, member.membership, flowId);
    expect(history.map((r) => r.id).slice(0, 3)).toEqual([third.id, again.id, firstRunId]);
  });

  it('re-process replaces the document rows instead of appending', async () => {
    const [doc] = await t.db
      .select()
      .from(documents)
      .where(and(eq(documents.flowId, flowId), eq(documents.fileName, 'invoice-018.pdf')));
    const linesBefore = await countLines(doc!.id);
    const { runId } = await reprocessDocument(t.db, {
      env,
      jobs,
      user: member.user,
      membership: member.membership,
      id: doc!.id,
    });
    await drainJobs();
    expect((await getRun(t.db, member.membership, runId)).status).toBe('succeeded');
    expect(await countLines(doc!.id)).toBe(linesBefore);
    const [reread] = await t.db.select().from(documents).where(eq(documents.id, doc!.id));
    expect(reread!.attempts).toBe(2);
    const view = await getSheetView(t.db, {
      env,
      membership: member.membership,
      flowId,
      query: {
        tab: 'documents',
        dir: 'asc',
        page: 1,
      },
    });
    expect(view.rows.filter((r) => r.fileName === 'invoice-018.pdf')).toHaveLength(1);
  });

  it('retries failed documents only', async () => {
    const [failed] = await t.db
      .select()
      .from(documents)
      .where(and(eq(documents.flowId, flowId), eq(documents.status, 'failed')));
    const { runId } = await retryDocument(t.db, {
      env,
      jobs,
      user: member.user,
      membership: member.membership,
      id: failed!.id,
    });
    await drainJobs();
    const [reread] = await t.db.select().from(documents).where(eq(documents.id, failed!.id));
    expect(reread!.status).toBe('failed'); // still damaged, but tried again
    expect(reread!.runId).toBe(runId);
    expect(reread!.attempts).toBe(2);
    const [done] = await t.db
      .select()
      .from(documents)
      .where(and(eq(documents.flowId, flowId), eq(documents.status, 'done')));
    if (done) {
      await expect(
        retryDocument(t.db, { env, jobs, user: member.user, membership: member.membership, id: done.id }),
      ).rejects.toMatchObject({
        code: 'conflict',
      });
    }
  });

  it('refuses a second run of the same flow while one is queued', async () => {
    const flow = await requireFlow(t.db, member.membership, flowId);
    const results = await Promise.allSettled([
      startRun(t.db, { env, jobs, user: member.user, flow }),
      startRun(t.db, { env, jobs, user: member.user, flow }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: 'run_in_progress' });
    await drainJobs();
  });
});

describe('crash safety', () => {
  it('resumes a run whose worker died mid-run and ends with exactly one row per document', async () => {
    // An organisation of its own: the same invoices read by earlier tests' flows would be held back as
    // possible duplicates of those.
    const crashy = await createMember(t.db, 'Crashy Owner');
    const flow = await createUploadFlow('Crashy', crashy);
    await addUploads(t.db, {
      env,
      user: crashy.user,
      membership: crashy.membership,
      flowId: flow.id,
      files: [
        { name: 'a.pdf', bytes: await readFixture('invoice-018.pdf') },
        { name: 'b.pdf', bytes: await readFixture('invoice-040.pdf') },
      ],
    });
    const run = await startRun(t.db, { env, jobs, user: crashy.user, flow });
    jobs.sent.length = 0; // the job is "lost" with the dead worker
    // A worker took the run, scanned, started one document and died holding the lease.
    await t.db
      .update(runs)
      .set({ leaseOwner: 'dead-worker', heartbeatAt: sql`now()` })
      .where(eq(runs.id, run.id));
    // Simulate the half-done state directly: documents inserted by the scan, one left 'processing'.
    const { insertScannedDocument, claimNextDocument, noteDocumentPages } = await import(
      '../documents/documents.repo.ts'
    );
    for (const name of ['a.pdf', 'b.pdf']) {
      const [u] = await t.db
        .execute(
          sql`select stored_path, sha256, size from flow_uploads where flow_id = ${flow.id} and file_name = ${name}`,
        )
        .then(
          (r) =>
            (r as unknown as { rows: Array<{ stored_path: string; sha256: string; size: number }> }).rows,
        );
      await insertScannedDocument(t.db, {
        organizationId: flow.organizationId,
        flowId: flow.id,
        runId: run.id,
        sourceKind: 'upload',
        sourceId: name,
        contentHash: u!.sha256,
        fileName: name,
        sourcePath: u!.stored_path,
        size: Number(u!.size),
        modifiedAt: null,
      });
    }
    await t.db
      .update(runs)
      .set({ status: 'running', counts: { scanned: true } })
      .where(eq(runs.id, run.id));
    const claimed = await claimNextDocument(t.db, {
      runId: run.id,
      workerId: 'dead-worker',
      leaseSeconds: 90,
    });
    expect(claimed?.status).toBe('processing');
    // The run names the document really being read, not the last one it was told about, and its bar
    // moves with the pages that worker has read.
    expect((await getRun(t.db, crashy.membership, run.id)).currentFile).toBe(claimed?.fileName);
    await noteDocumentPages(t.db, {
      documentId: claimed!.id,
      workerId: 'dead-worker',
      pagesRead: 1,
      pageCount: 4,
    });
    await noteDocumentPages(t.db, {
      documentId: claimed!.id,
      workerId: 'another-worker',
      pagesRead: 3,
      pageCount: 4,
    }); // not its claim: ignored
    expect((await getRun(t.db, crashy.membership, run.id)).partialDone).toBe(0.25);

    // While the dead worker's lease looks fresh, a re-delivered job must not touch the run.
    await processRun(run.id, ctx);
    expect((await getRun(t.db, crashy.membership, run.id)).status).toBe('running');

    // The dead worker stops renewing: its run lease and its document claim lapse together. The job is
    // delivered again (twice, even) and the run completes once.
    await t.db
      .update(runs)
      .set({ heartbeatAt: sql`now() - interval '10 minutes'` })
      .where(eq(runs.id, run.id));
    await t.db
      .update(documents)
      .set({ claimedAt: sql`now() - interval '10 minutes'` })
      .where(eq(documents.claimedBy, 'dead-worker'));
    await Promise.all([
      processRun(run.id, ctx),
      processRun(run.id, createTestJobContext(t.db, { env, jobs, executor: ctx.executor })),
    ]);
    await processRun(run.id, ctx);
    const finished = await getRun(t.db, crashy.membership, run.id);
    expect(finished.status).toBe('succeeded');
    expect(finished.counts.total).toBe(2);
    const docs = await t.db.select().from(documents).where(eq(documents.flowId, flow.id));
    expect(docs).toHaveLength(2);
    expect(docs.every((d) => d.status === 'done' || d.status === 'needs_review')).toBe(true);
    const view = await getSheetView(t.db, {
      env,
      membership: crashy.membership,
      flowId: flow.id,
      query: {
        tab: 'documents',
        dir: 'asc',
        page: 1,
      },
    });
    expect(view.rows.map((r) => r.fileName).sort()).toEqual(['a.pdf', 'b.pdf']);
    const lines = await getSheetView(t.db, {
      env,
      membership: crashy.membership,
      flowId: flow.id,
      query: {
        tab: 'lines',
        dir: 'asc',
        page: 1,
      },
    });
    const perDoc = new Map<string, number[]>();
    for (const row of lines.rows)
      perDoc.set(String(row.fileName), [...(perDoc.get(String(row.fileName)) ?? []), Number(row.lineNo)]);
    for (const numbers of perDoc.values()) expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('counts nothing as "already processed" when a scan cut short by a crash runs again', async () => {
    const flow = await createUploadFlow('Scan cut short');
    await addUploads(t.db, {
      env,
      user: member.user,
      membership: member.membership,
      flowId: flow.id,
      files: [
        { name: 'a.pdf', bytes: await readFixture('invoice-018.pdf') },
        { name: 'b.pdf', bytes: await readFixture('invoice-040.pdf') },
      ],
    });
    const run = await startRun(t.db, { env, jobs, user: member.user, flow });
    jobs.sent.length = 0;
    // The scan found a.pdf, then the worker died: the run is not marked scanned and its lease lapsed.
    const [upload] = await t.db
      .select()
      .from(flowUploads)
      .where(and(eq(flowUploads.flowId, flow.id), eq(flowUploads.fileName, 'a.pdf')));
    const { insertScannedDocument } = await import('../documents/documents.repo.ts');
    expect(
      await insertScannedDocument(t.db, {
        organizationId: flow.organizationId,
        flowId: flow.id,
        runId: run.id,
        sourceKind: 'upload',
        sourceId: 'a.pdf',
        contentHash: upload!.sha256,
        fileName: 'a.pdf',
        sourcePath: upload!.storedPath,
        size: upload!.size,
        modifiedAt: null,
      }),
    ).toBe('new');
    await t.db
      .update(runs)
      .set({ status: 'running', leaseOwner: 'dead-worker', heartbeatAt: sql`now() - interval '10 minutes'` })
      .where(eq(runs.id, run.id));
    await processRun(run.id, ctx);
    const finished = await getRun(t.db, member.membership, run.id);
    expect(finished.status).toBe('succeeded');
    expect(finished.counts).toMatchObject({ total: 2, alreadyProcessed: 0 });
    // A later run over the same files finds them processed before, and rings no bell: nothing happened.
    const recipient = { organizationId: member.membership.organizationId, userId: member.user.id };
    const bellBefore = (await listNotifications(t.db, recipient)).items.length;
    const again = await startRun(t.db, { env, jobs, user: member.user, flow });
    await drainJobs();
    expect((await listNotifications(t.db, recipient)).items).toHaveLength(bellBefore);
    expect((await getRun(t.db, member.membership, again.id)).counts).toMatchObject({
      total: 0,
      alreadyProcessed: 2,
    });
  });
});

/** The real in-thread engine behind a gate: each extraction first waits `delayMs` (or `gate`, when given). */
function gatedExecutor(
  inner: TaskExecutor,
  options: { delayMs?: number; gate?: Promise<void> },
): TaskExecutor & { started: number } {
  const executor = {
    started: 0,
    size: 1,
    async extract(task: Parameters<TaskExecutor['extract']>[0]) {
      executor.started++;
      await (options.gate ?? new Promise((r) => setTimeout(r, options.delayMs ?? 0)));
      return inner.extract(task);
    },
    writeWorkbook: (task: Parameters<TaskExecutor['writeWorkbook']>[0]) => inner.writeWorkbook(task),
    learn: (task: Parameters<TaskExecutor['learn']>[0]) => inner.learn(task),
    preview: (task: Parameters<TaskExecutor['preview']>[0]) => inner.preview(task),
    close: async () => {},
  };
  return executor;
}

async function createFourDocumentFlow(name: string) {
  const flow = await createUploadFlow(name);
  await addUploads(t.db, {
    env,
    user: member.user,
    membership: member.membership,
    flowId: flow.id,
    files: [
      { name: 'a.pdf', bytes: await readFixture('invoice-018.pdf') },
      { name: 'b.pdf', bytes: await readFixture('invoice-040.pdf') },
      { name: 'c.pdf', bytes: await readFixture('invoice-011.pdf') },
      { name: 'd.pdf', bytes: await readFixture('corrupt.pdf') },
    ],
  });
  return flow;
}

/** Resolves with the first job matching `name` the sender recorded (removed from the list). */
async function nextJob(sender: RecordingSender, name: string) {
  for (let i = 0; i < 400; i++) {
    const at = sender.sent.findIndex((j) => j.name === name);
    if (at >= 0) return sender.sent.splice(at, 1)[0]!.payload as { runId: string; helper: number };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no ${name} job was sent`);
}

describe('one run worked by several worker processes', () => {
  it('splits the documents between the run leader and a helper of another process, exactly once', async () => {
    const flow = await createFourDocumentFlow('Shared');
    const sender = createRecordingSender();
    const run = await startRun(t.db, { env, jobs: sender, user: member.user, flow });
    sender.sent.length = 0;
    // Two processes: each its own worker id and its own (slowed) pool, so neither can do it all at once.
    const leader = createTestJobContext(t.db, {
      env,
      jobs: sender,
      executor: gatedExecutor(ctx.executor, { delayMs: 150 }),
    });
    const helper = createTestJobContext(t.db, {
      env,
      jobs: sender,
      executor: gatedExecutor(ctx.executor, { delayMs: 150 }),
    });
    await Promise.all([
      processRun(run.id, leader),
      (async () => {
        const invitation = await nextJob(sender, 'flow-run-extract');
        expect(invitation).toEqual({ runId: run.id, helper: 1 });
        await helpExtractRun(invitation.runId, invitation.helper, helper);
      })(),
    ]);
    const finished = await getRun(t.db, member.membership, run.id);
    expect(finished.status).toBe('succeeded');
    expect(finished.counts.total).toBe(4);
    const docs = await t.db.select().from(documents).where(eq(documents.runId, run.id));
    expect(docs.every((d) => ['done', 'needs_review', 'failed'].includes(d.status))).toBe(true);
    expect(new Set(docs.map((d) => d.claimedBy))).toEqual(new Set([leader.workerId, helper.workerId]));
    expect(docs.every((d) => d.attempts === 1)).toBe(true);
    for (const d of docs) {
      const expected = (d.extraction as { lineItems?: unknown[] }).lineItems?.length ?? 0;
      expect(await countLines(d.id), d.fileName).toBe(expected);
    }
    // The helper invited the next process while documents were waiting.
    expect(sender.sent).toContainEqual({
      name: 'flow-run-extract',
      payload: { runId: run.id, helper: 2 },
    });
    // Late or repeated deliveries of the helper job change nothing, and invite nobody else.
    sender.sent.length = 0;
    await helpExtractRun(run.id, 1, helper);
    await helpExtractRun(
      run.id,
      2,
      createTestJobContext(t.db, { env, jobs: sender, executor: ctx.executor }),
    );
    expect(sender.sent).toEqual([]);
    expect(
      (await t.db.select().from(documents).where(eq(documents.runId, run.id))).map((d) => d.attempts),
    ).toEqual([1, 1, 1, 1]);
  });

  it('on shutdown hands the current document back at once; another worker finishes the run', async () => {
    const flow = await createFourDocumentFlow('Stopping');
    const sender = createRecordingSender();
    const run = await startRun(t.db, { env, jobs: sender, user: member.user, flow });
    const shutdown = new AbortController();
    // This worker's extraction never finishes by itself: only the shutdown ends it.
    const stuck = gatedExecutor(ctx.executor, { gate: new Promise<void>(() => {}) });
    const stopping = {
      ...createTestJobContext(t.db, { env, jobs: sender, executor: stuck }),
      signal: shutdown.signal,
    };
    const handler = processRun(run.id, stopping);
    for (let i = 0; i < 400 && stuck.started === 0; i++) await new Promise((r) => setTimeout(r, 25));
    const [held] = await t.db
      .select()
      .from(documents)
      .where(and(eq(documents.runId, run.id), eq(documents.status, 'processing')));
    expect(held?.claimedBy).toBe(stopping.workerId);
    shutdown.abort();
    await expect(handler).rejects.toThrow('shutting down');
    const [back] = await t.db.select().from(documents).where(eq(documents.id, held!.id));
    expect(back).toMatchObject({ status: 'pending', claimedBy: null });
    const [lease] = await t.db.select().from(runs).where(eq(runs.id, run.id));
    expect(lease!.leaseOwner).toBeNull();
    // The re-delivered job runs on a live worker at once (the lease was given back, not left to lapse).
    await processRun(run.id, ctx);
    const finished = await getRun(t.db, member.membership, run.id);
    expect(finished.status).toBe('succeeded');
    expect(finished.counts.total).toBe(4);
    const [redone] = await t.db.select().from(documents).where(eq(documents.id, held!.id));
    expect(redone!.claimedBy).toBe(ctx.workerId);
    expect(redone!.attempts).toBe(2);
  });
});

describe('bad input', () => {
  it('fails a run over an empty inbox with "No documents found in this folder"', async () => {
    const flow = await createUploadFlow('Empty');
    const run = await startRun(t.db, { env, jobs, user: member.user, flow });
    await drainJobs();
    const finished = await getRun(t.db, member.membership, run.id);
    expect(finished.status).toBe('failed');
    expect(finished.error).toEqual({ code: 'empty_folder', message: 'No documents found in this folder' });
    expect((await findFlowById(t.db, flow.id))?.status).toBe('inactive');
    const bell = await listNotifications(t.db, {
      organizationId: member.membership.organizationId,
      userId: member.user.id,
    });
    expect(bell.items[0]?.kind).toBe('flow.run.failed');
  });

  it('rewrites the workbook idempotently', async () => {
    const flow = await createUploadFlow('Workbook only');
    const path = await writeFlowWorkbook(t.db, { env, executor: ctx.executor, flowId: flow.id });
    const again = await writeFlowWorkbook(t.db, { env, executor: ctx.executor, flowId: flow.id });
    expect(again).toBe(path);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path!);
    expect(workbook.getWorksheet('Documents')!.rowCount).toBe(1);
  });
});
