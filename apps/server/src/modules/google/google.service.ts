import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { flowMessages } from '@bahi/contracts';
import type { drive_v3 } from '@googleapis/drive';
import type { sheets_v4 } from '@googleapis/sheets';
import type { OAuth2Client } from 'google-auth-library';
import { parseDriveLink } from '../../adapters/sources/google-drive-link.ts';
import type { Env } from '../../config/env.ts';
import { resolveAuthSecret } from '../../config/secret.ts';
import type { Db } from '../../db/client.ts';
import { AppError, createValidationError } from '../../lib/app-error.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { clearDriveCache } from './drive-cache.ts';
import {
  clearTokens,
  deleteConnection,
  findConnection,
  type GoogleConnectionRow,
  updateAccessToken,
  updateEmail,
  updateSetup,
  upsertTokens,
} from './google.repo.ts';
import {
  createDriveClient,
  createOAuthClient,
  createSheetsClient,
  GOOGLE_AUTH_REQUIRED_MESSAGE,
  GOOGLE_CONNECTION_SCOPES,
  isAuthorizationFailure,
  isGoogleConfigured,
  type RetryOptions,
  resolveGoogleEndpoints,
  withGoogleRetry,
} from './google-api.ts';
import { decryptToken, deriveTokenKey, encryptToken, type TokenKey } from './token-crypto.ts';

const STATE_TTL_MS = 10 * 60 * 1000;
const FOLDER_MIME = 'application/vnd.google-apps.folder';

/** The Google card's state (the `/api/integrations` shape plus the set-up). */
export interface GoogleStatus {
  configured: boolean;
  connected: boolean;
  email: string | null;
  scopes: string[];
  /** Scopes Bahi needs that the grant lacks (consent was partial): reconnecting asks for them again. */
  missingScopes: string[];
  note: string;
  parentFolder: { id: string; name: string; url: string } | null;
  vendorSheet: { id: string; name: string; url: string } | null;
}

const keys = new WeakMap<Env, Promise<{ token: TokenKey; state: Buffer }>>();

/** Keys derived from the server secret: one encrypts tokens, one signs OAuth `state`. */
function loadKeys(env: Env): Promise<{ token: TokenKey; state: Buffer }> {
  let pending = keys.get(env);
  if (!pending) {
    pending = resolveAuthSecret(env).then((secret) => ({
      token: deriveTokenKey(secret),
      state: Buffer.from(hkdfSync('sha256', secret, 'bahi', 'google-oauth-state/v1', 32)),
    }));
    keys.set(env, pending);
  }
  return pending;
}

function driveFolderUrl(id: string): string {
  return `https://drive.google.com/drive/folders/${id}`;
}

/** Link of a Google spreadsheet. */
export function getSpreadsheetUrl(id: string): string {
  return `https://docs.google.com/spreadsheets/d/${id}/edit`;
}

/** True when the row holds a usable refresh token. */
function hasTokens(
  row: GoogleConnectionRow | undefined,
): row is GoogleConnectionRow & { refreshTokenEnc: string } {
  return Boolean(row?.refreshTokenEnc);
}

/** The Google card's state for an organisation. */
export async function getGoogleStatus(
  db: Db,
  env: Env,
  organizationId: string | null,
): Promise<GoogleStatus> {
  const configured = isGoogleConfigured(env);
  const row = organizationId ? await findConnection(db, organizationId) : undefined;
  const connected = configured && hasTokens(row);
  const granted = connected ? (row?.scopes ?? '').split(' ').filter(Boolean) : [];
  const missingScopes = connected
    ? GOOGLE_CONNECTION_SCOPES.filter((s) => s.startsWith('https://') && !granted.includes(s))
    : [];
  const note = !configured
    ? 'Google is not configured on this server. Create an OAuth client of type "Web application" in Google Cloud ' +
      `console, add the redirect URI ${resolveGoogleEndpoints(env).redirectUrl}, set GOOGLE_CLIENT_ID and ` +
      'GOOGLE_CLIENT_SECRET and restart Bahi. Local folders, uploads and workbooks work without it.'
    : connected
      ? 'Flows of your organization read Drive folders and write Google Sheets with this account. Disconnect revokes its access.'
      : 'Connect your Google account so flows can read Drive folders and write Google Sheets.';
  return {
    configured,
    connected,
    email: connected ? (row?.email ?? null) : null,
    scopes: granted,
    missingScopes,
    note,
    parentFolder:
      connected && row?.parentFolderId
        ? {
            id: row.parentFolderId,
            name: row.parentFolderName ?? '',
            url: driveFolderUrl(row.parentFolderId),
          }
        : null,
    vendorSheet:
      connected && row?.vendorSheetId
        ? {
            id: row.vendorSheetId,
            name: row.vendorSheetName ?? '',
            url: getSpreadsheetUrl(row.vendorSheetId),
          }
        : null,
  };
}

