import { endpoints, legacyEndpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { createSheet, processFolder, processUrl } from './legacy.service.ts';

// Listed with the flows in the API document, as they always were.
const tags = ['Flows'];
/** What starting a run can answer besides 202: the flow's checks and a run already going. */
const runStartErrors = [
  'unauthenticated',
  'not_found',
  'validation',
  'run_in_progress',
  'google_auth_required',
] as const;

const createSheetRoute = routeFor(endpoints.createFlowSheet, {
  tags,
  summary: "Create the flow's output workbook; returns its id, name and in-app link",
  body: { description: 'Flow and sheet name', required: true },
  errors: ['unauthenticated', 'not_found', 'validation'],
});

const processFolderRoute = routeFor(legacyEndpoints.legacyProcessFolder, {
  tags,
  summary:
    'Start a run of a flow ({ workflowId }) or of an ad-hoc folder ({ folderUrl|folderPath, type, sheetId })',
  body: { description: 'What to run', required: true },
  status: 202,
  answer: 'Run queued',
  errors: runStartErrors,
});

const processUrlRoute = routeFor(legacyEndpoints.legacyProcessUrl, {
  tags,
  summary: 'Process one file: a Google Drive file link or a path under the allowed folders',
  body: { description: 'The file', required: true },
  status: 202,
  answer: 'Run queued',
  errors: runStartErrors,
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
