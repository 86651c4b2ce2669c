import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { flowAutomations, flowUploads, mailOAuthTokens, notifications, runs } from '../../db/schema/index.ts';
import { hasDovecot, startDovecot, type TestMailServer } from '../../test/dovecot.ts';
import { type MailOAuthStandIn, startMailOAuthStandIn } from '../../test/mail-oauth-stand-in.ts';
import { buildMessage } from '../../test/mime.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { createWorkflow, listWorkflows } from '../flows/flows.service.ts';
import {
  createMember,
  createRecordingSender,
  createTestEnv,
  createTestJobContext,
  readFixture,
  runRecordedJobs,
} from '../flows/test-support.ts';
import { fireDueFlows } from '../runs/flow-triggers.ts';
import { buildMailConsentUrl, completeMailOAuth } from './mail-oauth.ts';

// OAuth2 mailboxes against real components: Debian's Dovecot checks each IMAP login's bearer token (SASL
// XOAUTH2) with its `oauth2` passdb against the stand-in's introspection endpoint, and Bahi gets its
// tokens from the stand-in's authorisation and token endpoints (configured as Microsoft 365). Covered:
// connecting by the authorisation-code flow, the refresh token encrypted at rest, mail taken in with the
// access token, the access token renewed before it expires, and a revoked refresh token shown on the flow
// as "Reconnect the mailbox" with the source backing off.

let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;
let server: TestMailServer;
let provider: MailOAuthStandIn;
let member: Awaited<ReturnType<typeof createMember>>;

beforeAll(async () => {
  if (!hasDovecot()) return;
  provider = await startMailOAuthStandIn('clerk');
  t = await createTestDb();
  ({ env, cleanup } = await createTestEnv({
    MICROSOFT_CLIENT_ID: 'bahi-test-client',
    MICROSOFT_CLIENT_SECRET: 'bahi-test-secret',
    MICROSOFT_OAUTH_BASE_URL: `${provider.url}/tenant`,
  }));
  env.databaseUrl = t.databaseUrl;
  member = await createMember(t.db);
  server = await startDovecot({ oauth2IntrospectionUrl: `${provider.url}/introspect` });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await t?.close();
  await cleanup?.();
  await provider?.close();
});

