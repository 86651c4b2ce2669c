import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { endpoints, fileEndpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { fileRouteFor, routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { createInlineExecutor } from '../../jobs/worker-pool.ts';
import { getFlowOutputsStatus } from '../flows/flow-outputs.ts';
import { getSheetView, getWorkbookFile, streamCsv } from './sheets.service.ts';

const tags = ['Sheets'];

const viewRoute = routeFor(endpoints.sheetPage, {
  tags,
  summary: "One page (50 rows) of the flow's sheet: tab documents|lines, sorted by a column key",
  errors: ['unauthenticated', 'not_found', 'validation'],
});

const xlsxRoute = fileRouteFor(fileEndpoints.sheetXlsx, {
  tags,
  summary: "Download the flow's workbook (Documents and Line Items tabs)",
  errors: ['unauthenticated', 'not_found'],
});

const csvRoute = fileRouteFor(fileEndpoints.sheetCsv, {
  tags,
  summary: 'Download one tab of the sheet as CSV (tab=documents|lines)',
  errors: ['unauthenticated', 'not_found'],
});

const outputsRoute = routeFor(endpoints.flowOutputs, {
  tags,
  summary: "Whether the flow's workbook and Google sheet hold its latest rows, and when they were written",
  errors: ['unauthenticated', 'not_found'],
});

function attachment(fileName: string): string {
  return `attachment; filename="${fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** The in-app sheet view and its downloads. */
export function createSheetRoutes({ db, env, executor }: AppDeps) {
  // Without a pool (RUN_JOBS=false and no worker threads), downloads write the workbook in-process.
  const tasks = executor ?? createInlineExecutor();
  return createRouter()
    .openapi(outputsRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getFlowOutputsStatus(db, { membership, flowId: c.req.valid('param').id }), 200);
    })
    .openapi(viewRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(
        await getSheetView(db, {
          env,
          membership,
          flowId: c.req.valid('param').id,
          query: c.req.valid('query'),
        }),
        200,
      );
    })
    .openapi(xlsxRoute, async (c) => {
      const { membership } = requireMembership(c);
      const file = await getWorkbookFile(db, {
        env,
        executor: tasks,
        membership,
        flowId: c.req.valid('param').id,
      });
      const info = await stat(file.path);
      return new Response(Readable.toWeb(createReadStream(file.path)) as ReadableStream, {
        headers: {
          'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'content-length': String(info.size),
          'content-disposition': attachment(file.fileName),
          'cache-control': 'no-store',
        },
      }) as never;
    })
    .openapi(csvRoute, async (c) => {
      const { membership } = requireMembership(c);
      const { id } = c.req.valid('param');
      const { tab } = c.req.valid('query');
      const lines = streamCsv(db, { env, membership, flowId: id, tab })[Symbol.asyncIterator]();
      // Pull the header first so a missing flow answers 404 JSON rather than a broken stream.
      const first = await lines.next();
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          if (!first.done) controller.enqueue(encoder.encode(first.value));
        },
        async pull(controller) {
          const next = await lines.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        },
      });
      return new Response(body, {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': attachment(`${tab === 'lines' ? 'line-items' : 'documents'}.csv`),
          'cache-control': 'no-store',
        },
      }) as never;
    });
}
