import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnboardedUser } from '../../test/fixtures.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { listNotifications, markNotificationsRead, notifyUser } from './notifications.service.ts';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.close();
});

describe('notifications', () => {
  it('lists newest first, counts unread and marks some or all read for the recipient only', async () => {
    const a = await createOnboardedUser(t.db);
    const b = await createOnboardedUser(t.db);
    const ra = { organizationId: a.membership.organizationId, userId: a.user.id };
    const rb = { organizationId: b.membership.organizationId, userId: b.user.id };
    const first = await notifyUser(t.db, ra, { kind: 'run.finished', title: 'Run finished', link: '/flows' });
    const second = await notifyUser(t.db, ra, {
      kind: 'run.failed',
      title: 'Run failed',
      body: '2 documents failed',
    });
    const theirs = await notifyUser(t.db, rb, { kind: 'run.finished', title: 'Theirs' });

    const listed = await listNotifications(t.db, ra);
    expect(listed.unreadCount).toBe(2);
    expect(listed.items.map((n) => n.id)).toEqual([second.id, first.id]);
    expect(listed.items[1]).toMatchObject({ title: 'Run finished', body: '', link: '/flows', readAt: null });

    // Another user's id (and junk) in the list is ignored.
    expect(await markNotificationsRead(t.db, ra, [first.id, theirs.id, 'not-a-uuid'])).toEqual({
      unreadCount: 1,
    });
    expect((await listNotifications(t.db, rb)).unreadCount).toBe(1);
    expect(await markNotificationsRead(t.db, ra, undefined)).toEqual({ unreadCount: 0 });
    expect((await listNotifications(t.db, ra)).items.every((n) => n.readAt !== null)).toBe(true);
    expect((await listNotifications(t.db, rb)).unreadCount).toBe(1);
  });
});
