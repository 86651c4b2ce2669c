import { createReadStream } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  GstDecisionInputSchema,
  GstPeriodQuerySchema,
  GstReconciliationSchema,
  GstRowSchema,
  Gstr2bUploadResultSchema,
  GstSettingsSchema,
  IdParamsSchema,
  TdsInvoiceSchema,
  TdsMonthQuerySchema,
  TdsSettingsSchema,
  TdsViewSchema,
} from '@bahi/contracts';
import { createRoute, z } from '@hono/zod-openapi';
import { streamingBodyLimit } from '../../http/body-limit.ts';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { AppError } from '../../lib/app-error.ts';
import { receiveMultipartFiles } from '../uploads/multipart.ts';
import {
  decideGstRow,
  GSTR2B_MAX_BYTES,
  getGstReconciliation,
  getGstSettings,
  setGstSettings,
  uploadGstr2b,
} from './gst.service.ts';
import { exportGst } from './gst-export.ts';
import { getInvoiceTds, getTdsSettings, getTdsView, setTdsSettings } from './tds.service.ts';

const tags = ['GST'];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const getRoute = createRoute({
  method: 'get',
  path: '/gst',
  tags,
  summary:
    'GSTR-2B of a return period matched against the purchase register, by tab, with the supplier roll-up',
  request: { query: GstPeriodQuerySchema },
  responses: {
    200: jsonContent(GstReconciliationSchema),
    ...describeErrors('unauthenticated', 'validation'),
  },
});

const uploadRoute = createRoute({
  method: 'post',
  path: '/gst/2b',
  tags,
  summary:
    'Upload the GSTR-2B JSON of a return period as multipart field `file` (the same file again changes nothing)',
  request: {
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
        },
      },
    },
  },
  responses: {
    201: jsonContent(Gstr2bUploadResultSchema, 'A new file, stored'),
    200: jsonContent(Gstr2bUploadResultSchema, 'The same file was already there: nothing changed'),
    ...describeErrors('unauthenticated', 'validation', 'payload_too_large'),
  },
});

const decideRoute = createRoute({
  method: 'post',
  path: '/gst/decisions',
  tags,
  summary: 'Link an invoice with a 2B document, unlink a pair, or accept a difference, with a written reason',
  request: { body: jsonContent(GstDecisionInputSchema) },
  responses: {
    200: jsonContent(GstRowSchema, 'The row after the decision'),
    ...describeErrors('unauthenticated', 'not_found', 'conflict', 'validation'),
  },
});

const workbook = (path: string, summary: string) =>
  createRoute({
    method: 'get',
    path,
    tags,
    summary,
    request: { query: GstPeriodQuerySchema },
    responses: {
      200: { description: 'The workbook', content: { [XLSX]: { schema: z.string() } } },
      ...describeErrors('unauthenticated', 'validation'),
    },
  });
const exportRoute = workbook(
  '/gst.xlsx',
  'Download every tab of a period, the suppliers and the IMS actions',
);
const imsRoute = workbook('/gst/ims.xlsx', 'Download the Invoice Management System action list of a period');

const getGstSettingsRoute = createRoute({
  method: 'get',
  path: '/gst/settings',
  tags,
  summary: "The organisation's GSTR-2B matching settings (the amount tolerance in rupees)",
  responses: { 200: jsonContent(GstSettingsSchema), ...describeErrors('unauthenticated') },
});

const putGstSettingsRoute = createRoute({
  method: 'put',
  path: '/gst/settings',
  tags,
  summary:
    'Set the GSTR-2B amount tolerance (rupees, each of taxable value, IGST, CGST, SGST and cess); the match follows at once',
  request: { body: jsonContent(GstSettingsSchema) },
  responses: { 200: jsonContent(GstSettingsSchema), ...describeErrors('unauthenticated', 'validation') },
});

const tdsTags = ['TDS'];

const tdsRoute = createRoute({
  method: 'get',
  path: '/tds',
  tags: tdsTags,
  summary:
    "A month's purchase invoices with their TDS, and the month's TDS by section with its deposit due date",
  request: { query: TdsMonthQuerySchema },
  responses: { 200: jsonContent(TdsViewSchema), ...describeErrors('unauthenticated', 'validation') },
});

