import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, flows, vendors } from '../db/schema/index.ts';
import { notifyUser } from '../modules/notifications/notifications.service.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

describe('sessions over HTTP', () => {
  it('signs up, reads the session, signs out and signs back in with an httpOnly SameSite cookie', async () => {
    const client = t.createClient();
    const email = `asha-${Date.now()}@example.com`;
    const signUp = await client.signUp({ name: 'Asha', email, password: 'a-long-password' });
    expect(signUp.status).toBe(200);
    const sessionCookie = client.lastSetCookies.find((c) => c.startsWith('bahi.session_token='));
    expect(sessionCookie).toBeDefined();
    expect(sessionCookie).toMatch(/HttpOnly/i);
    expect(sessionCookie).toMatch(/SameSite=Lax/i);

    const me = await client.get('/api/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: { name: 'Asha', email, image: null }, organization: null });

    expect((await client.signOut()).status).toBe(200);
    const afterSignOut = await client.get('/api/me');
    expect(afterSignOut.status).toBe(401);
    expect(afterSignOut.body).toEqual({ error: { code: 'unauthenticated', message: 'Please sign in' } });

    const wrong = await client.signIn({ email, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    const signIn = await client.signIn({ email, password: 'a-long-password' });
    expect(signIn.status).toBe(200);
    expect((await client.get('/api/me')).status).toBe(200);
  });

  it('authenticates only by cookie: neither a user id nor the session token works as a bearer token', async () => {
    const { userId, client } = await t.createUser();
    const sessionToken = client.cookies.get('bahi.session_token')!;
    const stranger = t.createClient();
    for (const token of [userId, sessionToken, decodeURIComponent(sessionToken).split('.')[0]]) {
      const res = await stranger.request('/api/me', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(401);
    }
  });

  it('requires a session on every app route', async () => {
    const anonymous = t.createClient();
    for (const path of [
      '/api/me',
      '/api/organization',
      '/api/dashboard',
      '/api/notifications',
      '/api/interest',
      '/api/integrations',
    ]) {
      const res = await anonymous.get(path);
      expect(res.status, path).toBe(401);
      expect(res.body.error.code, path).toBe('unauthenticated');
    }
  });
});

describe('request bodies', () => {
  const bigJson = (bytes: number) => JSON.stringify({ name: 'x'.repeat(bytes) });

  it('refuses a body from a caller with no session before reading it (401, not 400 or 413)', async () => {
    const anonymous = t.createClient();
    const json = await anonymous.request('/api/workflows', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bigJson(5 * 1024 * 1024),
    });
    expect(json.status).toBe(401);
    expect(json.body.error.code).toBe('unauthenticated');
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(3 * 1024 * 1024)]), 'a.pdf');
    const upload = await anonymous.request('/api/flows/some-flow/uploads', { method: 'POST', body: form });
    expect(upload.status).toBe(401);
  });
});

