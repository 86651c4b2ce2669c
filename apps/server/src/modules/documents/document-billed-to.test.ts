import { describeReviewReason } from '@bahi/contracts';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { documents } from '../../db/schema/index.ts';
import type { JobContext } from '../../jobs/registry.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { createWorkflow, requireFlow } from '../flows/flows.service.ts';
import {
  createMember,
  createRecordingSender,
  createTestEnv,
  createTestJobContext,
  type RecordingSender,
  readFixture,
  runRecordedJobs,
} from '../flows/test-support.ts';
import { replaceGstins } from '../organizations/organizations.repo.ts';
import { updateOrganization } from '../organizations/organizations.service.ts';
import { reprocessDocument } from '../runs/document-reruns.ts';
import { startRun } from '../runs/runs.service.ts';
import { getWorkbookFile } from '../sheets/sheets.service.ts';
import { addUploads } from '../uploads/uploads.service.ts';
import { approveDocument, correctDocument, getDocumentReview } from './document-review.service.ts';

// invoice-011.pdf is billed to Bhatt Textiles Private Limited, GSTIN 36DJKCB7560V1Z0, and passes every
// other check, so whom it is billed to is all that decides its verdict here.
const BUYER_GSTIN = '36DJKCB7560V1Z0';
const OTHER_GSTIN = '27AAPFU0939F1ZV';

let t: TestDb;
let env: Env;
let cleanupEnv: () => Promise<void>;
let jobs: RecordingSender;
let ctx: JobContext;
let owner: Awaited<ReturnType<typeof createMember>>;
let flowId: string;
let docId: string;

const review = () => ({ db: t.db, env, executor: ctx.executor });

/** The organisation's profile GSTINs become exactly these. */
const setOrganizationGstins = (gstins: string[]) =>
  replaceGstins(
    t.db,
    owner.membership.organizationId,
    gstins.map((gstin) => ({ gstin, label: null, stateCode: gstin.slice(0, 2) })),
  );

/** Reads the invoice again (as after a profile change) and gives its stored row. */
async function readAgain() {
  await reprocessDocument(t.db, { env, jobs, user: owner.user, membership: owner.membership, id: docId });
  await runRecordedJobs(jobs, ctx);
  const [row] = await t.db.select().from(documents).where(eq(documents.id, docId));
  return row!;
}

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

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup: cleanupEnv } = await createTestEnv());
  jobs = createRecordingSender();
  ctx = createTestJobContext(t.db, { env, jobs });
  owner = await createMember(t.db, 'Meera');
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
    files: [{ name: 'bill.pdf', bytes: await readFixture('invoice-011.pdf') }],
  });
  await startRun(t.db, {
    env,
    jobs,
    user: owner.user,
    flow: await requireFlow(t.db, owner.membership, flowId),
  });
  await runRecordedJobs(jobs, ctx);
  const [doc] = await t.db.select().from(documents).where(eq(documents.flowId, flowId));
  docId = doc!.id;
}, 120_000);

afterAll(async () => {
  await ctx.executor.close();
  await t.close();
  await cleanupEnv();
});

describe('an invoice is billed to us', () => {
  it('says so when the profile has no GSTIN yet, without holding the invoice back', async () => {
    const [row] = await t.db.select().from(documents).where(eq(documents.id, docId));
    expect(row).toMatchObject({ status: 'done', reviewFlag: 'ok', failedChecks: ['buyer_not_checked'] });
    const sheet = await readWorkbookRow();
    expect(sheet.Review).toBe('OK');
    expect(sheet['Checks Failed']).toMatch(/your organisation profile has no GSTIN yet/);
  });

  it('checks the invoices already read as soon as the profile gains a GSTIN', async () => {
    await updateOrganization(t.db, {
      user: owner.user,
      membership: owner.membership,
      input: {
        legalName: 'Meera Traders Pvt Ltd',
        phone: '+919876543210',
        orgType: 'pvt_ltd',
        address: 'Pune',
        gstins: [{ gstin: OTHER_GSTIN, label: 'Pune' }],
      },
    });
    const [row] = await t.db.select().from(documents).where(eq(documents.id, docId));
    expect(row!.status).toBe('needs_review');
    expect(row!.failedChecks).toEqual([
      `billed_to_other:${BUYER_GSTIN}:Bhatt%20Textiles%20Private%20Limited`,
    ]);
    const sheet = await readWorkbookRow();
    expect(sheet.Review).toBe('Needs review');
    expect(sheet['Checks Failed']).toMatch(/^Billed to Bhatt Textiles Private Limited/);
  });

  it("needs review, naming the company, when billed to another company's GSTIN", async () => {
    await setOrganizationGstins([OTHER_GSTIN]);
    const row = await readAgain();
    expect(row.status).toBe('needs_review');
    const view = await getDocumentReview(t.db, { env, membership: owner.membership, id: docId });
    expect(view.document.failedChecks.map(describeReviewReason)).toEqual([
      `Billed to Bhatt Textiles Private Limited (GSTIN ${BUYER_GSTIN}), which is not one of your organisation's GSTINs: no input tax credit can be claimed on it`,
    ]);
    const sheet = await readWorkbookRow();
    expect(sheet.Review).toBe('Needs review');
    expect(sheet['Checks Failed']).toMatch(
      /^Billed to Bhatt Textiles Private Limited \(GSTIN 36DJKCB7560V1Z0\)/,
    );
  });

  it("is OK when billed to one of the organisation's GSTINs", async () => {
    await setOrganizationGstins([OTHER_GSTIN, BUYER_GSTIN]);
    const row = await readAgain();
    expect(row).toMatchObject({ status: 'done', reviewFlag: 'ok', failedChecks: [] });
    expect((await readWorkbookRow()).Review).toBe('OK');
  });

  it('needs review with no buyer GSTIN (a consumer bill), until a person approves it', async () => {
    const corrected = await correctDocument(review(), {
      user: owner.user,
      membership: owner.membership,
      id: docId,
      input: { fields: { buyerGstin: '' }, lines: [] },
    });
    expect(corrected.document.status).toBe('needs_review');
    expect(corrected.document.failedChecks).toEqual(['no_buyer_gstin']);
    expect((await readWorkbookRow())['Checks Failed']).toBe(
      'No buyer GSTIN was read: if this is a consumer bill, no input tax credit can be claimed on it',
    );
    const approved = await approveDocument(review(), {
      user: owner.user,
      membership: owner.membership,
      id: docId,
    });
    expect(approved.document).toMatchObject({ status: 'done', reviewFlag: 'approved' });
    expect((await readWorkbookRow()).Review).toBe('Approved');
  });
});
