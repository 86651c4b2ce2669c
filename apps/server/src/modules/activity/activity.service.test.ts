import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnboardedUser } from '../../test/fixtures.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { listActivityHistory, recordActivity } from './activity.service.ts';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.close();
});

describe('the whole activity log', () => {
  it("pages through one organisation's activities, newest first, and never another's", async () => {
    const { membership } = await createOnboardedUser(t.db, 'Paged Traders');
    const other = await createOnboardedUser(t.db, 'Other Traders');
    const orgId = membership.organizationId;
    // Onboarding recorded one activity already; 29 more make 30 in all.
    for (let i = 1; i <= 29; i++)
      await recordActivity(t.db, { organizationId: orgId, kind: 'flow.updated', message: `Change ${i}` });
    await recordActivity(t.db, {
      organizationId: other.membership.organizationId,
      kind: 'flow.updated',
      message: 'Not yours',
    });

    const first = await listActivityHistory(t.db, orgId, 1);
    expect(first).toMatchObject({ page: 1, pageSize: 25, total: 30 });
    expect(first.items).toHaveLength(25);
    expect(first.items[0]!.message).toBe('Change 29');
    const second = await listActivityHistory(t.db, orgId, 2);
    expect(second.items).toHaveLength(5);
    expect(second.items.at(-1)!.kind).toBe('organization.created');
    const all = [...first.items, ...second.items].map((a) => a.message);
    expect(new Set(all).size).toBe(30);
    expect(all).not.toContain('Not yours');
    expect((await listActivityHistory(t.db, orgId, 3)).items).toEqual([]);
  });
});
