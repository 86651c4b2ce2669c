import { endpoints, fileEndpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { requirePermission } from '../../http/permissions.ts';
import { fileRouteFor, routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { listAudit, streamAuditCsv } from './audit.service.ts';

const tags = ['Team'];

const listRoute = routeFor(endpoints.audit, {
  tags,
  summary: 'The audit trail (append-only), newest first, filtered by person, kind, document and dates',
  errors: ['unauthenticated', 'forbidden', 'no_organization', 'validation'],
});

const csvRoute = fileRouteFor(fileEndpoints.auditCsv, {
  tags,
  summary: 'Download the filtered audit trail as CSV (every matching entry)',
  errors: ['unauthenticated', 'forbidden', 'no_organization', 'validation'],
});

/** `/api/audit` and its CSV export. There is no route that changes or deletes an entry. */
export function createAuditRoutes({ db }: AppDeps) {
  return createRouter()
    .openapi(listRoute, async (c) => {
      const { membership } = requirePermission(c, 'audit.read');
      return c.json(await listAudit(db, membership, c.req.valid('query')), 200);
    })
    .openapi(csvRoute, async (c) => {
      const { membership } = requirePermission(c, 'audit.read');
      const lines = streamAuditCsv(db, membership, c.req.valid('query'))[Symbol.asyncIterator]();
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await lines.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        },
      });
      const day = new Date().toISOString().slice(0, 10);
      return new Response(body, {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="audit-trail-${day}.csv"`,
          'cache-control': 'no-store',
        },
      }) as never;
    });
}