function signState(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/**
 * The consent URL for connecting Google: offline access (a refresh token), incremental scopes, and a
 * signed, expiring `state` naming the organisation and the user so the callback cannot be replayed into
 * another account.
 */
export async function buildConsentUrl(env: Env, user: SessionUser, membership: Membership): Promise<string> {
  const client = createOAuthClient(env);
  const { state: key } = await loadKeys(env);
  const payload = Buffer.from(
    JSON.stringify({
      o: membership.organizationId,
      u: user.id,
      n: randomBytes(8).toString('hex'),
      e: Date.now() + STATE_TTL_MS,
    }),
  ).toString('base64url');
  return client.generateAuthUrl({
    access_type: 'offline',
    // Google sends a refresh token only with consent; asking every time keeps reconnects working.
    prompt: 'consent',
    include_granted_scopes: true,
    scope: GOOGLE_CONNECTION_SCOPES,
    state: `${payload}.${signState(key, payload)}`,
  });
}

/** Checks the callback's `state` and returns who asked for the connection. */
async function verifyState(
  env: Env,
  state: string | undefined,
): Promise<{ organizationId: string; userId: string }> {
  const { state: key } = await loadKeys(env);
  const [payload, signature] = (state ?? '').split('.');
  const expected = payload ? signState(key, payload) : '';
  if (
    !payload ||
    !signature ||
    signature.length !== expected.length ||
    !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  )
    throw new AppError('forbidden', 'The Google sign-in answer was not for this server (bad state)');
  const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
    o: string;
    u: string;
    e: number;
  };
  if (data.e < Date.now()) throw new AppError('forbidden', 'The Google sign-in took too long; try again');
  return { organizationId: data.o, userId: data.u };
}

/** Reads the account e-mail with a fresh access token (userinfo). */
async function fetchEmail(env: Env, client: OAuth2Client): Promise<string | null> {
  const res = await client.request<{ email?: string }>({ url: resolveGoogleEndpoints(env).userinfoUrl });
  return res.data.email ?? null;
}

/**
 * The OAuth callback: exchanges the code, reads the account e-mail and stores the tokens encrypted. A
 * reconnect without a new refresh token keeps the stored one. Scopes add up (incremental consent).
 */
export async function completeOAuth(
  db: Db,
  {
    env,
    sessionUser,
    query,
  }: {
    env: Env;
    sessionUser: SessionUser | null;
    query: { code?: string | undefined; state?: string | undefined; error?: string | undefined };
  },
): Promise<void> {
  if (query.error) {
    throw new AppError(
      'forbidden',
      query.error === 'access_denied' ? 'Access was not granted' : `Google said: ${query.error}`,
    );
  }
  const { organizationId, userId } = await verifyState(env, query.state);
  if (sessionUser && sessionUser.id !== userId)
    throw new AppError('forbidden', 'Signed in as a different user than the one who started connecting');
  if (!query.code) throw new AppError('validation', 'Google did not send an authorization code');
  const client = createOAuthClient(env);
  const { tokens } = await client.getToken(query.code);
  client.setCredentials(tokens);
  const existing = await findConnection(db, organizationId);
  const { token: key } = await loadKeys(env);
  const refreshEnc = tokens.refresh_token
    ? encryptToken(key, tokens.refresh_token, organizationId)
    : (existing?.refreshTokenEnc ?? null);
  if (!refreshEnc)
    throw new AppError('validation', 'Google did not grant offline access; try connecting again');
  const scopes = new Set([
    ...(existing?.refreshTokenEnc ? (existing.scopes ?? '').split(' ') : []),
    ...(tokens.scope ?? '').split(' '),
  ]);
  scopes.delete('');
  await upsertTokens(db, {
    organizationId,
    connectedByUserId: userId,
    email: await fetchEmail(env, client),
    scopes: [...scopes].join(' '),
    refreshTokenEnc: refreshEnc,
    accessTokenEnc: tokens.access_token ? encryptToken(key, tokens.access_token, organizationId) : null,
    accessTokenExpiresAt: tokens.expiry_date ? new Date(tokens.expiry_date) : null,
  });
}

/** An authorised Google session for one organisation: clients plus a guarded call. */
export interface GoogleSession {
  auth: OAuth2Client;
  drive: drive_v3.Drive;
  sheets: sheets_v4.Sheets;
  /** Runs a Google call with retries; a revoked grant clears the stored tokens and asks to reconnect. */
  call<T>(fn: () => Promise<T>, options?: RetryOptions): Promise<T>;
}

/**
 * Opens the organisation's Google session. The OAuth client refreshes an expired access token by itself;
 * the new token is stored (encrypted) as it arrives. No connection → `google_auth_required`.
 */
