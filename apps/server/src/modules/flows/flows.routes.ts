import {
  CreateWorkflowInputSchema,
  FlowIntakeSchema,
  IdParamsSchema,
  OkSchema,
  UpdateWorkflowInputSchema,
  WorkflowListSchema,
  WorkflowSchema,
} from '@bahi/contracts';
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import {
  createWorkflow,
  deleteWorkflow,
  getFlowIntake,
  listWorkflows,
  updateWorkflow,
} from './flows.service.ts';

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
    params: IdParamsSchema,
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
  request: { params: IdParamsSchema },
  responses: { 200: jsonContent(OkSchema), ...describeErrors('unauthenticated', 'not_found') },
});

const intakeRoute = createRoute({
  method: 'get',
  path: '/flows/{id}/intake',
  tags,
  summary: "A flow's trigger, next run, source error and intake log (taken, skipped and why, failed and why)",
  request: { params: IdParamsSchema },
  responses: { 200: jsonContent(FlowIntakeSchema), ...describeErrors('unauthenticated', 'not_found') },
});

/** `/api/workflows`: the original product's flow API (create, list, update, delete), and a flow's intake. */
export function createFlowRoutes({ db, env }: AppDeps) {
  return createRouter()
    .openapi(listRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await listWorkflows(db, membership), 200);
    })
    .openapi(createFlowRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await createWorkflow(db, { env, user, membership, input: c.req.valid('json') }), 201);
    })
    .openapi(updateRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await updateWorkflow(db, {
          env,
          user,
          membership,
          flowId: c.req.valid('param').id,
          input: c.req.valid('json'),
        }),
        200,
      );
    })
    .openapi(intakeRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getFlowIntake(db, membership, c.req.valid('param').id), 200);
    })
    .openapi(deleteRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      await deleteWorkflow(db, { env, user, membership, flowId: c.req.valid('param').id });
      return c.json({ ok: true as const }, 200);
    });
}
