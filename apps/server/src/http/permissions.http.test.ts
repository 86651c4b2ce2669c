import { type Action, describeMissingPermission, ROLES, type Role, roleCan } from '@bahi/contracts';
import { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error.ts';
import { inviteAndJoin, type JoinedMember } from '../test/team-fixtures.ts';
import { startTestServer, type TestClient, type TestServer } from '../test/test-server.ts';
import type { AppEnv } from './context.ts';
import { createPermissionGuard, ROUTE_RULES } from './permissions.ts';

// Routes the guard classifies that the OpenAPI document does not list (a browser redirect target).
const NOT_IN_OPENAPI = new Set(['GET /api/oauth/callback', 'GET /api/mail-oauth/callback']);
// Changes who the caller is: walked last, on its own.
const LEAVE = 'POST /api/team/leave';

let t: TestServer;
const clients = {} as Record<Role, TestClient>;
let routes: string[] = [];

beforeAll(async () => {
  t = await startTestServer();
  const owner = await t.createOnboardedUser('Permission Traders');
  clients.owner = owner.client;
  for (const role of ROLES.filter((r) => r !== 'owner')) {
    const member: JoinedMember = await inviteAndJoin(t, owner.client, { role });
    clients[role] = member.client;
  }
  const doc = await t.createClient().get('/api/openapi.json');
  routes = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** A concrete URL for a route: made-up ids that match each parameter's shape. */
function urlOf(route: string): { method: string; url: string } {
  const [method, path] = route.split(' ') as [string, string];
  const url = path
    .replace('{id}', '00000000-0000-4000-8000-000000000000')
    .replace('{page}', '1')
    .replace('{token}', 'a'.repeat(43))
    .replace('{userId}', 'nobody-by-this-id');
  return { method, url };
}

async function call(client: TestClient, route: string) {
  const { method, url } = urlOf(route);
  const withBody = method !== 'GET' && method !== 'HEAD';
  return client.request(url, {
    method,
    ...(withBody ? { json: {} } : {}),
    signal: AbortSignal.timeout(10_000),
  });
}

describe('the permissions table', () => {
  it('classifies every route of the OpenAPI document, and lists no route that does not exist', () => {
    expect(routes.length).toBeGreaterThan(50);
    const unclassified = routes.filter((r) => !(r in ROUTE_RULES));
    expect(unclassified, 'routes missing from ROUTE_RULES (src/http/permissions.ts)').toEqual([]);
    const stale = Object.keys(ROUTE_RULES).filter((r) => !routes.includes(r) && !NOT_IN_OPENAPI.has(r));
    expect(stale).toEqual([]);
  });

  it('viewers may read and download only', () => {
    const viewerRoutes = routes.filter((r) => {
      const rule = ROUTE_RULES[r]!;
      return rule !== 'public' && rule !== 'signed-in' && roleCan('viewer', rule);
    });
    for (const route of viewerRoutes) {
      const rule = ROUTE_RULES[route] as Action;
      // A viewer's non-GET routes are their own notifications and interests, and leaving.
      if (!route.startsWith('GET ')) expect(rule, route).toBe('personal');
      else expect(['read', 'download', 'audit.read', 'personal'], route).toContain(rule);
    }
  });

  it.each(ROLES)(
    'lets a %s call exactly the routes its role allows',
    async (role) => {
      const refusedWrongly: string[] = [];
      const allowedWrongly: string[] = [];
      for (const route of [...routes.filter((r) => r !== LEAVE), LEAVE]) {
        const rule = ROUTE_RULES[route]!;
        const res = await call(clients[role], route);
        const refusal = res.status === 403 && /^Your role \(/.test(res.body?.error?.message ?? '');
        const allowed = rule === 'public' || rule === 'signed-in' || roleCan(role, rule);
        if (allowed && refusal) refusedWrongly.push(`${route} → ${res.body.error.message}`);
        if (!allowed) {
          if (!refusal)
            allowedWrongly.push(`${route} → ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
          else expect(res.body.error.message).toBe(describeMissingPermission(role, rule as Action));
        }
      }
      expect(refusedWrongly).toEqual([]);
      expect(allowedWrongly).toEqual([]);
    },
    120_000,
  );

  it('answers every route but the public ones with 401 without a session', async () => {
    const anonymous = t.createClient();
    for (const route of routes) {
      const res = await call(anonymous, route);
      if (ROUTE_RULES[route] === 'public') expect(res.status, route).not.toBe(401);
      else expect(res.status, route).toBe(401);
    }
  }, 60_000);

  it('refuses a route nobody classified, for every role', async () => {
    for (const role of ROLES) {
      const app = new OpenAPIHono<AppEnv>();
      app.onError((error, c) =>
        c.json({ code: error instanceof AppError ? error.code : 'internal', message: error.message }, 403),
      );
      app.use('*', async (c, next) => {
        c.set('user', { id: 'u1', name: 'Someone', email: 'someone@example.com', image: null });
        c.set('membership', { organizationId: '00000000-0000-4000-8000-000000000001', role });
        c.set('sessionId', 's1');
        await next();
      });
      app.use('/api/*', createPermissionGuard());
      app.get('/api/something-new/:id', (c) => c.text('reached'));
      const res = await app.request('/api/something-new/7');
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        code: 'forbidden',
        message: 'No permission rule is declared for GET /api/something-new/{id}; it is refused',
      });
    }
  });
});
