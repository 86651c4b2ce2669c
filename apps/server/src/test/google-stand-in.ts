import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local HTTP stand-in of the Google endpoints Bahi calls: OAuth consent/token/revoke, userinfo, Drive v3
// files.list / files.get (+alt=media) / files.create (folders), Sheets v4 spreadsheets.create / get /
// values.get / values.append / values.batchUpdate / batchUpdate (formats, addSheet, deleteDimension). It keeps real state (files, spreadsheets, tokens), checks
// bearer tokens and scopes like Google does, records every request, and injects faults on demand.

/** Scope names as Google spells them. */
export const GOOGLE_SCOPES = {
  driveReadonly: 'https://www.googleapis.com/auth/drive.readonly',
  driveFile: 'https://www.googleapis.com/auth/drive.file',
  sheets: 'https://www.googleapis.com/auth/spreadsheets',
} as const;

/** A request the stand-in received. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization: string | undefined;
}

/** A file in the stand-in's Drive. */
export interface StandInFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  content: Buffer;
  modifiedTime: string;
  trashed?: boolean;
}

/** A tab of a stand-in spreadsheet. */
export interface StandInSheet {
  sheetId: number;
  title: string;
  rows: string[][];
  frozenRowCount: number;
  hiddenColumns: number[];
  /** Number-format patterns applied by repeatCell, keyed by column index. */
  numberFormats: Record<number, string>;
}

/** A stand-in spreadsheet. */
export interface StandInSpreadsheet {
  spreadsheetId: string;
  title: string;
  sheets: StandInSheet[];
}

/** A fault to inject: the next `times` requests matching `method` + `path` get it instead of the answer. */
export interface Fault {
  method?: string;
  /** Matched against the request path (no query). */
  path: RegExp;
  kind: 'status' | 'drop' | 'page-loop';
  /** For kind 'status': 401, 403 (insufficient scope), 429, 500. */
  status?: number;
  /** For 429: Retry-After seconds. */
  retryAfter?: number;
  /** How many matching requests get the fault (default 1). */
  times?: number;
  /** Matching requests to let through before the fault starts (default 0). */
  skip?: number;
  /**
   * For kind 'status' on a spreadsheet write: carry the request out, then answer the error (a response lost
   * after Google applied it — what makes blind retries of non-idempotent requests dangerous).
   */
  afterApply?: boolean;
}

/** Options of the stand-in. */
export interface GoogleStandInOptions {
  clientId?: string;
  clientSecret?: string;
  /** Lifetime of issued access tokens (default 3600 s); short values exercise refresh. */
  accessTokenTtlSeconds?: number;
  /** Account the consent screen "signs in". */
  email?: string;
  /** Scopes the consent grants (default: everything asked for). */
  grantScopes?: string[];
  /** Rows per files.list page at most (default: pageSize, capped at 1000). */
  maxPageSize?: number;
}

interface TokenInfo {
  scopes: string[];
  expiresAt: number;
  refreshToken: string;
}

const FOLDER_MIME = 'application/vnd.google-apps.folder';
const SHEET_MIME = 'application/vnd.google-apps.spreadsheet';

/** The running stand-in. */
export interface GoogleStandIn {
  /** Base URL, e.g. `http://127.0.0.1:41234` (use for both GOOGLE_OAUTH_BASE_URL and GOOGLE_API_BASE_URL). */
  url: string;
  clientId: string;
  clientSecret: string;
  email: string;
  requests: RecordedRequest[];
  files: Map<string, StandInFile>;
  spreadsheets: Map<string, StandInSpreadsheet>;
  /** Refresh tokens issued and not revoked. */
  liveRefreshTokens: Set<string>;
  /** Adds a folder; returns its id. */
  addFolder(name: string, parent?: string): string;
  /** Adds a file; returns its id. */
  addFile(file: {
    name: string;
    mimeType: string;
    content: Buffer;
    parent: string;
    modifiedTime?: string;
  }): string;
  /** Injects a fault. */
  inject(fault: Fault): void;
  /** Drops every fault not yet used up. */
  clearFaults(): void;
  /** Revokes every token (as a user removing access in their Google account would). */
  revokeAll(): void;
  /** Makes every issued access token expired (refresh must happen). */
  expireAccessTokens(): void;
  /** Paths (method + path) the stand-in saw, in order. */
  listPaths(): string[];
  close(): Promise<void>;
}

