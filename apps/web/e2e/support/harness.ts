import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, type TestContext } from 'vitest';
import { createDb } from '../../../server/src/db/client.ts';
import { migrateDatabase, migrationsFolder } from '../../../server/src/db/migrate.ts';
import { defaultWebDist, type RunningServer, startServer } from '../../../server/src/server.ts';

/** Repository root, where `test-results/` (gitignored) lives. */
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Where `screenshot()` writes PNGs. */
export const screenshotDir = join(repoRoot, 'test-results', 'screenshots');

/** Debian's chromium; the tests never download a browser. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags that keep chromium from phoning home (the guard would flag it) or needing a GPU/sandbox. */
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Hosts the browser may talk to: the app and the test identity provider, both on loopback. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Settings blanked by default so a developer's shell environment (a DATABASE_URL, Google keys…) can't change what is tested. */
const IDENTITY_ENV_KEYS = [
  'DATABASE_URL',
  'BETTER_AUTH_SECRET',
  'LOCAL_ACCOUNTS',
  'TRUSTED_ORIGINS',
  'GOOGLE_CLIENT_ID',
  'GOOGLE_CLIENT_SECRET',
  'GOOGLE_DISCOVERY_URL',
  'OIDC_DISCOVERY_URL',
  'OIDC_CLIENT_ID',
  'OIDC_CLIENT_SECRET',
  'OIDC_PROVIDER_ID',
  'OIDC_PROVIDER_NAME',
] as const;

/** How the app under test is started. */
export interface AppOptions {
  /** Env overrides on top of the embedded defaults (e.g. `{ LOCAL_ACCOUNTS: 'false', OIDC_... }`). */
  env?: Record<string, string | undefined>;
  /** Port to listen on; reserve one with `reservePort()` when a URL is needed before start (OIDC). */
  port?: number;
}

/** Per-page options. */
export interface NewPageOptions {
  /** Don't fail the test on uncaught page errors (the error-page test throws on purpose). */
  allowPageErrors?: boolean;
  /** localStorage entries set on the app's origin before any app script runs. */
  localStorage?: Record<string, string>;
  /** Defaults to 1280×800 (desktop layout: sidebar visible). */
  viewport?: { width: number; height: number };
}

/** A started app plus a browser, valid between the file's beforeAll and afterAll. */
export interface AppHandle {
  /** Base URL of the app, e.g. `http://localhost:41234`. */
  readonly url: string;
  /** The in-process server (its `db` allows direct assertions). */
  readonly server: RunningServer;
  readonly browser: Browser;
  /** Temp DATA_DIR (PGlite files, secret); deleted after the file. */
  readonly dataDir: string;
  /**
   * Opens a page in a fresh browser context (own cookies and storage) with the guards installed: any
   * request to a non-loopback host is aborted and fails the test, as does any uncaught page error
   * (unless `allowPageErrors`). Popups opened by the page are guarded too.
   */
  newPage(options?: NewPageOptions): Promise<Page>;
}

/** One guarded browser context and what went wrong in it. */
interface GuardedContext {
  context: BrowserContext;
  violations: string[];
}

/** The app's origin per browser context, so `waitForPath` can tell the app from the identity provider. */
const appOrigins = new WeakMap<BrowserContext, string>();

/** Guard state by context, so `takeGuardViolations` can reach it from a page. */
const guards = new WeakMap<BrowserContext, GuardedContext>();

/**
 * Returns and clears the guard violations recorded so far for the page's context. For tests that provoke
 * a violation on purpose (and the harness self-test); anything left is reported when the test ends.
 */
export function takeGuardViolations(page: Page): string[] {
  const guarded = guards.get(page.context());
  if (!guarded) throw new Error('This page was not opened with AppHandle.newPage()');
  return guarded.violations.splice(0);
}

/** Hash of the committed migrations (SQL and journal), so a changed migration set gets a new template. */
function hashMigrations(): string {
  const hash = createHash('sha256');
  const hashFolder = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) hashFolder(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  hashFolder(migrationsFolder);
  return hash.digest('hex').slice(0, 16);
}

/**
 * Returns a folder holding a PGlite cluster already migrated by the server's own migrator, built once per
 * PGlite version and migration set under node_modules/.cache. Initialising a cluster (initdb) and migrating
 * it take ~20 s on a busy machine; copying one takes about a second. The server still opens the copy with
 * real PGlite and runs its migrator (which then finds nothing to do).
 */
