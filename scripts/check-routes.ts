/**
 * `npm run lint` (after biome): every route the server registers names a method and path that
 * `@bahi/contracts` declares (`endpoints`, `legacyEndpoints` or `fileEndpoints`), is built from that
 * declaration (`routeFor`/`fileRouteFor`, so method, path and schemas are written once, in contracts), and
 * every declared endpoint is served. A route added on the server alone, or written out by hand with
 * `createRoute`, fails here before any test runs; `openapi-contracts.test.ts` then checks that both sides
 * name the same body, query and answer schemas.
 */
import { endpoints, fileEndpoints, legacyEndpoints } from '@bahi/contracts';
import { parseEnv } from '../apps/server/src/config/env.ts';
import type { Db } from '../apps/server/src/db/client.ts';
import { createApp } from '../apps/server/src/http/app.ts';
import { endpointNameOf } from '../apps/server/src/http/route-for.ts';
import { createLogger } from '../apps/server/src/lib/logger.ts';
import type { Auth } from '../apps/server/src/modules/auth/auth.ts';

// Building the app registers its routes; no request is handled, so no database or auth is needed.
const app = createApp({ env: parseEnv({}), db: {} as Db, auth: {} as Auth, logger: createLogger('silent') });
const routes = app.openAPIRegistry.definitions.flatMap((d) => (d.type === 'route' ? [d.route] : []));
/** "GET /api/flows/:id" → the name of the endpoint the route was built from (undefined: by hand). */
const served = new Map(
  routes.map((r) => [`${r.method.toUpperCase()} ${r.path.replace(/\{(\w+)\}/g, ':$1')}`, endpointNameOf(r)]),
);
const declared = new Map(
  [...Object.values(endpoints), ...Object.values(legacyEndpoints), ...Object.values(fileEndpoints)].map(
    (e) => [`${e.method} ${e.path}`, e.name],
  ),
);
const undeclared = [...served.keys()].filter((k) => !declared.has(k));
const unserved = [...declared.keys()].filter((k) => !served.has(k));
const byHand = [...served].filter(([k, name]) => declared.has(k) && name !== declared.get(k)).map(([k]) => k);
if (undeclared.length > 0)
  console.error(
    `Routes that @bahi/contracts does not declare (add each to packages/contracts/src/endpoints.ts):\n  ${undeclared.join('\n  ')}`,
  );
if (unserved.length > 0)
  console.error(`Endpoints @bahi/contracts declares that no route serves:\n  ${unserved.join('\n  ')}`);
if (byHand.length > 0)
  console.error(
    `Routes not built from their contracts endpoint (use routeFor or fileRouteFor from apps/server/src/http/route-for.ts):\n  ${byHand.join('\n  ')}`,
  );
if (undeclared.length > 0 || unserved.length > 0 || byHand.length > 0) process.exit(1);
console.log(`check-routes: ${served.size} routes, each declared once in @bahi/contracts and built from it`);