export async function openGoogleSession(db: Db, env: Env, organizationId: string): Promise<GoogleSession> {
  if (!isGoogleConfigured(env)) throw new AppError('google_auth_required', GOOGLE_AUTH_REQUIRED_MESSAGE);
  const row = await findConnection(db, organizationId);
  if (!hasTokens(row)) throw new AppError('google_auth_required', GOOGLE_AUTH_REQUIRED_MESSAGE);
  const { token: key } = await loadKeys(env);
  const auth = createOAuthClient(env);
  let refreshToken: string;
  try {
    refreshToken = decryptToken(key, row.refreshTokenEnc, organizationId);
  } catch {
    // A changed server secret makes stored tokens unreadable: the user has to connect again.
    await clearTokens(db, organizationId);
    throw new AppError('google_auth_required', GOOGLE_AUTH_REQUIRED_MESSAGE);
  }
  let accessToken: string | undefined;
  if (row.accessTokenEnc) {
    try {
      accessToken = decryptToken(key, row.accessTokenEnc, organizationId);
    } catch {
      accessToken = undefined;
    }
  }
  auth.setCredentials({
    refresh_token: refreshToken,
    access_token: accessToken ?? null,
    expiry_date: row.accessTokenExpiresAt?.getTime() ?? null,
  });
  auth.on('tokens', (tokens) => {
    if (!tokens.access_token) return;
    const expiresAt = tokens.expiry_date ? new Date(tokens.expiry_date) : null;
    updateAccessToken(db, {
      organizationId,
      accessTokenEnc: encryptToken(key, tokens.access_token, organizationId),
      expiresAt,
    }).catch(() => {});
  });
  return {
    auth,
    drive: createDriveClient(env, auth),
    sheets: createSheetsClient(env, auth),
    async call(fn, options) {
      try {
        return await withGoogleRetry(fn, options);
      } catch (error) {
        if (error instanceof AppError && error.code === 'google_auth_required') {
          await forgetRevokedGrant(db, auth, organizationId);
        }
        throw error;
      }
    },
  };
}

/**
 * After an authorisation failure: when the refresh token itself no longer works (revoked, expired), the
 * stored tokens are cleared so the card shows Disconnected; a missing scope keeps the connection.
 */
async function forgetRevokedGrant(db: Db, auth: OAuth2Client, organizationId: string) {
  try {
    auth.setCredentials({ ...auth.credentials, access_token: null, expiry_date: null });
    await auth.getAccessToken();
  } catch (error) {
    if (isAuthorizationFailure(error)) await clearTokens(db, organizationId);
  }
}

/**
 * Throws `google_auth_required` unless the organisation has a Google connection (flows check this), or a
 * plain validation error when this server has no Google client at all.
 */
export async function requireGoogleConnected(db: Db, env: Env, organizationId: string): Promise<void> {
  // Without a Google client nobody can authorise: say so, rather than asking for an authorisation that cannot happen.
  if (!isGoogleConfigured(env)) throw new AppError('validation', flowMessages.googleNotConfigured);
  const row = await findConnection(db, organizationId);
  if (!hasTokens(row)) throw new AppError('google_auth_required', GOOGLE_AUTH_REQUIRED_MESSAGE);
}

/** `Refresh`: checks the connection for real (a token refresh + userinfo) and updates the e-mail. */
export async function verifyGoogleConnection(
  db: Db,
  env: Env,
  organizationId: string,
): Promise<GoogleStatus> {
  const session = await openGoogleSession(db, env, organizationId);
  session.auth.setCredentials({ ...session.auth.credentials, access_token: null, expiry_date: null });
  const email = await session.call(() => fetchEmail(env, session.auth), { maxAttempts: 2 });
  if (email) await updateEmail(db, organizationId, email);
  return getGoogleStatus(db, env, organizationId);
}

/**
 * Disconnect: revokes the grant at Google, then removes the connection with its folder and sheet set-up
 * and the organisation's downloaded Drive files.
 * A grant Google already forgot (400 invalid_token) counts as revoked; any other revoke failure is
 * reported and nothing is removed, so the user can try again rather than leave a live grant behind.
 */
export async function disconnectGoogle(db: Db, env: Env, organizationId: string): Promise<GoogleStatus> {
  const row = await findConnection(db, organizationId);
  if (row?.refreshTokenEnc && isGoogleConfigured(env)) {
    const { token: key } = await loadKeys(env);
    let refreshToken: string | null = null;
    try {
      refreshToken = decryptToken(key, row.refreshTokenEnc, organizationId);
    } catch {
      refreshToken = null;
    }
    if (refreshToken) {
      try {
        await createOAuthClient(env).revokeToken(refreshToken);
      } catch (error) {
        const status = (error as { response?: { status?: number } }).response?.status;
        if (status !== 400)
          throw new AppError('internal', 'Google did not confirm the disconnect; try again');
      }
    }
  }
  await deleteConnection(db, organizationId);
  // Bahi keeps no copy of the organisation's Drive files once it may no longer read them.
  await clearDriveCache(env, organizationId);
  return getGoogleStatus(db, env, organizationId);
}

