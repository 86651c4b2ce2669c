import type { MailSource } from '@bahi/contracts';
import { ImapFlow } from 'imapflow';
import { shareUploadedFiles } from '../../adapters/blobs/upload-blobs.ts';
import type { SourceContext } from '../../adapters/sources/source.ts';
import { getUploadDir, storeUploadedFiles } from '../../adapters/sources/upload.ts';
import { sumOrganizationUploadBytes, upsertUpload } from '../../adapters/sources/uploads.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import {
  claimMessage,
  finishMessage,
  type IntakeLine,
  listDoneUids,
  recordSkipped,
  recordTaken,
} from './mail.repo.ts';
import { reconnectMessage } from './mail-oauth.ts';
import { explainMessageFilter, type ReadMessage, readMessage } from './mail-parts.ts';

/** Most messages one poll takes, oldest first; the next poll goes on. */
const MESSAGES_PER_POLL = 200;
/** A message bigger than this many upload limits is not downloaded. */
const MESSAGE_SIZE_FACTOR = 4;

/** Who is polling and when: the worker id names the claims. */
export interface PollContext extends SourceContext {
  workerId: string;
  now: Date;
}

/** The flow and its mailbox, with the password decrypted or (OAuth2 mailboxes) an access token. */
export type MailboxToPoll = {
  organizationId: string;
  flowId: string;
  mail: MailSource;
} & ({ password: string } | { accessToken: string });

/** A mail-server failure in words a person can act on (the flow shows it; the owner is told). */
function explainImapError(error: unknown, mail: MailSource): AppError {
  const e = error as {
    authenticationFailed?: boolean;
    serverResponseCode?: string;
    code?: string;
    message?: string;
  };
  let message: string;
  if (e.authenticationFailed && e.serverResponseCode === 'UNAVAILABLE')
    message = `The mail server ${mail.host} could not check the password just now; Bahi will try again.`;
  else if (e.authenticationFailed && mail.auth !== 'password') message = reconnectMessage(mail);
  else if (e.authenticationFailed)
    message = `The mail server refused the user name or password for ${mail.user}. If the mailbox is Gmail or Microsoft 365, use an app password, then save the flow with it.`;
  else if (['ENOTFOUND', 'ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET'].includes(e.code ?? ''))
    message = `Bahi could not reach the mail server ${mail.host}:${mail.port}. Check the server name and port (IMAP with TLS is usually port 993).`;
  else if (/certificate|self.signed|ssl|tls/i.test(e.message ?? ''))
    message = `The mail server ${mail.host} did not offer a secure connection Bahi trusts. Check the TLS setting and port.`;
  else message = `The mail server answered with an error: ${e.message ?? 'unknown error'}`;
  return new AppError('validation', message, { mail: message });
}

/** The mailbox's name in message keys: the same folder on two servers or accounts is two folders. */
export function mailboxKey(mail: MailSource): string {
  return `${mail.user.toLowerCase()}@${mail.host.toLowerCase()}:${mail.port}`;
}

/**
 * Takes in the new mail of a flow's mailbox: each message not yet done is claimed (one worker per
 * message: the database's unique key decides), read, its attachments stored in the flow's upload inbox
 * (the next run's scan makes them documents), every part logged as taken, skipped or failed with the
 * reason, and the after-action applied. A message a dead worker held is taken over after its lease.
 * Returns how many files it took. Throws an AppError in plain words when the mailbox cannot be read.
 */
