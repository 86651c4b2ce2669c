import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, flows, runs, vendors } from '../../db/schema/index.ts';
import { createOnboardedUser } from '../../test/fixtures.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { recordActivity } from '../activity/activity.service.ts';
import { getDashboard } from './dashboard.service.ts';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.close();
});

describe('getDashboard', () => {
  it('counts active flows, vendors and processed documents of the organisation only', async () => {
    const { membership } = await createOnboardedUser(t.db, 'Counted');
    const other = await createOnboardedUser(t.db, 'Other');
    const orgId = membership.organizationId;

    const empty = await getDashboard(t.db, orgId, 50);
    expect(empty.stats).toEqual({
      activeFlows: 0,
      vendorsOnboarded: 0,
      documentsProcessed: 0,
      documentsVerified: 0,
      documentsAwaitingReview: 0,
      costSavingsInr: 0,
      costPerDocumentInr: 50,
    });

    const [active] = await t.db
      .insert(flows)
      .values([
        { organizationId: orgId, name: 'Invoices', status: 'success', types: ['invoice'] },
        { organizationId: orgId, name: 'Never run', status: 'inactive' },
        { organizationId: orgId, name: 'First run going', status: 'inactive' },
        { organizationId: other.membership.organizationId, name: 'Theirs', status: 'success' },
      ])
      .returning();
    const running = (await t.db.select().from(flows).where(eq(flows.name, 'First run going')))[0]!;
    await t.db.insert(runs).values({ flowId: running.id, organizationId: orgId, status: 'running' });
    await t.db.insert(vendors).values([
      { organizationId: orgId, name: 'Shree Ganesh Steels', gstin: '27AAPFU0939F1ZV' },
      { organizationId: other.membership.organizationId, name: 'Not ours' },
    ]);
    await t.db.insert(documents).values([
      {
        organizationId: orgId,
        flowId: active!.id,
        sourceId: 'a',
        contentHash: 'h1',
        fileName: 'a.pdf',
        status: 'done',
        processedAt: new Date(),
      },
      {
        organizationId: orgId,
        flowId: active!.id,
        sourceId: 'b',
        contentHash: 'h2',
        fileName: 'b.pdf',
        status: 'needs_review',
        processedAt: new Date(),
      },
      {
        organizationId: orgId,
        flowId: active!.id,
        sourceId: 'c',
        contentHash: 'h3',
        fileName: 'c.pdf',
        status: 'pending',
      },
    ]);

    const filled = await getDashboard(t.db, orgId, 75);
    expect(filled.stats).toEqual({
      activeFlows: 2,
      vendorsOnboarded: 1,
      documentsProcessed: 2,
      // Only the verified one saved work; the other still waits for a person.
      documentsVerified: 1,
      documentsAwaitingReview: 1,
      costSavingsInr: 75,
      costPerDocumentInr: 75,
    });
  });

  it('lists at most 10 recent activities, newest first', async () => {
    const { membership } = await createOnboardedUser(t.db, 'Busy');
    for (let i = 1; i <= 12; i++)
      await recordActivity(t.db, {
        organizationId: membership.organizationId,
        kind: 'test.event',
        message: `event ${i}`,
      });
    const { recentActivity } = await getDashboard(t.db, membership.organizationId, 50);
    expect(recentActivity).toHaveLength(10);
    expect(recentActivity[0]?.message).toBe('event 12');
    expect(recentActivity[9]?.message).toBe('event 3');
  });
});
