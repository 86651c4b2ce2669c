import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_OCR_PROVIDER, OCR_PROVIDERS, type OcrProviderName } from '@bahi/engine';
import { z } from 'zod';

/** Repository root (apps/server/src/config → ../../../..), the base for relative DATA_DIR values. */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Accepts the spellings people actually put in .env files for booleans. */
const booleanFlag = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' }))
  .transform((value) => ['true', '1', 'yes', 'on'].includes(value));

/** Blank numbers mean "use the default", not 0 (which is what coercing '' gives). */
function emptyToUndefined(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

/** Treats empty strings as unset, because `FOO=` in a shell means "no value". */
function optionalText() {
  return z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined));
}

function optionalUrl() {
  return optionalText().pipe(z.url({ error: 'must be an absolute URL' }).optional());
}

const rawEnvSchema = z.object({
  PORT: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(0, 'must be between 0 and 65535')
      .max(65535, 'must be between 0 and 65535')
      .default(3000),
  ),
  HOST: optionalText(),
  DATA_DIR: optionalText(),
  DATABASE_URL: optionalText().pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  PUBLIC_URL: optionalUrl(),
  TRUSTED_ORIGINS: optionalText(),
  BETTER_AUTH_SECRET: optionalText().pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  LOCAL_ACCOUNTS: optionalText().pipe(booleanFlag.optional()),
  GOOGLE_CLIENT_ID: optionalText(),
  GOOGLE_CLIENT_SECRET: optionalText(),
  GOOGLE_DISCOVERY_URL: optionalUrl(),
  GOOGLE_REDIRECT_URL: optionalUrl(),
  GOOGLE_OAUTH_BASE_URL: optionalUrl(),
  GOOGLE_API_BASE_URL: optionalUrl(),
  ZOHO_API_BASE_URL: optionalUrl(),
  ZOHO_ACCOUNTS_URL: optionalUrl(),
  MICROSOFT_CLIENT_ID: optionalText(),
  MICROSOFT_CLIENT_SECRET: optionalText(),
  MICROSOFT_OAUTH_BASE_URL: optionalUrl(),
  OIDC_DISCOVERY_URL: optionalUrl(),
  OIDC_CLIENT_ID: optionalText(),
  OIDC_CLIENT_SECRET: optionalText(),
  OIDC_PROVIDER_ID: optionalText().pipe(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be lower-case letters, digits, - or _')
      .optional(),
  ),
  OIDC_PROVIDER_NAME: optionalText(),
  COST_PER_DOCUMENT_INR: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'must be a number' }).min(0, 'must not be negative').default(50),
  ),
  BAHI_FOLDER_ROOTS: optionalText(),
  UPLOAD_MAX_BYTES: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .default(25 * 1024 * 1024),
  FLOW_MAX_FILES: z.coerce.number({ error: 'must be a number' }).int().min(1).default(5000),
  ORG_STORAGE_MAX_BYTES: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .default(20 * 1024 ** 3),
  EXTRACT_CONCURRENCY: z.coerce.number({ error: 'must be a number' }).int().min(1).max(64).optional(),
  EXTRACT_TIMEOUT_MS: z.coerce.number({ error: 'must be a number' }).int().min(1000).default(120_000),
  PREVIEW_TIMEOUT_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'must be a number' }).int().min(100, 'must be at least 100').default(15_000),
  ),
  OCR_PROVIDER: z.preprocess(
    emptyToUndefined,
    z.enum(OCR_PROVIDERS, { error: `must be ${OCR_PROVIDERS.join(' or ')}` }).default(DEFAULT_OCR_PROVIDER),
  ),
  RUN_JOBS: optionalText().pipe(booleanFlag.optional()),
  RUN_LEASE_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'must be a number' }).int().min(5, 'must be at least 5').default(90),
  ),
  METRICS_TOKEN: optionalText(),
  SMTP_HOST: optionalText(),
  SMTP_PORT: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be between 1 and 65535')
      .max(65535, 'must be between 1 and 65535')
      .optional(),
  ),
  SMTP_SECURE: optionalText().pipe(booleanFlag.optional()),
  SMTP_USER: optionalText(),
  SMTP_PASSWORD: optionalText(),
  MAIL_FROM: optionalText(),
  METRICS_PORT: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'must be a number' }).int().min(0).max(65535).optional(),
  ),
  TRUST_PROXY: optionalText().pipe(booleanFlag.optional()),
  LOG_LEVEL: optionalText().pipe(
    z.enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` }).optional(),
  ),
});

/** The environment as read, before the settings that depend on each other are checked. */
type RawEnv = z.infer<typeof rawEnvSchema>;

/** One OAuth/OIDC identity provider, configured by discovery URL. */
export interface IdentityProviderConfig {
  id: string;
  name: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
}

/** The server's whole configuration, parsed once at start-up. */
export interface Env {
  port: number;
  host: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Origin (and path prefix, if any) users reach the app at; better-auth's base URL. */
  publicUrl: string;
  /** True when PUBLIC_URL was set (not derived from PORT). */
  publicUrlConfigured: boolean;
  /** Origins allowed to make mutating API calls besides PUBLIC_URL's (e.g. a Vite dev server). */
  trustedOrigins: string[];
  betterAuthSecret: string | undefined;
  localAccounts: boolean;
  google: IdentityProviderConfig | undefined;
  /** Google Drive/Sheets connection endpoints (GOOGLE_REDIRECT_URL, GOOGLE_OAUTH_BASE_URL, GOOGLE_API_BASE_URL). */
  googleApi: GoogleApiConfig;
  /** OAuth2 for e-mail (IMAP) sources: the providers whose app registration is configured. */
  mailOAuth: MailOAuthConfig;
  /**
   * Zoho Books' servers when not the connection's data centre (ZOHO_API_BASE_URL, e.g.
   * `http://127.0.0.1:8080/books/v3`, and ZOHO_ACCOUNTS_URL): both or neither; how the browser tests reach
   * the stand-in.
   */
  zohoUrls: { api: string; accounts: string } | undefined;
  oidc: IdentityProviderConfig | undefined;
  costPerDocumentInr: number;
  /** Bearer token `/metrics` requires when set (METRICS_TOKEN); unset = open (keep it off the internet). */
  metricsToken: string | undefined;
  /** Worker processes: port serving /healthz, /readyz and /metrics (METRICS_PORT); unset = none. */
  metricsPort: number | undefined;
  /** Behind a reverse proxy: take the client IP from the last X-Forwarded-For entry (rate limits). */
  trustProxy: boolean;
  /** Flows: local folder roots (absolute), upload/file limits, extraction pool, in-process job workers. */
  flows: FlowsConfig;
  /** Outgoing mail (SMTP_HOST, SMTP_PORT, SMTP_SECURE, SMTP_USER, SMTP_PASSWORD, MAIL_FROM); unset = none. */
  smtp: SmtpConfig | undefined;
  logLevel: (typeof logLevels)[number];
}

