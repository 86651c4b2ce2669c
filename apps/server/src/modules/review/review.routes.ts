import { ReviewQueueQuerySchema, ReviewQueueSchema } from '@bahi/contracts';
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { getReviewQueue } from './review.service.ts';

const queueRoute = createRoute({
  method: 'get',
  path: '/review',
  tags: ['Review'],
  summary: "The organisation's documents to review, across flows: filtered, searched, a page at a time",
  request: { query: ReviewQueueQuerySchema },
  responses: {
    200: jsonContent(ReviewQueueSchema),
    ...describeErrors('unauthenticated', 'validation'),
  },
});

/** The review queue across flows. */
export function createReviewRoutes({ db }: AppDeps) {
  return createRouter().openapi(queueRoute, async (c) => {
    const { membership } = requireMembership(c);
    return c.json(await getReviewQueue(db, membership, c.req.valid('query')), 200);
  });
}