describe('CSRF protection', () => {
  it('refuses mutating API requests from a foreign Origin, with or without a session', async () => {
    const { client } = await t.createUser();
    const res = await client.request('/api/organization', {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
      json: { orgName: 'Evil', phone: '9845012345', orgType: 'llp', address: 'x' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    const form = await client.request('/api/interest', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'module=working-capital',
    });
    expect(form.status).toBe(403);
    const signUp = await t.createClient('https://evil.example').signUp({
      name: 'x',
      email: 'csrf@example.com',
      password: 'a-long-password',
    });
    expect(signUp.status).toBe(403);
    // Nothing was created by the refused requests.
    expect((await client.get('/api/me')).body.organization).toBeNull();
  });

  it('refuses cross-site requests that carry only Sec-Fetch-Site', async () => {
    const { client } = await t.createUser();
    const noOrigin = t.createClient(null);
    for (const [k, v] of client.cookies) noOrigin.cookies.set(k, v);
    const res = await noOrigin.request('/api/interest', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site' },
      json: { module: 'working-capital' },
    });
    expect(res.status).toBe(403);
  });
});

describe('organisation over HTTP', () => {
  it('onboards with exact validation messages, then refuses a second organisation', async () => {
    const { client } = await t.createUser();
    const empty = await client.post('/api/organization', {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('validation');
    expect(empty.body.error.fields).toEqual({
      orgName: 'Organization name is required',
      phone: 'Contact phone is required',
      orgType: 'Organization type is required',
      address: 'Business address is required',
    });
    const badPhone = await client.post('/api/organization', {
      orgName: 'Acme',
      phone: '12345',
      orgType: 'llp',
      address: 'Pune',
    });
    expect(badPhone.body.error.fields).toEqual({ phone: 'Please enter a valid phone number' });

    const created = await client.post('/api/organization', {
      orgName: 'Acme LLP',
      phone: '098450 12345',
      orgType: 'llp',
      address: 'Pune',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      legalName: 'Acme LLP',
      phone: '+919845012345',
      orgType: 'llp',
      gstins: [],
    });
    expect((await client.get('/api/organization')).body).toEqual(created.body);

    const again = await client.post('/api/organization', {
      orgName: 'Second',
      phone: '9845012345',
      orgType: 'ltd',
      address: 'Pune',
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
  });

  it('answers 404 no_organization before onboarding and rejects malformed JSON as validation', async () => {
    const { client } = await t.createUser();
    const res = await client.get('/api/organization');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('no_organization');
    const bad = await client.request('/api/organization', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation');
    // A JSON body is capped at 1 MB, counted as it arrives.
    const big = await client.request('/api/organization', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orgName: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: { code: 'payload_too_large', message: 'The request is too large' } });
  });

  it("keeps users inside their own organisation: B never sees or changes A's", async () => {
    const a = await t.createOnboardedUser('Alpha Pvt Ltd');
    const b = await t.createOnboardedUser('Beta Pvt Ltd');
    const aSaved = await a.client.put('/api/organization', {
      legalName: 'Alpha Pvt Ltd',
      phone: '9845012345',
      orgType: 'pvt_ltd',
      address: 'Bengaluru',
      gstins: [{ gstin: '29AAGCB7383J1Z4', label: 'Karnataka' }],
    });
    expect(aSaved.status).toBe(200);
    const aGstin = aSaved.body.gstins[0];

    const bView = await b.client.get('/api/organization');
    expect(bView.body.id).toBe(b.orgId);
    expect(bView.body.legalName).toBe('Beta Pvt Ltd');

    // B's PUT naming A's GSTIN id and value only ever touches B's organisation.
    const bSaved = await b.client.put('/api/organization', {
      id: a.orgId,
      legalName: 'Beta Renamed',
      phone: '9845012345',
      orgType: 'ltd',
      address: 'Mumbai',
      gstins: [{ id: aGstin.id, gstin: '29AAGCB7383J1Z4', label: 'Mine now' }],
    });
    expect(bSaved.status).toBe(200);
    expect(bSaved.body.id).toBe(b.orgId);
    expect(bSaved.body.gstins[0].id).not.toBe(aGstin.id);

    const aAfter = await a.client.get('/api/organization');
    expect(aAfter.body.legalName).toBe('Alpha Pvt Ltd');
    expect(aAfter.body.gstins).toEqual([aGstin]);
    const aDash = await a.client.get('/api/dashboard');
    expect(aDash.body.recentActivity.map((x: { message: string }) => x.message).join('\n')).not.toContain(
      'Beta',
    );
  });
});

describe('public endpoints', () => {
  it('serves /healthz, auth-config and an OpenAPI document listing the routes', async () => {
    const anonymous = t.createClient();
    expect((await anonymous.get('/healthz')).body).toEqual({ ok: true });
    expect((await anonymous.get('/api/auth-config')).body).toEqual({ localAccounts: true, providers: [] });
    const doc = await anonymous.get('/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.body.paths);
    for (const path of [
      '/api/me',
      '/api/auth-config',
      '/api/organization',
      '/api/dashboard',
      '/api/notifications',
      '/api/notifications/read',
      '/api/interest',
      '/api/integrations',
    ]) {
      expect(paths, path).toContain(path);
    }
    expect(Object.keys(doc.body.paths['/api/organization'])).toEqual(
      expect.arrayContaining(['get', 'post', 'put']),
    );
    expect(doc.body.components.securitySchemes.session).toMatchObject({
      in: 'cookie',
      name: 'bahi.session_token',
    });
    expect(doc.body.paths['/api/auth-config'].get.security).toEqual([]);
  });

  it('sets security headers and answers unknown API paths with a JSON 404', async () => {
    const res = await t.createClient().raw('/api/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: 'No API route GET /api/nope' } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // One framing rule (the CSP's), and API answers are never cached.
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
    const config = await t.createClient().raw('/api/auth-config');
    expect(config.headers.get('cache-control')).toBe('no-store');
  });
});

describe('dashboard, interest, notifications and integrations over HTTP', () => {
  it('reflects rows in the database and records interest once', async () => {
    const { client, orgId } = await t.createOnboardedUser('Dash Pvt Ltd');
    const before = await client.get('/api/dashboard');
    expect(before.status).toBe(200);
    expect(before.body.stats).toEqual({
      activeFlows: 0,
      vendorsOnboarded: 0,
      documentsProcessed: 0,
      documentsVerified: 0,
      documentsAwaitingReview: 0,
      costSavingsInr: 0,
      costPerDocumentInr: 50,
    });
    expect(before.body.recentActivity[0].kind).toBe('organization.created');

    await t.server.db.insert(vendors).values({ organizationId: orgId, name: 'Vendor One' });
    const [flow] = await t.server.db
      .insert(flows)
      .values({ organizationId: orgId, name: 'Invoices', status: 'success' })
      .returning();
    await t.server.db.insert(documents).values({
      organizationId: orgId,
      flowId: flow!.id,
      sourceId: 's1',
      contentHash: 'h1',
      fileName: 'inv.pdf',
      status: 'done',
      processedAt: new Date(),
    });
    const after = await client.get('/api/dashboard');
    expect(after.body.stats).toMatchObject({
      activeFlows: 1,
      vendorsOnboarded: 1,
      documentsProcessed: 1,
      costSavingsInr: 50,
    });

    expect((await client.get('/api/interest')).body).toEqual({ modules: [] });
    expect((await client.post('/api/interest', { module: 'vendor-management' })).body).toEqual({
      modules: ['vendor-management'],
    });
    expect((await client.post('/api/interest', { module: 'vendor-management' })).body).toEqual({
      modules: ['vendor-management'],
    });
    const invalid = await client.post('/api/interest', { module: 'time-travel' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.fields).toHaveProperty('module');
    const feed = (await client.get('/api/dashboard')).body.recentActivity.map(
      (a: { kind: string }) => a.kind,
    );
    expect(feed.filter((k: string) => k === 'interest.registered')).toHaveLength(1);
  });

  it('lists notifications and marks them read; reports Google as not configured', async () => {
    const { client, userId, orgId } = await t.createOnboardedUser();
    await notifyUser(
      t.server.db,
      { organizationId: orgId, userId },
      { kind: 'run.finished', title: 'Run finished' },
    );
    const list = await client.get('/api/notifications');
    expect(list.body.unreadCount).toBe(1);
    expect(list.body.items[0]).toMatchObject({ kind: 'run.finished', title: 'Run finished', readAt: null });
    expect((await client.post('/api/notifications/read', {})).body).toEqual({ unreadCount: 0 });

    const integrations = await client.get('/api/integrations');
    expect(integrations.body.google).toMatchObject({
      configured: false,
      connected: false,
      email: null,
      scopes: [],
    });
    expect(integrations.body.google.note).toContain('GOOGLE_CLIENT_ID');
  });
});
