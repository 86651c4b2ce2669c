import { InvoiceMatchSchema, OverrideExceptionSchema, ReconciliationSchema } from '@bahi/contracts';
import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../auth/session.ts';
import { getReconciliation, overrideInvoice } from './reconcile.service.ts';

const tags = ['Reconcile'];

const getRoute = createRoute({
  method: 'get',
  path: '/reconcile',
  tags,
  summary: 'Purchase orders, goods receipts and invoices of the organisation, matched (reconciliation/v1)',
  responses: { 200: jsonContent(ReconciliationSchema), ...describeErrors('unauthenticated') },
});

const overrideRoute = createRoute({
  method: 'post',
  path: '/reconcile/invoices/{id}/override',
  tags,
  summary: "Clear an invoice's exceptions with a written reason",
  request: { params: z.object({ id: z.string() }), body: jsonContent(OverrideExceptionSchema) },
  responses: {
    200: jsonContent(InvoiceMatchSchema, 'The invoice after the override'),
    ...describeErrors('unauthenticated', 'not_found', 'conflict', 'validation'),
  },
});

/** The three-way match and its overrides. */
export function createReconcileRoutes({ db }: AppDeps) {
  return createRouter()
    .openapi(getRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getReconciliation(db, membership), 200);
    })
    .openapi(overrideRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await overrideInvoice(db, user, membership, c.req.valid('param').id, c.req.valid('json')),
        200,
      );
    });
}
