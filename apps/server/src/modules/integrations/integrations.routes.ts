import { IntegrationsSchema } from '@bahi/contracts';
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireUser } from '../../http/session.ts';
import { getIntegrations } from './integrations.service.ts';

const getIntegrationsRoute = createRoute({
  method: 'get',
  path: '/integrations',
  tags: ['Integrations'],
  summary: 'State of external integrations (Google)',
  responses: { 200: jsonContent(IntegrationsSchema), ...describeErrors('unauthenticated') },
});

/** `/api/integrations`. */
export function createIntegrationRoutes({ db, env }: AppDeps) {
  return createRouter().openapi(getIntegrationsRoute, async (c) => {
    requireUser(c);
    return c.json(await getIntegrations(db, env, c.get('membership')?.organizationId ?? null), 200);
  });
}
