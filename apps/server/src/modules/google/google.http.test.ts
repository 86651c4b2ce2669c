import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GoogleStandIn, installLoopbackGuard, startGoogleStandIn } from '../../test/google-stand-in.ts';
import { startTestServer, type TestClient, type TestServer } from '../../test/test-server.ts';
import { findConnection } from './google.repo.ts';

// The OAuth connection end to end over HTTP: the real server, the official Google client libraries, and a
// loopback stand-in of Google's consent, token, revoke and userinfo endpoints.

let google: GoogleStandIn;
let t: TestServer;
let guard: ReturnType<typeof installLoopbackGuard>;

beforeAll(async () => {
  guard = installLoopbackGuard();
  google = await startGoogleStandIn({ accessTokenTtlSeconds: 3600 });
  t = await startTestServer({
    env: {
      GOOGLE_CLIENT_ID: google.clientId,
      GOOGLE_CLIENT_SECRET: google.clientSecret,
      GOOGLE_OAUTH_BASE_URL: google.url,
      GOOGLE_API_BASE_URL: google.url,
      GOOGLE_DISCOVERY_URL: `${google.url}/.well-known/openid-configuration`,
    },
  });
});

afterAll(async () => {
  await t?.close();
  await google?.close();
  guard?.restore();
});

/** Walks the popup: consent URL → stand-in consent (auto-approves) → our callback. Returns the HTML. */
async function connect(client: TestClient): Promise<{ status: number; html: string }> {
  const urlRes = await client.get<{ url: string }>('/api/oauth/url');
  expect(urlRes.status).toBe(200);
  const consent = await fetch(urlRes.body.url, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const callback = new URL(consent.headers.get('location') ?? '');
  const res = await client.request<string>(`${callback.pathname}${callback.search}`);
  return { status: res.status, html: res.body };
}

describe('Google OAuth connection', () => {
  it('connects with offline access, stores the refresh token encrypted, and reports the real state', async () => {
    const { client, orgId } = await t.createOnboardedUser('Ledger Co');
    const before = await client.get('/api/integrations');
    expect(before.body.google).toMatchObject({ configured: true, connected: false, email: null });

    const urlRes = await client.get<{ url: string }>('/api/oauth/url');
    const consentUrl = new URL(urlRes.body.url);
    expect(consentUrl.origin).toBe(google.url);
    expect(consentUrl.searchParams.get('access_type')).toBe('offline');
    expect(consentUrl.searchParams.get('include_granted_scopes')).toBe('true');
    expect(consentUrl.searchParams.get('scope')).toContain('https://www.googleapis.com/auth/drive.readonly');
    expect(consentUrl.searchParams.get('scope')).toContain('https://www.googleapis.com/auth/spreadsheets');

    const done = await connect(client);
    expect(done.status).toBe(200);
    expect(done.html).toContain('"type":"oauth-complete","success":true');

    const after = await client.get('/api/integrations');
    expect(after.body.google).toMatchObject({ configured: true, connected: true, email: google.email });
    expect(after.body.google.scopes).toContain('https://www.googleapis.com/auth/spreadsheets');

    // At rest: the row holds ciphertext, never the refresh token Google issued.
    const row = await findConnection(t.server.db, orgId);
    const [refreshToken] = [...google.liveRefreshTokens];
    expect(refreshToken).toBeTruthy();
    expect(row?.refreshTokenEnc).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toContain(refreshToken);

    // Another organisation sees nothing of it.
    const other = await t.createOnboardedUser('Other Co');
    expect((await other.client.get('/api/integrations')).body.google.connected).toBe(false);
  });

  it('refreshes an expired access token, and a revoked grant becomes google_auth_required', async () => {
    const { client } = await t.createOnboardedUser('Refresh Co');
    await connect(client);
    google.expireAccessTokens();
    const tokenCallsBefore = google.requests.filter((r) => r.path === '/token').length;
    const ok = await client.post('/api/google/refresh');
    expect(ok.status).toBe(200);
    expect(ok.body.connected).toBe(true);
    const refreshes = google.requests
      .filter((r) => r.path === '/token')
      .slice(tokenCallsBefore)
      .map((r) => (r.body as Record<string, string>).grant_type);
    expect(refreshes).toContain('refresh_token');

    // The refreshed access token was stored (encrypted) for the next call.
    const orgId = (await client.get('/api/organization')).body.id as string;
    const row = await findConnection(t.server.db, orgId);
    expect(row?.accessTokenEnc).toMatch(/^v1:/);
    expect(row?.accessTokenExpiresAt?.getTime()).toBeGreaterThan(Date.now());

    // A revoke Google does not confirm keeps the connection ("Disconnect failed"), never half-removes it.
    google.inject({ kind: 'status', status: 500, method: 'POST', path: /^\/revoke$/, times: 10 });
    const failed = await client.post('/api/google/disconnect');
    expect(failed.status).toBe(500);
    expect((await client.get('/api/integrations')).body.google.connected).toBe(true);
    google.clearFaults();

    google.revokeAll();
    const revoked = await client.post('/api/google/refresh');
    expect(revoked.status).toBe(403);
    expect(revoked.body.error).toEqual({
      code: 'google_auth_required',
      message: 'Google authorization required. Please authorize access to your Google account.',
    });
    expect((await client.get('/api/integrations')).body.google.connected).toBe(false);
  });

  it('sets up a parent folder and a vendor master sheet, and disconnect revokes and clears them', async () => {
    const { client } = await t.createOnboardedUser('Setup Co');
    await connect(client);
    const folder = await client.post('/api/google/folder', {});
    expect(folder.status).toBe(200);
    expect(folder.body).toMatchObject({ name: 'Bahi', created: true });
    expect(google.files.get(folder.body.id)?.mimeType).toBe('application/vnd.google-apps.folder');

    const existing = google.addFolder('Purchase invoices 2026');
    const linked = await client.post('/api/google/folder', {
      url: `https://drive.google.com/drive/folders/${existing}`,
    });
    expect(linked.body).toMatchObject({ id: existing, name: 'Purchase invoices 2026', created: false });

    const sheet = await client.post('/api/google/vendor-sheet', {});
    expect(sheet.status).toBe(200);
    const vendorSheet = google.spreadsheets.get(sheet.body.id);
    expect(vendorSheet?.sheets[0]?.rows[0]?.[1]).toBe('GSTIN');

    const status = await client.get('/api/google/status');
    expect(status.body.parentFolder.id).toBe(existing);
    expect(status.body.vendorSheet.id).toBe(sheet.body.id);

    const liveBefore = google.liveRefreshTokens.size;
    const off = await client.post('/api/google/disconnect');
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ connected: false, parentFolder: null, vendorSheet: null });
    expect(google.liveRefreshTokens.size).toBe(liveBefore - 1);
    expect(google.listPaths()).toContain('POST /revoke');

    // Connecting again starts clean: no folder or sheet survives a disconnect.
    await connect(client);
    const again = await client.get('/api/google/status');
    expect(again.body).toMatchObject({ connected: true, parentFolder: null, vendorSheet: null });
    // The old debug route that let any member forget the organisation's tokens is gone (#33).
    const debug = await client.post('/api/debug/clear-tokens');
    expect(debug.status).toBe(404);
    expect((await client.get('/api/google/status')).body.connected).toBe(true);
  });

  it('refuses a forged state and reports errors to the opener', async () => {
    const { client } = await t.createOnboardedUser('Forged Co');
    const forged = await client.request<string>('/api/oauth/callback?code=abc&state=eyJvIjoiMSJ9.bad');
    expect(forged.status).toBe(400);
    expect(forged.body).toContain('"success":false');
    const denied = await client.request<string>('/api/oauth/callback?error=access_denied');
    expect(denied.body).toContain('Access was not granted');
    expect(denied.headers.get('content-security-policy')).toContain("script-src 'sha256-");
  });

  it('reached only the stand-in, only on the endpoints the code is meant to call', () => {
    expect(guard.refused).toEqual([]);
    const allowed = new Set([
      'GET /o/oauth2/v2/auth',
      'POST /token',
      'POST /revoke',
      'GET /oauth2/v3/userinfo',
      'GET /drive/v3/files',
      'POST /drive/v3/files',
      'POST /v4/spreadsheets',
      'POST /v4/spreadsheets/:id/values/:range:append',
      'GET /v4/spreadsheets/:id',
      'GET /drive/v3/files/:id',
      // better-auth's Google sign-in reads its discovery document (GOOGLE_DISCOVERY_URL) at start-up.
      'GET /.well-known/openid-configuration',
    ]);
    const normalise = (p: string) =>
      p
        .replace(/^(GET|POST) \/drive\/v3\/files\/[^/]+$/, '$1 /drive/v3/files/:id')
        .replace(
          /\/v4\/spreadsheets\/[^/:]+\/values\/.+:append$/,
          '/v4/spreadsheets/:id/values/:range:append',
        )
        .replace(/\/v4\/spreadsheets\/[^/:]+$/, '/v4/spreadsheets/:id');
    for (const path of google.listPaths()) expect(allowed).toContain(normalise(path));
  });
});
