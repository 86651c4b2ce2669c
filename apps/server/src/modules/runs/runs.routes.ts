import { RunSchema } from '@bahi/contracts';
import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../auth/session.ts';
import { findRunById } from './runs.repo.ts';
import { getRun, requireRun, toProgress, withLiveCounts } from './runs.service.ts';

const IdParams = z.object({ id: z.string() });
/** How often the event stream looks at the run (the worker may be another process: the DB is the bus). */
const POLL_MS = 500;

const getRunRoute = createRoute({
  method: 'get',
  path: '/runs/{id}',
  tags: ['Runs'],
  summary: 'A run with its counters (poll while it runs)',
  request: { params: IdParams },
  responses: { 200: jsonContent(RunSchema), ...describeErrors('unauthenticated', 'not_found') },
});

const eventsRoute = createRoute({
  method: 'get',
  path: '/runs/{id}/events',
  tags: ['Runs'],
  summary:
    'Server-sent events: `progress` {runId,status,done,total,currentFile,failed,needsReview} as it changes, then `end` with the Run',
  request: { params: IdParams },
  responses: {
    200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: z.string() } } },
    ...describeErrors('unauthenticated', 'not_found'),
  },
});

/** `/api/runs/:id` and its live progress stream. */
export function createRunRoutes({ db }: AppDeps) {
  return createRouter()
    .openapi(getRunRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getRun(db, membership, c.req.valid('param').id), 200);
    })
    .openapi(eventsRoute, async (c) => {
      const { membership } = requireMembership(c);
      const first = await requireRun(db, membership, c.req.valid('param').id);
      return streamSSE(c, async (stream) => {
        let aborted = false;
        stream.onAbort(() => {
          aborted = true;
        });
        let last = '';
        for (let row = first; !aborted; ) {
          const run = await withLiveCounts(db, row);
          const progress = JSON.stringify(toProgress(run));
          if (progress !== last) {
            last = progress;
            await stream.writeSSE({ event: 'progress', data: progress });
          }
          if (run.status === 'succeeded' || run.status === 'failed') {
            await stream.writeSSE({ event: 'end', data: JSON.stringify(run) });
            return;
          }
          await stream.sleep(POLL_MS);
          const next = await findRunById(db, row.id);
          if (!next) return;
          row = next;
        }
      }) as never;
    });
}
