import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { DocumentPageParamsSchema, endpoints, fileEndpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { fileRouteFor, routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { getDocumentPageImage } from './document-pages.ts';
import { approveDocument, correctDocument, getDocumentReview } from './document-review.service.ts';
import { getDocument, getDocumentFile, listDocuments, removeDocument } from './documents.service.ts';

const tags = ['Documents'];

const listRoute = routeFor(endpoints.listFlowDocuments, {
  tags,
  summary: "A page of the flow's documents (50 per page), optionally by status",
  errors: ['unauthenticated', 'not_found', 'validation'],
});

const getRoute = routeFor(endpoints.flowDocument, {
  tags,
  summary: 'A document with its extraction/v1 result',
  errors: ['unauthenticated', 'not_found'],
});

const fileRoute = fileRouteFor(fileEndpoints.documentFile, {
  tags,
  summary: "The document's stored file (the sheet's link back)",
  media: 'application/octet-stream',
  answer: 'The file',
  errors: ['unauthenticated', 'not_found'],
});

const removeRoute = routeFor(endpoints.removeDocument, {
  tags,
  summary: 'Take the document out of its flow (its rows leave the sheets; the file is not read again)',
  answer: 'The removed document',
  errors: ['unauthenticated', 'not_found', 'run_in_progress'],
});

const reviewRoute = routeFor(endpoints.documentReview, {
  tags,
  summary: 'What the review screen shows: the document, its pages, its trail and its neighbours',
  errors: ['unauthenticated', 'not_found'],
});

const pageImageRoute = fileRouteFor(fileEndpoints.documentPage, {
  tags,
  summary: 'A page of the document as a PNG picture (widths 640–2400 pixels)',
  params: DocumentPageParamsSchema,
  media: 'image/png',
  answer: 'The page',
  errors: ['unauthenticated', 'not_found', 'validation'],
});

const correctRoute = routeFor(endpoints.correctDocument, {
  tags,
  summary: 'Correct header fields and line cells; checks run again and the sheets follow',
  answer: 'The document after the correction',
  errors: ['unauthenticated', 'not_found', 'validation', 'conflict', 'run_in_progress'],
});

const approveRoute = routeFor(endpoints.approveDocument, {
  tags,
  summary: "Approve the document's values as they stand (a note is required over a failed check)",
  body: { description: 'Why, when a check failed', required: false },
  answer: 'The approved document',
  errors: ['unauthenticated', 'not_found', 'conflict', 'run_in_progress', 'validation'],
});

/**
 * Documents of flows: list, detail, review, pages, corrections, approval, stored file and remove (re-process
 * and retry start runs: the runs module has them).
 */
export function createDocumentRoutes({ db, env, logger, jobs }: AppDeps) {
  const review = { db, env, logger, jobs };
  return createRouter()
    .openapi(reviewRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getDocumentReview(db, { env, membership, id: c.req.valid('param').id }), 200);
    })
    .openapi(pageImageRoute, async (c) => {
      const { membership } = requireMembership(c);
      const { id, page } = c.req.valid('param');
      const { path, placeholder } = await getDocumentPageImage(db, {
        env,
        membership,
        id,
        page,
        width: c.req.valid('query').width,
      });
      const body = Readable.toWeb(createReadStream(path)) as ReadableStream;
      return new Response(body, {
        headers: {
          'content-type': 'image/png',
          'x-content-type-options': 'nosniff',
          'cache-control': 'private, max-age=3600',
          // A page too costly to draw is answered with a picture saying so.
          ...(placeholder ? { 'x-bahi-page-placeholder': '1' } : {}),
        },
      }) as never;
    })
    .openapi(correctRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await correctDocument(review, {
          user,
          membership,
          id: c.req.valid('param').id,
          input: c.req.valid('json'),
        }),
        200,
      );
    })
    .openapi(approveRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      const id = c.req.valid('param').id;
      return c.json(await approveDocument(review, { user, membership, id, input: c.req.valid('json') }), 200);
    })
    .openapi(removeRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await removeDocument(db, { user, membership, id: c.req.valid('param').id, logger, jobs }),
        200,
      );
    })
    .openapi(listRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(
        await listDocuments(db, { membership, flowId: c.req.valid('param').id, query: c.req.valid('query') }),
        200,
      );
    })
    .openapi(getRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getDocument(db, membership, c.req.valid('param').id), 200);
    })
    .openapi(fileRoute, async (c) => {
      const { membership } = requireMembership(c);
      const file = await getDocumentFile(db, { env, membership, id: c.req.valid('param').id });
      const body = Readable.toWeb(createReadStream(file.path)) as ReadableStream;
      return new Response(body, {
        headers: {
          'content-type': file.contentType,
          'content-length': String(file.size),
          'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
          'x-content-type-options': 'nosniff',
          'cache-control': 'private, max-age=300',
        },
      }) as never;
    });
}
