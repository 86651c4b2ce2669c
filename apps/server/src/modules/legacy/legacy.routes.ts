import {
  CreatedSheetSchema,
  CreateSheetInputSchema,
  ProcessFolderInputSchema,
  ProcessUrlInputSchema,
  StartedRunSchema,
} from '@bahi/contracts';
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { createSheet, processFolder, processUrl } from './legacy.service.ts';

// Listed with the flows in the API document, as they always were.
const tags = ['Flows'];
/** What starting a run can answer besides 202: the flow's checks and a run already going. */
const runStartErrors = describeErrors(
  'unauthenticated',
  'not_found',
  'validation',
  'run_in_progress',
  'google_auth_required',
);

const createSheetRoute = createRoute({
  method: 'post',
  path: '/workflow/sheets/create',
  tags,
  summary: "Create the flow's output workbook; returns its id, name and in-app link",
  request: { body: { ...jsonContent(CreateSheetInputSchema, 'Flow and sheet name'), required: true } },
  responses: {
    200: jsonContent(CreatedSheetSchema),
    ...describeErrors('unauthenticated', 'not_found', 'validation'),
  },
});

const processFolderRoute = createRoute({
  method: 'post',
  path: '/workflow/process-folder',
  tags,
  summary:
    'Start a run of a flow ({ workflowId }) or of an ad-hoc folder ({ folderUrl|folderPath, type, sheetId })',
  request: { body: { ...jsonContent(ProcessFolderInputSchema, 'What to run'), required: true } },
  responses: {
    202: jsonContent(StartedRunSchema, 'Run queued'),
    ...runStartErrors,
  },
});

const processUrlRoute = createRoute({
  method: 'post',
  path: '/process-url',
  tags,
  summary: 'Process one file: a Google Drive file link or a path under the allowed folders',
  request: { body: { ...jsonContent(ProcessUrlInputSchema, 'The file'), required: true } },
  responses: {
    202: jsonContent(StartedRunSchema, 'Run queued'),
    ...runStartErrors,
  },
});

/**
 * The original product's action routes, kept with their JSON: `/api/workflow/sheets/create`,
 * `/api/workflow/process-folder` and `/api/process-url`. They sit on top of flows and runs, which know
 * nothing of them.
 */
export function createLegacyRoutes({ db, env, jobs, executor }: AppDeps) {
  return createRouter()
    .openapi(createSheetRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await createSheet(db, { env, executor, membership, input: c.req.valid('json') }), 200);
    })
    .openapi(processFolderRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await processFolder(db, { env, jobs, user, membership, input: c.req.valid('json') }),
        202,
      );
    })
    .openapi(processUrlRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await processUrl(db, { env, jobs, user, membership, input: c.req.valid('json') }), 202);
    });
}
