import type {
  BooksLedger,
  ZohoConnection,
  ZohoConnectionInput,
  ZohoMapping,
  ZohoMappingView,
  ZohoTestResult,
} from '@bahi/contracts';
import { BooksUnreachableError } from '../../adapters/books/books-connector.ts';
import {
  type createZohoBooksConnector,
  type ZohoAccount,
  ZohoError,
  type ZohoTax,
} from '../../adapters/books/zoho-books.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordActivity } from '../activity/activity.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { listRegisterInvoices } from '../gst/gst.repo.ts';
import { findConnection, listPushes, saveConnection, updateConnection } from './books.repo.ts';
import {
  type BooksContext,
  lastTestOf,
  pushCounts,
  requireConnection,
  toBooksPush,
} from './books.service.ts';
import { connectorOf } from './books-post.ts';
import { bookInvoiceOf } from './books-voucher.ts';
import { readZohoMapping } from './books-zoho-bill.ts';
import { openZohoSecrets, sealZohoSecrets } from './books-zoho-connection.ts';

// The Zoho Books connection (organisation, data centre, OAuth client), its "Test connection" reading the
// chart of accounts, the taxes and the vendors, and the mapping of GST rates to accounts and taxes,
// suggested from those lists. Posting and voiding share `books.service.ts` with Tally (kind `zoho`).

/** What "Test connection" read, kept on the connection for the mapping screen. */
interface ZohoLists {
  accounts: ZohoAccount[];
  taxes: ZohoTax[];
  vendors: BooksLedger[];
}

const readLists = (value: unknown): ZohoLists => {
  const v = (value && !Array.isArray(value) ? value : {}) as Partial<ZohoLists>;
  return { accounts: v.accounts ?? [], taxes: v.taxes ?? [], vendors: v.vendors ?? [] };
};

/** `GET /api/books/zoho`: the connection (never its secrets), its last test, the last push and counts. */
export async function getZohoConnection(
  ctx: { db: Db; env: Env },
  membership: Membership,
): Promise<ZohoConnection> {
  const orgId = membership.organizationId;
  const [connection, last, counts] = await Promise.all([
    findConnection(ctx.db, orgId, 'zoho'),
    listPushes(ctx.db, orgId, undefined, 1, 'zoho'),
    pushCounts(ctx.db, orgId, 'zoho'),
  ]);
  const secrets = connection ? await openZohoSecrets(ctx.env, connection) : null;
  return {
    configured: connection !== null,
    organizationId: connection?.company ?? '',
    region: (connection?.host ?? 'in') as ZohoConnection['region'],
    clientId: secrets?.clientId ?? '',
    hasSecrets: Boolean(secrets?.clientSecret && secrets.refreshToken),
    autoPost: connection?.autoPost ?? false,
    lastTest: lastTestOf(connection),
    lastPush: last[0] ? toBooksPush(last[0]) : null,
    counts,
  };
}

/** `PUT /api/books/zoho`: saves the organisation, data centre and OAuth client (secrets sealed). */
export async function saveZohoConnection(
  ctx: { db: Db; env: Env },
  { user, membership, input }: { user: SessionUser; membership: Membership; input: ZohoConnectionInput },
): Promise<ZohoConnection> {
  const orgId = membership.organizationId;
  const previous = await findConnection(ctx.db, orgId, 'zoho');
  const kept = previous ? await openZohoSecrets(ctx.env, previous) : null;
  const clientSecret = input.clientSecret || kept?.clientSecret;
  const refreshToken = input.refreshToken || kept?.refreshToken;
  if (!clientSecret) {
    const message = 'Enter the client secret of your Zoho API client';
    throw new AppError('validation', message, { clientSecret: message });
  }
  if (!refreshToken) {
    const message = 'Enter a refresh token generated for this client (scope ZohoBooks.fullaccess.all)';
    throw new AppError('validation', message, { refreshToken: message });
  }
  const secretEnc = await sealZohoSecrets(ctx.env, orgId, {
    clientId: input.clientId,
    clientSecret,
    refreshToken,
  });
  await saveConnection(
    ctx.db,
    orgId,
    { host: input.region, port: 443, company: input.organizationId, autoPost: input.autoPost, secretEnc },
    'zoho',
  );
  await recordActivity(ctx.db, {
    organizationId: orgId,
    kind: 'books.connection',
    message: `${user.name} set the Zoho Books connection to organisation ${input.organizationId} (zoho.${input.region})${input.autoPost ? ', posting invoices when approved' : ''}`,
    userId: user.id,
  });
  return getZohoConnection(ctx, membership);
}

