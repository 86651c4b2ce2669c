import { setTimeout as sleep } from 'node:timers/promises';
import { drive, type drive_v3 } from '@googleapis/drive';
import { sheets, type sheets_v4 } from '@googleapis/sheets';
import { OAuth2Client } from 'google-auth-library';
import type { Env } from '../../config/env.ts';
import { AppError } from '../../lib/app-error.ts';

/** Scopes Bahi asks for: Drive read (folders in), Drive files it creates (a parent folder), Sheets (out). */
export const GOOGLE_CONNECTION_SCOPES = [
  'openid',
  'email',
  'https://www.googleapis.com/auth/drive.readonly',
  'https://www.googleapis.com/auth/drive.file',
  'https://www.googleapis.com/auth/spreadsheets',
];

/** The message every "reconnect Google" failure carries (the product's wording). */
export const GOOGLE_AUTH_REQUIRED_MESSAGE =
  'Google authorization required. Please authorize access to your Google account.';

/** Resolved endpoints: Google's own, or the overrides from GOOGLE_OAUTH_BASE_URL / GOOGLE_API_BASE_URL. */
export interface GoogleEndpoints {
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  userinfoUrl: string;
  driveRootUrl: string;
  sheetsRootUrl: string;
  redirectUrl: string;
}

/** The endpoints for this configuration. */
export function resolveGoogleEndpoints(env: Env): GoogleEndpoints {
  const oauth = env.googleApi.oauthBaseUrl;
  const api = env.googleApi.apiBaseUrl;
  return {
    authUrl: oauth ? `${oauth}/o/oauth2/v2/auth` : 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: oauth ? `${oauth}/token` : 'https://oauth2.googleapis.com/token',
    revokeUrl: oauth ? `${oauth}/revoke` : 'https://oauth2.googleapis.com/revoke',
    userinfoUrl: api ? `${api}/oauth2/v3/userinfo` : 'https://openidconnect.googleapis.com/v1/userinfo',
    // googleapis joins paths onto rootUrl with `new URL(path, rootUrl)`: it must end with a slash.
    driveRootUrl: api ? `${api}/` : 'https://www.googleapis.com/',
    sheetsRootUrl: api ? `${api}/` : 'https://sheets.googleapis.com/',
    redirectUrl: env.googleApi.redirectUrl ?? `${env.publicUrl}/api/oauth/callback`,
  };
}

/** True when the server has Google OAuth client credentials. */
export function isGoogleConfigured(env: Env): boolean {
  return env.google !== undefined;
}

/** A fresh OAuth2 client for this configuration (no credentials yet). */
export function createOAuthClient(env: Env): OAuth2Client {
  if (!env.google) {
    throw new AppError(
      'validation',
      'Google is not configured on this server. Set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET and restart Bahi.',
    );
  }
  const endpoints = resolveGoogleEndpoints(env);
  return new OAuth2Client({
    clientId: env.google.clientId,
    clientSecret: env.google.clientSecret,
    redirectUri: endpoints.redirectUrl,
    endpoints: {
      oauth2AuthBaseUrl: endpoints.authUrl,
      oauth2TokenUrl: endpoints.tokenUrl,
      oauth2RevokeUrl: endpoints.revokeUrl,
    },
  });
}

/** Drive v3 client on an authorised OAuth client. Retries are ours (`withGoogleRetry`), not gaxios'. */
export function createDriveClient(env: Env, auth: OAuth2Client): drive_v3.Drive {
  return drive({ version: 'v3', auth, rootUrl: resolveGoogleEndpoints(env).driveRootUrl, retry: false });
}

/** Sheets v4 client on an authorised OAuth client. */
export function createSheetsClient(env: Env, auth: OAuth2Client): sheets_v4.Sheets {
  return sheets({ version: 'v4', auth, rootUrl: resolveGoogleEndpoints(env).sheetsRootUrl, retry: false });
}

interface ErrorLike {
  status?: number;
  code?: string | number;
  message?: string;
  response?: { status?: number; headers?: unknown; data?: unknown };
}

