import { AuthConfigSchema } from '@bahi/contracts';
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, jsonContent } from '../../http/router.ts';
import { getAuthConfig } from './auth-config.service.ts';

const getAuthConfigRoute = createRoute({
  method: 'get',
  path: '/auth-config',
  tags: ['Account'],
  summary: 'Sign-in options (public)',
  security: [],
  responses: { 200: jsonContent(AuthConfigSchema) },
});

/** `/api/auth-config` (public: the sign-in page needs it before anyone is signed in). */
export function createAuthConfigRoutes({ env }: AppDeps) {
  return createRouter().openapi(getAuthConfigRoute, (c) => c.json(getAuthConfig(env), 200));
}
