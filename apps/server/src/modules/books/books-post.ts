import { createHash } from 'node:crypto';
import { type PurchaseVoucher, tallyEnvelope } from '@bahi/compliance';
import type {
  BooksAnswer,
  BooksConnector,
  PushAction,
  PushKnown,
} from '../../adapters/books/books-connector.ts';
import { BooksUnreachableError } from '../../adapters/books/books-connector.ts';
import { createTallyConnector } from '../../adapters/books/tally-connector.ts';
import type { ZohoBill } from '../../adapters/books/zoho-books.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../jobs/registry.ts';
import { recordActivity } from '../activity/activity.service.ts';
import { computeRegisterTds } from '../gst/tds.service.ts';
import {
  type BooksConnectionRow,
  type BooksKind,
  type BooksPushRow,
  claimPush,
  findConnection,
  findDocuments,
  finishPush,
  listStalledPushes,
} from './books.repo.ts';
import { readMapping, voucherOfDocument } from './books-voucher.ts';
import { billOfDocument, readZohoMapping } from './books-zoho-bill.ts';
import { documentPdf, type ZohoUrls, zohoConnectorOf } from './books-zoho-connection.ts';

// Sending one document's voucher to Tally (or its bill to Zoho Books), as the `books-push` job. Exactly
// once, in effect: one worker at a time holds the push record (claimPush, a lease), the voucher's REMOTEID
// makes Tally keep one voucher however often it is sent (a crash between Tally's answer and the record only
// re-sends the same voucher, which Tally alters into itself) — Zoho, which has no such key, is searched for
// the vendor's bill number before each create — and the hash of what the books last accepted makes an
// unchanged re-push send nothing at all.

/** How long a sender may stay silent before another worker may take its push over. */
export const BOOKS_PUSH_LEASE_MS = 2 * 60 * 1000;

/** A connector of either package (the document type is the connection's). */
export type AnyConnector = BooksConnector<PurchaseVoucher> | BooksConnector<ZohoBill>;

/** What a push job needs besides its payload. */
export interface PushContext {
  db: Db;
  workerId: string;
  /** The server's settings: the key of Zoho's stored secrets, where documents' files are. */
  env?: Env;
  /** The connector for a connection (the real client unless a test says otherwise). */
  connectorFor?: (connection: BooksConnectionRow) => AnyConnector;
  /** Zoho's servers (a test's stand-in); the connection's data centre by default. */
  zohoUrls?: ZohoUrls;
}

/** The real client of a saved connection of either kind. */
export async function connectorOf(
  ctx: Pick<PushContext, 'env' | 'connectorFor' | 'zohoUrls'>,
  connection: BooksConnectionRow,
): Promise<AnyConnector> {
  if (ctx.connectorFor) return ctx.connectorFor(connection);
  if (connection.kind === 'zoho') return zohoConnectorOf(ctx, connection);
  return tallyConnectorOf(connection);
}

