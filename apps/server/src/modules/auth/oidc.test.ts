import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../db/schema/index.ts';
import { startTestServer, TestClient, type TestServer } from '../../test/test-server.ts';

// A real OpenID Connect provider (oidc-provider) on loopback, driven through its dev login/consent
// pages with plain fetch: the whole authorization-code flow through better-auth's genericOAuth.

let idp: Server;
let issuer: string;
let t: TestServer;
const silence = console.warn;

beforeAll(async () => {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  idp = createServer((req, res) => {
    if (handler) return handler(req, res);
    res.statusCode = 503;
    res.end();
  });
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;

  t = await startTestServer({
    env: {
      OIDC_DISCOVERY_URL: `${issuer}/.well-known/openid-configuration`,
      OIDC_CLIENT_ID: 'bahi',
      OIDC_CLIENT_SECRET: 'bahi-test-secret-value',
      OIDC_PROVIDER_NAME: 'Test SSO',
    },
  });

  // oidc-provider prints development-only warnings on construction; they are expected here.
  console.warn = () => {};
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'bahi',
        client_secret: 'bahi-test-secret-value',
        redirect_uris: [`${t.url}/api/auth/callback/oidc`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    cookies: { keys: ['oidc-test-cookie-key'] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: `${sub}@sso.example.com`, email_verified: true, name: `SSO ${sub}` }),
    }),
  });
  console.warn = silence;
  handler = provider.callback();
});

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => idp?.close(resolve));
});

/** Follows redirects on the identity provider's origin, answering its dev login and consent pages. */
async function completeProviderInteraction(
  browser: TestClient,
  startUrl: string,
  login: string,
): Promise<string> {
  let url = startUrl;
  for (let hop = 0; hop < 20; hop++) {
    const res = await browser.raw(url);
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url).toString();
      // Leaving the provider: this is the redirect back to Bahi's callback.
      if (!next.startsWith(issuer)) return next;
      url = next;
      continue;
    }
    const html = await res.text();
    expect(res.status, html.slice(0, 200)).toBe(200);
    const prompt =
      /name="prompt" value="(\w+)"/.exec(html)?.[1] ?? (html.includes('name="login"') ? 'login' : 'consent');
    const form = new URLSearchParams({ prompt });
    if (prompt === 'login') {
      form.set('login', login);
      form.set('password', 'any');
    }
    const submit = await browser.raw(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const after = submit.headers.get('location');
    expect(after, `no redirect after ${prompt}`).toBeTruthy();
    url = new URL(after!, url).toString();
  }
  throw new Error('too many redirects at the identity provider');
}

describe('OIDC sign-in through a real provider', () => {
  it('lists the provider and signs a new user in through the popup flow', async () => {
    const anonymous = t.createClient();
    expect((await anonymous.get('/api/auth-config')).body).toEqual({
      localAccounts: true,
      providers: [{ id: 'oidc', name: 'Test SSO' }],
    });

    const browser = t.createClient();
    const start = await browser.raw('/auth/popup/oidc?mode=signin');
    expect(start.status).toBe(302);
    const authorize = start.headers.get('location')!;
    expect(authorize.startsWith(`${issuer}/`)).toBe(true);
    expect(new URL(authorize).searchParams.get('redirect_uri')).toBe(`${t.url}/api/auth/callback/oidc`);

    const idpBrowser = new TestClient(issuer, null);
    const callback = await completeProviderInteraction(idpBrowser, authorize, 'meera');
    expect(callback.startsWith(`${t.url}/api/auth/callback/oidc?`)).toBe(true);

    const back = await browser.raw(callback);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toContain('/auth/popup-done');
    expect(back.headers.get('cross-origin-opener-policy')).toBe('unsafe-none');

    const done = await browser.raw(new URL(back.headers.get('location')!, t.url).toString());
    const html = await done.text();
    expect(html).toContain('{"type":"bahi-auth","ok":true}');
    expect(done.headers.get('content-security-policy')).toMatch(/script-src 'sha256-/);

    const me = await browser.get('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ name: 'SSO meera', email: 'meera@sso.example.com' });

    // The provider's access token is stored encrypted (better-auth's symmetric envelope), not as
    // issued; the refresh token too when the provider sends one.
    const [account] = await t.server.db.select().from(accounts).where(eq(accounts.providerId, 'oidc'));
    expect(account?.accessToken).toMatch(/^[0-9a-f$:]{40,}$/i);
    if (account?.refreshToken) expect(account.refreshToken).toMatch(/^[0-9a-f$:]{40,}$/i);
  });

  it('does not link a provider identity into an unverified local account with the same e-mail', async () => {
    // Someone could pre-register the victim's address locally; linking the victim's SSO identity into that
    // row would hand the attacker the account. better-auth refuses unless the local address is verified.
    const attacker = t.createClient();
    const signUp = await attacker.signUp({
      name: 'Lin?',
      email: 'lin@sso.example.com',
      password: 'a-long-password',
    });
    expect(signUp.status).toBe(200);

    const browser = t.createClient();
    const start = await browser.raw('/auth/popup/oidc?mode=signin');
    const idpBrowser = new TestClient(issuer, null);
    const callback = await completeProviderInteraction(idpBrowser, start.headers.get('location')!, 'lin');
    const back = await browser.raw(callback);
    const location = back.headers.get('location')!;
    expect(location).toMatch(/^\/auth\/popup-done\?error=account_not_linked/);
    const done = await browser.raw(location);
    expect(await done.text()).toContain('"ok":false');
    expect((await browser.get('/api/me')).status).toBe(401);
  });

  it('reports failures to the opener instead of signing in', async () => {
    const browser = t.createClient();
    const unknown = await browser.raw('/auth/popup/nope');
    expect(unknown.headers.get('location')).toBe('/auth/popup-done?error=unknown_provider');
    const done = await browser.raw('/auth/popup-done?error=access_denied');
    expect(await done.text()).toContain('{"type":"bahi-auth","ok":false,"error":"access_denied"}');
    expect((await browser.get('/api/me')).status).toBe(401);
  });
});
