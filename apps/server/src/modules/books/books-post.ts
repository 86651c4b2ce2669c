import { createHash } from 'node:crypto';
import { type PurchaseVoucher, tallyEnvelope } from '@bahi/compliance';
import type { BooksAnswer, BooksConnector, PushAction } from '../../adapters/books/books-connector.ts';
import { BooksUnreachableError } from '../../adapters/books/books-connector.ts';
import { createTallyConnector } from '../../adapters/books/tally-connector.ts';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../jobs/registry.ts';
import { recordActivity } from '../activity/activity.service.ts';
import { computeRegisterTds } from '../gst/tds.service.ts';
import {
  type BooksConnectionRow,
  type BooksPushRow,
  claimPush,
  findConnection,
  findDocuments,
  finishPush,
  listStalledPushes,
} from './books.repo.ts';
import { readMapping, voucherOfDocument } from './books-voucher.ts';

// Sending one document's voucher to Tally, as the `books-push` job. Exactly once, in effect: one worker at a
// time holds the push record (claimPush, a lease), the voucher's REMOTEID makes Tally keep one voucher
// however often it is sent (a crash between Tally's answer and the record only re-sends the same voucher,
// which Tally alters into itself), and the hash of what Tally last accepted makes an unchanged re-push send
// nothing at all.

/** How long a sender may stay silent before another worker may take its push over. */
export const BOOKS_PUSH_LEASE_MS = 2 * 60 * 1000;

/** What a push job needs besides its payload. */
export interface PushContext {
  db: Db;
  workerId: string;
  /** The connector for a connection (the real Tally client unless a test says otherwise). */
  connectorFor?: (connection: BooksConnectionRow) => BooksConnector;
}

/** The Tally client of a saved connection. */
export function tallyConnectorOf(connection: BooksConnectionRow): BooksConnector {
  return createTallyConnector({ host: connection.host, port: connection.port, company: connection.company });
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** What to send for a claimed push: a voucher and its action, nothing (unchanged), or a refusal. */
type Plan =
  | { kind: 'send'; voucher: PurchaseVoucher; action: PushAction; hash: string }
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
  const tds = (await computeRegisterTds(db, push.organizationId)).find((t) => t.invoice.id === doc.id);
  const built = voucherOfDocument(doc, readMapping(connection.mapping), tds);
  if (!built.ok) return { kind: 'refuse', reason: `Not sent: ${built.reason}` };
  const hash = sha256(tallyEnvelope([built.voucher], { company: connection.company }));
  if (push.sentHash === hash && (push.outcome === 'created' || push.outcome === 'altered'))
    return { kind: 'unchanged' };
  // Anything already in Tally under this REMOTEID is altered; a first push creates (and, resent after a
  // crash, Tally alters the voucher the lost answer had created).
  return { kind: 'send', voucher: built.voucher, action: push.outcome ? 'alter' : 'create', hash };
}

function outcomeOf(push: BooksPushRow, action: PushAction): 'created' | 'altered' | 'cancelled' {
  if (action === 'cancel') return 'cancelled';
  return push.outcome === null ? 'created' : 'altered';
}

async function send(
  connector: BooksConnector,
  voucher: PurchaseVoucher,
  action: PushAction,
): Promise<BooksAnswer | { unreachable: string }> {
  try {
    return await connector.pushVoucher(voucher, action);
  } catch (error) {
    if (error instanceof BooksUnreachableError) return { unreachable: error.message };
    throw error;
  }
}

/**
 * The `books-push` job: sends one document's voucher (or its cancellation) to Tally if this worker can claim
 * its push record. Safe to run twice and from two workers: the second finds nothing to claim.
 */
export async function pushDocument(
  ctx: PushContext,
  { organizationId, documentId }: { organizationId: string; documentId: string },
): Promise<void> {
  const { db, workerId } = ctx;
  const push = await claimPush(db, { organizationId, documentId, workerId, leaseMs: BOOKS_PUSH_LEASE_MS });
  if (!push) return;
  const connection = await findConnection(db, organizationId);
  const finish = (values: Partial<BooksPushRow>) => finishPush(db, { id: push.id, workerId, values });
  if (!connection) {
    await finish({ state: 'failed', error: 'Tally is not connected: set it up on the Integrations page' });
    return;
  }
  const plan = await planPush(db, push, connection);
  if (plan.kind === 'unchanged') {
    await finish({ state: 'done', error: null });
    return;
  }
  if (plan.kind === 'refuse') {
    await finish({ state: 'failed', error: plan.reason });
    return;
  }
  const answer = await send((ctx.connectorFor ?? tallyConnectorOf)(connection), plan.voucher, plan.action);
  if ('unreachable' in answer) {
    await finish({ state: 'failed', error: answer.unreachable });
    return;
  }
  if (!answer.ok) {
    await finish({ state: 'failed', error: `Tally refused it: ${answer.errors.join('; ')}`, answer });
    return;
  }
  const outcome = outcomeOf(push, plan.action);
  await finish({
    state: 'done',
    outcome,
    remoteId: plan.voucher.remoteId,
    voucherId: answer.voucherId ?? push.voucherId,
    sentHash: plan.hash,
    sentVoucher: plan.voucher,
    sentAt: new Date(),
    error: null,
    answer,
  });
  await recordActivity(db, {
    organizationId,
    kind: 'books.pushed',
    message: `${outcome === 'created' ? 'Posted' : outcome === 'altered' ? 'Altered' : 'Cancelled'} in Tally: ${plan.voucher.reference} of ${plan.voucher.party}`,
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