/** The SMTP server Bahi sends its own mail through (onboarding links to vendors). */
export interface SmtpConfig {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); false: plain, upgraded with STARTTLS when the server offers it. */
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  /** The From address, `Bahi <ap@example.com>` or a bare address. */
  from: string;
}

/** One OAuth2 provider a mailbox can be connected with (authorisation-code flow, refresh tokens). */
export interface MailOAuthProviderConfig {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** What the mailbox needs: IMAP access and a refresh token. */
  scopes: string[];
}

/** Mail OAuth providers (Google from GOOGLE_CLIENT_ID/SECRET, Microsoft 365 from MICROSOFT_CLIENT_ID/SECRET). */
export interface MailOAuthConfig {
  google: MailOAuthProviderConfig | undefined;
  microsoft: MailOAuthProviderConfig | undefined;
  /** Where providers send the user back: `<PUBLIC_URL>/api/mail-oauth/callback`. */
  redirectUrl: string;
}

/** Where the Google connection talks to: Google itself unless overridden (a loopback stand-in in tests). */
export interface GoogleApiConfig {
  /** OAuth callback of the Drive/Sheets connection; defaults to `<PUBLIC_URL>/api/oauth/callback`. */
  redirectUrl: string | undefined;
  /** Base of the consent page, token and revoke endpoints; undefined = Google's real endpoints. */
  oauthBaseUrl: string | undefined;
  /** Base of Drive, Sheets and userinfo APIs; undefined = Google's real endpoints. */
  apiBaseUrl: string | undefined;
}

/**
 * A folder local-folder flows may read, and the organisation it is granted to. Without an organisation it
 * belongs to the server's first organisation (the one that set the server up): never to every tenant.
 */
export interface FolderRoot {
  path: string;
  organizationId: string | undefined;
}