/** The Tally client of a saved connection. */
export function tallyConnectorOf(connection: BooksConnectionRow): BooksConnector {
  return createTallyConnector({ host: connection.host, port: connection.port, company: connection.company });
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** What to send for a claimed push: a voucher and its action, nothing (unchanged), or a refusal. */
type Plan =
  | { kind: 'send'; voucher: PurchaseVoucher | ZohoBill; action: PushAction; hash: string }
  | { kind: 'unchanged' }
  | { kind: 'refuse'; reason: string };

async function planPush(db: Db, push: BooksPushRow, connection: BooksConnectionRow): Promise<Plan> {
  if (push.desired === 'cancel') {
    const sent = push.sentVoucher as PurchaseVoucher | null;
    if (!sent || push.outcome === 'cancelled') return { kind: 'unchanged' };
    return { kind: 'send', voucher: sent, action: 'cancel', hash: push.sentHash ?? '' };
  }
  const [doc] = await findDocuments(db, push.organizationId, [push.documentId]);
  if (!doc || doc.status === 'removed')
    return { kind: 'refuse', reason: 'The document was removed from Bahi' };
  if (!doc.approvedAt)
    return {
      kind: 'refuse',
      reason: 'The invoice was changed after it was queued: approve it again, then post it',
    };
  let voucher: PurchaseVoucher | ZohoBill;
  let hash: string;
  if (connection.kind === 'zoho') {
    const built = billOfDocument(doc, readZohoMapping(connection.mapping));
    if (!built.ok) return { kind: 'refuse', reason: `Not sent: ${built.reason}` };
    voucher = built.bill;
    hash = sha256(JSON.stringify({ organization: connection.company, bill: built.bill }));
  } else {
    const tds = (await computeRegisterTds(db, push.organizationId)).find((t) => t.invoice.id === doc.id);
    const built = voucherOfDocument(doc, readMapping(connection.mapping), tds);
    if (!built.ok) return { kind: 'refuse', reason: `Not sent: ${built.reason}` };
    voucher = built.voucher;
    hash = sha256(tallyEnvelope([built.voucher], { company: connection.company }));
  }
  if (push.sentHash === hash && (push.outcome === 'created' || push.outcome === 'altered'))
    return { kind: 'unchanged' };
  // Anything already in Tally under this REMOTEID is altered; a first push creates (and, resent after a
  // crash, Tally alters the voucher the lost answer had created; Zoho's search finds the bill it made).
  return { kind: 'send', voucher, action: push.outcome ? 'alter' : 'create', hash };
}

function outcomeOf(push: BooksPushRow, action: PushAction): 'created' | 'altered' | 'cancelled' {
  if (action === 'cancel') return 'cancelled';
  return push.outcome === null ? 'created' : 'altered';
}

async function send(
  connector: AnyConnector,
  voucher: PurchaseVoucher | ZohoBill,
  action: PushAction,
  known: PushKnown,
): Promise<BooksAnswer | { unreachable: string }> {
  try {
    // The plan built the document for this connection's kind.
    return await (connector as BooksConnector<typeof voucher>).pushVoucher(voucher, action, known);
  } catch (error) {
    if (error instanceof BooksUnreachableError) return { unreachable: error.message };
    throw error;
  }
}

const BOOKS_NAMES: Record<BooksKind, string> = { tally: 'Tally', zoho: 'Zoho Books' };

/** The document's file for the books to keep with the entry (Zoho attaches it to the bill). */
function attachmentOf(ctx: PushContext, organizationId: string, documentId: string): PushKnown['attachment'] {
  const env = ctx.env;
  return env ? () => documentPdf(ctx.db, env, organizationId, documentId) : undefined;
}

/**
 * The `books-push` job: sends one document's voucher (or its cancellation) to Tally, or its bill to Zoho
 * Books, if this worker can claim its push record. Safe to run twice and from two workers: the second finds
 * nothing to claim.
 */
export async function pushDocument(
  ctx: PushContext,
  payload: { organizationId: string; documentId: string; kind?: BooksKind | undefined },
): Promise<void> {
  const { db, workerId } = ctx;
  const { organizationId, documentId } = payload;
  const kind = payload.kind ?? 'tally';
  const books = BOOKS_NAMES[kind];
  const push = await claimPush(db, {
    organizationId,
    documentId,
    workerId,
    leaseMs: BOOKS_PUSH_LEASE_MS,
    kind,
  });
  if (!push) return;
  const connection = await findConnection(db, organizationId, kind);
  const finish = (values: Partial<BooksPushRow>) => finishPush(db, { id: push.id, workerId, values });
  if (!connection) {
    await finish({ state: 'failed', error: `${books} is not connected: set it up on the Integrations page` });
    return;
  }
  const plan = await planPush(db, push, connection);
  if (plan.kind !== 'send') {
    await finish(
      plan.kind === 'unchanged' ? { state: 'done', error: null } : { state: 'failed', error: plan.reason },
    );
    return;
  }
  const known = { voucherId: push.voucherId, attachment: attachmentOf(ctx, organizationId, documentId) };
  const answer = await connectorOf(ctx, connection).then(
    (connector) => send(connector, plan.voucher, plan.action, known),
    (error) => {
      if (error instanceof BooksUnreachableError) return { unreachable: error.message };
      throw error;
    },
  );
  if ('unreachable' in answer) {
    await finish({ state: 'failed', error: answer.unreachable });
    return;
  }
  if (!answer.ok) {
    await finish({ state: 'failed', error: `${books} refused it: ${answer.errors.join('; ')}`, answer });
    return;
  }
  const outcome = outcomeOf(push, plan.action);
  const v = plan.voucher;
  await finish({
    state: 'done',
    outcome,
    remoteId: 'remoteId' in v ? v.remoteId : null,
    voucherId: answer.voucherId ?? push.voucherId,
    sentHash: plan.hash,
    sentVoucher: v,
    sentAt: new Date(),
    error: null,
    answer,
  });
  const [reference, party] = 'remoteId' in v ? [v.reference, v.party] : [v.billNumber, v.vendorName];
  await recordActivity(db, {
    organizationId,
    kind: 'books.pushed',
    message: `${outcome === 'created' ? 'Posted' : outcome === 'altered' ? 'Altered' : 'Cancelled'} in ${books}: ${reference} of ${party}`,
  });
}

/**
 * Sends again the pushes whose sender went silent past the lease (a killed worker) or whose queued job may
 * have been lost: a chore of every working process. The claim still decides who sends.
 */
export async function requeueStalledPushes(ctx: { db: Db; jobs: JobSender }): Promise<number> {
  const stalled = await listStalledPushes(ctx.db, BOOKS_PUSH_LEASE_MS);
  for (const p of stalled) await ctx.jobs.send('books-push', p);
  return stalled.length;
}
