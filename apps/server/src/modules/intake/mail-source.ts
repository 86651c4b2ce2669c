import { hkdfSync, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type FlowInput, type MailSource, MailSourceSchema } from '@bahi/contracts';
import type { SourceAdapter, SourceContext } from '../../adapters/sources/source.ts';
import { fingerprintListing } from '../../adapters/sources/source.ts';
import { uploadSource } from '../../adapters/sources/upload.ts';
import type { Env } from '../../config/env.ts';
import { resolveAuthSecret } from '../../config/secret.ts';
import { AppError } from '../../lib/app-error.ts';
import { decryptToken, encryptToken } from '../google/token-crypto.ts';
import { takeInMail } from './mail-intake.ts';
import { getMailAccessToken, isMailOAuthConnected, reconnectMessage } from './mail-oauth.ts';

// The `email` source kind: a flow's IMAP mailbox. Each poll (before a run's scan, and every minute for a
// flow that runs on arrival) takes the new mail in: attachments go to the flow's upload inbox, so the
// scan, the extraction and the document view treat them as uploads (their bytes shared through the
// database on PostgreSQL, like uploads). The password is stored encrypted, bound to the organisation.

const keys = new WeakMap<Env, Promise<Buffer>>();

/** The mailbox-password key: HKDF of the server secret with its own context (independent of other keys). */
function passwordKey(env: Env): Promise<Buffer> {
  let key = keys.get(env);
  if (!key) {
    key = resolveAuthSecret(env).then((secret) =>
      Buffer.from(hkdfSync('sha256', secret, 'bahi', 'mail-passwords/v1', 32)),
    );
    keys.set(env, key);
  }
  return key;
}

/** This process, in message claims (one per process is enough: claims are per message). */
const WORKER_ID = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

function requireMail(input: FlowInput): MailSource {
  if (!input.mail) {
    const message = 'Give the mailbox: server, user name and password';
    throw new AppError('validation', message, { mail: message });
  }
  return input.mail;
}

/** The stored password, decrypted; a changed server secret makes it unreadable: the user enters it again. */
async function readPassword(env: Env, organizationId: string, mail: MailSource): Promise<string> {
  const unreadable = 'The mailbox password is not stored (or the server secret changed); enter it again';
  if (!mail.passwordEnc) throw new AppError('validation', unreadable, { mail: unreadable });
  try {
    return decryptToken(await passwordKey(env), mail.passwordEnc, organizationId);
  } catch {
    throw new AppError('validation', unreadable, { mail: unreadable });
  }
}

/** How to log in: the password, or (OAuth2 mailboxes) a fresh access token for SASL XOAUTH2. */
async function readCredentials(
  ctx: SourceContext,
  source: { organizationId: string; flowId: string },
  mail: MailSource,
): Promise<{ password: string } | { accessToken: string }> {
  if (mail.auth === 'password') return { password: await readPassword(ctx.env, source.organizationId, mail) };
  return { accessToken: await getMailAccessToken(ctx.db, ctx.env, { ...source, mail }) };
}

/** Takes the mailbox's new mail in, then lists the flow's inbox. */
async function pollAndList(
  ctx: SourceContext,
  source: { organizationId: string; flowId: string; input: FlowInput },
) {
  const mail = requireMail(source.input);
  const credentials = await readCredentials(ctx, source, mail);
  await takeInMail(
    { ...ctx, workerId: WORKER_ID, now: new Date() },
    { organizationId: source.organizationId, flowId: source.flowId, mail, ...credentials },
  );
  return uploadSource.open(ctx, source);
}

/** The `email` source kind (see the top of this file). */
export const mailSource: SourceAdapter = {
  async validate(ctx, { organizationId, input, previous }) {
    const mail = MailSourceSchema.parse(requireMail(input));
    const { password, hasPassword: _shown, passwordEnc: _sent, ...settings } = mail;
    // A password sent is encrypted; none sent keeps the stored one (the form never holds it).
    const kept = previous?.mail?.passwordEnc;
    const passwordEnc = password ? encryptToken(await passwordKey(ctx.env), password, organizationId) : kept;
    // An OAuth2 mailbox needs no password: it is connected by signing in (after the flow is saved).
    if (!passwordEnc && settings.auth === 'password') {
      const message = 'Give the mailbox password (for Gmail or Microsoft 365, an app password)';
      throw new AppError('validation', message, { 'mail.password': message });
    }
    if (settings.after === 'move' && !settings.moveTo) {
      const message = 'Give the folder to move processed mail to';
      throw new AppError('validation', message, { 'mail.moveTo': message });
    }
    return { ...input, url: '', folderName: settings.folder, mail: { ...settings, passwordEnc } };
  },
  async checkRunnable(ctx, { organizationId, flowId, input }) {
    const mail = requireMail(input);
    if (mail.auth === 'password') await readPassword(ctx.env, organizationId, mail);
    else if (!flowId || !(await isMailOAuthConnected(ctx.db, { organizationId, flowId }))) {
      const message = reconnectMessage(mail);
      throw new AppError('validation', message, { mail: message });
    }
  },
  open: (ctx, source) => pollAndList(ctx, source),
  locate: (ctx, doc) => uploadSource.locate(ctx, doc),
  servedFrom: (ctx, doc) => uploadSource.servedFrom(ctx, doc),
  folderName: () => 'INBOX',
  watch: async (ctx, source) => fingerprintListing(await pollAndList(ctx, source)),
};
