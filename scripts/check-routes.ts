/**
 * `npm run lint` (after biome): every route the server registers names a method and path that
 * `@bahi/contracts` declares (`endpoints` or `fileEndpoints`), and every declared endpoint is served. A
 * route added on the server alone fails here, before any test runs; `openapi-contracts.test.ts` then
 * checks that both sides name the same body, query and answer schemas.
 */
import { endpoints, fileEndpoints, legacyEndpoints } from '@bahi/contracts';
import { parseEnv } from '../apps/server/src/config/env.ts';
import type { Db } from '../apps/server/src/db/client.ts';
import { createApp } from '../apps/server/src/http/app.ts';
import { createLogger } from '../apps/server/src/lib/logger.ts';
import type { Auth } from '../apps/server/src/modules/auth/auth.ts';

// Building the app registers its routes; no request is handled, so no database or auth is needed.
const app = createApp({ env: parseEnv({}), db: {} as Db, auth: {} as Auth, logger: createLogger('silent') });
const served = new Set(
  app.openAPIRegistry.definitions.flatMap((d) =>
    d.type === 'route'
      ? [`${d.route.method.toUpperCase()} ${d.route.path.replace(/\{(\w+)\}/g, ':$1')}`]
      : [],
  ),
);
const declared = new Set(
  [...Object.values(endpoints), ...Object.values(legacyEndpoints), ...Object.values(fileEndpoints)].map(
    (e) => `${e.method} ${e.path}`,
  ),
);
const undeclared = [...served].filter((k) => !declared.has(k));
const unserved = [...declared].filter((k) => !served.has(k));
if (undeclared.length > 0)
  console.error(
    `Routes that @bahi/contracts does not declare (add each to packages/contracts/src/endpoints.ts):\n  ${undeclared.join('\n  ')}`,
  );
if (unserved.length > 0)
  console.error(`Endpoints @bahi/contracts declares that no route serves:\n  ${unserved.join('\n  ')}`);
if (undeclared.length > 0 || unserved.length > 0) process.exit(1);
console.log(`check-routes: ${served.size} routes, each declared once in @bahi/contracts`);