export async function takeInMail(ctx: PollContext, box: MailboxToPoll): Promise<number> {
  const { mail } = box;
  const client = new ImapFlow({
    host: mail.host,
    port: mail.port,
    secure: mail.tls,
    // An access token makes imapflow log in with SASL XOAUTH2 (OAUTHBEARER when only that is offered).
    auth:
      'accessToken' in box
        ? { user: mail.user, accessToken: box.accessToken }
        : { user: mail.user, pass: box.password },
    logger: false,
    connectionTimeout: 20_000,
    greetingTimeout: 15_000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw explainImapError(error, mail);
  }
  try {
    const lock = await client.getMailboxLock(mail.folder).catch(() => {
      const message = `The folder "${mail.folder}" does not exist in the mailbox ${mail.user}.`;
      throw new AppError('validation', message, { mail: message });
    });
    try {
      return await takeInFolder(ctx, box, client);
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
}

async function takeInFolder(ctx: PollContext, box: MailboxToPoll, client: ImapFlow): Promise<number> {
  const { mail } = box;
  const opened = client.mailbox;
  if (!opened) throw new AppError('internal', 'The mail folder did not open');
  const key = {
    organizationId: box.organizationId,
    flowId: box.flowId,
    mailbox: mailboxKey(mail),
    folder: mail.folder,
    uidValidity: Number(opened.uidValidity),
  };
  const since =
    mail.filters.maxAgeDays > 0
      ? new Date(ctx.now.getTime() - mail.filters.maxAgeDays * 86_400_000)
      : undefined;
  const uids = ((await client.search(since ? { since } : { all: true }, { uid: true })) || []).sort(
    (a, b) => a - b,
  );
  if (uids.length === 0) return 0;
  const done = await listDoneUids(ctx.db, key, uids[0]!);
  let taken = 0;
  for (const uid of uids.filter((u) => !done.has(u)).slice(0, MESSAGES_PER_POLL)) {
    const claimId = await claimMessage(
      ctx.db,
      { ...key, uid },
      // A worker that stops mid-message (killed, crashed) leaves its claim; another takes it after a run
      // lease (RUN_LEASE_SECONDS), as a dead worker's documents are.
      { workerId: ctx.workerId, now: ctx.now, leaseSeconds: ctx.env.flows.leaseSeconds },
    );
    if (!claimId) continue;
    const result = await takeMessage(ctx, box, client, uid);
    taken += result.taken;
    if (result.act) {
      // The files are taken either way: a failed after-action is logged, never a reason to take them again.
      await applyAfterAction(client, mail, uid).catch((error: Error) =>
        recordSkipped(ctx.db, {
          organizationId: box.organizationId,
          flowId: box.flowId,
          origin: `message ${uid}`,
          messageId: result.messageId,
          name: '(whole message)',
          status: 'failed',
          reason:
            mail.after === 'move'
              ? `The message could not be moved to "${mail.moveTo}" (does that folder exist?): ${error.message}`
              : `The message could not be marked: ${error.message}`,
        }),
      );
    }
    await finishMessage(ctx.db, claimId, { workerId: ctx.workerId, messageId: result.messageId });
  }
  return taken;
}

/** Reads one message and stores its files; `act` says whether the after-action applies (it was taken). */
async function takeMessage(
  ctx: PollContext,
  box: MailboxToPoll,
  client: ImapFlow,
  uid: number,
): Promise<{ taken: number; messageId: string; act: boolean }> {
  const maxMessage = ctx.env.flows.uploadMaxBytes * MESSAGE_SIZE_FACTOR;
  const base = { organizationId: box.organizationId, flowId: box.flowId };
  // A message not taken at all is logged once, as a whole, with why; nothing of it is acted on.
  const failWhole = async (reason: string) => {
    const whole = {
      origin: `message ${uid}`,
      messageId: '',
      name: '(whole message)',
      status: 'failed' as const,
    };
    await recordSkipped(ctx.db, { ...base, ...whole, reason });
    return { taken: 0, messageId: '', act: false };
  };
  const fetched = await client.fetchOne(String(uid), { source: true, size: true }, { uid: true });
  if (fetched === false || !fetched.source) return { taken: 0, messageId: '', act: false };
  if ((fetched.size ?? fetched.source.length) > maxMessage) {
    return failWhole('The message is too large to take; save its attachments and upload them');
  }
  let read: ReadMessage;
  try {
    read = await readMessage(fetched.source, box.mail.filters);
  } catch {
    return failWhole('The message is damaged and could not be read');
  }
  const line = {
    ...base,
    origin: [read.subject, read.from].filter(Boolean).join(' — '),
    messageId: read.messageId,
  };
  const filtered = explainMessageFilter(read, box.mail.filters);
  if (filtered) {
    await recordSkipped(ctx.db, { ...line, name: '(whole message)', status: 'skipped', reason: filtered });
    return { taken: 0, messageId: read.messageId, act: false };
  }
  const taken = await storeMessageFiles(ctx, line, read);
  return { taken, messageId: read.messageId, act: true };
}

/** Stores a message's files in the flow's inbox and logs every part; returns the files newly taken. */
async function storeMessageFiles(
  ctx: PollContext,
  line: Omit<IntakeLine, 'name' | 'status' | 'reason'>,
  read: ReadMessage,
): Promise<number> {
  const { env, db } = ctx;
  const dir = getUploadDir(env.dataDir, line.organizationId, line.flowId);
  const used = await sumOrganizationUploadBytes(db, line.organizationId);
  // The upload path's own rules: supported types, size limits, zips expanded within their budgets.
  const { stored, skipped } = await storeUploadedFiles(dir, read.files, {
    maxFileBytes: env.flows.uploadMaxBytes,
    maxFiles: env.flows.maxFiles,
    maxExpandedBytes: env.flows.uploadMaxBytes * 8,
    storageLeftBytes: Math.max(0, env.flows.orgStorageMaxBytes - used),
  });
  await shareUploadedFiles(db, env, stored);
  let taken = 0;
  for (const file of stored) {
    await upsertUpload(db, {
      organizationId: line.organizationId,
      flowId: line.flowId,
      fileName: file.fileName,
      sha256: file.sha256,
      size: file.size,
      storedPath: file.storedPath,
      uploadedByUserId: null,
    });
    const fresh = await recordTaken(db, {
      ...line,
      name: file.fileName,
      status: 'taken',
      reason: '',
      contentHash: file.sha256,
      size: file.size,
    });
    if (fresh) taken++;
    else
      await recordSkipped(db, {
        ...line,
        name: file.fileName,
        status: 'skipped',
        reason: 'Already taken from an earlier copy of this message',
      });
  }
  for (const skip of [...read.skipped, ...skipped])
    await recordSkipped(db, { ...line, name: skip.name, status: 'skipped', reason: skip.reason });
  if (read.files.length === 0 && read.skipped.length === 0)
    await recordSkipped(db, {
      ...line,
      name: '(whole message)',
      status: 'skipped',
      reason: 'The message has no attachment',
    });
  return taken;
}

/** Marks the message read (the default), flags it, or moves it to the flow's folder. */
async function applyAfterAction(client: ImapFlow, mail: MailSource, uid: number): Promise<void> {
  const range = String(uid);
  if (mail.after === 'move' && mail.moveTo) {
    await client.messageMove(range, mail.moveTo, { uid: true });
    return;
  }
  await client.messageFlagsAdd(range, [mail.after === 'flag' ? '\\Flagged' : '\\Seen'], { uid: true });
}
