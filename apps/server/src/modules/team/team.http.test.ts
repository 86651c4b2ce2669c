import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitations } from '../../db/schema/index.ts';
import { inviteAndJoin } from '../../test/team-fixtures.ts';
import { startTestServer, type TestClient, type TestServer } from '../../test/test-server.ts';

let t: TestServer;
let owner: Awaited<ReturnType<TestServer['createOnboardedUser']>>;

/** A server of its own per block: sign-ups are rate-limited (10 a minute from one address). */
function withServer(): void {
  beforeAll(async () => {
    t = await startTestServer();
    owner = await t.createOnboardedUser('Team Traders');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });
}

const tokenOf = (link: string) => new URL(link).pathname.split('/').at(-1)!;

async function auditKinds(client: TestClient, query = ''): Promise<string[]> {
  const res = await client.get(`/api/audit${query}`);
  expect(res.status).toBe(200);
  return res.body.events.map((e: { kind: string }) => e.kind);
}

describe('invitations', () => {
  withServer();

  it('makes a one-use link whose token is stored only as a hash, previewed by anyone holding it', async () => {
    const invite = await owner.client.post('/api/team/invitations', { role: 'reviewer' });
    expect(invite.status).toBe(201);
    expect(invite.body.link).toMatch(new RegExp(`^${t.url}/invite/[A-Za-z0-9_-]{43}$`));
    expect(invite.body.emailed).toBe(false);
    const token = tokenOf(invite.body.link);
    const [row] = await t.server.db
      .select()
      .from(invitations)
      .where(eq(invitations.id, invite.body.invitation.id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    const expiresIn = new Date(row!.expiresAt).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(7 * 24 * 3600 * 1000);

    const preview = await t.createClient().get(`/api/invitations/${token}`);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ organizationName: 'Team Traders', role: 'reviewer' });

    const first = await t.createUser('Ravi');
    expect((await first.client.post(`/api/invitations/${token}/accept`, {})).status).toBe(200);
    const me = await first.client.get('/api/me');
    expect(me.body).toMatchObject({ role: 'reviewer', organization: { legalName: 'Team Traders' } });

    const second = await t.createUser('Someone Else');
    const reused = await second.client.post(`/api/invitations/${token}/accept`, {});
    expect(reused.status).toBe(409);
    expect(reused.body.error.message).toBe('This invitation link has already been used');
  });

  it('stops a revoked or expired link, and keeps a link made out to an address for that address', async () => {
    const revoked = await owner.client.post('/api/team/invitations', { role: 'viewer' });
    expect(
      (
        await owner.client.request(`/api/team/invitations/${revoked.body.invitation.id}`, {
          method: 'DELETE',
        })
      ).status,
    ).toBe(200);
    const late = await t.createUser('Late');
    const refused = await late.client.post(`/api/invitations/${tokenOf(revoked.body.link)}/accept`, {});
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toBe('This invitation was withdrawn; ask for a new link');

    const expired = await owner.client.post('/api/team/invitations', { role: 'viewer' });
    await t.server.db
      .update(invitations)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(invitations.id, expired.body.invitation.id));
    const tooLate = await late.client.post(`/api/invitations/${tokenOf(expired.body.link)}/accept`, {});
    expect(tooLate.body.error.message).toBe('This invitation link has expired; ask for a new one');

    const addressed = await owner.client.post('/api/team/invitations', {
      role: 'approver',
      email: 'Named.Person@Example.com',
    });
    const wrong = await late.client.post(`/api/invitations/${tokenOf(addressed.body.link)}/accept`, {});
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toBe(
      'This invitation is for named.person@example.com; sign in with that address to accept it',
    );
    const team = await owner.client.get('/api/team');
    expect(team.body.invitations.map((i: { id: string }) => i.id)).toEqual([addressed.body.invitation.id]);
  });

  it('lets only an owner invite an owner', async () => {
    const admin = await inviteAndJoin(t, owner.client, { role: 'admin', name: 'Adil' });
    const res = await admin.client.post('/api/team/invitations', { role: 'owner' });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe('Only an owner can invite another owner');
    expect((await admin.client.post('/api/team/invitations', { role: 'approver' })).status).toBe(201);
  });
});

