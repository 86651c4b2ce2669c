import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { endpoints, fileEndpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { fileRouteFor, routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { getReconcilePage, overrideInvoice, setFlowNoPo, setTolerances } from './reconcile.service.ts';
import { exportReconciliation } from './reconcile-export.ts';

const tags = ['Reconcile'];

const getRoute = routeFor(endpoints.reconciliation, {
  tags,
  summary:
    'Purchase orders, goods receipts and invoices of the organisation, matched (reconciliation/v1): counts, totals and one page of invoices',
  errors: ['unauthenticated', 'validation'],
});

const overrideRoute = routeFor(endpoints.overrideInvoice, {
  tags,
  summary: "Clear an invoice's exceptions with a written reason",
  answer: 'The invoice after the override',
  errors: ['unauthenticated', 'not_found', 'conflict', 'validation'],
});

const exportRoute = fileRouteFor(fileEndpoints.reconcileXlsx, {
  tags,
  summary: 'Download the reconciliation: Matches, Exceptions and Purchase Orders tabs',
  errors: ['unauthenticated'],
});

const tolerancesRoute = routeFor(endpoints.setTolerances, {
  tags,
  summary: "Set the organisation's match tolerances (quantity %, rate %, ₹ per line)",
  errors: ['unauthenticated', 'validation'],
});

const flowNoPoRoute = routeFor(endpoints.setFlowNoPo, {
  tags,
  summary: 'Mark a flow whose invoices need no purchase order (services, rent, travel, utilities), or not',
  errors: ['unauthenticated', 'not_found', 'validation'],
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