/** HTTP status of a gaxios/google-auth-library error, if it has one. */
export function readErrorStatus(error: unknown): number | undefined {
  const e = error as ErrorLike;
  const status = e?.response?.status ?? e?.status ?? (typeof e?.code === 'number' ? e.code : undefined);
  return typeof status === 'number' ? status : undefined;
}

function readHeader(headers: unknown, name: string): string | null {
  if (!headers) return null;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const value = (headers as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : null;
}

/**
 * True when Google says the user must (re)authorise: the refresh token was revoked or expired
 * (`invalid_grant`), the access token is rejected (401), or a scope is missing (403 insufficient scopes).
 */
export function isAuthorizationFailure(error: unknown): boolean {
  const e = error as ErrorLike;
  const status = readErrorStatus(error);
  const text = `${e?.message ?? ''} ${JSON.stringify(e?.response?.data ?? '')}`;
  if (/invalid_grant|invalid_token|unauthorized_client/i.test(text)) return true;
  if (status === 401) return true;
  if (status === 403 && /insufficient|ACCESS_TOKEN_SCOPE_INSUFFICIENT|insufficientPermissions/i.test(text))
    return true;
  return false;
}

/** Options of `withGoogleRetry` (tests pass a fake sleep and a fixed random). */
export interface RetryOptions {
  maxAttempts?: number;
  /** Delay ceiling for one wait, ms. */
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<unknown>;
  random?: () => number;
  /**
   * Retry 5xx and dropped connections too (default true). False for requests not safe to repeat (deleting
   * rows by position): those failures may have been applied, so only 429 (rejected unapplied) and a refused
   * connection are retried and the caller re-checks before trying again.
   */
  retryServerErrors?: boolean;
  /** Called before each wait (logging, tests). */
  onRetry?: (info: { attempt: number; delayMs: number; status: number | undefined }) => void;
}

/** Wait before retry `attempt` (1-based): Retry-After when Google sends it, else exponential, plus jitter. */
export function computeRetryDelay({
  error,
  attempt,
  random,
  maxDelayMs,
}: {
  error: unknown;
  attempt: number;
  random: () => number;
  maxDelayMs: number;
}) {
  const retryAfter = readHeader((error as ErrorLike)?.response?.headers, 'retry-after');
  const seconds = retryAfter !== null ? Number(retryAfter) : Number.NaN;
  const base = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000 * 2 ** (attempt - 1);
  // Jitter spreads the retries of parallel runs so they do not hit the quota again in lock step.
  return Math.min(maxDelayMs, base + Math.floor(random() * 1000));
}

function isRetryable(error: unknown, serverErrors: boolean): boolean {
  const status = readErrorStatus(error);
  if (status === 429) return true;
  const code = String((error as ErrorLike)?.code ?? '');
  if (!serverErrors) return code === 'ECONNREFUSED';
  if (status !== undefined && status >= 500) return true;
  return /ECONNRESET|ETIMEDOUT|ECONNREFUSED|EPIPE|UND_ERR|ERR_STREAM_PREMATURE_CLOSE/.test(code);
}

/**
 * Runs a Google call, retrying 429 (quota: 60 writes per minute per user) and 5xx with backoff + jitter,
 * honouring Retry-After. Authorisation failures become `google_auth_required` at once: retrying cannot fix
 * them, only the user can.
 */
export async function withGoogleRetry<T>(call: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 8;
  const wait = options.sleep ?? sleep;
  const random = options.random ?? Math.random;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (isAuthorizationFailure(error))
        throw new AppError('google_auth_required', GOOGLE_AUTH_REQUIRED_MESSAGE);
      if (attempt >= maxAttempts || !isRetryable(error, options.retryServerErrors ?? true)) throw error;
      const delayMs = computeRetryDelay({ error, attempt, random, maxDelayMs: options.maxDelayMs ?? 65_000 });
      options.onRetry?.({ attempt, delayMs, status: readErrorStatus(error) });
      await wait(delayMs);
    }
  }
}