describe('members', () => {
  withServer();

  it("refuses a removed member's next request at once, and records who removed whom", async () => {
    const reviewer = await inviteAndJoin(t, owner.client, { role: 'reviewer', name: 'Rekha' });
    expect((await reviewer.client.get('/api/workflows')).status).toBe(200);
    const removed = await owner.client.request(`/api/team/members/${reviewer.userId}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    const next = await reviewer.client.get('/api/workflows');
    expect(next.status).toBe(401);
    expect((await reviewer.client.get('/api/me')).status).toBe(401);
    const [entry] = (await owner.client.get('/api/audit?kind=member.removed')).body.events;
    expect(entry.summary).toContain('removed Rekha');
  });

  it('applies a role change on the very next request', async () => {
    const member = await inviteAndJoin(t, owner.client, { role: 'viewer', name: 'Vani' });
    const before = await member.client.post('/api/workflows', {});
    expect(before.status).toBe(403);
    await owner.client.put(`/api/team/members/${member.userId}`, { role: 'admin' });
    const after = await member.client.post('/api/workflows', {});
    expect(after.status).toBe(400);
    expect((await member.client.get('/api/me')).body.role).toBe('admin');
  });

  it('keeps the last owner: they can neither leave nor be demoted, until there is another', async () => {
    const leave = await owner.client.post('/api/team/leave', {});
    expect(leave.status).toBe(409);
    expect(leave.body.error.message).toBe(
      'You are the last owner: make someone else an owner before you leave',
    );
    const demote = await owner.client.put(`/api/team/members/${owner.userId}`, { role: 'admin' });
    expect(demote.status).toBe(409);

    const admin = await inviteAndJoin(t, owner.client, { role: 'admin', name: 'Arun' });
    const notOwner = await admin.client.put(`/api/team/members/${owner.userId}`, { role: 'viewer' });
    expect(notOwner.status).toBe(403);
    expect(notOwner.body.error.message).toBe('Only an owner can make or unmake an owner');

    const second = await inviteAndJoin(t, owner.client, { role: 'owner', name: 'Olga' });
    expect((await second.client.put(`/api/team/members/${owner.userId}`, { role: 'approver' })).status).toBe(
      200,
    );
    expect((await owner.client.get('/api/me')).body.role).toBe('approver');
    expect((await second.client.put(`/api/team/members/${owner.userId}`, { role: 'owner' })).status).toBe(
      200,
    );
    const roles = (await owner.client.get('/api/audit?kind=member.role_changed')).body.events.map(
      (e: { details: { to: string } }) => e.details.to,
    );
    expect(roles.slice(0, 2)).toEqual(['owner', 'approver']);
  });
});

describe('organisations and sessions', () => {
  withServer();

  it('lets a person in two organisations switch, each request scoped to the one in use', async () => {
    const other = await t.createOnboardedUser('Second Company');
    const flow = await other.client.post('/api/workflows', {
      name: 'Second company bills',
      types: ['INVOICE'],
      io: {
        input: { kind: 'upload', url: '', folderName: '' },
        output: { kind: 'xlsx', sheetId: '', sheetName: 'Bills' },
      },
    });
    expect(flow.status).toBe(201);
    const invite = await other.client.post('/api/team/invitations', { role: 'viewer' });
    expect((await owner.client.post(`/api/invitations/${tokenOf(invite.body.link)}/accept`, {})).status).toBe(
      200,
    );

    let me = await owner.client.get('/api/me');
    expect(me.body.organization.legalName).toBe('Second Company');
    expect(me.body.role).toBe('viewer');
    expect(
      me.body.organizations.map((o: { legalName: string; active: boolean }) => [o.legalName, o.active]),
    ).toEqual([
      ['Team Traders', false],
      ['Second Company', true],
    ]);
    const names = async () =>
      (await owner.client.get('/api/workflows')).body.map((f: { name: string }) => f.name);
    expect(await names()).toContain('Second company bills');
    expect((await owner.client.post('/api/team/invitations', { role: 'viewer' })).status).toBe(403);

    expect((await owner.client.put('/api/me/organization', { organizationId: owner.orgId })).status).toBe(
      200,
    );
    me = await owner.client.get('/api/me');
    expect([me.body.organization.legalName, me.body.role]).toEqual(['Team Traders', 'owner']);
    expect(await names()).not.toContain('Second company bills');

    const stranger = await t.createOnboardedUser('Third Company');
    const refused = await owner.client.put('/api/me/organization', { organizationId: stranger.orgId });
    expect(refused.status).toBe(404);
  });

  it('lists my sessions and ends one: that device is signed out, mine is not', async () => {
    const person = await inviteAndJoin(t, owner.client, { role: 'reviewer', name: 'Sita' });
    const laptop = t.createClient();
    expect(
      (await laptop.signIn({ email: person.email, password: 'correct horse battery staple' })).status,
    ).toBe(200);
    const sessions = await person.client.get('/api/me/sessions');
    expect(sessions.body).toHaveLength(2);
    const other = sessions.body.find((s: { current: boolean }) => !s.current);
    expect((await person.client.request(`/api/me/sessions/${other.id}`, { method: 'DELETE' })).status).toBe(
      200,
    );
    expect((await laptop.get('/api/me')).status).toBe(401);
    expect((await person.client.get('/api/me')).status).toBe(200);
    // Someone else's session is not theirs to end.
    const ownerSessions = await owner.client.get('/api/me/sessions');
    const res = await person.client.request(`/api/me/sessions/${ownerSessions.body[0].id}`, {
      method: 'DELETE',
    });
    expect(res.status).toBe(404);
    // The sign-in was recorded.
    expect(await auditKinds(owner.client, '?kind=auth.sign_in')).toContain('auth.sign_in');
  });
});

describe('the audit trail', () => {
  withServer();

  it('filters by person, kind and date, and exports CSV with formulas defused', async () => {
    const joker = await inviteAndJoin(t, owner.client, { role: 'viewer', name: '=HYPERLINK("x")' });
    const page = await owner.client.get(`/api/audit?actorId=${joker.userId}`);
    expect(page.body.events.map((e: { kind: string }) => e.kind)).toEqual(['member.joined']);
    expect(page.body.people.map((p: { name: string }) => p.name)).toContain('=HYPERLINK("x")');
    const today = new Date(Date.now() + 5.5 * 3600 * 1000).toISOString().slice(0, 10);
    expect((await owner.client.get(`/api/audit?from=${today}&to=${today}`)).body.total).toBe(2);
    expect((await owner.client.get('/api/audit?to=2020-01-01')).body.total).toBe(0);

    const csv = await owner.client.raw(`/api/audit.csv?actorId=${joker.userId}`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = await csv.text();
    const [, line] = text.split('\r\n');
    expect(line).toContain(`"'=HYPERLINK(""x"")"`);
    expect(line).toContain('member.joined');
  });

  it('has no route that changes or deletes an entry', async () => {
    const doc = await t.createClient().get('/api/openapi.json');
    const auditPaths = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>).filter(
      ([p]) => p.startsWith('/api/audit'),
    );
    expect(auditPaths.flatMap(([, ops]) => Object.keys(ops))).toEqual(['get', 'get']);
    const [entry] = (await owner.client.get('/api/audit')).body.events;
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
      for (const path of ['/api/audit', `/api/audit/${entry.id}`]) {
        const res = await owner.client.request(path, { method, json: { summary: 'rewritten' } });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
    }
    const again = (await owner.client.get('/api/audit')).body.events[0];
    expect(again).toEqual(entry);
  });
});
