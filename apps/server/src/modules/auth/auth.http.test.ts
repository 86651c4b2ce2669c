import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '../../db/schema/index.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import {
  ACCOUNT_FAILURES_BEFORE_WAIT,
  EXISTING_ADDRESS_ANSWERS_PER_WINDOW,
  MAX_ACCOUNT_WAIT_MS,
  recordExistingAddressAnswer,
  recordSignInFailure,
  waitAfter,
} from './account-throttle.ts';
import { SIGN_IN_ATTEMPTS_PER_MINUTE } from './auth.ts';

describe('sign-in rate limiting', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`answers 429 after ${SIGN_IN_ATTEMPTS_PER_MINUTE} sign-in attempts a minute from one IP`, async () => {
    const { email } = await t.createUser();
    const client = t.createClient();
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_MINUTE + 1; i++) {
      statuses.push((await client.signIn({ email, password: 'wrong password guess' })).status);
    }
    expect(statuses.slice(0, SIGN_IN_ATTEMPTS_PER_MINUTE)).toEqual(
      Array(SIGN_IN_ATTEMPTS_PER_MINUTE).fill(401),
    );
    expect(statuses.at(-1)).toBe(429);
    // Spoofing the forwarded-for header does not buy a fresh budget: the server sets the client IP itself.
    const spoofed = await client.request('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-bahi-client-ip': '203.0.113.9' },
      json: { email, password: 'another guess' },
    });
    expect(spoofed.status).toBe(429);
  });
});

describe('sign-in throttling per account', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('waits longer after each failure past the limit, never more than fifteen minutes', () => {
    expect(waitAfter(ACCOUNT_FAILURES_BEFORE_WAIT - 1)).toBe(0);
    expect(waitAfter(ACCOUNT_FAILURES_BEFORE_WAIT)).toBe(30_000);
    expect(waitAfter(ACCOUNT_FAILURES_BEFORE_WAIT + 1)).toBe(60_000);
    expect(waitAfter(ACCOUNT_FAILURES_BEFORE_WAIT + 40)).toBe(MAX_ACCOUNT_WAIT_MS);
  });

  it('counts wrong passwords per account, pauses an account attacked from many addresses, and forgets on success', async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const client = t.createClient();
    const failures = async () =>
      (await t.server.db.select().from(rateLimits)).filter((r) => r.key.startsWith('account-sign-in:'));
    // Two wrong passwords are counted; the right one clears them.
    for (let i = 0; i < 2; i++)
      expect((await client.signIn({ email: a.email, password: 'not the password' })).status).toBe(401);
    expect((await failures()).map((r) => r.count)).toEqual([2]);
    expect((await client.signIn({ email: a.email, password: a.password })).status).toBe(200);
    expect(await failures()).toEqual([]);
    // Failures from many addresses (seeded here: this test has one address) pause the account itself,
    // even for the right password, with a sentence saying how long.
    for (let i = 0; i < ACCOUNT_FAILURES_BEFORE_WAIT; i++) await recordSignInFailure(t.server.db, a.email);
    const paused = await client.signIn({ email: a.email, password: a.password });
    expect(paused.status).toBe(429);
    expect(paused.body).toMatchObject({ code: 'ACCOUNT_SIGN_IN_PAUSED' });
    expect((paused.body as { message: string }).message).toMatch(/Try again in 1 minute/);
    // Another account is not affected; the address is stored only as a hash.
    expect((await client.signIn({ email: b.email, password: b.password })).status).toBe(200);
    const [row] = await failures();
    expect(row?.key).not.toContain(a.email);
    expect(
      (
        await t.server.db
          .select()
          .from(rateLimits)
          .where(eq(rateLimits.key, row?.key ?? ''))
      ).length,
    ).toBe(1);
  });
});

describe('sign-up throttling across addresses', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps the helpful "already exists" answer but pauses sign-up once it was given too often', async () => {
    const a = await t.createUser();
    const client = t.createClient();
    const again = await client.signUp({ name: 'Someone', email: a.email, password: 'ledger-monsoon-kettle' });
    expect(again.status).toBe(422);
    const counted = async () =>
      (await t.server.db.select().from(rateLimits)).find((r) => r.key.startsWith('sign-up-existing-address:'))
        ?.count;
    expect(await counted()).toBe(1);
    // The rest of the budget spent from other addresses (seeded: this test has one address).
    for (let i = 1; i < EXISTING_ADDRESS_ANSWERS_PER_WINDOW; i++)
      await recordExistingAddressAnswer(t.server.db);
    const paused = await client.signUp({
      name: 'Ravi Nair',
      email: 'ravi.nair@example.in',
      password: 'ledger-monsoon-kettle',
    });
    expect(paused.status).toBe(429);
    expect(paused.body).toMatchObject({ code: 'SIGN_UP_PAUSED' });
    expect((paused.body as { message: string }).message).toMatch(
      /^Sign-up is busy\. Try again in \d+ minutes?\.$/,
    );
  });
});

describe('password strength', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses guessable passwords at sign-up with a sentence saying why, and takes a strong one', async () => {
    const client = t.createClient();
    const email = 'asha.verma@example.in';
    // Common passwords, blanks, and the account's own e-mail address.
    for (const password of ['12345678', 'password', '        ', email]) {
      const res = await client.signUp({ name: 'Asha Verma', email, password });
      expect(res.status, JSON.stringify(password)).toBe(400);
      expect(res.body).toMatchObject({ code: 'PASSWORD_TOO_WEAK' });
      expect((res.body as { message: string }).message).toMatch(/^This password is too easy to guess\./);
    }
    const ok = await client.signUp({ name: 'Asha Verma', email, password: 'ledger-monsoon-kettle' });
    expect(ok.status).toBe(200);
  });
});

describe('LOCAL_ACCOUNTS=false', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: {
        LOCAL_ACCOUNTS: 'false',
        // Never contacted by these tests: only its presence in auth-config matters.
        OIDC_DISCOVERY_URL: 'http://127.0.0.1:9/.well-known/openid-configuration',
        OIDC_CLIENT_ID: 'bahi',
        OIDC_CLIENT_SECRET: 'secret',
        OIDC_PROVIDER_ID: 'corp',
        OIDC_PROVIDER_NAME: 'Corp SSO',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses e-mail sign-up and sign-in and tells the web app to hide the forms', async () => {
    const client = t.createClient();
    expect((await client.get('/api/auth-config')).body).toEqual({
      localAccounts: false,
      providers: [{ id: 'corp', name: 'Corp SSO' }],
    });
    const signUp = await client.signUp({
      name: 'Nope',
      email: 'nope@example.com',
      password: 'a-long-password',
    });
    expect(signUp.status).toBeGreaterThanOrEqual(400);
    expect(signUp.status).toBeLessThan(500);
    expect(client.cookies.size).toBe(0);
    const signIn = await client.signIn({ email: 'nope@example.com', password: 'a-long-password' });
    expect(signIn.status).toBeGreaterThanOrEqual(400);
    expect((await client.get('/api/me')).status).toBe(401);
  });
});
