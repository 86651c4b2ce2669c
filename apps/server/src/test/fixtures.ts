import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import type { Membership, SessionUser } from '../modules/auth/identity.ts';
import { createOrganization } from '../modules/organizations/organizations.service.ts';

/** Inserts a user row directly (service tests don't go through better-auth). */
export async function insertTestUser(db: Db, name = 'Priya'): Promise<SessionUser> {
  const id = randomUUID();
  const email = `${id}@example.com`;
  await db.insert(users).values({ id, name, email });
  return { id, name, email, image: null };
}

/** A user who owns a freshly onboarded organisation. */
export async function createOnboardedUser(
  db: Db,
  orgName = 'Acme Traders Pvt Ltd',
): Promise<{ user: SessionUser; membership: Membership }> {
  const user = await insertTestUser(db);
  const org = await createOrganization(db, user, {
    orgName,
    phone: '9845012345',
    orgType: 'pvt_ltd',
    address: '12 MG Road, Bengaluru',
  });
  return { user, membership: { organizationId: org.id, role: 'owner' } };
}
