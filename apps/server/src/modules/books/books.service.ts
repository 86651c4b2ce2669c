import type {
  BooksLedger,
  BooksPush,
  CreatePartyLedgersInput,
  CreatePartyLedgersResult,
  LedgerMapping,
  LedgerMappingView,
  PostToBooksResult,
  TallyConnection,
  TallyConnectionInput,
  TallyTestResult,
} from '@bahi/contracts';
import { stateByCode } from '@bahi/india';
import { BooksUnreachableError } from '../../adapters/books/books-connector.ts';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../jobs/registry.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordActivity } from '../activity/activity.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { listRegisterInvoices } from '../gst/gst.repo.ts';
import { computeRegisterTds } from '../gst/tds.service.ts';
import {
  type BooksConnectionRow,
  type BooksKind,
  type BooksPushRow,
  countPushes,
  findConnection,
  findDocuments,
  listPushes,
  requestPush,
  saveConnection,
  updateConnection,
} from './books.repo.ts';
import { type PushContext, tallyConnectorOf } from './books-post.ts';
import { bookInvoiceOf, readMapping } from './books-voucher.ts';

// The Tally connection, its ledger mapping and the posting requests (the sending itself is `books-post.ts`,
// on the job queue).

/** What the services need besides the database: the queue, the settings, and (tests) the connector. */
export interface BooksContext {
  db: Db;
  jobs?: JobSender | undefined;
  env?: PushContext['env'];
  connectorFor?: PushContext['connectorFor'];
  zohoUrls?: PushContext['zohoUrls'];
}

const BOOKS_NAMES: Record<BooksKind, string> = { tally: 'Tally', zoho: 'Zoho Books' };

type PushListRow = Awaited<ReturnType<typeof listPushes>>[number];

/** A connection's last test as the settings show it (null before the first). */
export function lastTestOf(
  connection: { lastTestAt: Date | null; lastTestOk: boolean | null; lastTestMessage: string | null } | null,
) {
  return connection?.lastTestAt && connection.lastTestOk !== null
    ? {
        ok: connection.lastTestOk,
        message: connection.lastTestMessage ?? '',
        at: connection.lastTestAt.toISOString(),
      }
    : null;
}