/** A folder or spreadsheet chosen or created on the Integrations page. */
export interface GoogleSetupItem {
  id: string;
  name: string;
  url: string;
  created: boolean;
}

/** Parent folder: the folder behind a Drive link (checked), or a new "Bahi" folder when no link is given. */
export async function setupParentFolder(
  db: Db,
  {
    env,
    organizationId,
    input,
  }: { env: Env; organizationId: string; input: { url?: string | undefined; name?: string | undefined } },
): Promise<GoogleSetupItem> {
  const session = await openGoogleSession(db, env, organizationId);
  let item: GoogleSetupItem;
  if (input.url?.trim()) {
    const link = parseDriveLink(input.url);
    if (link.kind !== 'folder')
      throw createValidationError({ url: 'This is a file link; paste a folder link' });
    const res = await session.call(() =>
      session.drive.files.get({ fileId: link.id, fields: 'id,name,mimeType', supportsAllDrives: true }),
    );
    if (res.data.mimeType !== FOLDER_MIME) throw createValidationError({ url: 'This link is not a folder' });
    item = { id: link.id, name: res.data.name ?? '', url: driveFolderUrl(link.id), created: false };
  } else {
    const name = input.name?.trim() || 'Bahi';
    const res = await session.call(() =>
      session.drive.files.create({ requestBody: { name, mimeType: FOLDER_MIME }, fields: 'id,name' }),
    );
    const id = res.data.id ?? '';
    item = { id, name: res.data.name ?? name, url: driveFolderUrl(id), created: true };
  }
  await updateSetup(db, organizationId, { parentFolderId: item.id, parentFolderName: item.name });
  return item;
}

/** Spreadsheet id from a Sheets link (`/spreadsheets/d/{id}`). */
export function parseSpreadsheetLink(url: string): string {
  const invalid = () =>
    createValidationError({ url: 'Paste a Google Sheets link (docs.google.com/spreadsheets/d/…)' });
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw invalid();
  }
  const id = /\/spreadsheets\/d\/([A-Za-z0-9_-]{10,})/.exec(parsed.pathname)?.[1];
  if (parsed.protocol !== 'https:' || parsed.hostname !== 'docs.google.com' || !id) throw invalid();
  return id;
}

/** Columns of the vendor master sheet Bahi creates. */
export const VENDOR_MASTER_COLUMNS = [
  'Vendor name',
  'GSTIN',
  'PAN',
  'State',
  'Address',
  'Contact e-mail',
  'Phone',
  'MSME (Udyam) number',
  'Bank account',
  'IFSC',
];

/** Vendor master sheet: the spreadsheet behind a link (checked), or a new one with the vendor columns. */
export async function setupVendorSheet(
  db: Db,
  {
    env,
    organizationId,
    input,
  }: { env: Env; organizationId: string; input: { url?: string | undefined; name?: string | undefined } },
): Promise<GoogleSetupItem> {
  const session = await openGoogleSession(db, env, organizationId);
  let item: GoogleSetupItem;
  if (input.url?.trim()) {
    const id = parseSpreadsheetLink(input.url);
    const res = await session.call(() =>
      session.sheets.spreadsheets.get({ spreadsheetId: id, fields: 'spreadsheetId,properties.title' }),
    );
    item = { id, name: res.data.properties?.title ?? '', url: getSpreadsheetUrl(id), created: false };
  } else {
    const title = input.name?.trim() || 'Bahi vendor master';
    const res = await session.call(() =>
      session.sheets.spreadsheets.create({
        requestBody: {
          properties: { title, locale: 'en_IN' },
          sheets: [{ properties: { title: 'Vendors', gridProperties: { frozenRowCount: 1 } } }],
        },
      }),
    );
    const id = res.data.spreadsheetId ?? '';
    await session.call(() =>
      session.sheets.spreadsheets.values.append({
        spreadsheetId: id,
        range: "'Vendors'!A1",
        valueInputOption: 'RAW',
        insertDataOption: 'INSERT_ROWS',
        requestBody: { values: [VENDOR_MASTER_COLUMNS] },
      }),
    );
    item = { id, name: title, url: getSpreadsheetUrl(id), created: true };
  }
  await updateSetup(db, organizationId, { vendorSheetId: item.id, vendorSheetName: item.name });
  return item;
}
