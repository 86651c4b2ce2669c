import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import {
  DocumentListSchema,
  DocumentStatusSchema,
  FlowDocumentDetailSchema,
  FlowDocumentSchema,
  StartedRunSchema,
} from '@bahi/contracts';
import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../auth/session.ts';
import {
  getDocument,
  getDocumentFile,
  listDocuments,
  removeDocument,
  reprocessDocument,
  retryDocument,
} from './documents.service.ts';

const IdParams = z.object({ id: z.string() });
const tags = ['Documents'];

const listRoute = createRoute({
  method: 'get',
  path: '/flows/{id}/documents',
  tags,
  summary: "A page of the flow's documents (50 per page), optionally by status",
  request: {
    params: IdParams,
    query: z.object({
      status: DocumentStatusSchema.optional(),
      page: z.coerce.number().int().min(1).default(1),
    }),
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
  request: { params: IdParams },
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
  request: { params: IdParams },
  responses: {
    200: { description: 'The file', content: { 'application/octet-stream': { schema: z.string() } } },
    ...describeErrors('unauthenticated', 'not_found'),
  },
});

const reprocessRoute = createRoute({
  method: 'post',
  path: '/documents/{id}/reprocess',
  tags,
  summary: 'Extract the document again in a new run, replacing its rows',
  request: { params: IdParams },
  responses: {
    202: jsonContent(StartedRunSchema, 'Run queued'),
    ...describeErrors('unauthenticated', 'not_found', 'run_in_progress', 'google_auth_required'),
  },
});

const retryRoute = createRoute({
  method: 'post',
  path: '/documents/{id}/retry',
  tags,
  summary: 'Retry a failed document in a new run',
  request: { params: IdParams },
  responses: {
    202: jsonContent(StartedRunSchema, 'Run queued'),
    ...describeErrors('unauthenticated', 'not_found', 'conflict', 'run_in_progress', 'google_auth_required'),
  },
});

const removeRoute = createRoute({
  method: 'delete',
  path: '/documents/{id}',
  tags,
  summary: 'Take the document out of its flow (its rows leave the sheets; the file is not read again)',
  request: { params: IdParams },
  responses: {
    200: jsonContent(FlowDocumentSchema, 'The removed document'),
    ...describeErrors('unauthenticated', 'not_found', 'run_in_progress'),
  },
});

/** Documents of flows: list, detail, stored file, re-process, retry and remove. */
export function createDocumentRoutes({ db, env, jobs, logger }: AppDeps) {
  return createRouter()
    .openapi(removeRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await removeDocument(db, env, user, membership, c.req.valid('param').id, logger), 200);
    })
    .openapi(listRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await listDocuments(db, membership, c.req.valid('param').id, c.req.valid('query')), 200);
    })
    .openapi(getRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getDocument(db, membership, c.req.valid('param').id), 200);
    })
    .openapi(fileRoute, async (c) => {
      const { membership } = requireMembership(c);
      const file = await getDocumentFile(db, env, membership, c.req.valid('param').id);
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
    })
    .openapi(reprocessRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await reprocessDocument(db, env, jobs, user, membership, c.req.valid('param').id), 202);
    })
    .openapi(retryRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await retryDocument(db, env, jobs, user, membership, c.req.valid('param').id), 202);
    });
}
