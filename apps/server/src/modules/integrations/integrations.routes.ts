import { endpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireUser } from '../../http/session.ts';
import { getIntegrations } from './integrations.service.ts';

const getIntegrationsRoute = routeFor(endpoints.integrations, {
  tags: ['Integrations'],
  summary: 'State of external integrations (Google)',
  errors: ['unauthenticated'],
});

/** `/api/integrations`. */
export function createIntegrationRoutes({ db, env }: AppDeps) {
  return createRouter().openapi(getIntegrationsRoute, async (c) => {
    requireUser(c);
    return c.json(await getIntegrations(db, env, c.get('membership')?.organizationId ?? null), 200);
  });
}
