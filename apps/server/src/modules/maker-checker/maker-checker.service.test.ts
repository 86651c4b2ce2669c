import { randomUUID } from 'node:crypto';
import type { Role } from '@bahi/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { auditEvents, documents, memberships, users } from '../../db/schema/index.ts';
import type { JobContext } from '../../jobs/registry.ts';
import type { AppError } from '../../lib/app-error.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { listAudit, recordAudit } from '../audit/audit.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { approveDocument, correctDocument } from '../documents/document-review.service.ts';
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
import { startRun } from '../runs/runs.service.ts';
import { setApprovalLimit } from '../team/team.service.ts';
import { addUploads } from '../uploads/uploads.service.ts';
import { formatRupees, requireOverrideByAnother } from './maker-checker.ts';

let t: TestDb;
let env: Env;
let cleanupEnv: () => Promise<void>;
let jobs: RecordingSender;
let ctx: JobContext;
let owner: { user: SessionUser; membership: Membership };
let docIds: string[] = [];

const review = () => ({ db: t.db, env, executor: ctx.executor });

/** A person who joined the owner's organisation with `role`. */
async function joinAs(role: Role, name: string): Promise<{ user: SessionUser; membership: Membership }> {
  const id = randomUUID();
  const email = `${id}@example.test`;
  await t.db.insert(users).values({ id, name, email });
  await t.db
    .insert(memberships)
    .values({ userId: id, organizationId: owner.membership.organizationId, role });
  return { user: { id, name, email, image: null }, membership: { ...owner.membership, role } };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a refusal');
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
  await addUploads(t.db, {
    env,
    user: owner.user,
    membership: owner.membership,
    flowId: wf.id,
    files: [
      { name: 'first.pdf', bytes: await readFixture('invoice-018.pdf') },
      { name: 'second.pdf', bytes: await readFixture('invoice-040.pdf') },
    ],
  });
  await startRun(t.db, {
    env,
    jobs,
    user: owner.user,
    flow: await requireFlow(t.db, owner.membership, wf.id),
  });
  await runRecordedJobs(jobs, ctx);
  const rows = await t.db.select().from(documents).where(eq(documents.flowId, wf.id));
  docIds = rows.sort((a, b) => a.fileName.localeCompare(b.fileName)).map((r) => r.id);
}, 120_000);

afterAll(async () => {
  await ctx.executor.close();
  await t.close();
  await cleanupEnv();
});

describe('maker-checker', () => {
  it('writes rupees as Indians do', () => {
    expect(formatRupees(250_000_00)).toBe('₹2,50,000');
    expect(formatRupees(100_000_00)).toBe('₹1,00,000');
    expect(formatRupees(1_234_50)).toBe('₹1,234.50');
  });

  it('keeps an invoice above the limit from a reviewer and from whoever corrected its amounts', async () => {
    const reviewer = await joinAs('reviewer', 'Ravi');
    const approver = await joinAs('approver', 'Anita');
    const secondApprover = await joinAs('approver', 'Kabir');
    const [first] = docIds;
    await correctDocument(review(), {
      ...reviewer,
      id: first!,
      input: { fields: { total: '2,50,000' }, lines: [] },
    });

    const byReviewer = await refusal(approveDocument(review(), { ...reviewer, id: first! }));
    expect(byReviewer.code).toBe('forbidden');
    expect(byReviewer.message).toBe(
      'Approval limit: this invoice totals ₹2,50,000, and invoices above ₹1,00,000 must be approved by an approver or owner (your role is reviewer).',
    );

    // An approver who then corrects an amount becomes a maker too.
    await correctDocument(review(), {
      ...approver,
      id: first!,
      input: { fields: { total: '250000.50' }, lines: [] },
    });
    const byCorrector = await refusal(approveDocument(review(), { ...approver, id: first! }));
    expect(byCorrector.message).toBe(
      "Maker-checker: you corrected this invoice's amounts, so someone else must approve it (it is above the approval limit of ₹1,00,000).",
    );

    const approved = await approveDocument(review(), {
      ...secondApprover,
      id: first!,
      input: { note: 'Checked against the purchase order' },
    });
    expect(approved.document.reviewFlag).toBe('approved');

    const trail = await listAudit(t.db, owner.membership, { page: 1, documentId: first! });
    expect(trail.events.map((e) => [e.kind, e.actorName])).toEqual([
      ['document.approved', 'Kabir'],
      ['document.approval_refused', 'Anita'],
      ['document.corrected', 'Anita'],
      ['document.approval_refused', 'Ravi'],
      ['document.corrected', 'Ravi'],
    ]);
    expect(trail.events[1]!.summary).toBe(`Anita was refused an approval. ${byCorrector.message}`);
    expect(trail.events[4]!.details).toMatchObject({ changes: [{ field: 'total', to: 250000 }] });
  });

  it('lets a reviewer approve within the limit, and follows a changed limit', async () => {
    const reviewer = await joinAs('reviewer', 'Vikram');
    const second = docIds[1]!;
    await correctDocument(review(), {
      ...reviewer,
      id: second,
      input: { fields: { total: '99999' }, lines: [] },
    });
    const approved = await approveDocument(review(), {
      ...reviewer,
      id: second,
      input: { note: 'Checked against the purchase order' },
    });
    expect(approved.document.reviewFlag).toBe('approved');

    await setApprovalLimit(t.db, { caller: owner, approvalLimitPaise: 50_000_00 });
    await correctDocument(review(), {
      ...reviewer,
      id: second,
      input: { fields: { total: '99998' }, lines: [] },
    });
    const refused = await refusal(approveDocument(review(), { ...reviewer, id: second }));
    expect(refused.message).toContain('invoices above ₹50,000 must be approved by an approver or owner');
    await setApprovalLimit(t.db, { caller: owner, approvalLimitPaise: 100_000_00 });
  });

  it('refuses an override of exceptions by the person who corrected the invoice', async () => {
    const approver = await joinAs('approver', 'Sunil');
    const [first] = docIds;
    await correctDocument(review(), {
      ...approver,
      id: first!,
      input: { fields: { total: '250001' }, lines: [] },
    });
    const refused = await refusal(requireOverrideByAnother(t.db, { ...approver, documentId: first! }));
    expect(refused.code).toBe('forbidden');
    expect(refused.message).toBe(
      'Maker-checker: you corrected this invoice, so someone else must clear its exceptions.',
    );
    await expect(requireOverrideByAnother(t.db, { ...owner, documentId: first! })).resolves.toBeUndefined();
  });

  it('keeps the audit trail append-only in the database itself', async () => {
    await recordAudit(t.db, {
      organizationId: owner.membership.organizationId,
      kind: 'settings.approval_limit',
      actor: owner.user,
      summary: 'An entry to tamper with',
    });
    const [entry] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.summary, 'An entry to tamper with'));
    await expect(
      t.db.update(auditEvents).set({ summary: 'rewritten' }).where(eq(auditEvents.id, entry!.id)),
    ).rejects.toThrow();
    await expect(t.db.delete(auditEvents).where(eq(auditEvents.id, entry!.id))).rejects.toThrow();
    await expect(t.db.execute(sql`TRUNCATE audit_events`)).rejects.toThrow();
    const [still] = await t.db.select().from(auditEvents).where(eq(auditEvents.id, entry!.id));
    expect(still!.summary).toBe(entry!.summary);
  });
});
