import { join } from 'node:path';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentLines, documents } from '../../db/schema/index.ts';
import { batchPdf } from '../../test/batch-pdf.ts';
import { createFlowHarness, type FlowHarness } from '../../test/flow-harness.ts';
import { getDocumentPageImage, listDocumentPages } from '../documents/document-pages.ts';
import { saveDocumentParts } from '../documents/document-parts.ts';
import { correctDocument, getDocumentReview } from '../documents/document-review.service.ts';
import { claimNextDocument } from '../documents/documents.repo.ts';
import { listDocuments } from '../documents/documents.service.ts';
import { createWorkflow, requireFlow } from '../flows/flows.service.ts';
import { fixturesDir, readFixture } from '../flows/test-support.ts';
import { addUploads } from '../uploads/uploads.service.ts';
import { reprocessDocument, reprocessFile } from './document-reruns.ts';
import { getRun, startRun } from './runs.service.ts';

// A PDF scanned in one go that holds three invoices becomes three documents, each with its pages; each is
// read again on its own; the file read again keeps its three (no part doubled, not even after a crash).

let h: FlowHarness;
let flow: Awaited<ReturnType<typeof requireFlow>>;
/** One file holding three invoices, a page each. */
let batch: Uint8Array;

const NUMBERS = ['SI/2425/00910', 'TI-01650', 'INV/2025-26/0023'];

beforeAll(async () => {
  h = await createFlowHarness();
  const wf = await createWorkflow(h.t.db, {
    env: h.env,
    user: h.member.user,
    membership: h.member.membership,
    input: {
      name: 'Batches',
      types: ['INVOICE'],
      io: {
        input: { kind: 'upload', url: '', folderName: '' },
        output: { kind: 'xlsx', sheetId: '', sheetName: 'Batches' },
      },
    },
  });
  flow = await requireFlow(h.t.db, h.member.membership, wf.id);
  batch = await batchPdf(
    ['invoice-011.pdf', 'invoice-018.pdf', 'invoice-040.pdf'].map((f) => join(fixturesDir, f)),
  );
  await addUploads(h.t.db, {
    env: h.env,
    user: h.member.user,
    membership: h.member.membership,
    flowId: flow.id,
    files: [
      { name: 'scan.pdf', bytes: batch },
      { name: 'single.pdf', bytes: await readFixture('invoice-018.pdf') },
    ],
  });
  await startRun(h.t.db, { env: h.env, jobs: h.jobs, user: h.member.user, flow });
  await h.drainJobs();
}, 300_000);

afterAll(async () => {
  await h.close();
});

/** The flow's rows of one file, in part order. */
async function partsOf(fileName: string) {
  return h.t.db
    .select()
    .from(documents)
    .where(and(eq(documents.flowId, flow.id), eq(documents.fileName, fileName)))
    .orderBy(asc(documents.partNo));
}

const numberOf = (row: { extraction: unknown }) =>
  (row.extraction as { fields: Record<string, unknown> }).fields.documentNumber;

async function countLines(documentId: string) {
  const [row] = await h.t.db
    .select({ n: count() })
    .from(documentLines)
    .where(eq(documentLines.documentId, documentId));
  return Number(row?.n);
}

async function rerun(start: () => Promise<{ runId: string }>) {
  const { runId } = await start();
  await h.drainJobs();
  expect((await getRun(h.t.db, h.member.membership, runId)).status).toBe('succeeded');
}

const request = (id: string) => ({
  env: h.env,
  jobs: h.jobs,
  user: h.member.user,
  membership: h.member.membership,
  id,
});