/** A push record as the screens show it. */
export function toBooksPush(row: PushListRow): BooksPush {
  const removed = row.documentStatus === 'removed';
  const inTally = row.outcome === 'created' || row.outcome === 'altered';
  const label: BooksPush['label'] =
    row.state === 'queued'
      ? 'Queued'
      : row.state === 'sending'
        ? 'Posting'
        : row.state === 'failed'
          ? 'Failed'
          : row.outcome === 'cancelled'
            ? 'Cancelled'
            : inTally && !removed && !row.approvedAt
              ? 'Changed since posted'
              : row.outcome === 'altered'
                ? 'Altered'
                : 'Posted';
  const answer = (row.answer ?? null) as { counters?: Record<string, number> } | null;
  return {
    documentId: row.documentId,
    kind: row.kind === 'zoho' ? 'zoho' : 'tally',
    fileName: row.fileName,
    label,
    state: row.state,
    outcome: row.outcome,
    desired: row.desired,
    remoteId: row.remoteId,
    voucherId: row.voucherId,
    sentHash: row.sentHash,
    sentAt: row.sentAt?.toISOString() ?? null,
    requestedBy: row.requestedBy,
    error: row.error,
    counters: answer?.counters ?? {},
    removed,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The organisation's connection of that kind, or a conflict saying where to set it up. */
export async function requireConnection(
  db: Db,
  organizationId: string,
  kind: BooksKind = 'tally',
): Promise<BooksConnectionRow> {
  const connection = await findConnection(db, organizationId, kind);
  if (!connection)
    throw new AppError(
      'conflict',
      kind === 'zoho'
        ? 'Connect Zoho Books first: Integrations › Zoho Books'
        : 'Connect Tally first: Integrations › Tally Prime',
    );
  return connection;
}

/** The push counts a connection card shows. */
export async function pushCounts(db: Db, organizationId: string, kind: BooksKind) {
  const counts = await countPushes(db, organizationId, kind);
  return {
    posted: counts.done ?? 0,
    failed: counts.failed ?? 0,
    queued: (counts.queued ?? 0) + (counts.sending ?? 0),
  };
}

/** `GET /api/books/tally`: the connection, its last test, the last push and counts. */
export async function getTallyConnection(db: Db, membership: Membership): Promise<TallyConnection> {
  const orgId = membership.organizationId;
  const [connection, last, counts] = await Promise.all([
    findConnection(db, orgId),
    listPushes(db, orgId, undefined, 1, 'tally'),
    pushCounts(db, orgId, 'tally'),
  ]);
  return {
    configured: connection !== null,
    host: connection?.host ?? 'localhost',
    port: connection?.port ?? 9000,
    company: connection?.company ?? '',
    autoPost: connection?.autoPost ?? false,
    lastTest: lastTestOf(connection),
    ledgerCount: ((connection?.ledgers ?? []) as unknown[]).length,
    lastPush: last[0] ? toBooksPush(last[0]) : null,
    counts,
  };
}

/** `PUT /api/books/tally`: saves where Tally listens, the company and whether approval posts. */
export async function saveTallyConnection(
  db: Db,
  { user, membership, input }: { user: SessionUser; membership: Membership; input: TallyConnectionInput },
): Promise<TallyConnection> {
  await saveConnection(db, membership.organizationId, input);
  await recordActivity(db, {
    organizationId: membership.organizationId,
    kind: 'books.connection',
    message: `${user.name} set the Tally connection to ${input.company} at ${input.host}:${input.port}${input.autoPost ? ', posting invoices when approved' : ''}`,
    userId: user.id,
  });
  return getTallyConnection(db, membership);
}

/** `POST /api/books/tally/test`: reads the company's ledger list (kept for the mapping). */
export async function testTallyConnection(
  ctx: BooksContext,
  membership: Membership,
): Promise<TallyTestResult> {
  const connection = await requireConnection(ctx.db, membership.organizationId);
  let result: TallyTestResult;
  try {
    const ledgers = await (ctx.connectorFor ?? tallyConnectorOf)(connection).listLedgers();
    result = {
      ok: true,
      message: `Connected to ${connection.company}: ${ledgers.length} ledgers read`,
      ledgers,
    };
  } catch (error) {
    if (!(error instanceof BooksUnreachableError) && !(error instanceof Error && /XML/.test(error.message)))
      throw error;
    result = { ok: false, message: error.message, ledgers: [] };
  }
  await updateConnection(ctx.db, membership.organizationId, {
    lastTestOk: result.ok,
    lastTestMessage: result.message,
    lastTestAt: new Date(),
    ...(result.ok ? { ledgers: result.ledgers } : {}),
  });
  return result;
}

const COMMON_RATES = ['0', '5', '12', '18', '28'];
const nameKey = (s: string) =>
  s
    .toLowerCase()
    .replace(/private/g, 'pvt')
    .replace(/limited/g, 'ltd')
    .replace(/[^a-z0-9]/g, '');

/** The ledger Tally already has for a supplier: by GSTIN first, then by name. */
export function suggestPartyLedger(
  ledgers: readonly BooksLedger[],
  gstin: string | null,
  vendorName: string,
): { name: string; by: 'gstin' | 'name' } | null {
  const byGstin = gstin ? ledgers.find((l) => l.gstin?.toUpperCase() === gstin) : undefined;
  if (byGstin) return { name: byGstin.name, by: 'gstin' };
  const key = nameKey(vendorName);
  const byName = key ? ledgers.find((l) => nameKey(l.name) === key) : undefined;
  return byName ? { name: byName.name, by: 'name' } : null;
}

/** `GET /api/books/tally/mapping`: the mapping, Tally's ledgers, the rates, sections and suppliers to map. */
export async function getLedgerMapping(db: Db, membership: Membership): Promise<LedgerMappingView> {
  const orgId = membership.organizationId;
  const connection = await findConnection(db, orgId);
  const mapping = readMapping(connection?.mapping);
  const ledgers = (connection?.ledgers ?? []) as BooksLedger[];
  const names = new Set(ledgers.map((l) => l.name));
  const [register, tds] = await Promise.all([listRegisterInvoices(db, orgId), computeRegisterTds(db, orgId)]);
  const rates = new Set(COMMON_RATES);
  const parties = new Map<string, LedgerMappingView['parties'][number]>();
  for (const doc of register.filter((d) => d.approved)) {
    const inv = bookInvoiceOf(doc);
    for (const line of inv.lines) if (line.gstRate !== null) rates.add(String(line.gstRate));
    const vendorName = inv.vendorName ?? inv.vendorGstin ?? '';
    const key = inv.vendorGstin ?? `name:${vendorName}`;
    if (!vendorName || parties.has(key)) continue;
    const mapped = inv.vendorGstin ? (mapping.parties[inv.vendorGstin] ?? null) : null;
    const suggestion = suggestPartyLedger(ledgers, inv.vendorGstin, vendorName);
    const state = inv.vendorStateCode ? (stateByCode(inv.vendorStateCode)?.name ?? null) : null;
    parties.set(key, {
      gstin: inv.vendorGstin,
      vendorName,
      state,
      mapped,
      suggested: suggestion?.name ?? null,
      suggestedBy: suggestion?.by ?? null,
      exists: names.has(mapped ?? suggestion?.name ?? vendorName),
    });
  }
  const sections = new Set(Object.keys(mapping.tdsPayable));
  for (const t of tds) for (const s of t.sections) if (s.tds > 0) sections.add(s.section);
  return {
    mapping,
    ledgers,
    rates: [...rates].sort((a, b) => Number(a) - Number(b)),
    tdsSections: [...sections].sort(),
    parties: [...parties.values()].sort((a, b) => a.vendorName.localeCompare(b.vendorName)),
  };
}

/** `PUT /api/books/tally/mapping`. */
export async function saveLedgerMapping(
  db: Db,
  { user, membership, input }: { user: SessionUser; membership: Membership; input: LedgerMapping },
): Promise<LedgerMappingView> {
  await requireConnection(db, membership.organizationId);
  await updateConnection(db, membership.organizationId, { mapping: input });
  await recordActivity(db, {
    organizationId: membership.organizationId,
    kind: 'books.mapping',
    message: `${user.name} changed the Tally ledger mapping`,
    userId: user.id,
  });
  return getLedgerMapping(db, membership);
}

/**
 * `POST /api/books/tally/party-ledgers`: creates the supplier ledgers a person confirmed, under Sundry
 * Creditors with GSTIN, state and registration type, maps them, and reads the ledger list again.
 */
export async function createPartyLedgers(
  ctx: BooksContext,
  { user, membership, input }: { user: SessionUser; membership: Membership; input: CreatePartyLedgersInput },
): Promise<CreatePartyLedgersResult> {
  const connection = await requireConnection(ctx.db, membership.organizationId);
  const connector = (ctx.connectorFor ?? tallyConnectorOf)(connection);
  const parties = input.parties.map((p) => ({
    name: p.name,
    gstin: p.gstin,
    state: p.gstin ? (stateByCode(p.gstin.slice(0, 2))?.name ?? null) : null,
    registrationType: p.gstin ? ('Regular' as const) : ('Unregistered' as const),
  }));
  let answer: Awaited<ReturnType<typeof connector.createPartyLedgers>>;
  try {
    answer = await connector.createPartyLedgers(parties);
  } catch (error) {
    if (error instanceof BooksUnreachableError) throw new AppError('conflict', error.message);
    throw error;
  }
  const ledgers = await connector.listLedgers().catch(() => null);
  const have = new Set((ledgers ?? []).map((l) => l.name));
  const created = parties.filter((p) => have.has(p.name)).map((p) => p.name);
  const mapping = readMapping(connection.mapping);
  for (const p of parties) if (p.gstin && have.has(p.name)) mapping.parties[p.gstin] = p.name;
  await updateConnection(ctx.db, membership.organizationId, { mapping, ...(ledgers ? { ledgers } : {}) });
  await recordActivity(ctx.db, {
    organizationId: membership.organizationId,
    kind: 'books.ledgers',
    message: `${user.name} created ${created.length} supplier ledger${created.length === 1 ? '' : 's'} in Tally`,
    userId: user.id,
  });
  return { created, errors: answer.errors };
}

function requireJobs(jobs: JobSender | undefined): JobSender {
  if (!jobs)
    throw new AppError('conflict', 'Posting needs the job queue, which is not running on this server');
  return jobs;
}

async function enqueue(
  ctx: BooksContext,
  organizationId: string,
  documentId: string,
  desired: 'post' | 'cancel',
  by: string,
  kind: BooksKind,
) {
  const asked = await requestPush(ctx.db, { organizationId, documentId, desired, requestedBy: by, kind });
  if (asked) await requireJobs(ctx.jobs).send('books-push', { organizationId, documentId, kind });
  return asked;
}

/**
 * `POST /api/books/tally/post` (and `/books/zoho/post`): queues approved invoices to post (a corrected one
 * alters its voucher or bill, an unchanged one sends nothing, a failed one is tried again). Others are
 * listed with the reason.
 */
export async function postToTally(
  ctx: BooksContext,
  {
    user,
    membership,
    documentIds,
    kind = 'tally',
  }: { user: SessionUser; membership: Membership; documentIds: readonly string[]; kind?: BooksKind },
): Promise<PostToBooksResult> {
  await requireConnection(ctx.db, membership.organizationId, kind);
  requireJobs(ctx.jobs);
  const docs = await findDocuments(ctx.db, membership.organizationId, [...new Set(documentIds)]);
  const skipped: PostToBooksResult['skipped'] = [];
  let queued = 0;
  for (const doc of docs) {
    const type = (doc.extraction as { documentType?: string } | null)?.documentType;
    const reason =
      doc.status === 'removed'
        ? 'removed from Bahi'
        : type !== 'invoice'
          ? 'not an invoice'
          : !doc.approvedAt
            ? 'not approved yet'
            : null;
    if (reason) skipped.push({ documentId: doc.id, fileName: doc.fileName, reason });
    else if (await enqueue(ctx, membership.organizationId, doc.id, 'post', user.name, kind)) queued++;
    else skipped.push({ documentId: doc.id, fileName: doc.fileName, reason: 'already being posted' });
  }
  if (docs.length < new Set(documentIds).size)
    throw new AppError('not_found', 'Some of these documents do not exist');
  return { queued, skipped };
}

/**
 * `POST /api/books/pushes/{id}/cancel` (Zoho: `/books/zoho/pushes/{id}/void`): after a person confirms,
 * cancels the voucher (voids the bill) of a posted document.
 */
export async function cancelInTally(
  ctx: BooksContext,
  {
    user,
    membership,
    documentId,
    kind = 'tally',
  }: { user: SessionUser; membership: Membership; documentId: string; kind?: BooksKind },
): Promise<BooksPush> {
  const books = BOOKS_NAMES[kind];
  const [row] = await listPushes(ctx.db, membership.organizationId, [documentId], 1, kind);
  if (!row) throw new AppError('not_found', `This document was never posted to ${books}`);
  if (row.outcome !== 'created' && row.outcome !== 'altered')
    throw new AppError('conflict', `There is no entry of this document in ${books} to cancel`);
  await enqueue(ctx, membership.organizationId, documentId, 'cancel', user.name, kind);
  const [after] = await listPushes(ctx.db, membership.organizationId, [documentId], 1, kind);
  return toBooksPush(after!);
}

/** `GET /api/books/pushes`. */
export async function listBooksPushes(
  db: Db,
  membership: Membership,
  ids?: readonly string[],
): Promise<BooksPush[]> {
  return (await listPushes(db, membership.organizationId, ids)).map(toBooksPush);
}

/**
 * After an approval: queues the invoice's posting when the organisation posts on approval. Never fails the
 * approval — a queue that is down leaves it for the batch button.
 */
export async function postOnApproval(
  ctx: BooksContext,
  { organizationId, documentId, userName }: { organizationId: string; documentId: string; userName: string },
): Promise<void> {
  if (!ctx.jobs) return;
  const kinds: BooksKind[] = [];
  for (const kind of ['tally', 'zoho'] as const)
    if ((await findConnection(ctx.db, organizationId, kind))?.autoPost) kinds.push(kind);
  if (kinds.length === 0) return;
  const [doc] = await findDocuments(ctx.db, organizationId, [documentId]);
  if ((doc?.extraction as { documentType?: string } | null)?.documentType !== 'invoice') return;
  for (const kind of kinds) await enqueue(ctx, organizationId, documentId, 'post', userName, kind);
}

export type { BooksPushRow };
