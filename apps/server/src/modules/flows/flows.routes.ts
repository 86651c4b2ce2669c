import {
  CreatedSheetSchema,
  CreateSheetInputSchema,
  CreateWorkflowInputSchema,
  OkSchema,
  ProcessFolderInputSchema,
  ProcessUrlInputSchema,
  RunListSchema,
  RunSchema,
  StartedRunSchema,
  UpdateWorkflowInputSchema,
  WorkflowListSchema,
  WorkflowSchema,
} from '@bahi/contracts';
import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../auth/session.ts';
import { listRuns, startRun, toRun } from '../runs/runs.service.ts';
import {
  createWorkflow,
  deleteWorkflow,
  listWorkflows,
  requireFlow,
  updateWorkflow,
} from './flows.service.ts';
import { createSheet, processFolder, processUrl } from './legacy.service.ts';

const IdParams = z.object({ id: z.string() });
const tags = ['Flows'];

const listRoute = createRoute({
  method: 'get',
  path: '/workflows',
  tags,
  summary: "The organisation's flows, newest first",
  responses: {
    200: jsonContent(WorkflowListSchema),
    ...describeErrors('unauthenticated', 'no_organization'),
  },
});

const createFlowRoute = createRoute({
  method: 'post',
  path: '/workflows',
  tags,
  summary: 'Create a flow (status starts inactive)',
  request: { body: { ...jsonContent(CreateWorkflowInputSchema, 'The flow'), required: true } },
  responses: {
    201: jsonContent(WorkflowSchema, 'Created'),
    ...describeErrors('unauthenticated', 'no_organization', 'validation'),
  },
});

const updateRoute = createRoute({
  method: 'put',
  path: '/workflows/{id}',
  tags,
  summary: "Update a flow's name, type or input/output",
  request: {
    params: IdParams,
    body: { ...jsonContent(UpdateWorkflowInputSchema, 'Fields to change'), required: true },
  },
  responses: {
    200: jsonContent(WorkflowSchema),
    ...describeErrors('unauthenticated', 'not_found', 'validation'),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/workflows/{id}',
  tags,
  summary: 'Delete a flow with its runs, documents, uploads and workbook',
  request: { params: IdParams },
  responses: { 200: jsonContent(OkSchema), ...describeErrors('unauthenticated', 'not_found') },
});

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
    ...describeErrors(
      'unauthenticated',
      'not_found',
      'validation',
      'run_in_progress',
      'google_auth_required',
    ),
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
    ...describeErrors(
      'unauthenticated',
      'not_found',
      'validation',
      'run_in_progress',
      'google_auth_required',
    ),
  },
});

const startRunRoute = createRoute({
  method: 'post',
  path: '/flows/{id}/runs',
  tags: ['Runs'],
  summary: 'Start a run of the flow (new documents only; already processed files are skipped)',
  request: { params: IdParams },
  responses: {
    202: jsonContent(RunSchema, 'Run queued'),
    ...describeErrors(
      'unauthenticated',
      'not_found',
      'validation',
      'run_in_progress',
      'google_auth_required',
    ),
  },
});

const listRunsRoute = createRoute({
  method: 'get',
  path: '/flows/{id}/runs',
  tags: ['Runs'],
  summary: "The flow's run history, newest first",
  request: { params: IdParams },
  responses: { 200: jsonContent(RunListSchema), ...describeErrors('unauthenticated', 'not_found') },
});

/** `/api/workflows` (the original product's flow API), its action routes, and starting/listing runs. */
export function createFlowRoutes({ db, env, jobs, executor }: AppDeps) {
  return createRouter()
    .openapi(listRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await listWorkflows(db, membership), 200);
    })
    .openapi(createFlowRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await createWorkflow(db, env, user, membership, c.req.valid('json')), 201);
    })
    .openapi(updateRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await updateWorkflow(db, env, user, membership, c.req.valid('param').id, c.req.valid('json')),
        200,
      );
    })
    .openapi(deleteRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      await deleteWorkflow(db, env, user, membership, c.req.valid('param').id);
      return c.json({ ok: true as const }, 200);
    })
    .openapi(createSheetRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await createSheet(db, env, executor, membership, c.req.valid('json')), 200);
    })
    .openapi(processFolderRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await processFolder(db, env, jobs, user, membership, c.req.valid('json')), 202);
    })
    .openapi(processUrlRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await processUrl(db, env, jobs, user, membership, c.req.valid('json')), 202);
    })
    .openapi(startRunRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      const flow = await requireFlow(db, membership, c.req.valid('param').id);
      return c.json(toRun(await startRun(db, env, jobs, user, flow)), 202);
    })
    .openapi(listRunsRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json({ items: await listRuns(db, membership, c.req.valid('param').id) }, 200);
    });
}