const T0 = new Date('2026-03-02T03:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

describe.skipIf(!hasDovecot())('an OAuth2 (XOAUTH2) mailbox', () => {
  it('connects by signing in, takes mail with the access token, renews it, and asks to reconnect when revoked', {
    timeout: 180_000,
  }, async () => {
    const wf = await createWorkflow(t.db, {
      env,
      ...member,
      input: {
        name: 'Microsoft 365 inbox',
        types: ['INVOICE'],
        io: {
          input: {
            kind: 'email',
            url: '',
            folderName: '',
            // No password: the mailbox is connected by signing in.
            mail: {
              host: server.host,
              port: server.port,
              tls: false,
              user: server.user,
              auth: 'microsoft',
              filters: { maxAgeDays: 0 },
            },
          },
          output: { kind: 'xlsx', sheetId: '', sheetName: '' },
        },
        trigger: { kind: 'arrival' },
      },
      now: T0,
    });
    const jobs = createRecordingSender();
    const ctx = createTestJobContext(t.db, { env, jobs });
    const state = async () =>
      (await t.db.select().from(flowAutomations).where(eq(flowAutomations.flowId, wf.id)))[0]!;

    // Not connected yet: the flow says so, in words, with the fix.
    await fireDueFlows(ctx, minutes(1));
    expect((await state()).sourceError).toMatch(/Reconnect the mailbox/);

    // Connect: the sign-in page (auto-consent) sends the browser back with a code.
    const consent = new URL(
      await buildMailConsentUrl(t.db, env, { ...member, flowId: wf.id, provider: 'microsoft' }),
    );
    expect(consent.pathname).toBe('/tenant/oauth2/v2.0/authorize');
    expect(consent.searchParams.get('scope')).toContain('IMAP.AccessAsUser.All');
    expect(consent.searchParams.get('scope')).toContain('offline_access');
    const back = new URL((await fetch(consent, { redirect: 'manual' })).headers.get('location') ?? '');
    expect(back.pathname).toBe('/api/mail-oauth/callback');
    // A tampered state is refused.
    await expect(
      completeMailOAuth(t.db, env, {
        sessionUser: member.user,
        query: { code: back.searchParams.get('code') ?? '', state: `${back.searchParams.get('state')}x` },
      }),
    ).rejects.toThrow(/bad state/);
    const done = await completeMailOAuth(t.db, env, {
      sessionUser: member.user,
      query: { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' },
    });
    expect(done.flowId).toBe(wf.id);
    const [stored] = await t.db.select().from(mailOAuthTokens).where(eq(mailOAuthTokens.flowId, wf.id));
    // Encrypted at rest: no token the provider issued appears in the row.
    const [refresh] = [...provider.refreshTokens];
    expect(JSON.stringify(stored)).not.toContain(refresh);
    expect(stored!.refreshTokenEnc).toMatch(/^v1:/);

    // Mail arrives; the tick logs in with XOAUTH2 (Dovecot asked the introspection endpoint) and runs.
    await server.append(
      'INBOX',
      buildMessage({
        from: 'billing@vendor-one.example',
        subject: 'March invoice',
        parts: [
          { name: 'INV-OAUTH-1.pdf', type: 'application/pdf', bytes: await readFixture('invoice-040.pdf') },
        ],
      }),
    );
    provider.log.length = 0;
    // The back-off from the failure above has passed.
    expect(await fireDueFlows(ctx, minutes(30))).toContain(wf.id);
    expect(provider.log).toContain('POST introspect live');
    expect(provider.log.filter((l) => l.startsWith('POST token'))).toHaveLength(0);
    expect((await state()).sourceError).toBeNull();
    await runRecordedJobs(jobs, ctx);
    const uploads = await t.db.select().from(flowUploads).where(eq(flowUploads.flowId, wf.id));
    expect(uploads.map((u) => u.fileName)).toEqual(['INV-OAUTH-1.pdf']);
    expect((await t.db.select().from(runs).where(eq(runs.flowId, wf.id)))[0]!.status).toBe('succeeded');

    // The access token is about to expire: the next poll renews it first (refresh grant), then logs in.
    await t.db
      .update(mailOAuthTokens)
      .set({ accessTokenExpiresAt: new Date(Date.now() + 60_000) })
      .where(eq(mailOAuthTokens.flowId, wf.id));
    provider.expireAccessTokens();
    provider.log.length = 0;
    expect(await fireDueFlows(ctx, minutes(31))).not.toContain(wf.id);
    expect(provider.log).toEqual(['POST token refresh_token', 'POST introspect live']);
    expect((await state()).sourceError).toBeNull();

    // The user revokes Bahi's access: the refresh is refused, the flow says to reconnect, and backs off.
    provider.revokeAll();
    await t.db
      .update(mailOAuthTokens)
      .set({ accessTokenExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(mailOAuthTokens.flowId, wf.id));
    await fireDueFlows(ctx, minutes(32));
    let row = await state();
    expect(row.sourceError).toBe(
      'The Microsoft 365 sign-in for the mailbox clerk has expired or was revoked. Reconnect the mailbox: edit the flow and press "Connect with Microsoft 365".',
    );
    expect(row.failures).toBe(1);
    expect(row.retryAt!.getTime()).toBeGreaterThan(minutes(32).getTime());
    const [listed] = (await listWorkflows(t.db, member.membership)).filter((f) => f.id === wf.id);
    expect(listed!.sourceError).toMatch(/Reconnect the mailbox/);
    const bells = await t.db.select().from(notifications).where(eq(notifications.userId, member.user.id));
    expect(bells.some((n) => n.kind === 'flow.source.failed' && /Reconnect the mailbox/.test(n.body))).toBe(
      true,
    );
    // Backing off: within the wait nothing is tried; after it, the broken connection is not refreshed again
    // (the stored error answers at once), and the wait doubles.
    provider.log.length = 0;
    await fireDueFlows(ctx, minutes(32.5));
    await fireDueFlows(ctx, minutes(34));
    expect(provider.log.filter((l) => l.startsWith('POST token'))).toHaveLength(0);
    row = await state();
    expect(row.failures).toBe(2);

    // Reconnecting fixes it.
    const again = new URL(
      await buildMailConsentUrl(t.db, env, { ...member, flowId: wf.id, provider: 'microsoft' }),
    );
    const back2 = new URL((await fetch(again, { redirect: 'manual' })).headers.get('location') ?? '');
    await completeMailOAuth(t.db, env, {
      sessionUser: member.user,
      query: { code: back2.searchParams.get('code') ?? '', state: back2.searchParams.get('state') ?? '' },
    });
    await fireDueFlows(ctx, minutes(60));
    expect((await state()).sourceError).toBeNull();
  });

  it('refuses to start a sign-in for a provider the server does not configure', async () => {
    const wf = await createWorkflow(t.db, {
      env,
      ...member,
      input: {
        name: 'Gmail inbox',
        types: ['INVOICE'],
        io: {
          input: {
            kind: 'email',
            url: '',
            folderName: '',
            mail: { host: server.host, port: server.port, tls: false, user: server.user, auth: 'google' },
          },
          output: { kind: 'xlsx', sheetId: '', sheetName: '' },
        },
      },
    });
    await expect(
      buildMailConsentUrl(t.db, env, { ...member, flowId: wf.id, provider: 'google' }),
    ).rejects.toThrow(/not set up on this server.*GOOGLE_CLIENT_ID.*app password/);
  });
});
