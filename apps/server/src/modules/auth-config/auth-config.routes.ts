import { endpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { getAuthConfig } from './auth-config.service.ts';

const getAuthConfigRoute = routeFor(endpoints.authConfig, {
  tags: ['Account'],
  summary: 'Sign-in options (public)',
  security: [],
});

/** `/api/auth-config` (public: the sign-in page needs it before anyone is signed in). */
export function createAuthConfigRoutes({ env }: AppDeps) {
  return createRouter().openapi(getAuthConfigRoute, (c) => c.json(getAuthConfig(env), 200));
}
