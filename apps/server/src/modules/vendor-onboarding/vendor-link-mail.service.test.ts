import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { vendorLinkMails } from '../../db/schema/index.ts';
import { isAppError } from '../../lib/app-error.ts';
import { type LoopbackSmtp, startLoopbackSmtp } from '../../test/smtp.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import {
  createMember,
  createRecordingSender,
  createTestEnv,
  createTestJobContext,
  runRecordedJobs,
} from '../flows/test-support.ts';
import { requestVendorLinkMail } from './vendor-link-mail.ts';
import { composeVendorLinkMail } from './vendor-link-mail-body.ts';
import { createVendorLink, listVendorLinks, revokeVendorLink } from './vendor-links.service.ts';

// "Send by e-mail" of an onboarding link, through the job queue's handler table and the SMTP mailer to a
// real SMTP server on loopback. Made-up vendors and addresses.

let t: TestDb;
let smtp: LoopbackSmtp;
let env: Env;
let cleanup: () => Promise<void>;
let owner: Awaited<ReturnType<typeof createMember>>;

beforeAll(async () => {
  t = await createTestDb();
  smtp = await startLoopbackSmtp();
  ({ env, cleanup } = await createTestEnv({ ...smtp.envVars, PUBLIC_URL: 'https://bahi.example.test' }));
  owner = await createMember(t.db, 'Mail Owner');
});
afterAll(async () => {
  await smtp.close();
  await t.close();
  await cleanup();
});

async function makeLink(vendorName: string) {
  const created = await createVendorLink(t.db, {
    caller: owner,
    publicUrl: env.publicUrl,
    mailConfigured: true,
    input: { vendorName },
  });
  return { ...created, token: created.url.split('/').at(-1)! };
}

