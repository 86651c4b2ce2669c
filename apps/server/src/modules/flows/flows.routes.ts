import { endpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import {
  createWorkflow,
  deleteWorkflow,
  getFlowIntake,
  listWorkflows,
  updateWorkflow,
} from './flows.service.ts';

const tags = ['Flows'];

const listRoute = routeFor(endpoints.listFlows, {
  tags,
  summary: "The organisation's flows, newest first",
  errors: ['unauthenticated', 'no_organization'],
});

const createFlowRoute = routeFor(endpoints.createFlow, {
  tags,
  summary: 'Create a flow (status starts inactive)',
  body: { description: 'The flow', required: true },
  status: 201,
  answer: 'Created',
  errors: ['unauthenticated', 'no_organization', 'validation'],
});

const updateRoute = routeFor(endpoints.updateFlow, {
  tags,
  summary: "Update a flow's name, type or input/output",
  body: { description: 'Fields to change', required: true },
  errors: ['unauthenticated', 'not_found', 'validation'],
});

const deleteRoute = routeFor(endpoints.deleteFlow, {
  tags,
  summary: 'Delete a flow with its runs, documents, uploads and workbook',
  errors: ['unauthenticated', 'not_found'],
});

const intakeRoute = routeFor(endpoints.flowIntake, {
  tags,
  summary: "A flow's trigger, next run, source error and intake log (taken, skipped and why, failed and why)",
  errors: ['unauthenticated', 'not_found'],
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
