import {
  BooksPushListSchema,
  BooksPushQuerySchema,
  BooksPushSchema,
  CreatePartyLedgersInputSchema,
  CreatePartyLedgersResultSchema,
  IdParamsSchema,
  LedgerMappingSchema,
  LedgerMappingViewSchema,
  PostToBooksInputSchema,
  PostToBooksResultSchema,
  TallyConnectionInputSchema,
  TallyConnectionSchema,
  TallyTestResultSchema,
  TallyXmlQuerySchema,
  ZohoConnectionInputSchema,
  ZohoConnectionSchema,
  ZohoMappingSchema,
  ZohoMappingViewSchema,
  ZohoTestResultSchema,
} from '@bahi/contracts';
import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import {
  cancelInTally,
  createPartyLedgers,
  getLedgerMapping,
  getTallyConnection,
  listBooksPushes,
  postToTally,
  saveLedgerMapping,
  saveTallyConnection,
  testTallyConnection,
} from './books.service.ts';
import { exportTallyXml } from './books-xml.ts';
import {
  getZohoConnection,
  getZohoMapping,
  saveZohoConnection,
  saveZohoMapping,
  testZohoConnection,
} from './books-zoho.ts';

const tags = ['Books'];
const errors = describeErrors('unauthenticated', 'validation', 'conflict', 'not_found');

const route = <T extends Parameters<typeof createRoute>[0]>(r: T) => createRoute({ tags, ...r });

const getConnection = route({
  method: 'get',
  path: '/books/tally',
  summary: 'The Tally connection: address, company, posting on approval, last test and last push',
  responses: { 200: jsonContent(TallyConnectionSchema), ...errors },
});
const putConnection = route({
  method: 'put',
  path: '/books/tally',
  summary: "Save the address of Tally's XML server (port 9000 by default), the company and auto-posting",
  request: { body: jsonContent(TallyConnectionInputSchema) },
  responses: { 200: jsonContent(TallyConnectionSchema), ...errors },
});
const testConnection = route({
  method: 'post',
  path: '/books/tally/test',
  summary: "Test the connection by reading the company's ledger list",
  responses: { 200: jsonContent(TallyTestResultSchema), ...errors },
});
const getMapping = route({
  method: 'get',
  path: '/books/tally/mapping',
  summary: 'The ledger mapping with suggestions for each supplier (by GSTIN, then name)',
  responses: { 200: jsonContent(LedgerMappingViewSchema), ...errors },
});
const putMapping = route({
  method: 'put',
  path: '/books/tally/mapping',
  summary: 'Save the ledger mapping',
  request: { body: jsonContent(LedgerMappingSchema) },
  responses: { 200: jsonContent(LedgerMappingViewSchema), ...errors },
});
const createParties = route({
  method: 'post',
  path: '/books/tally/party-ledgers',
  summary: 'Create the supplier ledgers a person confirmed, under Sundry Creditors',
  request: { body: jsonContent(CreatePartyLedgersInputSchema) },
  responses: { 200: jsonContent(CreatePartyLedgersResultSchema), ...errors },
});
const post = route({
  method: 'post',
  path: '/books/tally/post',
  summary:
    'Post approved invoices to Tally (a corrected one alters its voucher; unchanged ones send nothing)',
  request: { body: jsonContent(PostToBooksInputSchema) },
  responses: { 200: jsonContent(PostToBooksResultSchema), ...errors },
});
const listPushes = route({
  method: 'get',
  path: '/books/pushes',
  summary: 'Push records of the documents named (ids=a,b), or the latest',
  request: { query: BooksPushQuerySchema },
  responses: { 200: jsonContent(BooksPushListSchema), ...errors },
});
const cancel = route({
  method: 'post',
  path: '/books/pushes/{id}/cancel',
  summary: "Cancel a posted document's voucher in Tally (after a person confirms)",
  request: { params: IdParamsSchema },
  responses: { 200: jsonContent(BooksPushSchema), ...errors },
});
const xml = route({
  method: 'get',
  path: '/books/tally.xml',
  summary:
    "Tally's import file for the chosen invoices (ids=a,b) or every approved invoice of a month (period=YYYY-MM)",
  request: { query: TallyXmlQuerySchema },
  responses: {
    200: { description: 'The XML file', content: { 'application/xml': { schema: z.string() } } },
    ...errors,
  },
});

