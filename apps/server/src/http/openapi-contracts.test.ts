import * as contracts from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseEnv } from '../config/env.ts';
import type { Db } from '../db/client.ts';
import { createLogger } from '../lib/logger.ts';
import type { Auth } from '../modules/auth/auth.ts';
import { createApp } from './app.ts';
import { endpointNameOf } from './route-for.ts';

// One wire contract: every request and response shape the API declares must be a schema exported by
// @bahi/contracts, the package the web client reads too. A shape written inline in a route would let the
// server and the web drift apart; this walks the OpenAPI registry and names each one.

/** Every zod schema @bahi/contracts exports (by identity). */
const exported = new Set<unknown>(Object.values(contracts).filter((v) => v instanceof z.ZodType));

type Schemas = Array<{ where: string; schema: unknown }>;

/** The schemas a route declares: params, query, headers, JSON bodies and JSON answers. */
function routeSchemas(route: {
  method: string;
  path: string;
  request?: Record<string, unknown>;
  responses?: Record<string, unknown>;
}): Schemas {
  const name = `${route.method.toUpperCase()} ${route.path}`;
  const out: Schemas = [];
  for (const part of ['params', 'query', 'headers', 'cookies'] as const) {
    const schema = route.request?.[part];
    if (schema) out.push({ where: `${name} ${part}`, schema });
  }
  const content = (holder: unknown) =>
    (holder as { content?: Record<string, { schema?: unknown }> })?.content ?? {};
  for (const [type, media] of Object.entries(content(route.request?.body)))
    if (type.includes('json') && media.schema) out.push({ where: `${name} body`, schema: media.schema });
  for (const [status, response] of Object.entries(route.responses ?? {}))
    for (const [type, media] of Object.entries(content(response)))
      if (type.includes('json') && media.schema)
        out.push({ where: `${name} ${status}`, schema: media.schema });
  return out;
}

type Route = Parameters<typeof routeSchemas>[0];

/** Every route the API registers (building the app handles no request, so no database is needed). */
function registeredRoutes(): Route[] {
  const env = parseEnv({});
  const app = createApp({ env, db: {} as Db, auth: {} as Auth, logger: createLogger('silent') });
  return app.openAPIRegistry.definitions.flatMap((d) => (d.type === 'route' ? [d.route as Route] : []));
}

/** "GET /api/flows/:id" for a route (OpenAPI writes `{id}`) or a declared endpoint. */
const keyOf = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;

/** The schema of a route's JSON body, or of its first 2xx JSON answer. */
function jsonSchemaOf(holder: unknown): unknown {
  return (holder as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.[
    'application/json'
  ]?.schema;
}

describe('the OpenAPI registry', () => {
  it('declares only schemas exported by @bahi/contracts', () => {
    const routes = registeredRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const inline = routes.flatMap(routeSchemas).filter((s) => !exported.has(s.schema));
    expect(inline.map((s) => s.where)).toEqual([]);
  });

  it('serves exactly the endpoints @bahi/contracts declares, with the same body, query and answer', () => {
    const routes = new Map(registeredRoutes().map((r) => [keyOf(r.method, r.path), r]));
    const declared = new Map<string, contracts.Endpoint | contracts.FileEndpoint>(
      [
        ...Object.values(contracts.endpoints),
        ...Object.values(contracts.legacyEndpoints),
        ...Object.values(contracts.fileEndpoints),
      ].map((e) => [keyOf(e.method, e.path), e]),
    );
    expect([...routes.keys()].filter((k) => !declared.has(k))).toEqual([]);
    expect([...declared.keys()].filter((k) => !routes.has(k))).toEqual([]);
    // Each route is built from its declaration (routeFor), not written out again beside it.
    const byHand = [...routes].filter(([key, route]) => endpointNameOf(route) !== declared.get(key)?.name);
    expect(byHand.map(([key]) => key)).toEqual([]);
    const drift: string[] = [];
    for (const [key, endpoint] of declared) {
      const route = routes.get(key)!;
      if ((route.request?.query ?? undefined) !== (endpoint.query ?? undefined)) drift.push(`${key} query`);
      if (!('response' in endpoint)) continue;
      if (jsonSchemaOf(route.request?.body) !== (endpoint.body ?? undefined)) drift.push(`${key} body`);
      const answer = Object.entries(route.responses ?? {}).find(([status]) => status.startsWith('2'));
      if (jsonSchemaOf(answer?.[1]) !== endpoint.response) drift.push(`${key} answer`);
    }
    expect(drift).toEqual([]);
  });
});
