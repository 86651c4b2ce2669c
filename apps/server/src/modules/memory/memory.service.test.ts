import { forgetField } from '@bahi/engine';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { documents, issuerMemories } from '../../db/schema/index.ts';
import type { JobContext } from '../../jobs/registry.ts';
import { isAppError } from '../../lib/app-error.ts';
import { FOLIO_VENDOR_GSTIN, folioInvoicePdf } from '../../test/folio-invoice.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { correctDocument, getDocumentReview } from '../documents/document-review.service.ts';
import { createWorkflow, requireFlow } from '../flows/flows.service.ts';
import {
  createMember,
  createRecordingSender,
  createTestEnv,
  createTestJobContext,
  type RecordingSender,
  runRecordedJobs,
} from '../flows/test-support.ts';
import { startRun } from '../runs/runs.service.ts';
import { addUploads } from '../uploads/uploads.service.ts';
import { createOrganizationMemoryStore, findIssuerMemory, replaceIssuerMemory } from './memory.repo.ts';
import { forgetLearnedField, learnFromDocumentCorrection } from './memory.service.ts';

let t: TestDb;
let env: Env;
let cleanupEnv: () => Promise<void>;
let jobs: RecordingSender;
let ctx: JobContext;
let owner: Awaited<ReturnType<typeof createMember>>;
let stranger: Awaited<ReturnType<typeof createMember>>;

const KEY = `gstin:${FOLIO_VENDOR_GSTIN}`;

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup: cleanupEnv } = await createTestEnv());
  jobs = createRecordingSender();
  ctx = createTestJobContext(t.db, { env, jobs });
  owner = await createMember(t.db, 'Meera');
  stranger = await createMember(t.db, 'Other Org');
}, 60_000);

afterAll(async () => {
  await ctx.executor.close();
  await t.close();
  await cleanupEnv();
});

/** Uploads one file into a (new or given) invoice flow of `member`, runs it and returns the document. */
async function readInvoice(
  member: typeof owner,
  file: { name: string; bytes: Uint8Array },
  flowId?: string,
): Promise<{ flowId: string; doc: typeof documents.$inferSelect }> {
  const id =
    flowId ??
    (
      await createWorkflow(t.db, {
        env,
        user: member.user,
        membership: member.membership,
        input: {
          name: `Bills ${Math.random()}`,
          types: ['INVOICE'],
          io: {
            input: { kind: 'upload', url: '', folderName: '' },
            output: { kind: 'xlsx', sheetId: '', sheetName: 'Bills' },
          },
        },
      })
    ).id;
  await addUploads(t.db, {
    env,
    user: member.user,
    membership: member.membership,
    flowId: id,
    files: [file],
  });
  await startRun(t.db, {
    env,
    jobs,
    user: member.user,
    flow: await requireFlow(t.db, member.membership, id),
  });
  await runRecordedJobs(jobs, ctx);
  const [doc] = await t.db
    .select()
    .from(documents)
    .where(and(eq(documents.flowId, id), eq(documents.fileName, file.name)));
  return { flowId: id, doc: doc! };
}

const fieldsOf = (doc: { extraction: unknown }) =>
  (doc.extraction as { fields: Record<string, unknown> }).fields;
const provenanceOf = (doc: { extraction: unknown }) =>
  (doc.extraction as { provenance: Record<string, { learnedFrom?: string | null }> }).provenance;