/** Settings of processing flows (BAHI_FOLDER_ROOTS, UPLOAD_MAX_BYTES, FLOW_MAX_FILES, EXTRACT_*, OCR_PROVIDER, RUN_JOBS). */
export interface FlowsConfig {
  folderRoots: FolderRoot[];
  uploadMaxBytes: number;
  maxFiles: number;
  /** Most bytes of uploads one organisation may keep (every flow together). */
  orgStorageMaxBytes: number;
  extractConcurrency: number;
  extractTimeoutMs: number;
  /** Longest a page picture or page count may take (its worker thread is stopped then). */
  previewTimeoutMs: number;
  /** OCR engine the extraction workers read scans and photos with. */
  ocrProvider: OcrProviderName;
  runJobs: boolean;
  /** Seconds a run's lease lives without a heartbeat before another worker takes the run over. */
  leaseSeconds: number;
}

/** Raised when the environment is invalid; `problems` lists one line per bad variable. */
export class EnvError extends Error {
  /** One human-readable line per problem, e.g. `PORT: must be a number`. */
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'EnvError';
    this.problems = problems;
  }
}

const GOOGLE_DISCOVERY_URL = 'https://accounts.google.com/.well-known/openid-configuration';

/**
 * Parses and validates configuration from an environment-like record. Throws `EnvError` listing every
 * problem at once so an operator can fix them in one go.
 */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = rawEnvSchema.safeParse(source);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(problems);
  }
  const raw = parsed.data;

  checkPairs(raw, problems);
  const oidcId = raw.OIDC_PROVIDER_ID ?? 'oidc';
  const trustedOrigins = parseTrustedOrigins(raw.TRUSTED_ORIGINS, problems);
  const google = raw.GOOGLE_CLIENT_ID && raw.GOOGLE_CLIENT_SECRET;
  const oidc = raw.OIDC_DISCOVERY_URL && raw.OIDC_CLIENT_ID && raw.OIDC_CLIENT_SECRET;
  const localAccounts = raw.LOCAL_ACCOUNTS ?? true;
  if (!localAccounts && !google && !oidc) {
    problems.push('LOCAL_ACCOUNTS: false leaves no way to sign in; configure Google or an OIDC provider');
  }
  const folderRoots = parseFolderRoots(raw.BAHI_FOLDER_ROOTS, problems);
  const smtp = buildSmtp(raw, problems);
  if (problems.length > 0) throw new EnvError(problems);

  const dataDir = raw.DATA_DIR ?? './data';
  return {
    port: raw.PORT,
    host: raw.HOST,
    dataDir: isAbsolute(dataDir) ? dataDir : resolve(repoRoot, dataDir),
    databaseUrl: raw.DATABASE_URL,
    // A trailing slash would make better-auth build `//api/auth` URLs.
    publicUrl: (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ''),
    publicUrlConfigured: raw.PUBLIC_URL !== undefined,
    trustedOrigins,
    betterAuthSecret: raw.BETTER_AUTH_SECRET,
    localAccounts,
    google: google
      ? {
          id: 'google',
          name: 'Google',
          discoveryUrl: raw.GOOGLE_DISCOVERY_URL ?? GOOGLE_DISCOVERY_URL,
          clientId: raw.GOOGLE_CLIENT_ID!,
          clientSecret: raw.GOOGLE_CLIENT_SECRET!,
        }
      : undefined,
    googleApi: {
      redirectUrl: raw.GOOGLE_REDIRECT_URL,
      oauthBaseUrl: raw.GOOGLE_OAUTH_BASE_URL?.replace(/\/+$/, ''),
      apiBaseUrl: raw.GOOGLE_API_BASE_URL?.replace(/\/+$/, ''),
    },
    mailOAuth: buildMailOAuth(raw),
    zohoUrls:
      raw.ZOHO_API_BASE_URL && raw.ZOHO_ACCOUNTS_URL
        ? {
            api: raw.ZOHO_API_BASE_URL.replace(/\/+$/, ''),
            accounts: raw.ZOHO_ACCOUNTS_URL.replace(/\/+$/, ''),
          }
        : undefined,
    oidc: oidc
      ? {
          id: oidcId,
          name: raw.OIDC_PROVIDER_NAME ?? 'Single sign-on',
          discoveryUrl: raw.OIDC_DISCOVERY_URL!,
          clientId: raw.OIDC_CLIENT_ID!,
          clientSecret: raw.OIDC_CLIENT_SECRET!,
        }
      : undefined,
    costPerDocumentInr: raw.COST_PER_DOCUMENT_INR,
    metricsToken: raw.METRICS_TOKEN,
    metricsPort: raw.METRICS_PORT,
    flows: {
      folderRoots,
      uploadMaxBytes: raw.UPLOAD_MAX_BYTES,
      maxFiles: raw.FLOW_MAX_FILES,
      orgStorageMaxBytes: raw.ORG_STORAGE_MAX_BYTES,
      extractConcurrency: raw.EXTRACT_CONCURRENCY ?? availableParallelism(),
      extractTimeoutMs: raw.EXTRACT_TIMEOUT_MS,
      previewTimeoutMs: raw.PREVIEW_TIMEOUT_MS,
      ocrProvider: raw.OCR_PROVIDER,
      runJobs: raw.RUN_JOBS ?? true,
      leaseSeconds: raw.RUN_LEASE_SECONDS,
    },
    smtp,
    trustProxy: raw.TRUST_PROXY ?? false,
    logLevel: raw.LOG_LEVEL ?? 'info',
  };
}

