import { createReadStream } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { endpoints, fileEndpoints } from '@bahi/contracts';
import { streamingBodyLimit } from '../../http/body-limit.ts';
import type { AppDeps } from '../../http/context.ts';
import { fileRouteFor, routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
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

const getRoute = routeFor(endpoints.gst, {
  tags,
  summary:
    'GSTR-2B of a return period matched against the purchase register, by tab, with the supplier roll-up',
  errors: ['unauthenticated', 'validation'],
});

const uploadRoute = routeFor(endpoints.uploadGstr2b, {
  tags,
  summary:
    'Upload the GSTR-2B JSON of a return period as multipart field `file` (the same file again changes nothing)',
  upload: { field: 'file', many: false },
  answers: { 201: 'A new file, stored', 200: 'The same file was already there: nothing changed' },
  errors: ['unauthenticated', 'validation', 'payload_too_large'],
});

const decideRoute = routeFor(endpoints.decideGst, {
  tags,
  summary: 'Link an invoice with a 2B document, unlink a pair, or accept a difference, with a written reason',
  answer: 'The row after the decision',
  errors: ['unauthenticated', 'not_found', 'conflict', 'validation'],
});

const exportRoute = fileRouteFor(fileEndpoints.gstXlsx, {
  tags,
  summary: 'Download every tab of a period, the suppliers and the IMS actions',
  errors: ['unauthenticated', 'validation'],
});
const imsRoute = fileRouteFor(fileEndpoints.gstImsXlsx, {
  tags,
  summary: 'Download the Invoice Management System action list of a period',
  errors: ['unauthenticated', 'validation'],
});

const getGstSettingsRoute = routeFor(endpoints.gstSettings, {
  tags,
  summary: "The organisation's GSTR-2B matching settings (the amount tolerance in rupees)",
  errors: ['unauthenticated'],
});

const putGstSettingsRoute = routeFor(endpoints.setGstSettings, {
  tags,
  summary:
    'Set the GSTR-2B amount tolerance (rupees, each of taxable value, IGST, CGST, SGST and cess); the match follows at once',
  errors: ['unauthenticated', 'validation'],
});

const tdsTags = ['TDS'];

const tdsRoute = routeFor(endpoints.tds, {
  tags: tdsTags,
  summary:
    "A month's purchase invoices with their TDS, and the month's TDS by section with its deposit due date",
  errors: ['unauthenticated', 'validation'],
});

const invoiceTdsRoute = routeFor(endpoints.invoiceTds, {
  tags: tdsTags,
  summary: "An invoice's TDS: sections, base, rate, amount and the reason",
  errors: ['unauthenticated', 'not_found'],
});

const getSettingsRoute = routeFor(endpoints.tdsSettings, {
  tags: tdsTags,
  summary: "The organisation's TDS setting (turnover above ₹10 crore)",
  errors: ['unauthenticated'],
});

const putSettingsRoute = routeFor(endpoints.setTdsSettings, {
  tags: tdsTags,
  summary: "Set whether last year's turnover passed ₹10 crore (TDS under 194Q on goods bought)",
  errors: ['unauthenticated', 'validation'],
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
