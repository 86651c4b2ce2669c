import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { documentLines, documents, runs } from '../../db/schema/index.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { createWorkflow, requireFlow } from '../flows/flows.service.ts';
import { createMember, createRecordingSender, createTestEnv } from '../flows/test-support.ts';
import { startRun } from '../runs/runs.service.ts';
import {
  adoptUnfinishedDocuments,
  claimNextDocument,
  countOpenDocuments,
  type DocumentOutcome,
  type DocumentRow,
  findPossibleDuplicate,
  insertScannedDocument,
  releaseDocumentClaim,
  renewDocumentClaims,
  saveDocumentOutcome,
} from './documents.repo.ts';

// The per-document lease on a real database (PGlite; PostgreSQL when DATABASE_URL is set): claims by
// several workers never overlap, a claim that stops being renewed is taken over, and the late write of the
// worker that lost it (a ghost) is refused so a document keeps exactly one set of rows.

const LEASE = 30;
let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;
let member: Awaited<ReturnType<typeof createMember>>;

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup } = await createTestEnv());
  member = await createMember(t.db);
});

afterAll(async () => {
  await t.close();
  await cleanup();
});

/** A running run of a fresh flow with `n` pending documents (paths are never read here). */
async function runWithDocuments(name: string, n: number) {
  const wf = await createWorkflow(t.db, {
    env,
    user: member.user,
    membership: member.membership,
    input: {
      name,
      types: ['INVOICE'],
      io: {
        input: { kind: 'upload', url: '', folderName: '' },
        output: { kind: 'xlsx', sheetId: '', sheetName: '' },
      },
    },
  });
  const flow = await requireFlow(t.db, member.membership, wf.id);
  const run = await startRun(t.db, { env, jobs: createRecordingSender(), user: member.user, flow });
  for (let i = 0; i < n; i++) {
    await insertScannedDocument(t.db, {
      organizationId: flow.organizationId,
      flowId: flow.id,
      runId: run.id,
      sourceKind: 'upload',
      sourceId: `doc-${i}.pdf`,
      contentHash: `${name}-${i}`,
      fileName: `doc-${i}.pdf`,
      sourcePath: `/nowhere/doc-${i}.pdf`,
      size: 1,
      modifiedAt: null,
    });
  }
  return { flow, run };
}

function outcome(lines: number): DocumentOutcome {
  return {
    duplicateOf: null,
    status: 'done',
    extraction: { fields: {} },
    errorCode: null,
    errorMessage: null,
    failedChecks: [],
    reviewFlag: 'ok',
    lines: Array.from({ length: lines }, (_, i) => ({ description: `line ${i + 1}` })),
  };
}

async function reread(id: string): Promise<DocumentRow> {
  const [row] = await t.db.select().from(documents).where(eq(documents.id, id));
  return row!;
}

async function countLines(id: string): Promise<number> {
  return (await t.db.select().from(documentLines).where(eq(documentLines.documentId, id))).length;
}

/** Makes every claim on the document look `seconds` old, as if its worker had stopped renewing. */
async function ageClaim(id: string, seconds: number) {
  await t.db
    .update(documents)
    .set({ claimedAt: sql`now() - make_interval(secs => ${seconds})` })
    .where(eq(documents.id, id));
}

