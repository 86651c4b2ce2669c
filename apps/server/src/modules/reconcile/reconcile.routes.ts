import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  FlowNoPoSchema,
  IdParamsSchema,
  InvoiceMatchSchema,
  OverrideExceptionSchema,
  ReconcilePageSchema,
  ReconcileQuerySchema,
  TolerancesSchema,
} from '@bahi/contracts';
import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { getReconcilePage, overrideInvoice, setFlowNoPo, setTolerances } from './reconcile.service.ts';
import { exportReconciliation } from './reconcile-export.ts';

const tags = ['Reconcile'];

const getRoute = createRoute({
  method: 'get',
  path: '/reconcile',
  tags,
  summary:
    'Purchase orders, goods receipts and invoices of the organisation, matched (reconciliation/v1): counts, totals and one page of invoices',
  request: { query: ReconcileQuerySchema },
  responses: {
    200: jsonContent(ReconcilePageSchema),
    ...describeErrors('unauthenticated', 'validation'),
  },
});

const overrideRoute = createRoute({
  method: 'post',
  path: '/reconcile/invoices/{id}/override',
  tags,
  summary: "Clear an invoice's exceptions with a written reason",
  request: { params: IdParamsSchema, body: jsonContent(OverrideExceptionSchema) },
  responses: {
    200: jsonContent(InvoiceMatchSchema, 'The invoice after the override'),
    ...describeErrors('unauthenticated', 'not_found', 'conflict', 'validation'),
  },
});

const exportRoute = createRoute({
  method: 'get',
  path: '/reconcile.xlsx',
  tags,
  summary: 'Download the reconciliation: Matches, Exceptions and Purchase Orders tabs',
  responses: {
    200: {
      description: 'The workbook',
      content: {
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: z.string() },
      },
    },
    ...describeErrors('unauthenticated'),
  },
});

const tolerancesRoute = createRoute({
  method: 'put',
  path: '/reconcile/tolerances',
  tags,
  summary: "Set the organisation's match tolerances (quantity %, rate %, ₹ per line)",
  request: { body: jsonContent(TolerancesSchema) },
  responses: { 200: jsonContent(TolerancesSchema), ...describeErrors('unauthenticated', 'validation') },
});

const flowNoPoRoute = createRoute({
  method: 'put',
  path: '/reconcile/flows/{id}/no-po',
  tags,
  summary: 'Mark a flow whose invoices need no purchase order (services, rent, travel, utilities), or not',
  request: { params: IdParamsSchema, body: jsonContent(FlowNoPoSchema) },
  responses: {
    200: jsonContent(FlowNoPoSchema),
    ...describeErrors('unauthenticated', 'not_found', 'validation'),
  },
});

/** The three-way match, its overrides, its tolerances and its workbook. */
export function createReconcileRoutes({ db, env, jobs }: AppDeps) {
  return createRouter()
    .openapi(exportRoute, async (c) => {
      const { membership } = requireMembership(c);
      const file = await exportReconciliation(db, env, membership);
      const size = (await stat(file.path)).size;
      const stream = createReadStream(file.path);
      // The file is made for this download only.
      stream.once('close', () => void rm(file.path, { force: true }));
      return new Response(Readable.toWeb(stream) as ReadableStream, {
        headers: {
          'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'content-length': String(size),
          'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
          'cache-control': 'no-store',
        },
      }) as never;
    })
    .openapi(tolerancesRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await setTolerances(db, { user, membership, input: c.req.valid('json'), jobs }), 200);
    })
    .openapi(flowNoPoRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      const input = { flowId: c.req.valid('param').id, ...c.req.valid('json') };
      return c.json(await setFlowNoPo(db, { user, membership, input, jobs }), 200);
    })
    .openapi(getRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getReconcilePage(db, membership, c.req.valid('query')), 200);
    })
    .openapi(overrideRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await overrideInvoice(db, {
          user,
          membership,
          documentId: c.req.valid('param').id,
          input: c.req.valid('json'),
          jobs,
        }),
        200,
      );
    });
}
