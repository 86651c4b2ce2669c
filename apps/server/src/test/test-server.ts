import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { openDb } from '../db/client.ts';
import type { Logger } from '../lib/logger.ts';
import { type RunningServer, startServer } from '../server.ts';
import { loadPgliteTemplate } from './pglite-template.ts';
import { createFreshPostgresDatabase, readTestDatabaseUrl } from './test-db.ts';

/** Answer of `TestClient.request`: status, headers and parsed JSON body (or text). */
export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * A fetch client that behaves like one browser profile: keeps cookies, sends the app's Origin on every
 * request (as browsers do for same-origin fetches) and never follows redirects on its own.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  /** Raw Set-Cookie headers of the last response, for asserting cookie attributes. */
  lastSetCookies: string[] = [];

  constructor(
    readonly baseUrl: string,
    readonly origin: string | null = new URL(baseUrl).origin,
  ) {}

  /** The Cookie header this client would send. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** Stores cookies from a response (deleting expired ones). */
  storeCookies(response: Response): void {
    this.lastSetCookies = response.headers.getSetCookie();
    for (const line of this.lastSetCookies) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** Sends a request with this client's cookies; `json` becomes a JSON body. */
  async raw(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader();
    if (cookie && !headers.has('cookie')) headers.set('cookie', cookie);
    if (this.origin && !headers.has('origin')) headers.set('origin', this.origin);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    const url = path.startsWith('http') ? path : `${this.baseUrl}${path}`;
    const response = await fetch(url, { ...init, headers, body, redirect: 'manual' });
    this.storeCookies(response);
    return response;
  }

  /** Like `raw`, parsing the body as JSON when it is JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on the JSON shape they expect
  async request<T = any>(
    path: string,
    init: RequestInit & { json?: unknown } = {},
  ): Promise<TestResponse<T>> {
    const response = await this.raw(path, init);
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.includes('json');
    return {
      status: response.status,
      headers: response.headers,
      body: (isJson && text ? JSON.parse(text) : text) as T,
    };
  }

  /** GET helper. */
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on the JSON shape they expect
  get<T = any>(path: string): Promise<TestResponse<T>> {
    return this.request<T>(path);
  }

  /** POST helper with a JSON body. */
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on the JSON shape they expect
  post<T = any>(path: string, json: unknown = {}): Promise<TestResponse<T>> {
    return this.request<T>(path, { method: 'POST', json });
  }

  /** PUT helper with a JSON body. */
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on the JSON shape they expect
  put<T = any>(path: string, json: unknown): Promise<TestResponse<T>> {
    return this.request<T>(path, { method: 'PUT', json });
  }

  /** Signs up with e-mail and password (better-auth signs the new user in). */
  signUp(user: { name: string; email: string; password: string }) {
    return this.post('/api/auth/sign-up/email', user);
  }

  /** Signs in with e-mail and password. */
  signIn(user: { email: string; password: string }) {
    return this.post('/api/auth/sign-in/email', user);
  }

  /**
   * Signs a new user up and creates their organisation (onboarding), so the client can work with flows.
   * Throws when either step is refused.
   */
  async signUpWithOrganization(user: { name: string; email: string }, orgName: string): Promise<void> {
    const signUp = await this.signUp({ ...user, password: 'correct horse battery staple' });
    if (signUp.status !== 200)
      throw new Error(`sign-up failed: ${signUp.status} ${JSON.stringify(signUp.body)}`);
    const org = await this.post('/api/organization', {
      orgName,
      phone: '+91 98450 12345',
      orgType: 'pvt_ltd',
      address: 'Pune',
    });
    if (org.status !== 201) throw new Error(`onboarding failed: ${org.status} ${JSON.stringify(org.body)}`);
  }

  /** Signs out (clears the session cookie). */
  signOut() {
    return this.post('/api/auth/sign-out', {});
  }
}

/** A server started for one test file. */
export interface TestServer {
  url: string;
  server: RunningServer;
  dataDir: string;
  /** A new "browser" with an empty cookie jar. */
  createClient(origin?: string | null): TestClient;
  /** A new client signed up as a fresh unique user. */
  createUser(name?: string): Promise<{ client: TestClient; email: string; password: string; userId: string }>;
  /** A new signed-up user who has completed onboarding. */
  createOnboardedUser(
    orgName?: string,
  ): Promise<{ client: TestClient; email: string; userId: string; orgId: string }>;
  close(): Promise<void>;
}

let userCounter = 0;

/** Restores the migrated template into an empty PGlite folder so the server skips initdb. */
export async function seedPgliteDataDir(dir: string): Promise<void> {
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  await mkdir(dir, { recursive: true });
  const handle = await openDb({ pgliteDir: dir, pgliteTemplate: await loadPgliteTemplate() });
  await handle.close();
}

/**
 * Starts the real server on a random loopback port with a temporary DATA_DIR (PGlite on disk there, or
 * a fresh PostgreSQL database when DATABASE_URL is set). `env` overrides configuration; `dataDir` +
 * `keepData` let a test restart a server on the same data (PGlite only).
 */
export async function startTestServer(
  options: {
    env?: Record<string, string | undefined>;
    webDist?: string;
    dataDir?: string;
    keepData?: boolean;
    /** The server's logger (default: silent); a test that reads the log lines passes its own. */
    logger?: Logger;
  } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'bahi-test-')));
  const baseUrl = readTestDatabaseUrl();
  const fresh = baseUrl ? await createFreshPostgresDatabase(baseUrl) : undefined;
  if (!fresh) await seedPgliteDataDir(join(dataDir, 'db'));
  const server = await startServer({
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: fresh?.url ?? '',
      PUBLIC_URL: '',
      LOG_LEVEL: 'silent',
      ...options.env,
    },
    webDist: options.webDist ?? join(dataDir, 'no-web-dist'),
    logger: options.logger ?? pino({ level: 'silent' }),
  });
  const createClient = (origin?: string | null) => new TestClient(server.url, origin);
  const createUser = async (name = 'Test User') => {
    const client = createClient();
    userCounter += 1;
    const email = `user${userCounter}-${Date.now()}@example.com`;
    const password = 'correct horse battery staple';
    const res = await client.signUp({ name, email, password });
    if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { client, email, password, userId: (res.body as { user: { id: string } }).user.id };
  };
  return {
    url: server.url,
    server,
    dataDir,
    createClient,
    createUser,
    async createOnboardedUser(orgName = 'Acme Traders') {
      const user = await createUser();
      const res = await user.client.post('/api/organization', {
        orgName,
        phone: '+91 98450 12345',
        orgType: 'pvt_ltd',
        address: '12 MG Road, Bengaluru',
      });
      if (res.status !== 201) throw new Error(`onboarding failed: ${res.status} ${JSON.stringify(res.body)}`);
      return {
        client: user.client,
        email: user.email,
        userId: user.userId,
        orgId: (res.body as { id: string }).id,
      };
    },
    async close() {
      await server.close();
      if (options.keepData) return;
      await fresh?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