describe('onboarding link by e-mail', () => {
  it('queues an id-only job, sends one message however often the job runs, and keeps no token', async () => {
    const link = await makeLink('<script>alert(1)</script> Fasteners');
    const jobs = createRecordingSender();
    const { mailId } = await requestVendorLinkMail(t.db, {
      caller: owner,
      env,
      jobs,
      linkId: link.link.id,
      input: { to: 'accounts@kavya.example.test', token: link.token },
    });
    expect(jobs.sent).toEqual([
      { name: 'vendor-link-mail', payload: { organizationId: owner.membership.organizationId, mailId } },
    ]);
    const [waiting] = await t.db.select().from(vendorLinkMails).where(eq(vendorLinkMails.id, mailId));
    expect(JSON.stringify(waiting)).not.toContain(link.token);
    expect(waiting!.sealedToken).toMatch(/^v1:/);

    const ctx = createTestJobContext(t.db, { env, jobs });
    const payload = jobs.sent[0]!.payload as { organizationId: string; mailId: string };
    const before = smtp.received.length;
    const job = { name: 'vendor-link-mail' as const, payload };
    // Delivered twice at once (two workers), then once more later: the claim lets one of them send.
    await Promise.all([
      runRecordedJobs({ ...jobs, sent: [job] }, ctx),
      runRecordedJobs({ ...jobs, sent: [job] }, ctx),
    ]);
    await runRecordedJobs({ ...jobs, sent: [job] }, ctx);
    expect(smtp.received.length - before).toBe(1);

    const got = smtp.received.at(-1)!;
    expect(got.to).toEqual(['accounts@kavya.example.test']);
    expect(got.parsed.subject).toBe('Mail Owner Traders Pvt Ltd: please fill in your vendor details');
    expect(got.parsed.text).toContain(link.url);
    expect(got.parsed.text).toMatch(/works until \d{2}\/\d{2}\/\d{4}/);
    const html = String(got.parsed.html);
    expect(html).toContain(`href="${link.url}"`);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Fasteners');
    expect(html).not.toContain('<script');
    // Nothing the reader's mail program would fetch.
    expect(html).not.toMatch(/<img|<link|src=|url\(/i);

    const [sent] = await t.db.select().from(vendorLinkMails).where(eq(vendorLinkMails.id, mailId));
    expect(sent).toMatchObject({ status: 'sent', sealedToken: null, error: null });
    const listed = (await listVendorLinks(t.db, owner.membership)).items.find((l) => l.id === link.link.id);
    expect(listed?.mail).toEqual({ to: 'accounts@kavya.example.test', state: 'sent', error: null });
  });

  it('refuses a header-injecting address, a token that is not the link’s, and mail with no server set up', async () => {
    const link = await makeLink('Kavya Fasteners');
    const jobs = createRecordingSender();
    const ask = (to: string, token = link.token, withEnv = env) =>
      requestVendorLinkMail(t.db, {
        caller: owner,
        env: withEnv,
        jobs,
        linkId: link.link.id,
        input: { to, token },
      });
    await expect(ask('a@kavya.example.test\r\nBcc: everyone@example.test')).rejects.toThrow(
      /one e-mail address/,
    );
    await expect(ask('a@kavya.example.test, b@kavya.example.test')).rejects.toThrow(/one e-mail address/);
    const wrongToken = await ask('a@kavya.example.test', 'x'.repeat(43)).catch((e: unknown) => e);
    expect(isAppError(wrongToken, 'not_found')).toBe(true);
    const { env: noMail, cleanup: done } = await createTestEnv();
    const unconfigured = await ask('a@kavya.example.test', link.token, noMail).catch((e: unknown) => e);
    await done();
    expect(isAppError(unconfigured, 'conflict')).toBe(true);
    expect((unconfigured as Error).message).toMatch(/copy the link/);
    expect(jobs.sent).toEqual([]);
  });

  it('keeps a subject on one line whatever the names hold', () => {
    const mail = composeVendorLinkMail({
      organizationName: 'Acme\r\nBcc: everyone@example.test',
      vendorName: 'Kavya "Fasteners" & Sons',
      url: 'https://bahi.example.test/vendor-form/abc',
      expiresOn: '2026-12-05',
    });
    expect(mail.subject).toBe('Acme Bcc: everyone@example.test: please fill in your vendor details');
    expect(mail.html).toContain('Kavya &quot;Fasteners&quot; &amp; Sons');
    expect(mail.text).toContain('works until 05/12/2026');
  });

  it('puts the mail back in the queue with the server’s refusal when the server is down, then sends it', async () => {
    const link = await makeLink('Down Server Traders');
    const jobs = createRecordingSender();
    const { mailId } = await requestVendorLinkMail(t.db, {
      caller: owner,
      env,
      jobs,
      linkId: link.link.id,
      input: { to: 'accounts@down.example.test', token: link.token },
    });
    const { env: downEnv, cleanup: done } = await createTestEnv({
      ...smtp.envVars,
      SMTP_PORT: '1',
      PUBLIC_URL: 'https://bahi.example.test',
    });
    const payload = { organizationId: owner.membership.organizationId, mailId };
    await expect(
      runRecordedJobs({ ...jobs, sent: [...jobs.sent] }, createTestJobContext(t.db, { env: downEnv, jobs })),
    ).rejects.toThrow();
    await done();
    const listed = (await listVendorLinks(t.db, owner.membership)).items.find((l) => l.id === link.link.id);
    expect(listed?.mail?.state).toBe('failed');
    expect(listed?.mail?.error).toMatch(/mail server did not take it/);
    // Another organisation's payload finds nothing to claim; the retry with the server up sends it.
    const stranger = await createMember(t.db, 'Mail Stranger');
    const ctx = createTestJobContext(t.db, { env, jobs });
    const before = smtp.received.length;
    await runRecordedJobs(
      {
        ...jobs,
        sent: [
          {
            name: 'vendor-link-mail',
            payload: { ...payload, organizationId: stranger.membership.organizationId },
          },
        ],
      },
      ctx,
    );
    expect(smtp.received.length).toBe(before);
    await runRecordedJobs({ ...jobs, sent: [{ name: 'vendor-link-mail', payload }] }, ctx);
    expect(smtp.received.length).toBe(before + 1);
    expect(smtp.received.at(-1)!.parsed.text).toContain(link.url);
  });

  it('sends nothing for a link revoked while its mail waited, and says so', async () => {
    const link = await makeLink('Revoked Traders');
    const jobs = createRecordingSender();
    await requestVendorLinkMail(t.db, {
      caller: owner,
      env,
      jobs,
      linkId: link.link.id,
      input: { to: 'accounts@revoked.example.test', token: link.token },
    });
    await revokeVendorLink(t.db, { caller: owner, id: link.link.id });
    const before = smtp.received.length;
    await runRecordedJobs(jobs, createTestJobContext(t.db, { env, jobs }));
    expect(smtp.received.length).toBe(before);
    const listed = (await listVendorLinks(t.db, owner.membership)).items.find((l) => l.id === link.link.id);
    expect(listed?.mail).toEqual({
      to: 'accounts@revoked.example.test',
      state: 'failed',
      error: 'The link was revoked before it was sent',
    });
  });
});
