import { eq } from 'drizzle-orm';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import {
  documents,
  flowAutomations,
  flowUploads,
  intakeItems,
  mailMessages,
  notifications,
} from '../../db/schema/index.ts';
import { hasDovecot, startDovecot, type TestMailServer } from '../../test/dovecot.ts';
import { buildMessage } from '../../test/mime.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { createWorkflow, listWorkflows, requireFlow } from '../flows/flows.service.ts';
import {
  createMember,
  createRecordingSender,
  createTestEnv,
  createTestJobContext,
  readFixture,
  runRecordedJobs,
} from '../flows/test-support.ts';
import { fireDueFlows } from '../runs/flow-triggers.ts';
import { startRun } from '../runs/runs.service.ts';
import { mailboxKey, takeInMail } from './mail-intake.ts';

// The e-mail source against a real IMAP server (Dovecot on loopback, a throw-away mail store), with real
// MIME: attachments, an inline PDF, a forwarded message, a non-ASCII file name, a logo and a T&C sheet.
// Nothing twice: re-deliveries, a UIDVALIDITY change, two workers at once; nothing lost: a worker that died
// mid-message. A wrong password shows on the flow and backs off.

let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;
let server: TestMailServer;
let member: Awaited<ReturnType<typeof createMember>>;
let pdfA: Uint8Array;
let pdfB: Uint8Array;

beforeAll(async () => {
  if (!hasDovecot()) return;
  t = await createTestDb();
  ({ env, cleanup } = await createTestEnv());
  env.databaseUrl = t.databaseUrl;
  member = await createMember(t.db);
  server = await startDovecot();
  pdfA = await readFixture('invoice-011.pdf');
  pdfB = await readFixture('invoice-018.pdf');
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await t?.close();
  await cleanup?.();
});

/** A PDF with distinct bytes (a comment after %%EOF): a different file to the engine's hash, still readable. */
const variant = (pdf: Uint8Array, n: number) =>
  Buffer.concat([Buffer.from(pdf), Buffer.from(`\n% copy ${n}\n`)]);

async function mailFlow(
  name: string,
  folder: string,
  extra: { password?: string; trigger?: 'arrival'; moveTo?: string } = {},
) {
  return createWorkflow(t.db, {
    env,
    ...member,
    input: {
      name,
      types: ['INVOICE'],
      io: {
        input: {
          kind: 'email',
          url: '',
          folderName: '',
          mail: {
            host: server.host,
            port: server.port,
            tls: false,
            user: server.user,
            password: extra.password ?? server.password,
            folder,
            filters: { maxAgeDays: 0 },
            ...(extra.moveTo ? { after: 'move' as const, moveTo: extra.moveTo } : {}),
          },
        },
        output: { kind: 'xlsx', sheetId: '', sheetName: '' },
      },
      ...(extra.trigger ? { trigger: { kind: extra.trigger } } : {}),
    },
  });
}

async function poll(flowId: string, workerId = 'worker-a') {
  const flow = await requireFlow(t.db, member.membership, flowId);
  const { mailSource } = await import('./mail-source.ts');
  // Through the adapter's own listing, as a run's scan does (it decrypts the password).
  const listing = await mailSource.open(
    { db: t.db, env },
    { organizationId: flow.organizationId, flowId, input: flow.io.input },
  );
  const names: string[] = [];
  for await (const entry of listing.list()) if ('file' in entry) names.push(entry.file.name);
  return { names, workerId };
}

async function runOnce(flowId: string) {
  const jobs = createRecordingSender();
  const flow = await requireFlow(t.db, member.membership, flowId);
  await startRun(t.db, { env, jobs, user: member.user, flow });
  await runRecordedJobs(jobs, createTestJobContext(t.db, { env, jobs }));
  return t.db.select().from(documents).where(eq(documents.flowId, flowId));
}

const itemsOf = (flowId: string) => t.db.select().from(intakeItems).where(eq(intakeItems.flowId, flowId));

