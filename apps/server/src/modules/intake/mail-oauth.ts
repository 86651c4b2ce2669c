import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MailSource } from '@bahi/contracts';
import type { Env, MailOAuthProviderConfig } from '../../config/env.ts';
import { resolveAuthSecret } from '../../config/secret.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { UUID_RE } from '../../lib/ids.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { findFlow } from '../flows/flows.repo.ts';
import { decryptToken, encryptToken } from '../google/token-crypto.ts';
import {
  findMailOAuth,
  markMailOAuthBroken,
  saveMailOAuth,
  saveRefreshedAccessToken,
} from './mail-oauth.repo.ts';

// OAuth2 for e-mail (IMAP) sources: a flow's mailbox is connected by signing in at Google or Microsoft
// (the authorisation-code flow, `state` signed and expiring), the refresh token kept encrypted bound to the
// organisation, and an access token handed to the IMAP login (SASL XOAUTH2), refreshed a few minutes before
// it expires. A refresh token the provider no longer accepts (expired, revoked, password changed) is
// recorded, and the poll fails with "Reconnect the mailbox": the flow shows it and backs off.

/** Mail OAuth providers. */
export type MailOAuthProvider = 'google' | 'microsoft';

const PROVIDER_NAMES: Record<MailOAuthProvider, string> = { google: 'Google', microsoft: 'Microsoft 365' };
/** How long a sign-in may take between leaving Bahi and coming back. */
const STATE_TTL_MS = 10 * 60_000;
/** An access token this close to expiry is refreshed first (an IMAP session should not outlive it). */
const REFRESH_MARGIN_MS = 5 * 60_000;

const keys = new WeakMap<Env, Promise<{ token: Buffer; state: Buffer }>>();

/** Keys derived from the server secret, each with its own context: one seals tokens, one signs `state`. */
function loadKeys(env: Env): Promise<{ token: Buffer; state: Buffer }> {
  let found = keys.get(env);
  if (!found) {
    found = resolveAuthSecret(env).then((secret) => ({
      token: Buffer.from(hkdfSync('sha256', secret, 'bahi', 'mail-oauth-tokens/v1', 32)),
      state: Buffer.from(hkdfSync('sha256', secret, 'bahi', 'mail-oauth-state/v1', 32)),
    }));
    keys.set(env, found);
  }
  return found;
}

/** The provider's configuration, or a plain-words error naming what the operator must set. */
function requireProvider(env: Env, provider: MailOAuthProvider): MailOAuthProviderConfig {
  const config = env.mailOAuth[provider];
  if (!config) {
    const vars =
      provider === 'google'
        ? 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET'
        : 'MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET';
    const message = `Signing in to mailboxes with ${PROVIDER_NAMES[provider]} is not set up on this server (the administrator sets ${vars}); use an app password instead.`;
    throw new AppError('validation', message, { 'mail.auth': message });
  }
  return config;
}

function sign(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/**
 * `POST /api/flows/:id/mail-oauth`: the provider's sign-in page for the flow's mailbox. The `state` names
 * the organisation, flow, user and provider, signed and valid ten minutes.
 */
export async function buildMailConsentUrl(
  db: Db,
  env: Env,
  request: { user: SessionUser; membership: Membership; flowId: string; provider: MailOAuthProvider },
): Promise<string> {
  const config = requireProvider(env, request.provider);
  const flow = UUID_RE.test(request.flowId)
    ? await findFlow(db, request.membership.organizationId, request.flowId)
    : undefined;
  if (!flow) throw new AppError('not_found', 'No such flow');
  // A mailbox is what an e-mail source carries (the source registry alone switches on kinds).
  if (!flow.io.input.mail) {
    const message = 'Only a flow whose source is an e-mail mailbox can be connected this way';
    throw new AppError('validation', message, { 'mail.auth': message });
  }
  const payload = Buffer.from(
    JSON.stringify({
      o: flow.organizationId,
      f: flow.id,
      u: request.user.id,
      p: request.provider,
      n: randomBytes(8).toString('hex'),
      e: Date.now() + STATE_TTL_MS,
    }),
  ).toString('base64url');
  const url = new URL(config.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: env.mailOAuth.redirectUrl,
    response_type: 'code',
    scope: config.scopes.join(' '),
    // Google sends a refresh token only with offline access and consent; Microsoft with offline_access.
    access_type: 'offline',
    prompt: 'consent',
    login_hint: flow.io.input.mail?.user ?? '',
    state: `${payload}.${sign((await loadKeys(env)).state, payload)}`,
  }).toString();
  return url.toString();
}

interface MailState {
  o: string;
  f: string;
  u: string;
  p: MailOAuthProvider;
  e: number;
}

async function verifyState(env: Env, state: string | undefined): Promise<MailState> {
  const [payload, signature] = (state ?? '').split('.');
  const expected = payload ? sign((await loadKeys(env)).state, payload) : '';
  if (
    !payload ||
    !signature ||
    signature.length !== expected.length ||
    !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  )
    throw new AppError(
      'forbidden',
      'The sign-in answer was not for this server (bad state); connect the mailbox again',
    );
  const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as MailState;
  if (data.e < Date.now())
    throw new AppError('forbidden', 'The sign-in took too long; connect the mailbox again');
  return data;
}

interface TokenAnswer {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  error?: string;
  error_description?: string;
}

