import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import {
  ApproveDocumentSchema,
  DocumentCorrectionSchema,
  DocumentListQuerySchema,
  DocumentListSchema,
  DocumentPageParamsSchema,
  DocumentPageQuerySchema,
  DocumentReviewSchema,
  FlowDocumentDetailSchema,
  FlowDocumentSchema,
  IdParamsSchema,
} from '@bahi/contracts';
import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { getDocumentPageImage } from './document-pages.ts';
import { approveDocument, correctDocument, getDocumentReview } from './document-review.service.ts';
import { getDocument, getDocumentFile, listDocuments, removeDocument } from './documents.service.ts';

const tags = ['Documents'];

const listRoute = createRoute({
  method: 'get',
  path: '/flows/{id}/documents',
  tags,
  summary: "A page of the flow's documents (50 per page), optionally by status",
  request: {
    params: IdParamsSchema,
    query: DocumentListQuerySchema,
  },
  responses: {
    200: jsonContent(DocumentListSchema),
    ...describeErrors('unauthenticated', 'not_found', 'validation'),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/documents/{id}',
  tags,
  summary: 'A document with its extraction/v1 result',
  request: { params: IdParamsSchema },
  responses: {
    200: jsonContent(FlowDocumentDetailSchema),
    ...describeErrors('unauthenticated', 'not_found'),
  },
});

const fileRoute = createRoute({
  method: 'get',
  path: '/documents/{id}/file',
  tags,
  summary: "The document's stored file (the sheet's link back)",
  request: { params: IdParamsSchema },
  responses: {
    200: { description: 'The file', content: { 'application/octet-stream': { schema: z.string() } } },
    ...describeErrors('unauthenticated', 'not_found'),
  },
});

const removeRoute = createRoute({
  method: 'delete',
  path: '/documents/{id}',
  tags,
  summary: 'Take the document out of its flow (its rows leave the sheets; the file is not read again)',
  request: { params: IdParamsSchema },
  responses: {
    200: jsonContent(FlowDocumentSchema, 'The removed document'),
    ...describeErrors('unauthenticated', 'not_found', 'run_in_progress'),
  },
});

const reviewRoute = createRoute({
  method: 'get',
  path: '/documents/{id}/review',
  tags,
  summary: 'What the review screen shows: the document, its pages, its trail and its neighbours',
  request: { params: IdParamsSchema },
  responses: {
    200: jsonContent(DocumentReviewSchema),
    ...describeErrors('unauthenticated', 'not_found'),
  },
});

const pageImageRoute = createRoute({
  method: 'get',
  path: '/documents/{id}/pages/{page}',
  tags,
  summary: 'A page of the document as a PNG picture (widths 640–2400 pixels)',
  request: {
    params: DocumentPageParamsSchema,
    query: DocumentPageQuerySchema,
  },
  responses: {
    200: { description: 'The page', content: { 'image/png': { schema: z.string() } } },
    ...describeErrors('unauthenticated', 'not_found', 'validation'),
  },
});

const correctRoute = createRoute({
  method: 'patch',
  path: '/documents/{id}',
  tags,
  summary: 'Correct header fields and line cells; checks run again and the sheets follow',
  request: { params: IdParamsSchema, body: jsonContent(DocumentCorrectionSchema) },
  responses: {
    200: jsonContent(DocumentReviewSchema, 'The document after the correction'),
    ...describeErrors('unauthenticated', 'not_found', 'validation', 'conflict', 'run_in_progress'),
  },
});

const approveRoute = createRoute({
  method: 'post',
  path: '/documents/{id}/approve',
  tags,
  summary: "Approve the document's values as they stand (a note is required over a failed check)",
  request: {
    params: IdParamsSchema,
    body: { ...jsonContent(ApproveDocumentSchema, 'Why, when a check failed'), required: false },
  },
  responses: {
    200: jsonContent(DocumentReviewSchema, 'The approved document'),
    ...describeErrors('unauthenticated', 'not_found', 'conflict', 'run_in_progress', 'validation'),
  },
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