async function preparePgliteTemplate(): Promise<string> {
  const pgliteVersion = (
    JSON.parse(readFileSync(join(repoRoot, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const cacheDir = join(repoRoot, 'node_modules', '.cache', 'bahi-e2e');
  const prefix = `pglite-${pgliteVersion}-`;
  const template = join(cacheDir, `${prefix}${hashMigrations()}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  await mkdir(cacheDir, { recursive: true });
  const building = await mkdtemp(join(cacheDir, 'building-'));
  try {
    const handle = await createDb({ databaseUrl: undefined, dataDir: building });
    await migrateDatabase(handle);
    await handle.close();
    // Rename is atomic: a concurrent run either sees no template or a complete one.
    await rename(join(building, 'db'), template).catch(() => undefined);
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  // Templates of older migration sets are dead weight (~40 MB each).
  for (const entry of readdirSync(cacheDir)) {
    if (entry.startsWith('pglite-') && join(cacheDir, entry) !== template) {
      await rm(join(cacheDir, entry), { recursive: true, force: true });
    }
  }
  return template;
}

/** Finds a free loopback port (tiny race window until the server binds it; fine for tests). */
export async function reservePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => resolve());
  });
  const address = probe.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** True for URLs the browser may load: loopback http(s), and in-page schemes that never hit the network. */
export function isAllowedUrl(url: string): boolean {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed) return false;
  if (['data:', 'blob:', 'about:'].includes(parsed.protocol)) return true;
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && LOOPBACK_HOSTS.has(parsed.hostname);
}

/** Installs the outbound-request and page-error guards on a context and all its pages (popups too). */
async function guardContext(context: BrowserContext, allowPageErrors: boolean): Promise<GuardedContext> {
  const guarded: GuardedContext = { context, violations: [] };
  guards.set(context, guarded);
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (isAllowedUrl(url)) return route.fallback();
    guarded.violations.push(`request to a non-loopback host: ${url}`);
    return route.abort('blockedbyclient');
  });
  const watch = (page: Page) => {
    page.on('pageerror', (error) => {
      if (!allowPageErrors) guarded.violations.push(`uncaught page error on ${page.url()}: ${error.message}`);
    });
  };
  context.on('page', watch);
  return guarded;
}

/**
 * Registers beforeAll/afterAll/afterEach hooks in the calling file (or `describe`) that start the real
 * server in-process (`startServer`: temp DATA_DIR → PGlite, random port, built web app) and Debian's
 * chromium, and check every test's guards afterwards. `options` may be a function, evaluated in
 * beforeAll, so earlier hooks (e.g. starting an identity provider) can supply env values.
 */
export function setupApp(options: AppOptions | (() => AppOptions | Promise<AppOptions>) = {}): AppHandle {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let dataDir: string | undefined;
  let open: GuardedContext[] = [];

  beforeAll(async () => {
    if (!existsSync(join(defaultWebDist, 'index.html'))) {
      throw new Error(
        `The web app is not built (${defaultWebDist}); run \`npm run build -w @bahi/web\` first.`,
      );
    }
    const resolved = typeof options === 'function' ? await options() : options;
    dataDir = await mkdtemp(join(tmpdir(), 'bahi-e2e-'));
    // Serve a snapshot of the built app: a rebuild of apps/web/dist during the run (vite empties the folder
    // first) would otherwise break lazily loaded pages mid-test.
    const webDist = join(dataDir, 'web');
    await cp(defaultWebDist, webDist, { recursive: true });
    // The server keeps PGlite in DATA_DIR/db (apps/server/src/db/client.ts).
    await cp(await preparePgliteTemplate(), join(dataDir, 'db'), { recursive: true });
    const blanks = Object.fromEntries(IDENTITY_ENV_KEYS.map((key) => [key, '']));
    const port = resolved.port ?? (await reservePort());
    server = await startServer({
      env: {
        ...blanks,
        PORT: String(port),
        // Loopback only; the browser reaches it as `localhost`, the identity provider is on 127.0.0.1.
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://localhost:${port}`,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ...resolved.env,
      },
      webDist,
    });
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  });

  afterEach(async (context: TestContext) => {
    const contexts = open;
    open = [];
    const failed = context.task.result?.state === 'fail';
    const violations: string[] = [];
    for (const guarded of contexts) {
      if (failed) {
        // A picture of where a failing test stopped saves a rerun.
        for (const [index, page] of guarded.context.pages().entries()) {
          await screenshot(page, `FAILED-${index}-${slugify(context.task.name)}`).catch(() => undefined);
        }
      }
      violations.push(...guarded.violations);
      await guarded.context.close().catch(() => undefined);
    }
    expect(violations, 'browser guard violations').toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is only available inside tests (after beforeAll)`);
    return value;
  };

  return {
    get url() {
      return need(server, 'The server').url;
    },
    get server() {
      return need(server, 'The server');
    },
    get browser() {
      return need(browser, 'The browser');
    },
    get dataDir() {
      return need(dataDir, 'The data dir');
    },
    async newPage(pageOptions: NewPageOptions = {}) {
      const appUrl = need(server, 'The server').url;
      const context = await need(browser, 'The browser').newContext({
        baseURL: appUrl,
        viewport: pageOptions.viewport ?? { width: 1280, height: 800 },
        locale: 'en-IN',
        timezoneId: 'Asia/Kolkata',
      });
      // The machine is shared and slow at times; fail within a test's budget, but not on a hiccup.
      context.setDefaultTimeout(20_000);
      context.setDefaultNavigationTimeout(30_000);
      if (pageOptions.localStorage) {
        await context.addInitScript(
          ({ origin, entries }: { origin: string; entries: Record<string, string> }) => {
            if (window.location.origin !== origin) return;
            for (const [key, value] of Object.entries(entries)) window.localStorage.setItem(key, value);
          },
          { origin: new URL(appUrl).origin, entries: pageOptions.localStorage },
        );
      }
      appOrigins.set(context, new URL(appUrl).origin);
      const guarded = await guardContext(context, pageOptions.allowPageErrors ?? false);
      open.push(guarded);
      return context.newPage();
    },
  };
}

/** Lower-case, dash-separated file-name stem. */
function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'page'
  );
}

/**
 * Saves a PNG of what the viewport shows to `test-results/screenshots/<name>.png` and returns its path.
 * `fullPage` captures the whole scroll height, but sticky elements (sidebar, top bar) then appear where
 * they happened to be, which misleads a reviewer; use it for long pages without sticky parts.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  await mkdir(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${slugify(name)}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? false });
  return path;
}

/** A fresh e-mail address, so tests sharing a server never collide. */
export function makeEmail(prefix = 'user'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.in`;
}

/** Someone signing up with e-mail and password. */
export interface Credentials {
  name: string;
  email: string;
  password: string;
}

/** Organisation details as typed into the onboarding form. */
export interface OrgInput {
  orgName: string;
  phone: string;
  /** Visible label of the organisation type, e.g. "Private Limited". */
  orgTypeLabel: string;
  address: string;
}

/** A valid default organisation for tests that only need to get past onboarding. */
export const sampleOrg: OrgInput = {
  orgName: 'Acme Traders Private Limited',
  phone: '+91 98450 12345',
  orgTypeLabel: 'Private Limited',
  address: '12 MG Road, Bengaluru, Karnataka 560001',
};

/**
 * Waits until the page shows `path` on the app's own origin (client-side navigations included). Polls the
 * URL rather than using `waitForURL`, which throws when a navigation it watched is superseded by another.
 */
export async function waitForPath(page: Page, path: string, timeout = 20_000): Promise<void> {
  const origin = appOrigins.get(page.context());
  const current = () => {
    const url = new URL(page.url());
    return origin && url.origin !== origin ? url.href : url.pathname;
  };
  await expect.poll(current, { timeout }).toBe(path);
}

/** Creates an account through `/signup`; a new user lands on `/onboarding`. */
export async function signUp(page: Page, user: Credentials): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Full name', { exact: true }).fill(user.name);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await waitForPath(page, '/onboarding');
}

/** Signs in through `/login`; waits until the app has left the login page. */
export async function signIn(page: Page, user: Pick<Credentials, 'email' | 'password'>): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/** Picks an option of a Radix select (combobox) by its visible label. */
export async function chooseOption(page: Page, comboboxLabel: string, optionLabel: string): Promise<void> {
  await page.getByRole('combobox', { name: comboboxLabel }).click();
  await page.getByRole('option', { name: optionLabel, exact: true }).click();
}

/** Fills the onboarding form (only the given fields) without submitting. */
export async function fillOnboarding(page: Page, org: Partial<OrgInput>): Promise<void> {
  if (org.orgName !== undefined) await page.getByLabel('Organization name').fill(org.orgName);
  if (org.phone !== undefined) await page.getByLabel('Contact phone').fill(org.phone);
  if (org.orgTypeLabel !== undefined) await chooseOption(page, 'Organization type', org.orgTypeLabel);
  if (org.address !== undefined) await page.getByLabel('Business address').fill(org.address);
}

/** Completes `/onboarding` and waits for the home page. */
export async function completeOnboarding(page: Page, org: OrgInput = sampleOrg): Promise<void> {
  await waitForPath(page, '/onboarding');
  await fillOnboarding(page, org);
  await page.getByRole('button', { name: 'Continue' }).click();
  await waitForPath(page, '/');
}

/** Signs up a new user and creates their organisation; returns the credentials used. */
export async function createUser(
  page: Page,
  options: { name?: string; org?: OrgInput; emailPrefix?: string } = {},
): Promise<Credentials> {
  const user: Credentials = {
    name: options.name ?? 'Asha Verma',
    email: makeEmail(options.emailPrefix),
    password: 'correct-horse-42',
  };
  await signUp(page, user);
  await completeOnboarding(page, options.org ?? sampleOrg);
  return user;
}

/** GETs an app API path with the page's cookies (its browser context) and returns the parsed JSON. */
export async function getApiJson<T>(page: Page, path: string): Promise<{ status: number; body: T }> {
  const response = await page.context().request.get(path);
  return { status: response.status(), body: (await response.json()) as T };
}

/**
 * Waits until the element's visible text equals `expected` (or matches it, for a RegExp). playwright-core
 * has no web-first assertions, so this polls with vitest's `expect.poll`.
 */
export async function expectText(
  locator: Locator,
  expected: string | RegExp,
  timeout = 15_000,
): Promise<void> {
  const read = () =>
    locator.innerText({ timeout: 2_000 }).then(
      (text) => text.trim(),
      () => '<not found>',
    );
  if (typeof expected === 'string') await expect.poll(read, { timeout }).toBe(expected);
  else await expect.poll(read, { timeout }).toMatch(expected);
}

/** Waits until `locator` matches exactly `count` elements. */
export async function expectCount(locator: Locator, count: number, timeout = 15_000): Promise<void> {
  await expect.poll(() => locator.count(), { timeout }).toBe(count);
}

/** Creates an upload flow through the API (signed in as the page's user); returns its id. */
export async function createUploadFlow(
  page: Page,
  name: string,
  type: 'INVOICE' | 'PO' | 'GRN' = 'INVOICE',
): Promise<string> {
  return page.evaluate(
    async ({ name, type }) => {
      const created = await fetch('/api/workflows', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name,
          types: [type],
          io: {
            input: { kind: 'upload', url: '', folderName: '' },
            output: { kind: 'xlsx', sheetId: '', sheetName: name },
          },
        }),
      });
      return ((await created.json()) as { id: string }).id;
    },
    { name, type },
  );
}

/**
 * Uploads files to a flow and runs it to the end, through the API. `files` maps the name each is uploaded
 * under to the path of its bytes on disk.
 */
export async function uploadAndRun(page: Page, flowId: string, files: Record<string, string>): Promise<void> {
  const payload = Object.entries(files).map(([name, path]) => ({
    name,
    pdf: readFileSync(path).toString('base64'),
  }));
  await page.evaluate(
    async ({ flowId, payload }) => {
      const form = new FormData();
      for (const f of payload)
        form.append(
          'files',
          new Blob([Uint8Array.from(atob(f.pdf), (c) => c.charCodeAt(0))], { type: 'application/pdf' }),
          f.name,
        );
      await fetch(`/api/flows/${flowId}/uploads`, { method: 'POST', body: form });
      const run = (await (await fetch(`/api/flows/${flowId}/runs`, { method: 'POST' })).json()) as {
        id: string;
      };
      for (let i = 0; i < 480; i++) {
        const state = (await (await fetch(`/api/runs/${run.id}`)).json()) as { status: string };
        if (state.status === 'succeeded' || state.status === 'failed') return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    { flowId, payload },
  );
}

/** Playwright types, re-exported so test files import from one place. */
export type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