describe('memory from corrections', () => {
  let flowId: string;
  let firstId: string;
  let secondId: string;

  it("learns from a person's correction in a job that is safe to run twice", async () => {
    const first = await readInvoice(owner, {
      name: 'at-101.pdf',
      bytes: folioInvoicePdf('AT/101', '05/01/2025'),
    });
    flowId = first.flowId;
    firstId = first.doc.id;
    // The rules do not know "Folio" as the invoice number's label.
    expect(fieldsOf(first.doc).documentNumber).not.toBe('AT/101');

    await correctDocument(
      { db: t.db, env, jobs },
      {
        user: owner.user,
        membership: owner.membership,
        id: firstId,
        input: { fields: { documentNumber: 'AT/101' }, lines: [] },
      },
    );
    // The correction enqueued the lesson, carrying ids only (beside the rewrite of the flow's outputs).
    expect(jobs.sent.map((j) => j.name)).toContain('flow-workbook');
    expect(jobs.sent.filter((j) => j.name === 'issuer-memory-learn')).toEqual([
      {
        name: 'issuer-memory-learn',
        payload: { organizationId: owner.membership.organizationId, documentId: firstId },
      },
    ]);
    await runRecordedJobs(jobs, ctx);
    const learned = await findIssuerMemory(t.db, {
      organizationId: owner.membership.organizationId,
      type: 'invoice',
      keys: [KEY],
    });
    expect(learned?.recipes.documentNumber).toMatchObject({
      anchor: 'folio',
      from: { documentNumber: 'AT/101' },
    });

    // Delivered again: the same lesson, one row.
    const again = await learnFromDocumentCorrection(ctx, {
      organizationId: owner.membership.organizationId,
      documentId: firstId,
    });
    expect(again).toEqual(learned);
    const rows = await t.db.select().from(issuerMemories);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ documentType: 'invoice', issuerKey: KEY });

    // A job for a document of another organisation (or none) learns nothing.
    expect(
      await learnFromDocumentCorrection(ctx, {
        organizationId: stranger.membership.organizationId,
        documentId: firstId,
      }),
    ).toBeNull();
  }, 120_000);

  it("reads the vendor's next invoice with the lesson, and says which correction taught it", async () => {
    const second = await readInvoice(
      owner,
      { name: 'at-117.pdf', bytes: folioInvoicePdf('AT/117', '19/02/2025') },
      flowId,
    );
    secondId = second.doc.id;
    expect(fieldsOf(second.doc).documentNumber).toBe('AT/117');
    expect(provenanceOf(second.doc).documentNumber?.learnedFrom).toBe('AT/101');
    const view = await getDocumentReview(t.db, { env, membership: owner.membership, id: secondId });
    expect(
      (view.document.extraction as { provenance: Record<string, { learnedFrom?: string }> }).provenance
        .documentNumber?.learnedFrom,
    ).toBe('AT/101');
  }, 120_000);

  it('keeps each organisation its own memory', async () => {
    // Another organisation's copy of the same vendor's invoice is read by the rules alone.
    const theirs = await readInvoice(stranger, {
      name: 'at-117.pdf',
      bytes: folioInvoicePdf('AT/117', '19/02/2025'),
    });
    expect(fieldsOf(theirs.doc).documentNumber).not.toBe('AT/117');
    expect(provenanceOf(theirs.doc).documentNumber?.learnedFrom).toBeUndefined();

    const mine = createOrganizationMemoryStore(t.db, owner.membership.organizationId);
    const theirStore = createOrganizationMemoryStore(t.db, stranger.membership.organizationId);
    expect(await theirStore.recall('invoice', [KEY])).toBeNull();
    // What they save under the same key stays theirs.
    const own = (await mine.recall('invoice', [KEY]))!;
    await theirStore.save({ ...own, recipes: {}, issuerName: 'Theirs' });
    expect((await mine.recall('invoice', [KEY]))?.recipes.documentNumber).toBeDefined();
    expect((await theirStore.recall('invoice', ['name:nobody', KEY]))?.issuerName).toBe('Theirs');
    // Another type of the same issuer is another memory.
    expect(await mine.recall('po', [KEY])).toBeNull();

    // A change worked out from an older memory is refused, so a lesson never undoes a newer one (or a forget).
    const stale = { ...own, issuerName: 'Stale' };
    expect(
      await replaceIssuerMemory(t.db, owner.membership.organizationId, { memory: own, known: stale }),
    ).toBe(false);
    expect(
      await replaceIssuerMemory(t.db, owner.membership.organizationId, { memory: own, known: null }),
    ).toBe(false);
    expect(
      await replaceIssuerMemory(t.db, owner.membership.organizationId, { memory: own, known: own }),
    ).toBe(true);

    // They cannot forget for us, nor learn from our document.
    const refused = await forgetLearnedField(
      { db: t.db, env },
      { user: stranger.user, membership: stranger.membership, id: secondId, field: 'documentNumber' },
    ).catch((e: unknown) => e);
    expect(isAppError(refused, 'not_found')).toBe(true);
  }, 120_000);

  it('forgets a learned field when asked: the note goes, the next invoice is read without it', async () => {
    const bad = await forgetLearnedField(
      { db: t.db, env },
      { user: owner.user, membership: owner.membership, id: secondId, field: 'noSuchField' },
    ).catch((e: unknown) => e);
    expect(isAppError(bad, 'validation')).toBe(true);

    const view = await forgetLearnedField(
      { db: t.db, env },
      { user: owner.user, membership: owner.membership, id: secondId, field: 'documentNumber' },
    );
    const extraction = view.document.extraction as {
      fields: Record<string, unknown>;
      provenance: Record<string, { learnedFrom?: string }>;
    };
    // The value stays; it is no longer credited to a lesson that is gone.
    expect(extraction.fields.documentNumber).toBe('AT/117');
    expect(extraction.provenance.documentNumber?.learnedFrom).toBeUndefined();
    const memory = await findIssuerMemory(t.db, {
      organizationId: owner.membership.organizationId,
      type: 'invoice',
      keys: [KEY],
    });
    expect(memory?.recipes.documentNumber).toBeUndefined();
    expect(memory?.forgotten).toContain('documentNumber');
    // Forgetting twice changes nothing more.
    await forgetLearnedField(
      { db: t.db, env },
      { user: owner.user, membership: owner.membership, id: secondId, field: 'documentNumber' },
    );

    // Another correction of the first invoice (its date) does not bring the forgotten number back.
    await correctDocument(
      { db: t.db, env, jobs },
      {
        user: owner.user,
        membership: owner.membership,
        id: firstId,
        input: { fields: { documentDate: '06/01/2025' }, lines: [] },
      },
    );
    await runRecordedJobs(jobs, ctx);
    const still = await findIssuerMemory(t.db, {
      organizationId: owner.membership.organizationId,
      type: 'invoice',
      keys: [KEY],
    });
    expect(still?.recipes.documentNumber).toBeUndefined();
    expect(still?.forgotten).toContain('documentNumber');

    const third = await readInvoice(
      owner,
      { name: 'at-130.pdf', bytes: folioInvoicePdf('AT/130', '02/03/2025') },
      flowId,
    );
    expect(fieldsOf(third.doc).documentNumber).not.toBe('AT/130');
    // A correction of that field teaches it anew.
    await correctDocument(
      { db: t.db, env, jobs },
      {
        user: owner.user,
        membership: owner.membership,
        id: third.doc.id,
        input: { fields: { documentNumber: 'AT/130' }, lines: [] },
      },
    );
    await runRecordedJobs(jobs, ctx);
    const relearned = await findIssuerMemory(t.db, {
      organizationId: owner.membership.organizationId,
      type: 'invoice',
      keys: [KEY],
    });
    expect(relearned?.recipes.documentNumber?.from.documentNumber).toBe('AT/130');
    expect(relearned?.forgotten ?? []).not.toContain('documentNumber');
  }, 180_000);

  it('learns again on top of a memory that changed while it was learning, so a forget made meanwhile holds', async () => {
    const orgId = owner.membership.organizationId;
    let calls = 0;
    const racing = {
      ...ctx,
      executor: {
        ...ctx.executor,
        learn: async (task: Parameters<typeof ctx.executor.learn>[0]) => {
          calls++;
          const learned = await ctx.executor.learn(task);
          if (calls === 1) {
            // A person forgets the vendor's name while the thread was reading the page.
            const now = (await findIssuerMemory(t.db, {
              organizationId: orgId,
              type: 'invoice',
              keys: [KEY],
            }))!;
            await replaceIssuerMemory(t.db, orgId, { memory: forgetField(now, 'vendorName'), known: now });
          }
          return learned;
        },
      },
    };
    const memory = await learnFromDocumentCorrection(racing, { organizationId: orgId, documentId: firstId });
    expect(calls).toBe(2);
    expect(memory?.forgotten).toContain('vendorName');
    expect(memory?.constants.vendorName).toBeUndefined();
    expect(await findIssuerMemory(t.db, { organizationId: orgId, type: 'invoice', keys: [KEY] })).toEqual(
      memory,
    );
  }, 120_000);
});
