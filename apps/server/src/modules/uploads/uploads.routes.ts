import { join } from 'node:path';
import { endpoints, listDocumentFormats } from '@bahi/contracts';
import { streamingBodyLimit } from '../../http/body-limit.ts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireFlow } from '../flows/flows.service.ts';
import { receiveMultipartFiles } from './multipart.ts';
import { addUploads, listUploads } from './uploads.service.ts';

/** One request may carry several files; each is still checked against UPLOAD_MAX_BYTES on its own. */
const REQUEST_FILES_FACTOR = 10;

const uploadRoute = routeFor(endpoints.uploadFiles, {
  tags: ['Uploads'],
  summary: `Upload documents (${listDocumentFormats({ withZip: true })} files) as multipart field \`files\` (repeatable); they become the flow inbox`,
  upload: { field: 'files', many: true },
  status: 201,
  answer: 'Stored and skipped files',
  errors: ['unauthenticated', 'not_found', 'validation', 'payload_too_large'],
});

const listRoute = routeFor(endpoints.listFlowUploads, {
  tags: ['Uploads'],
  summary: "The flow's uploaded files, newest first",
  errors: ['unauthenticated', 'not_found'],
});

/** Browser uploads into a flow's inbox. */
export function createUploadRoutes({ db, env }: AppDeps) {
  const router = createRouter();
  router.use(
    '/flows/:id/uploads',
    streamingBodyLimit({
      maxSize: env.flows.uploadMaxBytes * REQUEST_FILES_FACTOR,
      message: 'The upload is too large; send fewer or smaller files at a time',
    }),
  );
  return router
    .openapi(uploadRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      const flowId = c.req.valid('param').id;
      // An unknown flow is refused before a byte of the upload is stored.
      await requireFlow(db, membership, flowId);
      const received = await receiveMultipartFiles(c.req.raw, join(env.dataDir, 'tmp'), {
        maxFileBytes: env.flows.uploadMaxBytes,
        maxFiles: env.flows.maxFiles,
      });
      try {
        if (received.files.length === 0 && received.skipped.length === 0)
          throw new AppError('validation', 'Choose at least one file to upload', { files: 'Choose a file' });
        const result = await addUploads(db, { env, user, membership, flowId, files: received.files });
        return c.json({ ...result, skipped: [...received.skipped, ...result.skipped] }, 201);
      } finally {
        await received.cleanup();
      }
    })
    .openapi(listRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await listUploads(db, membership, c.req.valid('param').id), 200);
    });
}
