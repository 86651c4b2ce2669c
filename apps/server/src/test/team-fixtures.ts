import type { Role } from '@bahi/contracts';
import type { TestClient, TestServer } from './test-server.ts';

/** A member who joined through an invitation link, as the app would have them join. */
export interface JoinedMember {
  client: TestClient;
  userId: string;
  email: string;
  name: string;
}

/**
 * The owner (or an admin) invites a new person with `role` over HTTP; the person signs up and accepts the
 * link. Throws when any step is refused.
 */
export async function inviteAndJoin(
  t: TestServer,
  inviter: TestClient,
  { role, name = `A ${role}` }: { role: Role; name?: string },
): Promise<JoinedMember> {
  const invite = await inviter.post('/api/team/invitations', { role });
  if (invite.status !== 201)
    throw new Error(`invite failed: ${invite.status} ${JSON.stringify(invite.body)}`);
  const token = new URL(invite.body.link).pathname.split('/').at(-1)!;
  const person = await t.createUser(name);
  const accepted = await person.client.post(`/api/invitations/${token}/accept`, {});
  if (accepted.status !== 200)
    throw new Error(`accept failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return { client: person.client, userId: person.userId, email: person.email, name };
}