describe('a file holding several documents', () => {
  it('becomes one document per invoice, each with its pages, its lines and no copy flag', async () => {
    const parts = await partsOf('scan.pdf');
    expect(parts.map((p) => [p.partNo, p.pageFrom, p.pageTo])).toEqual([
      [1, 1, 1],
      [2, 2, 2],
      [3, 3, 3],
    ]);
    expect(parts.map(numberOf)).toEqual(NUMBERS);
    for (const p of parts) {
      expect(['done', 'needs_review']).toContain(p.status);
      // Three invoices of one file are not copies of each other (they share its bytes, not its pages).
      expect(parts.map((q) => q.id)).not.toContain(p.duplicateOf);
      expect(await countLines(p.id)).toBe((p.extraction as { lineItems: unknown[] }).lineItems.length);
      expect((p.extraction as { pageRange?: number[] }).pageRange).toEqual([p.pageFrom, p.pageTo]);
    }
    // Each has its own sheet row.
    expect(new Set(parts.map((p) => p.sheetRow)).size).toBe(3);
    const listed = await listDocuments(h.t.db, {
      membership: h.member.membership,
      flowId: flow.id,
      query: { page: 1 },
    });
    expect(listed.items.filter((d) => d.fileName === 'scan.pdf').map((d) => d.pageRange)).toEqual(
      expect.arrayContaining([
        [1, 1],
        [2, 2],
        [3, 3],
      ]),
    );
  });

  it("shows a part's own pages only, numbered as in its file", async () => {
    const [, middle] = await partsOf('scan.pdf');
    const { pages, note } = await listDocumentPages(h.t.db, {
      env: h.env,
      membership: h.member.membership,
      id: middle!.id,
    });
    expect(note).toBeNull();
    expect(pages.map((p) => [p.number, p.imageUrl])).toEqual([[2, `/api/documents/${middle!.id}/pages/2`]]);
    const image = await getDocumentPageImage(h.t.db, {
      env: h.env,
      membership: h.member.membership,
      id: middle!.id,
      page: 2,
      width: 640,
    });
    expect(image.placeholder).toBe(false);
    await expect(
      getDocumentPageImage(h.t.db, {
        env: h.env,
        membership: h.member.membership,
        id: middle!.id,
        page: 1,
        width: 640,
      }),
    ).rejects.toMatchObject({ code: 'not_found', message: 'This document is on pages 2–2 of its file' });
  });

  it('leaves a file of one document as it was: one row, no pages, read whole', async () => {
    const [single, ...more] = await partsOf('single.pdf');
    expect(more).toHaveLength(0);
    expect(single).toMatchObject({ partNo: 1, pageFrom: null, pageTo: null });
    expect(numberOf(single!)).toBe('TI-01650');
    expect((single!.extraction as { pageRange?: unknown }).pageRange).toBeUndefined();
    // The same invoice inside the batch is a copy of this one (or it of that): same vendor, number and year.
    const [, middle] = await partsOf('scan.pdf');
    expect([single!.duplicateOf, middle!.duplicateOf]).toContain(
      single!.duplicateOf ? middle!.id : single!.id,
    );
  });

  it('reads one part again from its own pages only, keeping a correction, the others untouched', async () => {
    const [first, second, third] = await partsOf('scan.pdf');
    const ctx = { db: h.t.db, env: h.env, executor: h.ctx.executor };
    await correctDocument(ctx, {
      user: h.member.user,
      membership: h.member.membership,
      id: third!.id,
      input: { fields: { documentNumber: 'INV-CORRECTED-7' }, lines: [] },
    });
    await rerun(() => reprocessDocument(h.t.db, request(third!.id)));
    const after = await partsOf('scan.pdf');
    expect(after.map((p) => p.id)).toEqual([first!.id, second!.id, third!.id]);
    expect(after.map((p) => p.attempts)).toEqual([first!.attempts, second!.attempts, third!.attempts + 1]);
    expect(after[0]!.updatedAt).toEqual(first!.updatedAt);
    expect(after[1]!.updatedAt).toEqual(second!.updatedAt);
    expect(after[2]).toMatchObject({ pageFrom: 3, pageTo: 3 });
    // Read from page 3 alone: one page, the third invoice, the person's correction laid over it.
    const extraction = after[2]!.extraction as { pages: number; pageRange: number[] };
    expect(extraction.pages).toBe(1);
    expect(extraction.pageRange).toEqual([3, 3]);
    expect(numberOf(after[2]!)).toBe('INV-CORRECTED-7');
    expect((after[2]!.extracted as { fields: Record<string, unknown> }).fields.documentNumber).toBe(
      NUMBERS[2],
    );
    const review = await getDocumentReview(h.t.db, {
      env: h.env,
      membership: h.member.membership,
      id: third!.id,
    });
    expect(review.document.pageRange).toEqual([3, 3]);
  });

  it('reads the whole file again into the same parts: none doubled, corrections kept', async () => {
    const before = await partsOf('scan.pdf');
    const linesBefore = await Promise.all(before.map((p) => countLines(p.id)));
    await rerun(() => reprocessFile(h.t.db, request(before[1]!.id)));
    await rerun(() => reprocessFile(h.t.db, request(before[2]!.id)));
    const after = await partsOf('scan.pdf');
    expect(after.map((p) => p.id)).toEqual(before.map((p) => p.id));
    expect(after.map((p) => [p.pageFrom, p.pageTo])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(after[0]!.attempts).toBe(before[0]!.attempts + 2);
    expect(await Promise.all(after.map((p) => countLines(p.id)))).toEqual(linesBefore);
    expect(after.map(numberOf)).toEqual([NUMBERS[0], NUMBERS[1], 'INV-CORRECTED-7']);
  });

  it('is read once more by the worker that takes over from one that died mid-file; the ghost stores nothing', async () => {
    const before = await partsOf('scan.pdf');
    const { runId } = await reprocessFile(h.t.db, request(before[0]!.id));
    // A worker claims the file and dies before storing anything: its claim lapses.
    const ghost = await claimNextDocument(h.t.db, { runId, workerId: 'dead-worker', leaseSeconds: 60 });
    expect(ghost?.id).toBe(before[0]!.id);
    await h.t.db
      .update(documents)
      .set({ claimedAt: sql`now() - interval '1 hour'` })
      .where(eq(documents.id, ghost!.id));
    await h.drainJobs();
    expect((await getRun(h.t.db, h.member.membership, runId)).status).toBe('succeeded');
    // The dead worker was only slow: its late write is refused, nothing is doubled.
    const late = await saveDocumentParts(h.t.db, {
      doc: ghost!,
      runId,
      workerId: 'dead-worker',
      wholeFile: true,
      parts: [{ pages: [1, 3], decide: async () => Promise.reject(new Error('must not be asked')) }],
    });
    expect(late).toBeNull();
    const after = await partsOf('scan.pdf');
    expect(after.map((p) => p.id)).toEqual(before.map((p) => p.id));
    expect(after.map(numberOf)).toEqual([NUMBERS[0], NUMBERS[1], 'INV-CORRECTED-7']);
    const [all] = await h.t.db.select({ n: count() }).from(documents).where(eq(documents.flowId, flow.id));
    expect(Number(all?.n)).toBe(4);
  });

  it('finds each part of a second copy of the batch a copy of the part on the same pages', async () => {
    await addUploads(h.t.db, {
      env: h.env,
      user: h.member.user,
      membership: h.member.membership,
      flowId: flow.id,
      files: [{ name: 'scan-again.pdf', bytes: batch }],
    });
    await rerun(() =>
      startRun(h.t.db, { env: h.env, jobs: h.jobs, user: h.member.user, flow }).then((r) => ({
        runId: r.id,
      })),
    );
    const originals = await partsOf('scan.pdf');
    const copies = await partsOf('scan-again.pdf');
    expect(copies).toHaveLength(3);
    expect(copies[0]!.duplicateOf).toBe(originals[0]!.id);
    expect(copies[2]!.duplicateOf).toBe(originals[2]!.id);
  });
});