/** Settings that only work together: both of a client id and secret, all three of OIDC's. */
function checkPairs(raw: RawEnv, problems: string[]): void {
  if (Boolean(raw.GOOGLE_CLIENT_ID) !== Boolean(raw.GOOGLE_CLIENT_SECRET)) {
    problems.push('GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET: set both or neither');
  }
  if (Boolean(raw.MICROSOFT_CLIENT_ID) !== Boolean(raw.MICROSOFT_CLIENT_SECRET)) {
    problems.push('MICROSOFT_CLIENT_ID/MICROSOFT_CLIENT_SECRET: set both or neither');
  }
  const oidcParts = [raw.OIDC_DISCOVERY_URL, raw.OIDC_CLIENT_ID, raw.OIDC_CLIENT_SECRET];
  if (oidcParts.some(Boolean) && !oidcParts.every(Boolean)) {
    problems.push('OIDC_DISCOVERY_URL/OIDC_CLIENT_ID/OIDC_CLIENT_SECRET: set all three or none');
  }
  if (Boolean(raw.ZOHO_API_BASE_URL) !== Boolean(raw.ZOHO_ACCOUNTS_URL)) {
    problems.push('ZOHO_API_BASE_URL/ZOHO_ACCOUNTS_URL: set both or neither');
  }
  if (raw.OIDC_DISCOVERY_URL && raw.GOOGLE_CLIENT_ID && (raw.OIDC_PROVIDER_ID ?? 'oidc') === 'google') {
    problems.push('OIDC_PROVIDER_ID: "google" is taken by Google sign-in');
  }
}

/** `TRUSTED_ORIGINS`: comma-separated absolute URLs, kept as their origins. */
function parseTrustedOrigins(value: string | undefined, problems: string[]): string[] {
  const trustedOrigins: string[] = [];
  for (const origin of (value ?? '').split(',').map((o) => o.trim())) {
    if (!origin) continue;
    if (!URL.canParse(origin)) problems.push(`TRUSTED_ORIGINS: "${origin}" is not an absolute URL`);
    else trustedOrigins.push(new URL(origin).origin);
  }
  return trustedOrigins;
}

/** `BAHI_FOLDER_ROOTS`: absolute paths, each granted to every organisation or to one (`path=<id>`). */
function parseFolderRoots(value: string | undefined, problems: string[]): FolderRoot[] {
  const folderRoots: FolderRoot[] = [];
  for (const entry of (value ?? '').split(',').map((r) => r.trim())) {
    if (!entry) continue;
    // `/srv/acme=<organisation id>` grants the folder to that organisation; a bare path to the first one.
    const at = entry.lastIndexOf('=');
    const path = (at < 0 ? entry : entry.slice(0, at)).trim();
    const organizationId =
      at < 0
        ? undefined
        : entry
            .slice(at + 1)
            .trim()
            .toLowerCase();
    if (!isAbsolute(path)) problems.push(`BAHI_FOLDER_ROOTS: "${path}" is not an absolute path`);
    else if (organizationId !== undefined && !UUID_PATTERN.test(organizationId))
      problems.push(`BAHI_FOLDER_ROOTS: "${entry}" must end in an organisation id (a UUID) after "="`);
    else folderRoots.push({ path, organizationId });
  }
  return folderRoots;
}

/**
 * Reads configuration from the process environment (the only place that does), with `overrides` on top.
 * Used by `startServer`; `main.ts` turns an `EnvError` into a listed exit.
 */