describe('per-document claims', () => {
  it('hands each document to exactly one of several workers claiming at once', async () => {
    const { run } = await runWithDocuments('parallel', 5);
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        claimNextDocument(t.db, { runId: run.id, workerId: `worker-${i % 3}`, leaseSeconds: LEASE }),
      ),
    );
    const taken = claims.filter((c) => c !== undefined);
    expect(taken).toHaveLength(5);
    expect(new Set(taken.map((c) => c.id)).size).toBe(5);
    for (const c of taken) {
      expect(c.status).toBe('processing');
      expect(c.attempts).toBe(1);
      expect(c.takenOver).toBe(false);
      expect((await reread(c.id)).claimedBy).toBe(c.claimedBy);
    }
    expect(await countOpenDocuments(t.db, run.id)).toBe(5);
  });

  it('lets another worker take a document whose claim lapsed, and refuses the old claimant its late write', async () => {
    const { run } = await runWithDocuments('ghost', 1);
    const first = (await claimNextDocument(t.db, {
      runId: run.id,
      workerId: 'worker-a',
      leaseSeconds: LEASE,
    }))!;
    expect(first.claimedBy).toBe('worker-a');
    // Renewed and fresh: nobody else may take it.
    expect(await renewDocumentClaims(t.db, run.id, 'worker-a')).toBe(1);
    expect(
      await claimNextDocument(t.db, { runId: run.id, workerId: 'worker-b', leaseSeconds: LEASE }),
    ).toBeUndefined();

    // worker-a stalls past the lease: worker-b takes the document over.
    await ageClaim(first.id, LEASE + 1);
    const second = (await claimNextDocument(t.db, {
      runId: run.id,
      workerId: 'worker-b',
      leaseSeconds: LEASE,
    }))!;
    expect(second.id).toBe(first.id);
    expect(second.takenOver).toBe(true);
    expect(second.attempts).toBe(2);

    // worker-a wakes up: its renewal, hand-back and outcome are all refused.
    expect(await renewDocumentClaims(t.db, run.id, 'worker-a')).toBe(0);
    expect(await releaseDocumentClaim(t.db, first, 'worker-a')).toBe(false);
    expect(
      await saveDocumentOutcome(t.db, {
        doc: first,
        runId: run.id,
        workerId: 'worker-a',
        decide: outcome(3),
      }),
    ).toBeNull();
    expect(await countLines(first.id)).toBe(0);
    expect((await reread(first.id)).status).toBe('processing');

    // The current claimant stores once; a repeat of the same write (a duplicate handler) changes nothing.
    expect(
      await saveDocumentOutcome(t.db, {
        doc: second,
        runId: run.id,
        workerId: 'worker-b',
        decide: outcome(2),
      }),
    ).not.toBeNull();
    expect(
      await saveDocumentOutcome(t.db, {
        doc: second,
        runId: run.id,
        workerId: 'worker-b',
        decide: outcome(2),
      }),
    ).toBeNull();
    expect(
      await saveDocumentOutcome(t.db, {
        doc: first,
        runId: run.id,
        workerId: 'worker-a',
        decide: outcome(3),
      }),
    ).toBeNull();
    expect(await countLines(first.id)).toBe(2);
    const stored = await reread(first.id);
    expect(stored.status).toBe('done');
    expect(stored.claimedBy).toBe('worker-b'); // who extracted it
    expect(await countOpenDocuments(t.db, run.id)).toBe(0);
  });

  it('refuses a write under an older claim of the same worker (the fencing token, not only the name)', async () => {
    const { run } = await runWithDocuments('same-worker', 1);
    const first = (await claimNextDocument(t.db, {
      runId: run.id,
      workerId: 'worker-a',
      leaseSeconds: LEASE,
    }))!;
    await ageClaim(first.id, LEASE + 1);
    const again = (await claimNextDocument(t.db, {
      runId: run.id,
      workerId: 'worker-a',
      leaseSeconds: LEASE,
    }))!;
    expect(again.attempts).toBe(first.attempts + 1);
    expect(
      await saveDocumentOutcome(t.db, {
        doc: first,
        runId: run.id,
        workerId: 'worker-a',
        decide: outcome(4),
      }),
    ).toBeNull();
    expect(
      await saveDocumentOutcome(t.db, {
        doc: again,
        runId: run.id,
        workerId: 'worker-a',
        decide: outcome(1),
      }),
    ).not.toBeNull();
    expect(await countLines(first.id)).toBe(1);
  });

  it('hands a document back on shutdown: pending at once, claimable by another worker', async () => {
    const { run } = await runWithDocuments('handback', 1);
    const doc = (await claimNextDocument(t.db, {
      runId: run.id,
      workerId: 'worker-a',
      leaseSeconds: LEASE,
    }))!;
    expect(await releaseDocumentClaim(t.db, doc, 'worker-a')).toBe(true);
    const back = await reread(doc.id);
    expect(back.status).toBe('pending');
    expect(back.claimedBy).toBeNull();
    const next = (await claimNextDocument(t.db, {
      runId: run.id,
      workerId: 'worker-b',
      leaseSeconds: LEASE,
    }))!;
    expect(next.id).toBe(doc.id);
    expect(next.takenOver).toBe(false);
    expect(
      await saveDocumentOutcome(t.db, { doc, runId: run.id, workerId: 'worker-a', decide: outcome(1) }),
    ).toBeNull();
  });

  it('a run leader taking over leaves live helpers their documents and takes over the dead ones', async () => {
    const { flow, run } = await runWithDocuments('adopt', 3);
    const live = (await claimNextDocument(t.db, {
      runId: run.id,
      workerId: 'helper-live',
      leaseSeconds: LEASE,
    }))!;
    const dead = (await claimNextDocument(t.db, {
      runId: run.id,
      workerId: 'helper-dead',
      leaseSeconds: LEASE,
    }))!;
    await ageClaim(dead.id, LEASE + 1);
    await adoptUnfinishedDocuments(t.db, flow.id, run.id);
    expect(await reread(live.id)).toMatchObject({ status: 'processing', claimedBy: 'helper-live' });
    expect(await reread(dead.id)).toMatchObject({ status: 'processing', claimedBy: 'helper-dead' });
    // The new leader's loops take the dead helper's document (as a takeover) and the pending one.
    const claimed = [
      (await claimNextDocument(t.db, { runId: run.id, workerId: 'leader-2', leaseSeconds: LEASE }))!,
      (await claimNextDocument(t.db, { runId: run.id, workerId: 'leader-2', leaseSeconds: LEASE }))!,
    ];
    expect(claimed.find((c) => c.id === dead.id)?.takenOver).toBe(true);
    expect(claimed.find((c) => c.id !== dead.id)).toMatchObject({ takenOver: false, attempts: 1 });
    expect(
      await claimNextDocument(t.db, { runId: run.id, workerId: 'leader-2', leaseSeconds: LEASE }),
    ).toBeUndefined();
    // The live helper still stores its document.
    expect(
      await saveDocumentOutcome(t.db, {
        doc: live,
        runId: run.id,
        workerId: 'helper-live',
        decide: outcome(1),
      }),
    ).not.toBeNull();
  });

  it('adopts the documents an earlier run of the flow left unfinished', async () => {
    const { flow, run: earlier } = await runWithDocuments('earlier', 2);
    const stranded = (await claimNextDocument(t.db, {
      runId: earlier.id,
      workerId: 'gone',
      leaseSeconds: LEASE,
    }))!;
    await t.db.update(runs).set({ status: 'failed', finishedAt: sql`now()` }).where(eq(runs.id, earlier.id));
    const next = await startRun(t.db, { env, jobs: createRecordingSender(), user: member.user, flow });
    await adoptUnfinishedDocuments(t.db, flow.id, next.id);
    const docs = await t.db.select().from(documents).where(eq(documents.flowId, flow.id));
    expect(docs.map((d) => [d.runId, d.status, d.claimedBy])).toEqual([
      [next.id, 'pending', null],
      [next.id, 'pending', null],
    ]);
    // The earlier run's claimant can no longer store anything.
    expect(
      await saveDocumentOutcome(t.db, {
        doc: stranded,
        runId: earlier.id,
        workerId: 'gone',
        decide: outcome(1),
      }),
    ).toBeNull();
  });

  it('decides duplicates as outcomes are stored: of two copies read side by side, exactly one is the copy', async () => {
    const { run } = await runWithDocuments('copies', 2);
    await t.db.update(documents).set({ contentHash: 'same-bytes' }).where(eq(documents.runId, run.id));
    const a = (await claimNextDocument(t.db, { runId: run.id, workerId: 'worker-a', leaseSeconds: LEASE }))!;
    const b = (await claimNextDocument(t.db, { runId: run.id, workerId: 'worker-b', leaseSeconds: LEASE }))!;
    const decide = (doc: DocumentRow) => async (tx: typeof t.db) => ({
      ...outcome(1),
      duplicateOf: await findPossibleDuplicate(tx, {
        organizationId: doc.organizationId,
        documentId: doc.id,
        key: {
          contentHash: doc.contentHash,
          documentType: null,
          documentNumber: null,
          documentDate: null,
          vendorGstin: null,
          vendorName: null,
        },
      }),
    });
    const stored = await Promise.all([
      saveDocumentOutcome(t.db, { doc: a, runId: run.id, workerId: 'worker-a', decide: decide(a) }),
      saveDocumentOutcome(t.db, { doc: b, runId: run.id, workerId: 'worker-b', decide: decide(b) }),
    ]);
    expect(stored.map((o) => o?.duplicateOf ?? null).filter(Boolean)).toHaveLength(1);
  });
});
