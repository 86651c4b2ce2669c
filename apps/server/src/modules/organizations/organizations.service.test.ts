import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../lib/app-error.ts';
import { createOnboardedUser, insertTestUser } from '../../test/fixtures.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { listActivities } from '../activity/activity.service.ts';
import {
  createOrganization,
  findMembership,
  getOrganization,
  updateOrganization,
} from './organizations.service.ts';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.close();
});

const profile = {
  legalName: 'Acme Traders Pvt Ltd',
  phone: '080 2222 3333',
  orgType: 'pvt_ltd' as const,
  address: 'Bengaluru',
};

/** Runs `fn` and returns the AppError it throws (fails the test when it does not throw one). */
async function catchAppError(fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('createOrganization', () => {
  it('creates the organisation, makes the user owner, stores the phone as +91 and logs an activity', async () => {
    const user = await insertTestUser(t.db, 'Ravi');
    const org = await createOrganization(t.db, user, {
      orgName: 'Ravi & Sons',
      phone: '+91 98450-12345',
      orgType: 'others',
      address: 'Chennai',
    });
    expect(org).toMatchObject({
      legalName: 'Ravi & Sons',
      phone: '+919845012345',
      orgType: 'others',
      gstins: [],
    });
    expect(await findMembership(t.db, user.id)).toEqual({ organizationId: org.id, role: 'owner' });
    const activity = await listActivities(t.db, org.id);
    expect(activity.map((a) => [a.kind, a.message])).toEqual([
      ['organization.created', 'Ravi set up Ravi & Sons'],
    ]);
  });

  it('refuses a second organisation for the same user, even when two requests race', async () => {
    const user = await insertTestUser(t.db);
    const input = { orgName: 'Twice', phone: '9845012345', orgType: 'llp' as const, address: 'Pune' };
    const results = await Promise.allSettled([
      createOrganization(t.db, user, input),
      createOrganization(t.db, user, input),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(isAppError(rejected.reason, 'conflict')).toBe(true);
  });

  it('rejects an invalid phone with the form message', async () => {
    const user = await insertTestUser(t.db);
    const error = await catchAppError(() =>
      createOrganization(t.db, user, { orgName: 'X', phone: '12345', orgType: 'llp', address: 'Pune' }),
    );
    expect(error.code).toBe('validation');
    expect(error.fields).toEqual({ phone: 'Please enter a valid phone number' });
    expect(await findMembership(t.db, user.id)).toBeNull();
  });
});

describe('updateOrganization', () => {
  it('saves the profile and replaces GSTINs as a set, keeping ids of GSTINs that stay', async () => {
    const { user, membership } = await createOnboardedUser(t.db);
    const first = await updateOrganization(t.db, {
      user,
      membership,
      input: {
        ...profile,
        gstins: [
          { gstin: '29aagcb7383j1z4', label: 'Karnataka HQ' },
          { gstin: '27AAPFU0939F1ZV', label: null },
        ],
      },
    });
    expect(first).toMatchObject({ legalName: profile.legalName, phone: '+918022223333' });
    expect(first.gstins.map((g) => [g.gstin, g.label, g.stateCode])).toEqual([
      ['27AAPFU0939F1ZV', null, '27'],
      ['29AAGCB7383J1Z4', 'Karnataka HQ', '29'],
    ]);
    const karnataka = first.gstins.find((g) => g.stateCode === '29')!;

    const second = await updateOrganization(t.db, {
      user,
      membership,
      input: {
        ...profile,
        legalName: 'Acme Renamed',
        gstins: [{ gstin: '29AAGCB7383J1Z4', label: 'Bengaluru' }],
      },
    });
    expect(second.legalName).toBe('Acme Renamed');
    expect(second.gstins).toEqual([
      { id: karnataka.id, gstin: '29AAGCB7383J1Z4', label: 'Bengaluru', stateCode: '29' },
    ]);

    const cleared = await updateOrganization(t.db, { user, membership, input: { ...profile, gstins: [] } });
    expect(cleared.gstins).toEqual([]);
  });

  it('rejects GSTINs with a bad check character or state code, naming the row', async () => {
    const { user, membership } = await createOnboardedUser(t.db);
    const error = await catchAppError(() =>
      updateOrganization(t.db, {
        user,
        membership,
        input: {
          ...profile,
          gstins: [{ gstin: '29AAGCB7383J1Z4' }, { gstin: '29AAGCB7383J1Z5' }, { gstin: '00AAGCB7383J1Z4' }],
        },
      }),
    );
    expect(error.code).toBe('validation');
    expect(Object.keys(error.fields ?? {})).toEqual(['gstins.1.gstin', 'gstins.2.gstin']);
    expect(error.fields?.['gstins.1.gstin']).toMatch(/check character/i);
    expect(error.fields?.['gstins.2.gstin']).toMatch(/state code/i);
    // Nothing was saved.
    expect((await getOrganization(t.db, membership.organizationId))?.gstins).toEqual([]);
  });

  it('rejects duplicate GSTINs (after normalising case and spaces) with duplicate_gstin', async () => {
    const { user, membership } = await createOnboardedUser(t.db);
    const error = await catchAppError(() =>
      updateOrganization(t.db, {
        user,
        membership,
        input: {
          ...profile,
          gstins: [{ gstin: '29AAGCB7383J1Z4' }, { gstin: ' 29aagcb 7383j1z4' }],
        },
      }),
    );
    expect(error.code).toBe('duplicate_gstin');
    expect(error.fields).toEqual({ 'gstins.1.gstin': 'This GSTIN is already added' });
  });

  it('requires the legal name and refuses members who are not owners or admins', async () => {
    const { user, membership } = await createOnboardedUser(t.db);
    const missing = await catchAppError(() =>
      updateOrganization(t.db, { user, membership, input: { ...profile, legalName: '  ', gstins: [] } }),
    );
    expect(missing.code).toBe('validation');
    expect(missing.fields).toEqual({ legalName: 'Legal name is required' });
    const forbidden = await catchAppError(() =>
      updateOrganization(t.db, {
        user,
        membership: { ...membership, role: 'viewer' },
        input: { ...profile, gstins: [] },
      }),
    );
    expect(forbidden.code).toBe('forbidden');
  });

  it("only touches the caller's organisation, even for a GSTIN another organisation holds", async () => {
    const a = await createOnboardedUser(t.db, 'Alpha');
    const b = await createOnboardedUser(t.db, 'Beta');
    await updateOrganization(t.db, {
      user: a.user,
      membership: a.membership,
      input: {
        ...profile,
        legalName: 'Alpha',
        gstins: [{ gstin: '29AAGCB7383J1Z4' }],
      },
    });
    await updateOrganization(t.db, {
      user: b.user,
      membership: b.membership,
      input: {
        ...profile,
        legalName: 'Beta',
        gstins: [{ gstin: '29AAGCB7383J1Z4' }],
      },
    });
    await updateOrganization(t.db, {
      user: b.user,
      membership: b.membership,
      input: { ...profile, legalName: 'Beta', gstins: [] },
    });
    const alpha = await getOrganization(t.db, a.membership.organizationId);
    expect(alpha?.legalName).toBe('Alpha');
    expect(alpha?.gstins.map((g) => g.gstin)).toEqual(['29AAGCB7383J1Z4']);
  });
});
