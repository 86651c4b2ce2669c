import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  completeOnboarding,
  expectCount,
  expectText,
  getApiJson,
  type Page,
  reservePort,
  sampleOrg,
  screenshot,
  setupApp,
  waitForPath,
} from './support/harness.ts';
import { type RunningOidcProvider, startOidcProvider } from './support/oidc-provider.ts';

// One real identity provider on 127.0.0.1 serves two apps: one with local accounts and one without.
// It is registered twice per app, as a generic OIDC provider and as "Google" (GOOGLE_DISCOVERY_URL).
const meera = { email: 'meera@idp.example.in', password: 'idp-pass-1', name: 'Meera Iyer' };
const kabir = { email: 'kabir@idp.example.in', password: 'idp-pass-2', name: 'Kabir Shah' };
const noLocal = { email: 'nisha@idp.example.in', password: 'idp-pass-3', name: 'Nisha Rao' };
const oidcClient = { clientId: 'bahi-oidc', clientSecret: 'oidc-secret-for-tests-only' };
const googleClient = { clientId: 'bahi-google.apps.example', clientSecret: 'google-secret-for-tests-only' };

let idp: RunningOidcProvider;
let mainPort = 0;
let noLocalPort = 0;

beforeAll(async () => {
  mainPort = await reservePort();
  noLocalPort = await reservePort();
  // better-auth's OAuth callback is `${PUBLIC_URL}/api/auth/callback/<providerId>`.
  const callbacks = (providerId: string) =>
    [mainPort, noLocalPort].map((port) => `http://localhost:${port}/api/auth/callback/${providerId}`);
  idp = await startOidcProvider({
    clients: [
      { ...oidcClient, redirectUris: callbacks('oidc') },
      { ...googleClient, redirectUris: callbacks('google') },
    ],
    accounts: [meera, kabir, noLocal],
  });
});

afterAll(async () => {
  await idp?.close();
});

function identityEnv(): Record<string, string> {
  return {
    OIDC_DISCOVERY_URL: idp.discoveryUrl,
    OIDC_CLIENT_ID: oidcClient.clientId,
    OIDC_CLIENT_SECRET: oidcClient.clientSecret,
    OIDC_PROVIDER_NAME: 'Test IdP',
    GOOGLE_CLIENT_ID: googleClient.clientId,
    GOOGLE_CLIENT_SECRET: googleClient.clientSecret,
    GOOGLE_DISCOVERY_URL: idp.discoveryUrl,
  };
}

/**
 * Records every `message` event the opener receives (beside the app's own listener), so a failure can
 * tell "the popup never reported" from "the app ignored the report".
 */
async function recordMessages(page: Page): Promise<() => Promise<string>> {
  await page.evaluate(() => {
    const log: string[] = [];
    (window as unknown as { bahiMessages: string[] }).bahiMessages = log;
    window.addEventListener('message', (event) => log.push(JSON.stringify(event.data)));
  });
  return () => page.evaluate(() => (window as unknown as { bahiMessages: string[] }).bahiMessages.join('\n'));
}

/**
 * Clicks a provider button and completes the identity provider's login and consent in the popup it opens.
 * Returns once the popup has closed itself, after checking the server reported success to the opener.
 */
async function signInThroughPopup(
  page: Page,
  buttonName: string,
  account: { email: string; password: string },
  shotPrefix?: string,
): Promise<void> {
  const messages = await recordMessages(page);
  const popupPromise = page.context().waitForEvent('page');
  await page.getByRole('button', { name: buttonName }).click();
  const popup = await popupPromise;
  const closed = popup.waitForEvent('close', { timeout: 30_000 });

  // The popup went through /auth/popup/<id> to the provider's own login page.
  await popup.getByRole('heading', { name: 'Test IdP sign-in' }).waitFor();
  expect(new URL(popup.url()).origin).toBe(idp.issuer);
  if (shotPrefix) await screenshot(popup, `${shotPrefix}-popup-login`);
  await popup.getByLabel('Email').fill(account.email);
  await popup.getByLabel('Password').fill(account.password);
  await popup.getByRole('button', { name: 'Sign in' }).click();

  await popup.getByRole('heading', { name: 'Test IdP consent' }).waitFor();
  if (shotPrefix) await screenshot(popup, `${shotPrefix}-popup-consent`);
  await popup.getByRole('button', { name: 'Allow' }).click();
  await closed;
  // The popup reported success to this window; whatever happens next is the opener's job.
  await expect.poll(messages, { timeout: 5_000 }).toContain('{"type":"bahi-auth","ok":true}');
}

