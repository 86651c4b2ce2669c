import { InterestListSchema, RegisterInterestInputSchema } from '@bahi/contracts';
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { listInterests, registerInterest } from './interest.service.ts';

const listRoute = createRoute({
  method: 'get',
  path: '/interest',
  tags: ['Interest'],
  summary: 'Upcoming modules the caller asked to be notified about',
  responses: {
    200: jsonContent(InterestListSchema),
    ...describeErrors('unauthenticated', 'no_organization'),
  },
});

const registerRoute = createRoute({
  method: 'post',
  path: '/interest',
  tags: ['Interest'],
  summary: 'Get Notified about an upcoming module (idempotent)',
  request: { body: { ...jsonContent(RegisterInterestInputSchema, 'Which module'), required: true } },
  responses: {
    200: jsonContent(InterestListSchema),
    ...describeErrors('unauthenticated', 'no_organization', 'validation'),
  },
});

/** `/api/interest`. */
export function createInterestRoutes({ db }: AppDeps) {
  return createRouter()
    .openapi(listRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await listInterests(db, membership.organizationId, user.id), 200);
    })
    .openapi(registerRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await registerInterest(db, {
          organizationId: membership.organizationId,
          user,
          module: c.req.valid('json').module,
        }),
        200,
      );
    });
}