const getZoho = route({
  method: 'get',
  path: '/books/zoho',
  summary:
    'The Zoho Books connection: organisation, data centre, client id (never secrets), last test and push',
  responses: { 200: jsonContent(ZohoConnectionSchema), ...errors },
});
const putZoho = route({
  method: 'put',
  path: '/books/zoho',
  summary: 'Save the Zoho Books organisation, data centre and OAuth client (secrets stored encrypted)',
  request: { body: jsonContent(ZohoConnectionInputSchema) },
  responses: { 200: jsonContent(ZohoConnectionSchema), ...errors },
});
const testZoho = route({
  method: 'post',
  path: '/books/zoho/test',
  summary: "Test the connection by reading the organisation's chart of accounts, taxes and vendors",
  responses: { 200: jsonContent(ZohoTestResultSchema), ...errors },
});
const getZohoMap = route({
  method: 'get',
  path: '/books/zoho/mapping',
  summary: 'The purchase account and tax of each GST rate, with suggestions from Zoho',
  responses: { 200: jsonContent(ZohoMappingViewSchema), ...errors },
});
const putZohoMap = route({
  method: 'put',
  path: '/books/zoho/mapping',
  summary: 'Save the Zoho Books account and tax mapping',
  request: { body: jsonContent(ZohoMappingSchema) },
  responses: { 200: jsonContent(ZohoMappingViewSchema), ...errors },
});
const postZoho = route({
  method: 'post',
  path: '/books/zoho/post',
  summary:
    'Post approved invoices to Zoho Books as bills (searched for first: never doubled; a corrected one updates its bill)',
  request: { body: jsonContent(PostToBooksInputSchema) },
  responses: { 200: jsonContent(PostToBooksResultSchema), ...errors },
});
const voidZoho = route({
  method: 'post',
  path: '/books/zoho/pushes/{id}/void',
  summary: "Void a posted document's bill in Zoho Books (after a person confirms)",
  request: { params: IdParamsSchema },
  responses: { 200: jsonContent(BooksPushSchema), ...errors },
});

const idList = (ids: string | undefined) =>
  ids
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => /^[0-9a-f-]{36}$/i.test(s));

/** The Zoho Books routes (`/api/books/zoho*`). */
function zohoRoutes(
  ctx: { db: AppDeps['db']; jobs: AppDeps['jobs']; env: AppDeps['env'] },
  router: ReturnType<typeof createRouter>,
) {
  return router
    .openapi(getZoho, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getZohoConnection(ctx, membership), 200);
    })
    .openapi(putZoho, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await saveZohoConnection(ctx, { user, membership, input: c.req.valid('json') }), 200);
    })
    .openapi(testZoho, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await testZohoConnection(ctx, membership), 200);
    })
    .openapi(getZohoMap, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getZohoMapping(ctx.db, membership), 200);
    })
    .openapi(putZohoMap, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await saveZohoMapping(ctx.db, { user, membership, input: c.req.valid('json') }), 200);
    })
    .openapi(postZoho, async (c) => {
      const { user, membership } = requireMembership(c);
      const { documentIds } = c.req.valid('json');
      return c.json(await postToTally(ctx, { user, membership, documentIds, kind: 'zoho' }), 200);
    })
    .openapi(voidZoho, async (c) => {
      const { user, membership } = requireMembership(c);
      const documentId = c.req.valid('param').id;
      return c.json(await cancelInTally(ctx, { user, membership, documentId, kind: 'zoho' }), 200);
    });
}

/** `/api/books/*`: the Tally and Zoho Books connections, mappings, posting and push records. */
export function createBooksRoutes({ db, jobs, env }: AppDeps) {
  const ctx = { db, jobs, env };
  return zohoRoutes(ctx, createRouter())
    .openapi(getConnection, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getTallyConnection(db, membership), 200);
    })
    .openapi(putConnection, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await saveTallyConnection(db, { user, membership, input: c.req.valid('json') }), 200);
    })
    .openapi(testConnection, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await testTallyConnection(ctx, membership), 200);
    })
    .openapi(getMapping, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getLedgerMapping(db, membership), 200);
    })
    .openapi(putMapping, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await saveLedgerMapping(db, { user, membership, input: c.req.valid('json') }), 200);
    })
    .openapi(createParties, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await createPartyLedgers(ctx, { user, membership, input: c.req.valid('json') }), 200);
    })
    .openapi(post, async (c) => {
      const { user, membership } = requireMembership(c);
      const { documentIds } = c.req.valid('json');
      return c.json(await postToTally(ctx, { user, membership, documentIds }), 200);
    })
    .openapi(listPushes, async (c) => {
      const { membership } = requireMembership(c);
      const items = await listBooksPushes(db, membership, idList(c.req.valid('query').ids));
      return c.json({ items }, 200);
    })
    .openapi(cancel, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await cancelInTally(ctx, { user, membership, documentId: c.req.valid('param').id }), 200);
    })
    .openapi(xml, async (c) => {
      const { membership } = requireMembership(c);
      const { ids, period } = c.req.valid('query');
      const file = await exportTallyXml(db, membership, { ids: idList(ids), period });
      return new Response(file.xml, {
        headers: {
          'content-type': 'application/xml; charset=utf-8',
          'content-disposition': `attachment; filename="${file.fileName}"`,
          'x-bahi-refused': String(file.refused.length),
          'cache-control': 'no-store',
        },
      }) as never;
    });
}
