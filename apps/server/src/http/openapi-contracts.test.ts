import * as contracts from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseEnv } from '../config/env.ts';
import type { Db } from '../db/client.ts';
import { createLogger } from '../lib/logger.ts';
import type { Auth } from '../modules/auth/auth.ts';
import { createApp } from './app.ts';

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

describe('the OpenAPI registry', () => {
  it('declares only schemas exported by @bahi/contracts', () => {
    const env = parseEnv({});
    // Building the app registers its routes; nothing here handles a request, so no database is needed.
    const app = createApp({ env, db: {} as Db, auth: {} as Auth, logger: createLogger('silent') });
    const routes = app.openAPIRegistry.definitions.flatMap((d) =>
      d.type === 'route' ? [d.route as Parameters<typeof routeSchemas>[0]] : [],
    );
    expect(routes.length).toBeGreaterThan(30);
    const inline = routes.flatMap(routeSchemas).filter((s) => !exported.has(s.schema));
    expect(inline.map((s) => s.where)).toEqual([]);
  });
});
