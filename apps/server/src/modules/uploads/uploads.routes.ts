import { UploadListSchema, UploadResultSchema } from '@bahi/contracts';
import { createRoute, z } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireMembership } from '../auth/session.ts';
import { addUploads, listUploads } from './uploads.service.ts';

const IdParams = z.object({ id: z.string() });
/** One request may carry several files; each is still checked against UPLOAD_MAX_BYTES on its own. */
const REQUEST_FILES_FACTOR = 10;

const uploadRoute = createRoute({
  method: 'post',
  path: '/flows/{id}/uploads',
  tags: ['Uploads'],
  summary:
    'Upload documents (PDF, PNG, JPEG, TIFF, WebP) or .zip files as multipart field `files` (repeatable); they become the flow inbox',
  request: {
    params: IdParams,
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: z.object({ files: z.any().openapi({ type: 'string', format: 'binary' }) }),
        },
      },
    },
  },
  responses: {
    201: jsonContent(UploadResultSchema, 'Stored and skipped files'),
    ...describeErrors('unauthenticated', 'not_found', 'validation', 'payload_too_large'),
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/flows/{id}/uploads',
  tags: ['Uploads'],
  summary: "The flow's uploaded files, newest first",
  request: { params: IdParams },
  responses: { 200: jsonContent(UploadListSchema), ...describeErrors('unauthenticated', 'not_found') },
});

/** Browser uploads into a flow's inbox. */
export function createUploadRoutes({ db, env }: AppDeps) {
  const router = createRouter();
  router.use(
    '/flows/:id/uploads',
    bodyLimit({
      maxSize: env.flows.uploadMaxBytes * REQUEST_FILES_FACTOR,
      onError: () => {
        throw new AppError(
          'payload_too_large',
          'The upload is too large; send fewer or smaller files at a time',
        );
      },
    }),
  );
  return router
    .openapi(uploadRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      const form = await c.req.parseBody({ all: true });
      const raw = form.files ?? form['files[]'] ?? form.file;
      const list = (Array.isArray(raw) ? raw : raw ? [raw] : []).filter(
        (f): f is File => typeof f !== 'string',
      );
      if (list.length === 0)
        throw new AppError('validation', 'Choose at least one file to upload', { files: 'Choose a file' });
      const files = await Promise.all(
        list.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })),
      );
      return c.json(await addUploads(db, env, user, membership, c.req.valid('param').id, files), 201);
    })
    .openapi(listRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await listUploads(db, membership, c.req.valid('param').id), 200);
    });
}
