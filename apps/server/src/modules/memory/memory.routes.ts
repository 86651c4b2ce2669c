import { endpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { forgetLearnedField } from './memory.service.ts';

const forgetRoute = routeFor(endpoints.forgetLearnedField, {
  tags: ['Documents'],
  summary: "Forget what Bahi learned from corrections about this document's issuer, for one field",
  answer: 'The document, its value no longer marked as learned',
  errors: ['unauthenticated', 'not_found', 'validation', 'conflict'],
});

/** Memory from corrections: a person's "forget" on the review screen (learning is a job). */
export function createMemoryRoutes({ db, env }: AppDeps) {
  return createRouter().openapi(forgetRoute, async (c) => {
    const { user, membership } = requireMembership(c);
    return c.json(
      await forgetLearnedField(
        { db, env },
        { user, membership, id: c.req.valid('param').id, field: c.req.valid('json').field },
      ),
      200,
    );
  });
}