describe.skipIf(!hasDovecot())('e-mail source on a real IMAP server', () => {
  it('takes attachments, inline PDFs and forwarded ones; skips logos and T&C with reasons; marks read', {
    timeout: 180_000,
  }, async () => {
    const wf = await mailFlow('Vendor mail', 'INBOX');
    expect(wf.io.input.mail?.hasPassword).toBe(true);
    expect(JSON.stringify(wf)).not.toContain(server.password);
    expect(JSON.stringify(wf)).not.toContain('passwordEnc');
    const forwardedInner = buildMessage({
      from: 'accounts@supplier.example',
      subject: 'Original bill',
      parts: [{ name: 'बिल-अक्टूबर.pdf', type: 'application/pdf', bytes: variant(pdfA, 1) }],
    });
    await server.append(
      'INBOX',
      buildMessage({
        from: 'billing@vendor-one.example',
        subject: 'Two invoices for October',
        parts: [
          { name: 'INV-1.pdf', type: 'application/pdf', bytes: pdfA },
          { name: 'INV-2.pdf', type: 'application/pdf', bytes: pdfB },
        ],
      }),
    );
    await server.append(
      'INBOX',
      buildMessage({
        from: 'billing@vendor-two.example',
        subject: 'Invoice attached',
        parts: [
          { name: 'logo.png', type: 'image/png', bytes: Buffer.alloc(900, 7), inline: true },
          { name: 'Terms and Conditions.pdf', type: 'application/pdf', bytes: variant(pdfB, 2) },
          { name: 'scan.pdf', type: 'application/pdf', bytes: variant(pdfB, 3), inline: true },
        ],
      }),
    );
    await server.append(
      'INBOX',
      buildMessage({
        from: 'me@buyer.example',
        subject: 'Fwd: Original bill',
        forwarded: [forwardedInner],
      }),
    );
    const docs = await runOnce(wf.id);
    expect(docs.map((d) => d.fileName).sort()).toEqual([
      'INV-1.pdf',
      'INV-2.pdf',
      'scan.pdf',
      'बिल-अक्टूबर.pdf',
    ]);
    expect(docs.every((d) => d.status !== 'pending' && d.status !== 'failed')).toBe(true);
    const items = await itemsOf(wf.id);
    const skipped = items.filter((i) => i.status === 'skipped');
    expect(skipped.find((i) => i.name === 'logo.png')?.reason).toMatch(/logo or signature/);
    expect(skipped.find((i) => i.name === 'Terms and Conditions.pdf')?.reason).toMatch(
      /Terms and conditions/,
    );
    expect(items.filter((i) => i.status === 'taken')).toHaveLength(4);
    // Marked read (the default after-action).
    const client = await server.connect();
    const lock = await client.getMailboxLock('INBOX');
    const unseen = await client.search({ seen: false }, { uid: true });
    lock.release();
    await client.logout();
    expect(unseen).toEqual([]);
    // A second run finds nothing new.
    expect(await runOnce(wf.id)).toHaveLength(4);
  });

  it('opens zips within the upload limits, lists a HEIC photo as skipped, and moves the message', {
    timeout: 60_000,
  }, async () => {
    const wf = await mailFlow('Zipped', 'Zips', { moveTo: 'Done' });
    const zip = zipSync({ 'q1/Z-1.pdf': variant(pdfA, 71), 'Z-2.pdf': variant(pdfB, 72) });
    await server.append(
      'Zips',
      buildMessage({
        from: 'billing@vendor-six.example',
        subject: 'Quarter bills',
        parts: [
          { name: 'bills.zip', type: 'application/zip', bytes: zip },
          { name: 'photo.heic', type: 'image/heic', bytes: Buffer.alloc(40_000, 1) },
        ],
      }),
    );
    const client = await server.connect();
    await client.mailboxCreate('Done').catch(() => undefined);
    await client.logout();
    const { names } = await poll(wf.id);
    expect(names.sort()).toEqual(['Z-1.pdf', 'Z-2.pdf']);
    const items = await itemsOf(wf.id);
    expect(items.find((i) => i.name === 'photo.heic')?.reason).toMatch(
      /Not a supported document type \(\.heic\)/,
    );
    const after = await server.connect();
    const zips = await after.status('Zips', { messages: true });
    const done = await after.status('Done', { messages: true });
    await after.logout();
    if (!zips || !done) throw new Error('no STATUS answer');
    expect(zips.messages).toBe(0);
    expect(done.messages).toBe(1);
  });

  it('a message delivered 100 times gives one document', { timeout: 180_000 }, async () => {
    const wf = await mailFlow('Re-delivered', 'Again');
    const raw = buildMessage({
      from: 'billing@vendor-three.example',
      subject: 'Invoice',
      messageId: '<same-every-time@vendor-three.example>',
      parts: [{ name: 'INV-9.pdf', type: 'application/pdf', bytes: variant(pdfA, 9) }],
    });
    const client = await server.connect();
    await client.mailboxCreate('Again').catch(() => undefined);
    for (let i = 0; i < 100; i++) await client.append('Again', raw, []);
    await client.logout();
    const docs = await runOnce(wf.id);
    expect(docs).toHaveLength(1);
    const items = await itemsOf(wf.id);
    expect(items.filter((i) => i.status === 'taken')).toHaveLength(1);
    expect(items.filter((i) => i.reason.startsWith('Already taken'))).toHaveLength(99);
  });

  it('a UIDVALIDITY change gives no duplicates', { timeout: 180_000 }, async () => {
    const wf = await mailFlow('Renumbered', 'Bills');
    const first = buildMessage({
      from: 'billing@vendor-four.example',
      subject: 'Invoice 1',
      parts: [{ name: 'A.pdf', type: 'application/pdf', bytes: variant(pdfA, 41) }],
    });
    const before = await server.append('Bills', first);
    await poll(wf.id);
    // The folder is recreated (as a server migration or restore does): new UIDVALIDITY, same mail, plus one.
    const client = await server.connect();
    await client.mailboxDelete('Bills');
    await client.logout();
    await new Promise((r) => setTimeout(r, 1100));
    const after = await server.append('Bills', first);
    await server.append(
      'Bills',
      buildMessage({
        from: 'billing@vendor-four.example',
        subject: 'Invoice 2',
        parts: [{ name: 'B.pdf', type: 'application/pdf', bytes: variant(pdfB, 42) }],
      }),
    );
    expect(after.uidValidity).not.toBe(before.uidValidity);
    const { names } = await poll(wf.id);
    expect(names.sort()).toEqual(['A.pdf', 'B.pdf']);
    const uploads = await t.db.select().from(flowUploads).where(eq(flowUploads.flowId, wf.id));
    expect(uploads).toHaveLength(2);
    expect(await runOnce(wf.id)).toHaveLength(2);
  });

  it("two workers polling one mailbox take each message once; a dead worker's message is taken over", {
    timeout: 180_000,
  }, async () => {
    const wf = await mailFlow('Shared', 'Shared');
    for (let i = 0; i < 20; i++)
      await server.append(
        'Shared',
        buildMessage({
          from: 'billing@vendor-five.example',
          subject: `Invoice ${i}`,
          parts: [{ name: `S-${i}.pdf`, type: 'application/pdf', bytes: variant(pdfA, 500 + i) }],
        }),
      );
    const flow = await requireFlow(t.db, member.membership, wf.id);
    const mail = flow.io.input.mail!;
    // A worker died holding the last message: its claim is old.
    const client = await server.connect();
    const status = await client.status('Shared', { uidValidity: true, uidNext: true });
    if (!status) throw new Error('no STATUS answer');
    await client.logout();
    await t.db.insert(mailMessages).values({
      organizationId: flow.organizationId,
      flowId: wf.id,
      mailbox: mailboxKey(mail),
      folder: 'Shared',
      uidValidity: Number(status.uidValidity),
      uid: Number(status.uidNext) - 1,
      claimedBy: 'dead-worker',
      claimedAt: new Date(Date.now() - 3600_000),
    });
    const box = { organizationId: flow.organizationId, flowId: wf.id, mail, password: server.password };
    const [a, b] = await Promise.all([
      takeInMail({ db: t.db, env, workerId: 'worker-a', now: new Date() }, box),
      takeInMail({ db: t.db, env, workerId: 'worker-b', now: new Date() }, box),
    ]);
    expect(a + b).toBe(20);
    const rows = await t.db.select().from(mailMessages).where(eq(mailMessages.flowId, wf.id));
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => r.status === 'done')).toBe(true);
    expect(rows.some((r) => r.claimedBy === 'dead-worker')).toBe(false);
    const taken = (await itemsOf(wf.id)).filter((i) => i.status === 'taken');
    expect(new Set(taken.map((i) => i.name)).size).toBe(20);
    expect(taken).toHaveLength(20);
  });

  it('a wrong password shows on the flow in plain words, backs off and tells the owner', {
    timeout: 60_000,
  }, async () => {
    const wf = await mailFlow('Wrong password', 'INBOX', {
      password: 'not-the-password',
      trigger: 'arrival',
    });
    const jobs = createRecordingSender();
    const ctx = createTestJobContext(t.db, { env, jobs });
    const now = new Date();
    await fireDueFlows(ctx, now);
    const state = async () =>
      (await t.db.select().from(flowAutomations).where(eq(flowAutomations.flowId, wf.id)))[0]!;
    expect((await state()).failures).toBe(1);
    const [listed] = (await listWorkflows(t.db, member.membership)).filter((f) => f.id === wf.id);
    expect(listed!.sourceError).toMatch(/refused the user name or password/);
    // Inside the back-off the mailbox is not tried again.
    await fireDueFlows(ctx, new Date(now.getTime() + 30_000));
    expect((await state()).failures).toBe(1);
    await fireDueFlows(ctx, new Date(now.getTime() + 61_000));
    expect((await state()).failures).toBe(2);
    expect((await state()).retryAt!.getTime()).toBe(now.getTime() + 61_000 + 120_000);
    const bells = await t.db.select().from(notifications).where(eq(notifications.userId, member.user.id));
    expect(bells.filter((n) => n.title.includes('Wrong password'))).toHaveLength(1);
    expect(jobs.sent).toHaveLength(0);
  });
});
