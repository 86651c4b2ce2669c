import { DocumentReviewSchema, ForgetLearnedFieldSchema, IdParamsSchema } from '@bahi/contracts';
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { forgetLearnedField } from './memory.service.ts';

const forgetRoute = createRoute({
  method: 'post',
  path: '/documents/{id}/forget',
  tags: ['Documents'],
  summary: "Forget what Bahi learned from corrections about this document's issuer, for one field",
  request: { params: IdParamsSchema, body: jsonContent(ForgetLearnedFieldSchema) },
  responses: {
    200: jsonContent(DocumentReviewSchema, 'The document, its value no longer marked as learned'),
    ...describeErrors('unauthenticated', 'not_found', 'validation', 'conflict'),
  },
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
