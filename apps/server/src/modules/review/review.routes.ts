import { endpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { getReviewQueue } from './review.service.ts';

const queueRoute = routeFor(endpoints.reviewQueue, {
  tags: ['Review'],
  summary: "The organisation's documents to review, across flows: filtered, searched, a page at a time",
  errors: ['unauthenticated', 'validation'],
});

/** The review queue across flows. */
export function createReviewRoutes({ db }: AppDeps) {
  return createRouter().openapi(queueRoute, async (c) => {
    const { membership } = requireMembership(c);
    return c.json(await getReviewQueue(db, membership, c.req.valid('query')), 200);
  });
}
