import { hkdfSync } from 'node:crypto';
import { type SendVendorLinkMailInput, SendVendorLinkMailInputSchema } from '@bahi/contracts';
import type { Mailer } from '../../adapters/mail/index.ts';
import { MailRefusedError } from '../../adapters/mail/index.ts';
import type { Env } from '../../config/env.ts';
import { resolveAuthSecret } from '../../config/secret.ts';
import type { Db } from '../../db/client.ts';
import type { JobPayload, JobSender } from '../../jobs/registry.ts';
import { AppError } from '../../lib/app-error.ts';
import { UUID_RE } from '../../lib/ids.ts';
import { describeErrorForLog } from '../../lib/log-safe.ts';
import type { Logger } from '../../lib/logger.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { decryptToken, encryptToken } from '../google/token-crypto.ts';
import { claimLinkMail, finishLinkMail, insertLinkMail } from './vendor-link-mail.repo.ts';
import { composeVendorLinkMail } from './vendor-link-mail-body.ts';
import { type Caller, hashVendorToken } from './vendor-links.service.ts';
import { findLink } from './vendor-onboarding.repo.ts';

const keys = new WeakMap<Env, Promise<Buffer>>();

/** The key sealing tokens that wait to be mailed: HKDF of the server secret with its own context. */
function mailKey(env: Env): Promise<Buffer> {
  let key = keys.get(env);
  if (!key) {
    key = resolveAuthSecret(env).then((secret) =>
      Buffer.from(hkdfSync('sha256', secret, 'bahi', 'vendor-link-mail/v1', 32)),
    );
    keys.set(env, key);
  }
  return key;
}

/** The associated data of a sealed token: a ciphertext moved to another organisation's row does not open. */
const sealContext = (organizationId: string, linkId: string) => `${organizationId}/${linkId}`;

/**
 * `POST /api/vendor-links/{id}/email`: queue the link's e-mail to the vendor. The browser that was shown
 * the link sends its token back (the server keeps only the hash, and checks it); the token waits sealed
 * until the `vendor-link-mail` job sends it. Refused when no outgoing mail is configured.
 */
export async function requestVendorLinkMail(
  db: Db,
  {
    caller,
    env,
    jobs,
    linkId,
    input: raw,
  }: {
    caller: Caller;
    env: Env;
    jobs: JobSender | undefined;
    linkId: string;
    input: SendVendorLinkMailInput;
  },
): Promise<{ mailId: string }> {
  const input = SendVendorLinkMailInputSchema.parse(raw);
  const { user, membership } = caller;
  if (!env.smtp || !jobs)
    throw new AppError(
      'conflict',
      'Bahi has no outgoing mail set up (SMTP_HOST and MAIL_FROM): copy the link and send it yourself',
    );
  const link = UUID_RE.test(linkId) ? await findLink(db, membership.organizationId, linkId) : undefined;
  if (!link || link.tokenHash !== hashVendorToken(input.token))
    throw new AppError('not_found', 'No such link: make a new one and send that');
  const open = link.status === 'open' || link.status === 'changes_requested';
  if (link.revokedAt || link.expiresAt <= new Date() || !open)
    throw new AppError('conflict', 'This link no longer takes a submission: make a new one and send that');
  const sealed = encryptToken(await mailKey(env), input.token, sealContext(link.organizationId, link.id));
  const mail = await db.transaction(async (tx) => {
    const row = await insertLinkMail(tx, {
      organizationId: membership.organizationId,
      linkId: link.id,
      toAddress: input.to,
      sealedToken: sealed,
      requestedByName: user.name,
    });
    await recordAudit(tx, {
      organizationId: membership.organizationId,
      kind: 'vendor.link_emailed',
      actor: user,
      summary: `${user.name} sent the onboarding link for ${link.vendorName} to ${input.to}`,
      details: { linkId: link.id, mailId: row.id, to: input.to },
    });
    return row;
  });
  await jobs.send('vendor-link-mail', { organizationId: membership.organizationId, mailId: mail.id });
  return { mailId: mail.id };
}

/** What the mail job needs. */
export interface LinkMailContext {
  db: Db;
  env: Env;
  logger: Logger;
  /** The configured outgoing mail; null when none is (the row then says so). */
  mailer: Mailer | null;
}

/** The last day (India time) a link made to expire at `expiresAt` still works. */
function lastDayInIndia(expiresAt: Date): string {
  return new Date(expiresAt.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

/**
 * The `vendor-link-mail` job: claims the queued row (so a second delivery sends nothing), writes the
 * message and hands it to the mailer. A refused message (a bad address) fails for good; a mail server that
 * fails puts the row back in the queue and throws, so the queue tries again.
 */
export async function sendVendorLinkMail(
  ctx: LinkMailContext,
  { organizationId, mailId }: JobPayload<'vendor-link-mail'>,
): Promise<void> {
  const claimed = await claimLinkMail(ctx.db, organizationId, mailId);
  if (!claimed) return;
  const { mail, link, organizationName } = claimed;
  const fail = (error: string, retry: boolean) =>
    finishLinkMail(ctx.db, organizationId, mailId, { sent: false, error, retry });
  if (!ctx.mailer) return fail('Outgoing mail is not set up (SMTP_HOST): copy the link instead', false);
  if (!mail.sealedToken || link.revokedAt) return fail('The link was revoked before it was sent', false);
  // A retry that comes after the link lapsed would mail a dead link: make a new one instead.
  if (link.expiresAt <= new Date()) return fail('The link expired before it could be sent', false);
  try {
    const token = decryptToken(
      await mailKey(ctx.env),
      mail.sealedToken,
      sealContext(organizationId, link.id),
    );
    const body = composeVendorLinkMail({
      organizationName,
      vendorName: link.vendorName,
      url: `${ctx.env.publicUrl}/vendor-form/${token}`,
      expiresOn: lastDayInIndia(link.expiresAt),
    });
    await ctx.mailer.send({ to: mail.toAddress, ...body });
  } catch (error) {
    const refused = error instanceof MailRefusedError;
    const said = String(describeErrorForLog(error).message);
    await fail(refused ? said : `The mail server did not take it: ${said}`, !refused);
    if (refused) return;
    ctx.logger.warn({ mailId, err: describeErrorForLog(error) }, 'Onboarding link e-mail failed; will retry');
    throw error;
  }
  await finishLinkMail(ctx.db, organizationId, mailId, { sent: true });
}
