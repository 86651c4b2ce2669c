import { endpoints, fileEndpoints, type Run } from '@bahi/contracts';
import { streamSSE } from 'hono/streaming';
import type { AppDeps } from '../../http/context.ts';
import { fileRouteFor, routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { requireFlow } from '../flows/flows.service.ts';
import { reprocessDocument, reprocessFile, retryDocument } from './document-reruns.ts';
import { createRunProgressHub } from './run-progress-hub.ts';
import { getRun, listRuns, requireRun, startRun, toProgress, toRun, withLiveCounts } from './runs.service.ts';

/** How often the progress hub reads the watched runs (the worker may be another process: the DB is the bus). */
const POLL_MS = 500;
/** Open progress streams per user, and per process (each holds a connection; the web falls back to polling). */
const MAX_STREAMS_PER_USER = 20;
const MAX_STREAMS = 1000;

const getRunRoute = routeFor(endpoints.getRun, {
  tags: ['Runs'],
  summary: 'A run with its counters (poll while it runs)',
  errors: ['unauthenticated', 'not_found'],
});

const eventsRoute = fileRouteFor(fileEndpoints.runEvents, {
  tags: ['Runs'],
  summary:
    'Server-sent events: `progress` {runId,status,done,total,currentFile,failed,needsReview} as it changes, then `end` with the Run',
  errors: ['unauthenticated', 'not_found', 'rate_limited'],
});

const startRunRoute = routeFor(endpoints.startRun, {
  tags: ['Runs'],
  summary: 'Start a run of the flow (new documents only; already processed files are skipped)',
  status: 202,
  answer: 'Run queued',
  errors: ['unauthenticated', 'not_found', 'validation', 'run_in_progress', 'google_auth_required'],
});

const listRunsRoute = routeFor(endpoints.listFlowRuns, {
  tags: ['Runs'],
  summary: "The flow's run history, newest first",
  errors: ['unauthenticated', 'not_found'],
});

const reprocessRoute = routeFor(endpoints.reprocessDocument, {
  tags: ['Documents'],
  summary: 'Extract the document again in a new run, replacing its rows',
  status: 202,
  answer: 'Run queued',
  errors: ['unauthenticated', 'not_found', 'run_in_progress', 'google_auth_required'],
});

const reprocessFileRoute = routeFor(endpoints.reprocessFile, {
  tags: ['Documents'],
  summary: "Read the document's whole file again in a new run, finding the documents it holds anew",
  status: 202,
  answer: 'Run queued',
  errors: ['unauthenticated', 'not_found', 'run_in_progress', 'google_auth_required'],
});

const retryRoute = routeFor(endpoints.retryDocument, {
  tags: ['Documents'],
  summary: 'Retry a failed document in a new run',
  status: 202,
  answer: 'Run queued',
  errors: ['unauthenticated', 'not_found', 'conflict', 'run_in_progress', 'google_auth_required'],
});

/**
 * Runs: starting one of a flow (or of one document again: re-process, retry), a flow's run history, and
 * `/api/runs/:id` with its live progress stream.
 */
export function createRunRoutes({ db, env, jobs }: AppDeps) {
  const hub = createRunProgressHub(db, {
    pollMs: POLL_MS,
    maxStreamsPerUser: MAX_STREAMS_PER_USER,
    maxStreams: MAX_STREAMS,
  });
  return createRouter()
    .openapi(startRunRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      const flow = await requireFlow(db, membership, c.req.valid('param').id);
      return c.json(toRun(await startRun(db, { env, jobs, user, flow })), 202);
    })
    .openapi(listRunsRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json({ items: await listRuns(db, membership, c.req.valid('param').id) }, 200);
    })
    .openapi(reprocessRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await reprocessDocument(db, { env, jobs, user, membership, id: c.req.valid('param').id }),
        202,
      );
    })
    .openapi(reprocessFileRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await reprocessFile(db, { env, jobs, user, membership, id: c.req.valid('param').id }),
        202,
      );
    })
    .openapi(retryRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await retryDocument(db, { env, jobs, user, membership, id: c.req.valid('param').id }),
        202,
      );
    })
    .openapi(getRunRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getRun(db, membership, c.req.valid('param').id), 200);
    })
    .openapi(eventsRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      const first = await requireRun(db, membership, c.req.valid('param').id);
      const release = hub.admit(user.id);
      return streamSSE(c, async (stream) => {
        const closed = new AbortController();
        stream.onAbort(() => closed.abort());
        try {
          let last = '';
          for (let run: Run | null = await withLiveCounts(db, first); run && !closed.signal.aborted; ) {
            const progress = JSON.stringify(toProgress(run));
            if (progress !== last) {
              last = progress;
              await stream.writeSSE({ event: 'progress', data: progress });
            }
            if (run.status === 'succeeded' || run.status === 'failed') {
              await stream.writeSSE({ event: 'end', data: JSON.stringify(run) });
              return;
            }
            run = await hub.next(run.id, closed.signal);
          }
        } finally {
          release();
        }
      }) as never;
    });
}