const invoiceTdsRoute = createRoute({
  method: 'get',
  path: '/tds/invoices/{id}',
  tags: tdsTags,
  summary: "An invoice's TDS: sections, base, rate, amount and the reason",
  request: { params: IdParamsSchema },
  responses: { 200: jsonContent(TdsInvoiceSchema), ...describeErrors('unauthenticated', 'not_found') },
});

const getSettingsRoute = createRoute({
  method: 'get',
  path: '/tds/settings',
  tags: tdsTags,
  summary: "The organisation's TDS setting (turnover above ₹10 crore)",
  responses: { 200: jsonContent(TdsSettingsSchema), ...describeErrors('unauthenticated') },
});

const putSettingsRoute = createRoute({
  method: 'put',
  path: '/tds/settings',
  tags: tdsTags,
  summary: "Set whether last year's turnover passed ₹10 crore (TDS under 194Q on goods bought)",
  request: { body: jsonContent(TdsSettingsSchema) },
  responses: { 200: jsonContent(TdsSettingsSchema), ...describeErrors('unauthenticated', 'validation') },
});

/** Streams a workbook made for this download only, deleting it once sent. */
export async function sendWorkbook(file: { path: string; fileName: string }): Promise<Response> {
  const size = (await stat(file.path)).size;
  const stream = createReadStream(file.path);
  stream.once('close', () => void rm(file.path, { force: true }));
  return new Response(Readable.toWeb(stream) as ReadableStream, {
    headers: {
      'content-type': XLSX,
      'content-length': String(size),
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      'cache-control': 'no-store',
    },
  });
}

/** GSTR-2B files, the match, people's decisions and the workbooks. */
export function createGstRoutes({ db, env, jobs }: AppDeps) {
  const router = createRouter();
  router.use(
    '/gst/2b',
    streamingBodyLimit({
      maxSize: GSTR2B_MAX_BYTES + 64 * 1024,
      message: 'A GSTR-2B file may be at most 25 MB',
    }),
  );
  return router
    .openapi(exportRoute, async (c) => {
      const { membership } = requireMembership(c);
      const { period, gstin } = c.req.valid('query');
      return (await sendWorkbook(await exportGst(db, { env, membership, period, gstin }))) as never;
    })
    .openapi(imsRoute, async (c) => {
      const { membership } = requireMembership(c);
      const { period, gstin } = c.req.valid('query');
      return (await sendWorkbook(
        await exportGst(db, { env, membership, period, gstin, only: 'ims' }),
      )) as never;
    })
    .openapi(getRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getGstReconciliation(db, membership, c.req.valid('query')), 200);
    })
    .openapi(getGstSettingsRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getGstSettings(db, membership), 200);
    })
    .openapi(putGstSettingsRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await setGstSettings(db, { user, membership, input: c.req.valid('json') }), 200);
    })
    .openapi(uploadRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      const received = await receiveMultipartFiles(c.req.raw, join(env.dataDir, 'tmp'), {
        maxFileBytes: GSTR2B_MAX_BYTES,
        maxFiles: 1,
      });
      try {
        const skipped = received.skipped[0];
        if (skipped)
          throw new AppError('validation', `${skipped.name}: ${skipped.reason}`, { file: skipped.reason });
        const got = received.files[0];
        if (!got)
          throw new AppError('validation', 'Choose the GSTR-2B JSON file to upload', {
            file: 'Choose a file',
          });
        const bytes = new Uint8Array(await readFile(got.path));
        const result = await uploadGstr2b(db, { env, user, membership, file: { name: got.name, bytes } });
        return c.json(result, result.created ? 201 : 200);
      } finally {
        await received.cleanup();
      }
    })
    .openapi(decideRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await decideGstRow(db, { user, membership, input: c.req.valid('json') }), 200);
    })
    .openapi(getSettingsRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getTdsSettings(db, membership), 200);
    })
    .openapi(putSettingsRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await setTdsSettings(db, { user, membership, input: c.req.valid('json'), jobs }), 200);
    })
    .openapi(invoiceTdsRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getInvoiceTds(db, membership, c.req.valid('param').id), 200);
    })
    .openapi(tdsRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getTdsView(db, membership, c.req.valid('query').month), 200);
    });
}