function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('base64url')}`;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function sendJson(
  res: ServerResponse,
  { status, body, headers = {} }: { status: number; body: unknown; headers?: Record<string, string> },
) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** Google's API error body. */
function sendApiError(
  res: ServerResponse,
  {
    status,
    message,
    reason,
    extra = {},
  }: { status: number; message: string; reason: string; extra?: Record<string, string> },
) {
  const statusName: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    429: 'RESOURCE_EXHAUSTED',
    500: 'INTERNAL',
  };
  sendJson(res, {
    status,
    body: {
      error: {
        code: status,
        message,
        status: statusName[status] ?? 'UNKNOWN',
        errors: [{ reason, message }],
      },
    },
    headers: extra,
  });
}

/** Column letters (0 → A, 26 → AA). */
export function toColumnLetters(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

function fromColumnLetters(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/**
 * Parses `'Tab name'!A1:C` / `Tab!B:B` / `Tab!A5` / `Tab` into a tab title, a column range and the first
 * row (0-based; 0 when the range names whole columns).
 */
function parseRange(range: string): {
  title: string;
  startCol: number;
  endCol: number | null;
  startRow: number;
} {
  const bang = range.lastIndexOf('!');
  const rawTitle = bang >= 0 ? range.slice(0, bang) : range;
  const title = rawTitle.replace(/^'(.*)'$/, '$1').replace(/''/g, "'");
  const cells = bang >= 0 ? range.slice(bang + 1) : '';
  const m = /^([A-Z]+)(\d*)(?::([A-Z]+)\d*)?$/i.exec(cells);
  if (!m) return { title, startCol: 0, endCol: null, startRow: 0 };
  return {
    title,
    startCol: fromColumnLetters(m[1]!),
    endCol: m[3] ? fromColumnLetters(m[3]) : null,
    startRow: m[2] ? Number(m[2]) - 1 : 0,
  };
}

/** Writes `values` into a tab's grid from (row, col), growing it as needed (values.update semantics). */
function writeCells({
  sheet,
  startRow,
  startCol,
  values,
}: {
  sheet: StandInSheet;
  startRow: number;
  startCol: number;
  values: unknown[][];
}) {
  values.forEach((row, r) => {
    while (sheet.rows.length <= startRow + r) sheet.rows.push([]);
    const target = sheet.rows[startRow + r]!;
    row.forEach((v, c) => {
      while (target.length < startCol + c) target.push('');
      target[startCol + c] = v === null || v === undefined ? '' : String(v);
    });
  });
}

/** Starts the stand-in on a random loopback port. */
export async function startGoogleStandIn(options: GoogleStandInOptions = {}): Promise<GoogleStandIn> {
  const clientId = options.clientId ?? 'stand-in-client.apps.googleusercontent.com';
  const clientSecret = options.clientSecret ?? 'stand-in-secret';
  const email = options.email ?? 'finance@example.in';
  const ttl = options.accessTokenTtlSeconds ?? 3600;
  const requests: RecordedRequest[] = [];
  const files = new Map<string, StandInFile>();
  const spreadsheets = new Map<string, StandInSpreadsheet>();
  const codes = new Map<string, { scopes: string[]; redirectUri: string }>();
  const accessTokens = new Map<string, TokenInfo>();
  const liveRefreshTokens = new Set<string>();
  const refreshScopes = new Map<string, string[]>();
  const faults: Array<Fault & { left: number; toSkip: number }> = [];

  const issueAccessToken = (refreshToken: string, scopes: string[]) => {
    const token = newId('ya29.');
    accessTokens.set(token, { scopes, refreshToken, expiresAt: Date.now() + ttl * 1000 });
    return token;
  };

  const takeFault = (method: string, path: string) => {
    const fault = faults.find((f) => f.left > 0 && (!f.method || f.method === method) && f.path.test(path));
    if (!fault) return undefined;
    if (fault.toSkip > 0) {
      fault.toSkip--;
      return undefined;
    }
    fault.left--;
    return fault;
  };

  /** Bearer check as Google does it: missing/unknown/expired → 401; missing scope → 403. */
  const authorize = (req: IncomingMessage, res: ServerResponse, anyOf: string[]): boolean => {
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const info = accessTokens.get(token);
    if (!info || info.expiresAt <= Date.now() || !liveRefreshTokens.has(info.refreshToken)) {
      sendApiError(res, {
        status: 401,
        message: 'Request had invalid authentication credentials.',
        reason: 'authError',
        extra: {
          'www-authenticate': 'Bearer realm="https://accounts.google.com/"',
        },
      });
      return false;
    }
    if (anyOf.length > 0 && !anyOf.some((s) => info.scopes.includes(s))) {
      sendApiError(res, {
        status: 403,
        message: 'Request had insufficient authentication scopes.',
        reason: 'insufficientPermissions',
      });
      return false;
    }
    return true;
  };

  const driveRead = [GOOGLE_SCOPES.driveReadonly, GOOGLE_SCOPES.driveFile];
  const sheetsScope = [GOOGLE_SCOPES.sheets];

  const toDriveFile = (f: StandInFile, fields: string | undefined) => {
    const full: Record<string, unknown> = {
      kind: 'drive#file',
      id: f.id,
      name: f.name,
      mimeType: f.mimeType,
      parents: f.parents,
      modifiedTime: f.modifiedTime,
      trashed: Boolean(f.trashed),
    };
    if (f.mimeType !== FOLDER_MIME && f.mimeType !== SHEET_MIME) {
      full.size = String(f.content.length);
      full.md5Checksum = createHash('md5').update(f.content).digest('hex');
    }
    if (!fields || fields === '*') return full;
    // Honour a simple field mask like Google (`id,name` or `files(id,name)` inner list).
    const inner = /files\(([^)]*)\)/.exec(fields)?.[1] ?? fields;
    const wanted = new Set(inner.split(',').map((s) => s.trim()));
    return Object.fromEntries(Object.entries(full).filter(([k]) => wanted.has(k)));
  };

  const handleDriveList = (res: ServerResponse, query: Record<string, string>, loop: boolean) => {
    const q = query.q ?? '';
    const parent = /'([^']+)' in parents/.exec(q)?.[1];
    const notTrashed = /trashed\s*=\s*false/.test(q);
    const mimeEq = /mimeType\s*=\s*'([^']+)'/.exec(q)?.[1];
    let list = [...files.values()].filter(
      (f) =>
        (!parent || f.parents.includes(parent)) &&
        (!notTrashed || !f.trashed) &&
        (!mimeEq || f.mimeType === mimeEq),
    );
    list = list.sort((a, b) => a.id.localeCompare(b.id));
    const pageSize = Math.min(Number(query.pageSize ?? 100), options.maxPageSize ?? 1000);
    const start = query.pageToken ? Number(query.pageToken.replace(/^p/, '')) : 0;
    const page = list.slice(start, start + pageSize);
    const body: Record<string, unknown> = {
      kind: 'drive#fileList',
      files: page.map((f) => toDriveFile(f, query.fields)),
    };
    // A page-token loop: Google answering the same token again (seen in the wild on broken shared drives).
    if (loop) body.nextPageToken = query.pageToken ?? 'p0';
    else if (start + pageSize < list.length) body.nextPageToken = `p${start + pageSize}`;
    sendJson(res, { status: 200, body });
  };

  const getSheet = (ss: StandInSpreadsheet, title: string) => ss.sheets.find((s) => s.title === title);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const reqUrl = new URL(req.url ?? '/', 'http://stand-in');
    const method = req.method ?? 'GET';
    const path = decodeURIComponent(reqUrl.pathname);
    const query = Object.fromEntries(reqUrl.searchParams);
    const raw = await readBody(req);
    let body: unknown = raw.length ? raw.toString('utf8') : undefined;
    const type = req.headers['content-type'] ?? '';
    if (raw.length && type.includes('application/json')) body = JSON.parse(raw.toString('utf8'));
    if (raw.length && type.includes('application/x-www-form-urlencoded'))
      body = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
    requests.push({ method, path, query, body, authorization: req.headers.authorization });

    const fault = takeFault(method, path);
    const sendFault = (fault: Fault) => {
      const status = fault.status ?? 500;
      if (status === 401)
        return sendApiError(res, { status: 401, message: 'Invalid Credentials', reason: 'authError' });
      if (status === 403)
        return sendApiError(res, {
          status: 403,
          message: 'Request had insufficient authentication scopes.',
          reason: 'insufficientPermissions',
        });
      if (status === 429)
        return sendApiError(res, {
          status: 429,
          message: 'Quota exceeded for quota metric "Write requests"',
          reason: 'rateLimitExceeded',
          extra: {
            'retry-after': String(fault.retryAfter ?? 1),
          },
        });
      return sendApiError(res, { status, message: 'Internal error encountered.', reason: 'backendError' });
    };
    if (fault?.kind === 'status' && !fault.afterApply) return sendFault(fault);
    /** Answers a carried-out spreadsheet write: normally, or with the after-apply fault. */
    const sendWritten = (body: unknown) =>
      fault?.kind === 'status' && fault.afterApply ? sendFault(fault) : sendJson(res, { status: 200, body });

    // Discovery document, for Google sign-in (better-auth) pointed at the stand-in via GOOGLE_DISCOVERY_URL.
    if (method === 'GET' && path === '/.well-known/openid-configuration') {
      return sendJson(res, {
        status: 200,
        body: {
          issuer: url,
          authorization_endpoint: `${url}/o/oauth2/v2/auth`,
          token_endpoint: `${url}/token`,
          userinfo_endpoint: `${url}/oauth2/v3/userinfo`,
          revocation_endpoint: `${url}/revoke`,
          jwks_uri: `${url}/oauth2/v3/certs`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          scopes_supported: ['openid', 'email', 'profile'],
        },
      });
    }
    // OAuth consent: signs the configured account in at once and redirects back with a code.
    if (method === 'GET' && path === '/o/oauth2/v2/auth') {
      if (query.client_id !== clientId)
        return sendJson(res, { status: 400, body: { error: 'invalid_client' } });
      const redirect = new URL(query.redirect_uri ?? '');
      const asked = (query.scope ?? '').split(/\s+/).filter(Boolean);
      const scopes = options.grantScopes ?? asked;
      const code = newId('code-');
      codes.set(code, { scopes, redirectUri: query.redirect_uri ?? '' });
      redirect.searchParams.set('code', code);
      if (query.state) redirect.searchParams.set('state', query.state);
      redirect.searchParams.set('scope', scopes.join(' '));
      res.writeHead(302, { location: redirect.toString() });
      return res.end();
    }
    if (method === 'POST' && path === '/token') {
      const form = (body ?? {}) as Record<string, string>;
      if (form.client_id !== clientId || form.client_secret !== clientSecret)
        return sendJson(res, {
          status: 401,
          body: {
            error: 'invalid_client',
            error_description: 'The OAuth client was not found.',
          },
        });
      if (form.grant_type === 'authorization_code') {
        const grant = codes.get(form.code ?? '');
        codes.delete(form.code ?? '');
        if (!grant || grant.redirectUri !== form.redirect_uri)
          return sendJson(res, {
            status: 400,
            body: { error: 'invalid_grant', error_description: 'Bad Request' },
          });
        const refreshToken = newId('1//');
        liveRefreshTokens.add(refreshToken);
        refreshScopes.set(refreshToken, grant.scopes);
        return sendJson(res, {
          status: 200,
          body: {
            access_token: issueAccessToken(refreshToken, grant.scopes),
            refresh_token: refreshToken,
            expires_in: ttl,
            scope: grant.scopes.join(' '),
            token_type: 'Bearer',
          },
        });
      }
      if (form.grant_type === 'refresh_token') {
        const refreshToken = form.refresh_token ?? '';
        if (!liveRefreshTokens.has(refreshToken))
          return sendJson(res, {
            status: 400,
            body: {
              error: 'invalid_grant',
              error_description: 'Token has been expired or revoked.',
            },
          });
        const scopes = refreshScopes.get(refreshToken) ?? [];
        return sendJson(res, {
          status: 200,
          body: {
            access_token: issueAccessToken(refreshToken, scopes),
            expires_in: ttl,
            scope: scopes.join(' '),
            token_type: 'Bearer',
          },
        });
      }
      return sendJson(res, { status: 400, body: { error: 'unsupported_grant_type' } });
    }
    if (method === 'POST' && path === '/revoke') {
      const token = query.token ?? ((body ?? {}) as Record<string, string>).token ?? '';
      const refresh = liveRefreshTokens.has(token) ? token : accessTokens.get(token)?.refreshToken;
      if (!refresh) return sendJson(res, { status: 400, body: { error: 'invalid_token' } });
      liveRefreshTokens.delete(refresh);
      return sendJson(res, { status: 200, body: {} });
    }
    if (method === 'GET' && path === '/oauth2/v3/userinfo') {
      if (!authorize(req, res, [])) return;
      return sendJson(res, { status: 200, body: { sub: '1234567890', email, email_verified: true } });
    }

    // Drive v3.
    if (path === '/drive/v3/files' && method === 'GET') {
      if (!authorize(req, res, driveRead)) return;
      return handleDriveList(res, query, fault?.kind === 'page-loop');
    }
    if (path === '/drive/v3/files' && method === 'POST') {
      if (!authorize(req, res, [GOOGLE_SCOPES.driveFile])) return;
      const meta = (body ?? {}) as { name?: string; mimeType?: string; parents?: string[] };
      const id = newId('f');
      files.set(id, {
        id,
        name: meta.name ?? 'Untitled',
        mimeType: meta.mimeType ?? 'application/octet-stream',
        parents: meta.parents ?? ['root'],
        content: Buffer.alloc(0),
        modifiedTime: new Date().toISOString(),
      });
      return sendJson(res, { status: 200, body: toDriveFile(files.get(id)!, query.fields) });
    }
    const fileMatch = /^\/drive\/v3\/files\/([^/]+)$/.exec(path);
    if (fileMatch && method === 'GET') {
      if (!authorize(req, res, driveRead)) return;
      const file = files.get(fileMatch[1]!);
      if (!file || file.trashed)
        return sendApiError(res, {
          status: 404,
          message: `File not found: ${fileMatch[1]}.`,
          reason: 'notFound',
        });
      if (query.alt !== 'media') return sendJson(res, { status: 200, body: toDriveFile(file, query.fields) });
      if (fault?.kind === 'drop') {
        // Headers and half the bytes, then the connection dies.
        res.writeHead(200, { 'content-type': file.mimeType, 'content-length': String(file.content.length) });
        res.write(file.content.subarray(0, Math.floor(file.content.length / 2)));
        setTimeout(() => res.socket?.destroy(), 10);
        return;
      }
      res.writeHead(200, { 'content-type': file.mimeType, 'content-length': String(file.content.length) });
      return res.end(file.content);
    }

    // Sheets v4.
    if (path === '/v4/spreadsheets' && method === 'POST') {
      if (!authorize(req, res, sheetsScope)) return;
      const spec = (body ?? {}) as {
        properties?: { title?: string };
        sheets?: Array<{ properties?: { title?: string; gridProperties?: { frozenRowCount?: number } } }>;
      };
      const spreadsheetId = newId('s');
      const sheets = (spec.sheets?.length ? spec.sheets : [{ properties: { title: 'Sheet1' } }]).map(
        (s, i): StandInSheet => ({
          sheetId: i === 0 ? 0 : 1000 + i,
          title: s.properties?.title ?? `Sheet${i + 1}`,
          rows: [],
          frozenRowCount: s.properties?.gridProperties?.frozenRowCount ?? 0,
          hiddenColumns: [],
          numberFormats: {},
        }),
      );
      const title = spec.properties?.title ?? 'Untitled spreadsheet';
      spreadsheets.set(spreadsheetId, { spreadsheetId, title, sheets });
      files.set(spreadsheetId, {
        id: spreadsheetId,
        name: title,
        mimeType: SHEET_MIME,
        parents: ['root'],
        content: Buffer.alloc(0),
        modifiedTime: new Date().toISOString(),
      });
      return sendJson(res, { status: 200, body: describeSpreadsheet(spreadsheets.get(spreadsheetId)!) });
    }
    const ssMatch =
      /^\/v4\/spreadsheets\/([^/:]+)(?::batchUpdate|\/values:batchUpdate|\/values\/(.+?)(:append)?)?$/.exec(
        path,
      );
    if (ssMatch) {
      if (!authorize(req, res, sheetsScope)) return;
      const ss = spreadsheets.get(ssMatch[1]!);
      if (!ss)
        return sendApiError(res, {
          status: 404,
          message: 'Requested entity was not found.',
          reason: 'notFound',
        });
      if (path.endsWith('/values:batchUpdate') && method === 'POST') {
        const data = ((body ?? {}) as { data?: Array<{ range?: string; values?: unknown[][] }> }).data ?? [];
        // Like Google: every range is checked before anything is written (the request is atomic).
        const targets = data.map((d) => {
          const parsed = parseRange(d.range ?? '');
          return { parsed, sheet: getSheet(ss, parsed.title), values: d.values ?? [] };
        });
        const bad = targets.find((t) => !t.sheet);
        if (bad)
          return sendApiError(res, {
            status: 400,
            message: `Unable to parse range: ${bad.parsed.title}`,
            reason: 'badRequest',
          });
        for (const t of targets)
          writeCells({
            sheet: t.sheet!,
            startRow: t.parsed.startRow,
            startCol: t.parsed.startCol,
            values: t.values,
          });
        return sendWritten({
          spreadsheetId: ss.spreadsheetId,
          totalUpdatedRows: targets.reduce((n, t) => n + t.values.length, 0),
        });
      }
      if (path.endsWith(':batchUpdate') && method === 'POST') {
        const updates =
          ((body ?? {}) as { requests?: Array<Parameters<typeof applySheetUpdate>[1]> }).requests ?? [];
        // Validated first, applied all or nothing, as Google does with a batch.
        const problem = updates.map((u) => checkSheetUpdate(ss, u)).find(Boolean);
        if (problem) return sendApiError(res, { status: 400, message: problem, reason: 'badRequest' });
        for (const u of updates) applySheetUpdate(ss, u);
        return sendWritten({ spreadsheetId: ss.spreadsheetId, replies: updates.map(() => ({})) });
      }
      const range = ssMatch[2];
      if (!range) return sendJson(res, { status: 200, body: describeSpreadsheet(ss) });
      const parsed = parseRange(range);
      const sheet = getSheet(ss, parsed.title);
      if (!sheet)
        return sendApiError(res, {
          status: 400,
          message: `Unable to parse range: ${range}`,
          reason: 'badRequest',
        });
      if (ssMatch[3] && method === 'POST') {
        const values = ((body ?? {}) as { values?: unknown[][] }).values ?? [];
        // Appends go below the last row that holds anything (like Google's table detection).
        while (sheet.rows.length > 0 && sheet.rows[sheet.rows.length - 1]!.every((v) => v === ''))
          sheet.rows.pop();
        const start = sheet.rows.length;
        for (const row of values) {
          const out: string[] = [];
          row.forEach((v, i) => {
            out[parsed.startCol + i] = v === null || v === undefined ? '' : String(v);
          });
          sheet.rows.push(Array.from(out, (v) => v ?? ''));
        }
        return sendWritten({
          spreadsheetId: ss.spreadsheetId,
          updates: { updatedRange: `${sheet.title}!A${start + 1}`, updatedRows: values.length },
        });
      }
      if (method === 'GET') {
        const end = parsed.endCol ?? Number.MAX_SAFE_INTEGER;
        const values = sheet.rows.map((r) => r.slice(parsed.startCol, end + 1));
        while (values.length > 0 && values[values.length - 1]!.every((v) => v === '')) values.pop();
        if (query.majorDimension === 'COLUMNS') {
          const width = Math.max(0, ...values.map((r) => r.length));
          const columns = Array.from({ length: width }, (_, c) => values.map((r) => r[c] ?? ''));
          return sendJson(res, { status: 200, body: { range, majorDimension: 'COLUMNS', values: columns } });
        }
        return sendJson(res, { status: 200, body: { range, majorDimension: 'ROWS', values } });
      }
    }
    sendApiError(res, {
      status: 404,
      message: `The stand-in does not serve ${method} ${path}`,
      reason: 'notFound',
    });
  };

  let url = '';
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent)
        sendApiError(res, { status: 500, message: error.message, reason: 'backendError' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    clientId,
    clientSecret,
    email,
    requests,
    files,
    spreadsheets,
    liveRefreshTokens,
    addFolder(name, parent = 'root') {
      const id = newId('d');
      files.set(id, {
        id,
        name,
        mimeType: FOLDER_MIME,
        parents: [parent],
        content: Buffer.alloc(0),
        modifiedTime: new Date().toISOString(),
      });
      return id;
    },
    addFile(file) {
      const id = newId('f');
      files.set(id, {
        id,
        name: file.name,
        mimeType: file.mimeType,
        parents: [file.parent],
        content: file.content,
        modifiedTime: file.modifiedTime ?? new Date().toISOString(),
      });
      return id;
    },
    inject(fault) {
      faults.push({ ...fault, left: fault.times ?? 1, toSkip: fault.skip ?? 0 });
    },
    clearFaults() {
      faults.length = 0;
    },
    revokeAll() {
      liveRefreshTokens.clear();
    },
    expireAccessTokens() {
      for (const info of accessTokens.values()) info.expiresAt = 0;
    },
    listPaths() {
      return requests.map((r) => `${r.method} ${r.path}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function describeSpreadsheet(ss: StandInSpreadsheet) {
  return {
    spreadsheetId: ss.spreadsheetId,
    properties: { title: ss.title, locale: 'en_IN' },
    sheets: ss.sheets.map((s) => ({
      properties: {
        sheetId: s.sheetId,
        title: s.title,
        gridProperties: { frozenRowCount: s.frozenRowCount },
      },
    })),
    spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${ss.spreadsheetId}/edit`,
  };
}

/** Why Google would refuse one batchUpdate request, or null (checked before any request is applied). */
// biome-ignore lint/suspicious/noExplicitAny: batchUpdate requests are loosely typed JSON here.
function checkSheetUpdate(ss: StandInSpreadsheet, u: Record<string, any>): string | null {
  if (!u.deleteDimension) return null;
  const r = u.deleteDimension.range ?? {};
  const sheet = ss.sheets.find((s) => s.sheetId === (r.sheetId ?? 0));
  if (!sheet) return `No grid with id: ${r.sheetId}`;
  if (r.dimension !== 'ROWS') return 'The stand-in deletes rows only';
  const start = Number(r.startIndex ?? 0);
  const end = Number(r.endIndex ?? 0);
  if (!(start >= 0 && end > start)) return `Invalid range: ${start}-${end}`;
  return null;
}

// biome-ignore lint/suspicious/noExplicitAny: batchUpdate requests are loosely typed JSON here.
function applySheetUpdate(ss: StandInSpreadsheet, u: Record<string, any>) {
  const byId = (id: number | undefined) => ss.sheets.find((s) => s.sheetId === (id ?? 0));
  if (u.updateSheetProperties) {
    const sheet = byId(u.updateSheetProperties.properties?.sheetId);
    const frozen = u.updateSheetProperties.properties?.gridProperties?.frozenRowCount;
    if (sheet && typeof frozen === 'number') sheet.frozenRowCount = frozen;
  }
  if (u.updateDimensionProperties) {
    const r = u.updateDimensionProperties.range ?? {};
    const sheet = byId(r.sheetId);
    const hidden = u.updateDimensionProperties.properties?.hiddenByUser;
    if (sheet && r.dimension === 'COLUMNS' && hidden) {
      for (let c = r.startIndex ?? 0; c < (r.endIndex ?? 0); c++) sheet.hiddenColumns.push(c);
    } else if (sheet && r.dimension === 'COLUMNS' && hidden === false) {
      const shown = (c: number) => c >= (r.startIndex ?? 0) && c < (r.endIndex ?? 0);
      sheet.hiddenColumns = sheet.hiddenColumns.filter((c) => !shown(c));
    }
  }
  if (u.repeatCell) {
    const r = u.repeatCell.range ?? {};
    const sheet = byId(r.sheetId);
    const pattern = u.repeatCell.cell?.userEnteredFormat?.numberFormat?.pattern;
    if (sheet && pattern) {
      for (let c = r.startColumnIndex ?? 0; c < (r.endColumnIndex ?? 0); c++)
        sheet.numberFormats[c] = pattern;
    }
  }
  if (u.deleteDimension) {
    const r = u.deleteDimension.range ?? {};
    const sheet = byId(r.sheetId);
    // Rows past the grid's end are a no-op, as Google's grid is larger than the rows holding values.
    if (sheet) sheet.rows.splice(Number(r.startIndex), Number(r.endIndex) - Number(r.startIndex));
  }
  if (u.addSheet) {
    ss.sheets.push({
      sheetId: 2000 + ss.sheets.length,
      title: u.addSheet.properties?.title ?? `Sheet${ss.sheets.length + 1}`,
      rows: [],
      frozenRowCount: 0,
      hiddenColumns: [],
      numberFormats: {},
    });
  }
}

/**
 * Makes any `fetch` to a host other than loopback fail (and remembers it), so a test proves the code under
 * test never reaches the real Google. Returns the list of refused URLs and a restore function.
 */
export function installLoopbackGuard(): { refused: string[]; restore: () => void } {
  const original = globalThis.fetch;
  const refused: string[] = [];
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const host = new URL(href).hostname;
    if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host)) {
      refused.push(href);
      throw new Error(`Outbound request refused in tests: ${href}`);
    }
    return original(input, init);
  };
  return { refused, restore: () => (globalThis.fetch = original) };
}

/**
 * Authorises against the stand-in the way the popup does (consent → code → token exchange) and returns the
 * token set, for adapter tests that need a signed-in Google client without the whole server.
 */
export async function authorizeStandIn(
  google: GoogleStandIn,
  scopes: string[] = Object.values(GOOGLE_SCOPES),
): Promise<{ accessToken: string; refreshToken: string }> {
  const redirectUri = 'http://127.0.0.1/callback';
  const consent = new URL(`${google.url}/o/oauth2/v2/auth`);
  consent.searchParams.set('client_id', google.clientId);
  consent.searchParams.set('redirect_uri', redirectUri);
  consent.searchParams.set('scope', scopes.join(' '));
  const answer = await fetch(consent, { redirect: 'manual' });
  const code = new URL(answer.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const token = await fetch(`${google.url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: google.clientId,
      client_secret: google.clientSecret,
    }),
  });
  const body = (await token.json()) as { access_token: string; refresh_token: string };
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}
