import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { documents } from '../../db/schema/index.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { createWorkflow } from '../flows/flows.service.ts';
import { createMember, createTestEnv } from '../flows/test-support.ts';
import { getReviewQueue } from './review.service.ts';

let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;
let owner: Awaited<ReturnType<typeof createMember>>;
let stranger: Awaited<ReturnType<typeof createMember>>;
let bills: string;
let orders: string;

async function makeFlow(member: typeof owner, name: string) {
  return (
    await createWorkflow(t.db, {
      env,
      user: member.user,
      membership: member.membership,
      input: {
        name,
        types: ['INVOICE'],
        io: {
          input: { kind: 'upload', url: '', folderName: '' },
          output: { kind: 'xlsx', sheetId: '', sheetName: name },
        },
      },
    })
  ).id;
}

async function insert(
  member: typeof owner,
  flowId: string,
  fileName: string,
  state: { status: string; approved?: boolean; fields?: Record<string, unknown>; reasons?: string[] },
) {
  await t.db.insert(documents).values({
    organizationId: member.membership.organizationId,
    flowId,
    sourceId: fileName,
    contentHash: fileName,
    fileName,
    status: state.status,
    processedAt: state.status === 'failed' ? null : new Date(),
    approvedAt: state.approved ? new Date() : null,
    failedChecks: state.reasons ?? [],
    errorMessage: state.status === 'failed' ? 'This file could not be read.' : null,
    extraction: { documentType: 'invoice', fields: state.fields ?? {} },
  });
}

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup } = await createTestEnv());
  owner = await createMember(t.db, 'Queue Owner');
  stranger = await createMember(t.db, 'Queue Stranger');
  bills = await makeFlow(owner, 'Bills');
  orders = await makeFlow(owner, 'Bills — Pune');
  await insert(owner, bills, 'acme-7.pdf', {
    status: 'needs_review',
    reasons: ['taxes_sum_to_total'],
    fields: {
      documentNumber: 'AC/25-26/0007',
      documentDate: '2025-08-14',
      vendorName: 'Acme Steels',
      vendorGstin: '27AAACA1234A1Z5',
      total: 118000,
    },
  });
  await insert(owner, bills, 'bolt-9.pdf', {
    status: 'done',
    approved: true,
    fields: { documentNumber: 'B-9', documentDate: '2025-09-01', vendorName: 'Bolt & Nut Co', total: 5900 },
  });
  await insert(owner, orders, 'acme-8.pdf', {
    status: 'needs_review',
    reasons: ['missing:documentDate'],
    fields: { documentNumber: 'AC/25-26/0008', vendorName: 'Acme Steels', total: 2360.5 },
  });
  await insert(owner, orders, 'torn.pdf', { status: 'failed' });
  await insert(owner, orders, 'removed.pdf', { status: 'removed' });
  await insert(stranger, await makeFlow(stranger, 'Theirs'), 'theirs.pdf', {
    status: 'needs_review',
    fields: { vendorName: 'Acme Steels' },
  });
});

afterAll(async () => {
  await t.close();
  await cleanup();
});

const names = (q: Awaited<ReturnType<typeof getReviewQueue>>) => q.items.map((i) => i.fileName).sort();

describe('review queue', () => {
  it("lists the organisation's documents that need review, across flows, with each view's count", async () => {
    const queue = await getReviewQueue(t.db, owner.membership, { view: 'needs_review', page: 1 });
    expect(names(queue)).toEqual(['acme-7.pdf', 'acme-8.pdf']);
    expect(queue.counts).toEqual({ needs_review: 2, approved: 1, failed: 1, all: 4 });
    const acme = queue.items.find((i) => i.fileName === 'acme-7.pdf')!;
    expect(acme).toMatchObject({
      flowName: 'Bills',
      documentNumber: 'AC/25-26/0007',
      vendorGstin: '27AAACA1234A1Z5',
      total: 118000,
      reasons: ['taxes_sum_to_total'],
      approved: false,
    });
    expect(names(await getReviewQueue(t.db, owner.membership, { view: 'approved', page: 1 }))).toEqual([
      'bolt-9.pdf',
    ]);
    const failed = await getReviewQueue(t.db, owner.membership, { view: 'failed', page: 1 });
    expect(failed.items).toMatchObject([{ fileName: 'torn.pdf', error: 'This file could not be read.' }]);
  });

  it('filters by flow, vendor, date and amount, and searches number, GSTIN and vendor', async () => {
    const all = { view: 'all' as const, page: 1 };
    expect(names(await getReviewQueue(t.db, owner.membership, { ...all, flowId: orders }))).toEqual([
      'acme-8.pdf',
      'torn.pdf',
    ]);
    expect(names(await getReviewQueue(t.db, owner.membership, { ...all, vendor: 'acme' }))).toEqual([
      'acme-7.pdf',
      'acme-8.pdf',
    ]);
    expect(
      names(await getReviewQueue(t.db, owner.membership, { ...all, from: '2025-08-01', to: '2025-08-31' })),
    ).toEqual(['acme-7.pdf']);
    expect(names(await getReviewQueue(t.db, owner.membership, { ...all, min: 2000, max: 6000 }))).toEqual([
      'acme-8.pdf',
      'bolt-9.pdf',
    ]);
    expect(names(await getReviewQueue(t.db, owner.membership, { ...all, q: '25-26/0008' }))).toEqual([
      'acme-8.pdf',
    ]);
    expect(names(await getReviewQueue(t.db, owner.membership, { ...all, q: '27aaaca' }))).toEqual([
      'acme-7.pdf',
    ]);
    // A search's own % and _ are letters, not wildcards.
    expect((await getReviewQueue(t.db, owner.membership, { ...all, q: '%' })).items).toEqual([]);
  });

  it("never shows another organisation's documents", async () => {
    const theirs = await getReviewQueue(t.db, stranger.membership, { view: 'all', page: 1 });
    expect(names(theirs)).toEqual(['theirs.pdf']);
  });
});