/** POSTs a grant to the provider's token endpoint; answers its JSON (an `error` on a refusal). */
async function requestToken(
  config: MailOAuthProviderConfig,
  grant: Record<string, string>,
): Promise<TokenAnswer> {
  let res: Response;
  try {
    res = await fetch(config.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ client_id: config.clientId, client_secret: config.clientSecret, ...grant }),
      signal: AbortSignal.timeout(20_000),
    });
  } catch {
    throw new AppError(
      'validation',
      'Bahi could not reach the sign-in service to open the mailbox; it will try again.',
    );
  }
  const body = (await res.json().catch(() => ({}))) as TokenAnswer;
  if (!res.ok && !body.error) body.error = `http_${res.status}`;
  return body;
}

/**
 * The sign-in callback (`GET /api/mail-oauth/callback`): exchanges the code and stores the tokens
 * encrypted on the flow's mailbox. Returns the flow to send the user back to.
 */
export async function completeMailOAuth(
  db: Db,
  env: Env,
  request: {
    sessionUser: SessionUser | null;
    query: { code?: string | undefined; state?: string | undefined; error?: string | undefined };
    now?: Date;
  },
): Promise<{ flowId: string }> {
  const state = await verifyState(env, request.query.state);
  if (request.query.error)
    throw new AppError(
      'forbidden',
      request.query.error === 'access_denied'
        ? 'Access to the mailbox was not granted'
        : `The sign-in service said: ${request.query.error}`,
    );
  if (request.sessionUser && request.sessionUser.id !== state.u)
    throw new AppError('forbidden', 'Signed in as a different user than the one who started connecting');
  if (!request.query.code)
    throw new AppError('validation', 'The sign-in service did not send an authorization code');
  const config = requireProvider(env, state.p);
  const answer = await requestToken(config, {
    grant_type: 'authorization_code',
    code: request.query.code,
    redirect_uri: env.mailOAuth.redirectUrl,
  });
  if (answer.error || !answer.access_token || !answer.refresh_token)
    throw new AppError(
      'validation',
      `${PROVIDER_NAMES[state.p]} did not grant offline access to the mailbox (${answer.error ?? 'no refresh token'}); connect it again`,
    );
  const key = (await loadKeys(env)).token;
  const now = request.now ?? new Date();
  await saveMailOAuth(db, {
    flowId: state.f,
    organizationId: state.o,
    provider: state.p,
    refreshTokenEnc: encryptToken(key, answer.refresh_token, state.o),
    accessTokenEnc: encryptToken(key, answer.access_token, state.o),
    accessTokenExpiresAt: new Date(now.getTime() + (answer.expires_in ?? 3600) * 1000),
    connectedByUserId: state.u,
  });
  return { flowId: state.f };
}

/** The words a flow shows when its mailbox's sign-in stopped working, with the fix. */
export function reconnectMessage(mail: Pick<MailSource, 'auth' | 'user'>): string {
  const name = mail.auth === 'microsoft' ? 'Microsoft 365' : 'Google';
  return `The ${name} sign-in for the mailbox ${mail.user} has expired or was revoked. Reconnect the mailbox: edit the flow and press "Connect with ${name}".`;
}

/**
 * A valid access token for the flow's OAuth2 mailbox: the stored one while it has more than five minutes
 * left, else a new one from the refresh token (stored encrypted, with a rotated refresh token when the
 * provider sends one). A refused refresh token is recorded and answered with "Reconnect the mailbox".
 */
export async function getMailAccessToken(
  db: Db,
  env: Env,
  source: { organizationId: string; flowId: string; mail: MailSource; now?: Date },
): Promise<string> {
  const now = source.now ?? new Date();
  const row = await findMailOAuth(db, source);
  const reconnect = reconnectMessage(source.mail);
  if (!row || row.error) throw new AppError('validation', reconnect, { mail: reconnect });
  const key = (await loadKeys(env)).token;
  if (
    row.accessTokenEnc &&
    row.accessTokenExpiresAt &&
    row.accessTokenExpiresAt.getTime() - now.getTime() > REFRESH_MARGIN_MS
  )
    return decryptToken(key, row.accessTokenEnc, row.organizationId);
  const config = requireProvider(env, row.provider as MailOAuthProvider);
  let refreshToken: string;
  try {
    refreshToken = decryptToken(key, row.refreshTokenEnc, row.organizationId);
  } catch {
    // The server secret changed: the stored token cannot be read, which only reconnecting fixes.
    await markMailOAuthBroken(db, source, 'unreadable');
    throw new AppError('validation', reconnect, { mail: reconnect });
  }
  const answer = await requestToken(config, { grant_type: 'refresh_token', refresh_token: refreshToken });
  if (answer.error === 'invalid_grant' || answer.error === 'unauthorized_client') {
    await markMailOAuthBroken(db, source, answer.error);
    throw new AppError('validation', reconnect, { mail: reconnect });
  }
  if (answer.error || !answer.access_token)
    throw new AppError(
      'validation',
      `The sign-in service did not renew the mailbox's access (${answer.error ?? 'no token'}); Bahi will try again.`,
    );
  await saveRefreshedAccessToken(db, source, {
    accessTokenEnc: encryptToken(key, answer.access_token, row.organizationId),
    accessTokenExpiresAt: new Date(now.getTime() + (answer.expires_in ?? 3600) * 1000),
    refreshTokenEnc: answer.refresh_token
      ? encryptToken(key, answer.refresh_token, row.organizationId)
      : undefined,
  });
  return answer.access_token;
}

/** Whether the flow's mailbox has a working OAuth2 connection (for the flow record). */
export async function isMailOAuthConnected(
  db: Db,
  scope: { organizationId: string; flowId: string },
): Promise<boolean> {
  const row = await findMailOAuth(db, scope);
  return Boolean(row && !row.error);
}
