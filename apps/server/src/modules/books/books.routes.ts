import { endpoints, fileEndpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { fileRouteFor, routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
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
const errors = ['unauthenticated', 'validation', 'conflict', 'not_found'] as const;

const getConnection = routeFor(endpoints.tallyConnection, {
  tags,
  summary: 'The Tally connection: address, company, posting on approval, last test and last push',
  errors,
});
const putConnection = routeFor(endpoints.saveTallyConnection, {
  tags,
  summary: "Save the address of Tally's XML server (port 9000 by default), the company and auto-posting",
  errors,
});
const testConnection = routeFor(endpoints.testTally, {
  tags,
  summary: "Test the connection by reading the company's ledger list",
  errors,
});
const getMapping = routeFor(endpoints.ledgerMapping, {
  tags,
  summary: 'The ledger mapping with suggestions for each supplier (by GSTIN, then name)',
  errors,
});
const putMapping = routeFor(endpoints.saveLedgerMapping, {
  tags,
  summary: 'Save the ledger mapping',
  errors,
});
const createParties = routeFor(endpoints.createPartyLedgers, {
  tags,
  summary: 'Create the supplier ledgers a person confirmed, under Sundry Creditors',
  errors,
});
const post = routeFor(endpoints.postToTally, {
  tags,
  summary:
    'Post approved invoices to Tally (a corrected one alters its voucher; unchanged ones send nothing)',
  errors,
});
const listPushes = routeFor(endpoints.booksPushes, {
  tags,
  summary: 'Push records of the documents named (ids=a,b), or the latest',
  errors,
});
const cancel = routeFor(endpoints.cancelInTally, {
  tags,
  summary: "Cancel a posted document's voucher in Tally (after a person confirms)",
  errors,
});
const xml = fileRouteFor(fileEndpoints.tallyXml, {
  tags,
  summary:
    "Tally's import file for the chosen invoices (ids=a,b) or every approved invoice of a month (period=YYYY-MM)",
  errors,
});

const getZoho = routeFor(endpoints.zohoConnection, {
  tags,
  summary:
    'The Zoho Books connection: organisation, data centre, client id (never secrets), last test and push',
  errors,
});
const putZoho = routeFor(endpoints.saveZohoConnection, {
  tags,
  summary: 'Save the Zoho Books organisation, data centre and OAuth client (secrets stored encrypted)',
  errors,
});
const testZoho = routeFor(endpoints.testZoho, {
  tags,
  summary: "Test the connection by reading the organisation's chart of accounts, taxes and vendors",
  errors,
});
const getZohoMap = routeFor(endpoints.zohoMapping, {
  tags,
  summary: 'The purchase account and tax of each GST rate, with suggestions from Zoho',
  errors,
});
const putZohoMap = routeFor(endpoints.saveZohoMapping, {
  tags,
  summary: 'Save the Zoho Books account and tax mapping',
  errors,
});
const postZoho = routeFor(endpoints.postToZoho, {
  tags,
  summary:
    'Post approved invoices to Zoho Books as bills (searched for first: never doubled; a corrected one updates its bill)',
  errors,
});
const voidZoho = routeFor(endpoints.voidInZoho, {
  tags,
  summary: "Void a posted document's bill in Zoho Books (after a person confirms)",
  errors,
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
