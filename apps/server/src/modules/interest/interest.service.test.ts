import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnboardedUser } from '../../test/fixtures.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { listActivities } from '../activity/activity.service.ts';
import { listInterests, registerInterest } from './interest.service.ts';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.close();
});

describe('registerInterest', () => {
  it('is idempotent: asking twice keeps one entry and logs one activity', async () => {
    const { user, membership } = await createOnboardedUser(t.db);
    const orgId = membership.organizationId;
    expect(await listInterests(t.db, orgId, user.id)).toEqual({ modules: [] });
    await registerInterest(t.db, { organizationId: orgId, user, module: 'working-capital' });
    const again = await registerInterest(t.db, { organizationId: orgId, user, module: 'working-capital' });
    expect(again).toEqual({ modules: ['working-capital'] });
    const both = await registerInterest(t.db, { organizationId: orgId, user, module: 'gst-tds-msme' });
    expect(both.modules.sort()).toEqual(['gst-tds-msme', 'working-capital']);
    const kinds = (await listActivities(t.db, orgId)).filter((a) => a.kind === 'interest.registered');
    expect(kinds.map((a) => a.message).sort()).toEqual([
      'Priya asked to be notified about GST, TDS & MSME Compliance',
      'Priya asked to be notified about Working Capital',
    ]);
  });
});