describe('with local accounts and two identity providers', () => {
  const app = setupApp(() => ({ port: mainPort, env: identityEnv() }));

  test('"Continue with Test IdP" signs a new user in through a popup, then onboarding', async () => {
    const page = await app.newPage();
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Continue with Test IdP' }).waitFor();
    await page.getByRole('button', { name: 'Sign up with Google' }).waitFor();
    await page.getByLabel('Email', { exact: true }).waitFor();
    await screenshot(page, 'oidc-signup-options');

    await signInThroughPopup(page, 'Continue with Test IdP', meera, 'oidc');

    // The opener hears the popup's message, refetches the session and lets the guard route a new user.
    await waitForPath(page, '/onboarding');
    await page.getByText('Set up your organisation, Meera').waitFor();
    const me = await getApiJson<{ user: { email: string; name: string } }>(page, '/api/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: meera.email, name: meera.name });
    await screenshot(page, 'oidc-after-popup-onboarding');
    expect(idp.logins).toContainEqual({ email: meera.email, ok: true });
  });

  test('a wrong password at the provider is refused there; the right one then signs in', async () => {
    const page = await app.newPage();
    await page.goto('/login');
    const popupPromise = page.context().waitForEvent('page');
    await page.getByRole('button', { name: 'Continue with Test IdP' }).click();
    const popup = await popupPromise;
    const closed = popup.waitForEvent('close', { timeout: 30_000 });
    await popup.getByLabel('Email').fill(kabir.email);
    await popup.getByLabel('Password').fill('wrong');
    await popup.getByRole('button', { name: 'Sign in' }).click();
    await expectText(popup.getByRole('alert'), 'Wrong email or password');
    // The main window is still signed out and waiting.
    expect(new URL(page.url()).pathname).toBe('/login');

    await popup.getByLabel('Password').fill(kabir.password);
    await popup.getByRole('button', { name: 'Sign in' }).click();
    await popup.getByRole('button', { name: 'Allow' }).click();
    await closed;
    await waitForPath(page, '/onboarding');
    await page.getByText('Set up your organisation, Kabir').waitFor();
  });

  test('"Continue with Google" uses the configured Google discovery; a returning user goes straight home', async () => {
    const page = await app.newPage();
    await page.goto('/login');
    await signInThroughPopup(page, 'Continue with Google', meera, 'google');
    // Same verified e-mail as the Test IdP account: linked to the same Bahi user, still without an org.
    await waitForPath(page, '/onboarding');
    await completeOnboarding(page, sampleOrg);
    await expectText(page.getByTestId('org-name'), sampleOrg.orgName);

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await waitForPath(page, '/login');
    // better-auth also answers sign-out with the provider's end-session URL (RP-initiated logout), which its
    // client navigates to; the app's own redirect to /login must be where the user stays.
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await page.waitForTimeout(1_000);
    await waitForPath(page, '/login');
    // The provider remembers the login and the consent, so the popup finishes without any form.
    const popupPromise = page.context().waitForEvent('page');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    const popup = await popupPromise;
    await popup.waitForEvent('close', { timeout: 30_000 });
    await waitForPath(page, '/');
    await expectText(page.getByTestId('org-name'), sampleOrg.orgName);
    await screenshot(page, 'google-returning-user-home');
  });
});

describe('with LOCAL_ACCOUNTS=false', () => {
  const app = setupApp(() => ({ port: noLocalPort, env: { ...identityEnv(), LOCAL_ACCOUNTS: 'false' } }));

  test('only the provider buttons are offered and e-mail sign-up is refused by the server', async () => {
    const page = await app.newPage();
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Continue with Test IdP' }).waitFor();
    await page.getByRole('button', { name: 'Sign up with Google' }).waitFor();
    await expectCount(page.getByLabel('Email', { exact: true }), 0);
    await expectCount(page.getByLabel('Password', { exact: true }), 0);
    await expectCount(page.getByRole('button', { name: 'Create account' }), 0);
    await expectCount(page.getByText('or continue with email'), 0);
    await screenshot(page, 'oidc-no-local-accounts-signup');
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Test IdP' }).waitFor();
    await expectCount(page.getByRole('button', { name: 'Sign in', exact: true }), 0);

    const config = await getApiJson<{
      localAccounts: boolean;
      providers: Array<{ id: string; name: string }>;
    }>(page, '/api/auth-config');
    expect(config.body).toEqual({
      localAccounts: false,
      providers: [
        { id: 'google', name: 'Google' },
        { id: 'oidc', name: 'Test IdP' },
      ],
    });

    // Even a hand-made request cannot create an e-mail account.
    const signUp = await page.context().request.post('/api/auth/sign-up/email', {
      data: { name: 'Sneaky', email: 'sneaky@example.in', password: 'long-enough-password' },
      headers: { origin: app.url },
    });
    expect(signUp.status()).toBeGreaterThanOrEqual(400);
    const me = await page.context().request.get('/api/me');
    expect(me.status()).toBe(401);

    // The provider still works.
    await signInThroughPopup(page, 'Continue with Test IdP', noLocal);
    await waitForPath(page, '/onboarding');
  });
});