export function loadEnv(overrides: Record<string, string | undefined> = {}): Env {
  return parseEnv({ ...process.env, ...overrides });
}

/** A header value or address with a line break or other control character (header injection). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters (header injection) is the point.
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** Outgoing mail from SMTP_*: all or nothing, with the From address checked once here. */
function buildSmtp(
  raw: {
    SMTP_HOST?: string;
    SMTP_PORT?: number;
    SMTP_SECURE?: boolean;
    SMTP_USER?: string;
    SMTP_PASSWORD?: string;
    MAIL_FROM?: string;
  },
  problems: string[],
): SmtpConfig | undefined {
  const anySet = [raw.SMTP_PORT, raw.SMTP_SECURE, raw.SMTP_USER, raw.SMTP_PASSWORD, raw.MAIL_FROM].some(
    (v) => v !== undefined,
  );
  if (!raw.SMTP_HOST) {
    if (anySet) problems.push('SMTP_HOST: set it (the mail server) or unset every SMTP_* and MAIL_FROM');
    return undefined;
  }
  if (!raw.MAIL_FROM) problems.push('MAIL_FROM: set the address Bahi sends mail from');
  else if (CONTROL_CHARS.test(raw.MAIL_FROM) || !/[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+/.test(raw.MAIL_FROM))
    problems.push('MAIL_FROM: must be an e-mail address, e.g. "Accounts <ap@example.com>"');
  if (Boolean(raw.SMTP_USER) !== Boolean(raw.SMTP_PASSWORD))
    problems.push('SMTP_USER/SMTP_PASSWORD: set both or neither');
  const secure = raw.SMTP_SECURE ?? raw.SMTP_PORT === 465;
  return {
    host: raw.SMTP_HOST,
    port: raw.SMTP_PORT ?? (secure ? 465 : 587),
    secure,
    user: raw.SMTP_USER,
    password: raw.SMTP_PASSWORD,
    from: raw.MAIL_FROM ?? '',
  };
}

/** Identity providers to offer, Google first. */
export function listIdentityProviders(env: Env): IdentityProviderConfig[] {
  return [env.google, env.oidc].filter((p): p is IdentityProviderConfig => p !== undefined);
}

/** The mail OAuth providers the environment configures (either, both or none). */
function buildMailOAuth(raw: {
  PUBLIC_URL?: string | undefined;
  PORT: number;
  GOOGLE_CLIENT_ID?: string | undefined;
  GOOGLE_CLIENT_SECRET?: string | undefined;
  GOOGLE_OAUTH_BASE_URL?: string | undefined;
  MICROSOFT_CLIENT_ID?: string | undefined;
  MICROSOFT_CLIENT_SECRET?: string | undefined;
  MICROSOFT_OAUTH_BASE_URL?: string | undefined;
}): MailOAuthConfig {
  const googleBase = raw.GOOGLE_OAUTH_BASE_URL?.replace(/\/+$/, '');
  // "organizations": any work or school account (Microsoft 365); a tenant's own URL narrows it.
  const microsoftBase = (
    raw.MICROSOFT_OAUTH_BASE_URL ?? 'https://login.microsoftonline.com/organizations'
  ).replace(/\/+$/, '');
  return {
    google:
      raw.GOOGLE_CLIENT_ID && raw.GOOGLE_CLIENT_SECRET
        ? {
            clientId: raw.GOOGLE_CLIENT_ID,
            clientSecret: raw.GOOGLE_CLIENT_SECRET,
            authorizeUrl: googleBase
              ? `${googleBase}/o/oauth2/v2/auth`
              : 'https://accounts.google.com/o/oauth2/v2/auth',
            tokenUrl: googleBase ? `${googleBase}/token` : 'https://oauth2.googleapis.com/token',
            scopes: ['https://mail.google.com/'],
          }
        : undefined,
    microsoft:
      raw.MICROSOFT_CLIENT_ID && raw.MICROSOFT_CLIENT_SECRET
        ? {
            clientId: raw.MICROSOFT_CLIENT_ID,
            clientSecret: raw.MICROSOFT_CLIENT_SECRET,
            authorizeUrl: `${microsoftBase}/oauth2/v2.0/authorize`,
            tokenUrl: `${microsoftBase}/oauth2/v2.0/token`,
            scopes: ['https://outlook.office.com/IMAP.AccessAsUser.All', 'offline_access'],
          }
        : undefined,
    redirectUrl: `${(raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, '')}/api/mail-oauth/callback`,
  };
}