/** `POST /api/books/zoho/test`: reads the chart of accounts, the taxes and the vendors (kept for the mapping). */
export async function testZohoConnection(ctx: BooksContext, membership: Membership): Promise<ZohoTestResult> {
  const connection = await requireConnection(ctx.db, membership.organizationId, 'zoho');
  let result: ZohoTestResult;
  try {
    const zoho = (await connectorOf(ctx, connection)) as ReturnType<typeof createZohoBooksConnector>;
    const [accounts, taxes, vendors] = [
      await zoho.listAccounts(),
      await zoho.listTaxes(),
      await zoho.listLedgers(),
    ];
    result = {
      ok: true,
      message: `Connected to Zoho Books organisation ${connection.company}: ${accounts.length} accounts, ${taxes.length} taxes and ${vendors.length} vendors read`,
      accounts,
      taxes,
      vendors,
    };
  } catch (error) {
    if (!(error instanceof BooksUnreachableError) && !(error instanceof ZohoError)) throw error;
    const message = error instanceof ZohoError ? `Zoho Books refused: ${error.message}` : error.message;
    result = { ok: false, message, accounts: [], taxes: [], vendors: [] };
  }
  await updateConnection(
    ctx.db,
    membership.organizationId,
    {
      lastTestOk: result.ok,
      lastTestMessage: result.message,
      lastTestAt: new Date(),
      ...(result.ok
        ? { ledgers: { accounts: result.accounts, taxes: result.taxes, vendors: result.vendors } }
        : {}),
    },
    'zoho',
  );
  return result;
}

const COMMON_RATES = ['0', '5', '12', '18', '28'];
const PURCHASE_TYPES = new Set(['expense', 'cost_of_goods_sold', 'other_expense']);

/** What Zoho's lists suggest for each rate: an account named for the rate (or Purchases), its taxes. */
export function suggestZohoMapping(lists: ZohoLists, rates: readonly string[]): ZohoMapping {
  const out: ZohoMapping = { purchase: {}, intraTax: {}, interTax: {} };
  const buying = lists.accounts.filter((a) => PURCHASE_TYPES.has(a.type));
  const general =
    buying.find((a) => /^purchases?$/i.test(a.name.trim())) ??
    buying.find((a) => /cost of goods sold/i.test(a.name));
  for (const rate of rates) {
    const account = buying.find((a) => a.name.includes(`${rate}%`)) ?? general;
    if (account) out.purchase[rate] = account.id;
    if (Number(rate) === 0) continue;
    const pct = (t: ZohoTax) => Math.abs(t.percentage - Number(rate)) < 1e-9;
    const group = lists.taxes.find((t) => t.kind === 'group' && pct(t));
    const igst = lists.taxes.find((t) => t.kind === 'igst' && pct(t));
    if (group) out.intraTax[rate] = group.id;
    if (igst) out.interTax[rate] = igst.id;
  }
  return out;
}

/** `GET /api/books/zoho/mapping`: the mapping, Zoho's accounts and taxes, the rates and suggestions. */
export async function getZohoMapping(db: Db, membership: Membership): Promise<ZohoMappingView> {
  const orgId = membership.organizationId;
  const connection = await findConnection(db, orgId, 'zoho');
  const lists = readLists(connection?.ledgers);
  const rates = new Set(COMMON_RATES);
  for (const doc of (await listRegisterInvoices(db, orgId)).filter((d) => d.approved))
    for (const line of bookInvoiceOf(doc).lines) if (line.gstRate !== null) rates.add(String(line.gstRate));
  const sorted = [...rates].sort((a, b) => Number(a) - Number(b));
  return {
    mapping: readZohoMapping(connection?.mapping),
    accounts: lists.accounts,
    taxes: lists.taxes,
    rates: sorted,
    suggested: suggestZohoMapping(lists, sorted),
  };
}

/** `PUT /api/books/zoho/mapping`. */
export async function saveZohoMapping(
  db: Db,
  { user, membership, input }: { user: SessionUser; membership: Membership; input: ZohoMapping },
): Promise<ZohoMappingView> {
  await requireConnection(db, membership.organizationId, 'zoho');
  await updateConnection(db, membership.organizationId, { mapping: input }, 'zoho');
  await recordActivity(db, {
    organizationId: membership.organizationId,
    kind: 'books.mapping',
    message: `${user.name} changed the Zoho Books account and tax mapping`,
    userId: user.id,
  });
  return getZohoMapping(db, membership);
}
