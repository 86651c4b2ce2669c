import { computeGstinCheckChar } from '@bahi/india';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BooksConnector } from '../../adapters/books/books-connector.ts';
import { createTallyConnector } from '../../adapters/books/tally-connector.ts';
import type { Env } from '../../config/env.ts';
import { booksPushes, documents } from '../../db/schema/index.ts';
import type { JobPayload, JobSender } from '../../jobs/registry.ts';
import { startTallyStandIn, type TallyStandIn } from '../../test/tally-stand-in.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { approveDocument, correctDocument } from '../documents/document-review.service.ts';
import { removeDocument } from '../documents/documents.service.ts';
import { createWorkflow } from '../flows/flows.service.ts';
import { createMember, createTestEnv } from '../flows/test-support.ts';
import { upsertVendorFromDocument } from '../vendors/vendors.repo.ts';
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
import { pushDocument, requeueStalledPushes } from './books-post.ts';
import { exportTallyXml } from './books-xml.ts';

// Made-up suppliers and figures. The buyer is in Maharashtra (27): a 27 supplier is intra-state.
const gstin = (first14: string) => first14 + computeGstinCheckChar(first14);
const PAPER = gstin('27AABCP1234Q1Z');
const FREIGHT = gstin('27AACCL2468M1Z');
const CONSULT = gstin('29AAFFK1357N1Z');
const BUYER = gstin('27AAECB9876R1Z');

let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;
let stand: TallyStandIn;
let owner: Awaited<ReturnType<typeof createMember>>;
let flowId: string;

/** A queue that only records: the test drains it, as one or two workers would. */
function recordingQueue() {
  const sent: Array<JobPayload<'books-push'>> = [];
  const jobs: JobSender = {
    async send(name, payload) {
      if (name === 'books-push') sent.push(payload as JobPayload<'books-push'>);
    },
  };
  return { jobs, sent };
}

const org = () => owner.membership.organizationId;
const connectorFor = () =>
  createTallyConnector({ host: '127.0.0.1', port: stand.port, company: stand.company });

async function drain(sent: Array<JobPayload<'books-push'>>, workerId = 'w1') {
  while (sent.length > 0) await pushDocument({ db: t.db, workerId }, sent.shift()!);
}

async function insertInvoice(
  number: string,
  vendor: { gstin: string; name: string },
  taxable: number,
  options: { hsnSac?: string; total?: number; date?: string } = {},
): Promise<string> {
  const inter = vendor.gstin.slice(0, 2) !== '27';
  const tax = Math.round(taxable * 18) / 100;
  const [row] = await t.db
    .insert(documents)
    .values({
      organizationId: org(),
      flowId,
      sourceId: number,
      contentHash: number,
      fileName: `${number}.pdf`,
      status: 'done',
      processedAt: new Date(),
      extraction: {
        contract: 'extraction/v1',
        file: `${number}.pdf`,
        documentType: 'invoice',
        checks: [],
        confidence: {},
        provenance: {},
        error: null,
        fields: {
          vendorGstin: vendor.gstin,
          vendorName: vendor.name,
          buyerGstin: BUYER,
          documentNumber: number,
          documentDate: options.date ?? '2025-06-10',
          taxableValue: taxable,
          ...(inter ? { igst: tax } : { cgst: tax / 2, sgst: tax / 2 }),
          total: options.total ?? taxable + tax,
        },
        lineItems: [{ description: 'Goods', hsnSac: options.hsnSac ?? '4802', amount: taxable, gstRate: 18 }],
      },
    })
    .returning();
  await upsertVendorFromDocument(t.db, org(), {
    gstin: vendor.gstin,
    name: vendor.name,
    stateCode: vendor.gstin.slice(0, 2),
  });
  return row!.id;
}

const approve = (id: string, jobs?: JobSender) =>
  approveDocument({ db: t.db, env, jobs }, { user: owner.user, membership: owner.membership, id });
const pushOf = async (id: string) => (await listBooksPushes(t.db, owner.membership, [id]))[0]!;

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup } = await createTestEnv());
  stand = await startTallyStandIn({ company: 'Lotus Paper Works' });
  stand.ledgers.set('Paper Mart', { name: 'Paper Mart', parent: 'Sundry Creditors', gstin: PAPER });
  stand.ledgers.set('Kaveri Consultants', { name: 'Kaveri Consultants', parent: 'Sundry Creditors' });
  owner = await createMember(t.db, 'Books Owner');
  const flow = await createWorkflow(t.db, {
    env,
    user: owner.user,
    membership: owner.membership,
    input: {
      name: 'Purchases',
      types: ['INVOICE'],
      io: {
        input: { kind: 'upload', url: '', folderName: '' },
        output: { kind: 'xlsx', sheetId: '', sheetName: 'P' },
      },
    },
  });
  flowId = flow.id;
});

afterAll(async () => {
  await stand?.close();
  await t?.close();
  await cleanup?.();
});

describe('Tally connection and ledger mapping', () => {
  it('saves the connection and reads the ledger list; a wrong company is said in words', async () => {
    const { user, membership } = owner;
    await saveTallyConnection(t.db, {
      user,
      membership,
      input: { host: '127.0.0.1', port: stand.port, company: 'Wrong Co', autoPost: false },
    });
    const wrong = await testTallyConnection({ db: t.db }, membership);
    expect(wrong).toMatchObject({ ok: false, message: expect.stringMatching(/Wrong Co/) });
    await saveTallyConnection(t.db, {
      user,
      membership,
      input: { host: '127.0.0.1', port: stand.port, company: stand.company, autoPost: false },
    });
    const ok = await testTallyConnection({ db: t.db }, membership);
    expect(ok.ok).toBe(true);
    expect(ok.ledgers.map((l) => l.name)).toContain('Paper Mart');
    const state = await getTallyConnection(t.db, membership);
    expect(state).toMatchObject({
      configured: true,
      port: stand.port,
      ledgerCount: ok.ledgers.length,
      lastTest: { ok: true },
    });
  });

  it('suggests party ledgers by GSTIN, then by name, and creates missing ones only when asked', async () => {
    const a = await insertInvoice('PM-1', { gstin: PAPER, name: 'Paper Mart Pvt Ltd' }, 1000);
    const b = await insertInvoice('KC-1', { gstin: CONSULT, name: 'Kaveri Consultants' }, 2000);
    const c = await insertInvoice('LF-1', { gstin: FREIGHT, name: 'Lotus Freight' }, 3000);
    for (const id of [a, b, c]) await approve(id);
    const view = await getLedgerMapping(t.db, owner.membership);
    const row = (g: string) => view.parties.find((p) => p.gstin === g)!;
    expect(row(PAPER)).toMatchObject({ suggested: 'Paper Mart', suggestedBy: 'gstin', exists: true });
    expect(row(CONSULT)).toMatchObject({
      suggested: 'Kaveri Consultants',
      suggestedBy: 'name',
      exists: true,
    });
    expect(row(FREIGHT)).toMatchObject({ suggested: null, exists: false, state: 'Maharashtra' });
    expect(stand.ledgers.has('Lotus Freight')).toBe(false);
    await saveLedgerMapping(t.db, {
      ...owner,
      input: { ...view.mapping, parties: { [PAPER]: 'Paper Mart', [CONSULT]: 'Kaveri Consultants' } },
    });
    const made = await createPartyLedgers(
      { db: t.db },
      { ...owner, input: { parties: [{ gstin: FREIGHT, name: 'Lotus Freight' }] } },
    );
    expect(made).toEqual({ created: ['Lotus Freight'], errors: [] });
    expect(stand.ledgers.get('Lotus Freight')).toMatchObject({
      parent: 'Sundry Creditors',
      gstin: FREIGHT,
      state: 'Maharashtra',
    });
    expect((await getLedgerMapping(t.db, owner.membership)).mapping.parties[FREIGHT]).toBe('Lotus Freight');
  });
});

describe('posting', () => {
  it('posts, sends nothing for an unchanged re-push, alters the same voucher after a correction', async () => {
    const { jobs, sent } = recordingQueue();
    const id = await insertInvoice('PM-2', { gstin: PAPER, name: 'Paper Mart Pvt Ltd' }, 5000);
    await approve(id);
    expect(await postToTally({ db: t.db, jobs }, { ...owner, documentIds: [id] })).toEqual({
      queued: 1,
      skipped: [],
    });
    expect(await postToTally({ db: t.db, jobs }, { ...owner, documentIds: [id] })).toMatchObject({
      queued: 0,
      skipped: [{ reason: 'already being posted' }],
    });
    await drain(sent);
    const posted = await pushOf(id);
    expect(posted).toMatchObject({
      label: 'Posted',
      state: 'done',
      outcome: 'created',
      requestedBy: 'Books Owner',
    });
    expect(posted.remoteId).toMatch(/^bahi-/);
    expect(posted.sentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stand.vouchers.get(posted.remoteId!)).toMatchObject({
      created: 1,
      altered: 0,
      party: 'Paper Mart',
    });

    const before = stand.voucherMessages;
    await postToTally({ db: t.db, jobs }, { ...owner, documentIds: [id] });
    await drain(sent);
    expect(stand.voucherMessages).toBe(before);
    expect((await pushOf(id)).label).toBe('Posted');

    await correctDocument(
      { db: t.db, env },
      { ...owner, id, input: { fields: { documentDate: '2025-06-12' }, lines: [] } },
    );
    expect((await pushOf(id)).label).toBe('Changed since posted');
    expect((await postToTally({ db: t.db, jobs }, { ...owner, documentIds: [id] })).skipped[0]?.reason).toBe(
      'not approved yet',
    );
    await approve(id);
    await postToTally({ db: t.db, jobs }, { ...owner, documentIds: [id] });
    await drain(sent);
    const altered = await pushOf(id);
    expect(altered).toMatchObject({
      label: 'Altered',
      outcome: 'altered',
      voucherId: posted.voucherId,
      remoteId: posted.remoteId,
    });
    expect(stand.vouchers.get(posted.remoteId!)).toMatchObject({ created: 1, altered: 1, date: '20250612' });
  });

  it("shows Tally's refusal of a missing ledger in words; a person's retry posts it once mapped", async () => {
    const { jobs, sent } = recordingQueue();
    const id = await insertInvoice('NS-1', { gstin: gstin('27AADCN4321P1Z'), name: 'Neem Supplies' }, 700);
    await approve(id);
    await postToTally({ db: t.db, jobs }, { ...owner, documentIds: [id] });
    await drain(sent);
    expect(await pushOf(id)).toMatchObject({
      label: 'Failed',
      error: "Tally refused it: Could not find Ledger 'Neem Supplies'",
      counters: { ERRORS: 1 },
    });
    await createPartyLedgers(
      { db: t.db },
      { ...owner, input: { parties: [{ gstin: gstin('27AADCN4321P1Z'), name: 'Neem Supplies' }] } },
    );
    await postToTally({ db: t.db, jobs }, { ...owner, documentIds: [id] });
    await drain(sent);
    expect(await pushOf(id)).toMatchObject({ label: 'Posted', error: null });
  });

  it('refuses an invoice that does not add up before sending, with the reason', async () => {
    const { jobs, sent } = recordingQueue();
    const id = await insertInvoice('PM-3', { gstin: PAPER, name: 'Paper Mart' }, 1000, { total: 1500 });
    await approve(id);
    const before = stand.voucherMessages;
    await postToTally({ db: t.db, jobs }, { ...owner, documentIds: [id] });
    await drain(sent);
    expect((await pushOf(id)).error).toMatch(/^Not sent: amounts do not add up/);
    expect(stand.voucherMessages).toBe(before);
  });

  it('books TDS on its payable ledger once mapped, the party credited with the rest', async () => {
    const { jobs, sent } = recordingQueue();
    const id = await insertInvoice('KC-2', { gstin: CONSULT, name: 'Kaveri Consultants' }, 80000, {
      hsnSac: '998311',
    });
    await approve(id);
    await postToTally({ db: t.db, jobs }, { ...owner, documentIds: [id] });
    await drain(sent);
    const refused = await pushOf(id);
    expect(refused.error).toMatch(/TDS under section 194J\(b\).*TDS payable ledger/);
    const view = await getLedgerMapping(t.db, owner.membership);
    expect(view.tdsSections).toContain('194J(b)');
    await saveLedgerMapping(t.db, {
      ...owner,
      input: { ...view.mapping, tdsPayable: { '194J(b)': 'TDS Payable 194J' } },
    });
    await postToTally({ db: t.db, jobs }, { ...owner, documentIds: [id] });
    await drain(sent);
    const posted = await pushOf(id);
    expect(posted.label).toBe('Posted');
    const entries = stand.vouchers.get(posted.remoteId!)!.entries;
    const tds = entries.find((e) => e.ledger === 'TDS Payable 194J')!.amount;
    expect(tds).toBeGreaterThan(0);
    expect(entries.find((e) => e.ledger === 'Kaveri Consultants')!.amount).toBe(94400_00 - tds);
  });

  it('a worker killed after Tally applied a voucher: the batch finishes with no voucher lost or doubled', async () => {
    const { jobs, sent } = recordingQueue();
    const ids = [];
    for (const n of ['RB-1', 'RB-2', 'RB-3']) {
      const id = await insertInvoice(n, { gstin: PAPER, name: 'Paper Mart' }, 1200);
      await approve(id);
      ids.push(id);
    }
    await postToTally({ db: t.db, jobs }, { ...owner, documentIds: ids });
    // Worker A sends the first voucher and dies before recording Tally's answer.
    const dying = (): BooksConnector => {
      const real = connectorFor();
      return {
        ...real,
        async pushVoucher(v, action) {
          await real.pushVoucher(v, action);
          throw new Error('process killed');
        },
      };
    };
    // The jobs come in the order the documents were found, not necessarily the order of `ids`.
    const first = sent.shift()!;
    await expect(pushDocument({ db: t.db, workerId: 'A', connectorFor: dying }, first)).rejects.toThrow(
      'killed',
    );
    sent.length = 0; // the rest of A's jobs are lost with it
    expect((await pushOf(first.documentId)).label).toBe('Posting');
    // A's lease runs out; the chore of a living worker sends the stalled and lost pushes again.
    await t.db
      .update(booksPushes)
      .set({ claimedAt: new Date(Date.now() - 3_600_000), updatedAt: new Date(Date.now() - 3_600_000) })
      .where(eq(booksPushes.organizationId, org()));
    expect(await requeueStalledPushes({ db: t.db, jobs })).toBeGreaterThanOrEqual(3);
    await drain(sent, 'B');
    for (const id of ids) {
      const p = await pushOf(id);
      expect(p.label).toBe('Posted');
      expect(stand.vouchers.get(p.remoteId!)!.created).toBe(1);
    }
  });

  it('two workers handed the same batch send each voucher once', async () => {
    const { jobs, sent } = recordingQueue();
    const ids = [];
    for (const n of ['TW-1', 'TW-2', 'TW-3', 'TW-4']) {
      const id = await insertInvoice(n, { gstin: PAPER, name: 'Paper Mart' }, 900);
      await approve(id);
      ids.push(id);
    }
    await postToTally({ db: t.db, jobs }, { ...owner, documentIds: ids });
    const before = stand.voucherMessages;
    const batch = [...sent];
    sent.length = 0;
    await Promise.all([
      Promise.all(batch.map((p) => pushDocument({ db: t.db, workerId: 'W1' }, p))),
      Promise.all(batch.map((p) => pushDocument({ db: t.db, workerId: 'W2' }, p))),
    ]);
    expect(stand.voucherMessages - before).toBe(4);
    for (const id of ids) expect((await pushOf(id)).label).toBe('Posted');
  });

  it('posts on approval when the organisation turns it on; cancels a removed document after confirmation', async () => {
    const { jobs, sent } = recordingQueue();
    await saveTallyConnection(t.db, {
      ...owner,
      input: { host: '127.0.0.1', port: stand.port, company: stand.company, autoPost: true },
    });
    const id = await insertInvoice('AP-1', { gstin: PAPER, name: 'Paper Mart' }, 400);
    await approve(id, jobs);
    expect(sent).toEqual([{ organizationId: org(), documentId: id, kind: 'tally' }]);
    await drain(sent);
    const posted = await pushOf(id);
    expect(posted.label).toBe('Posted');
    await removeDocument(t.db, { ...owner, id });
    expect(await pushOf(id)).toMatchObject({ removed: true, label: 'Posted' });
    await cancelInTally({ db: t.db, jobs }, { ...owner, documentId: id });
    await drain(sent);
    expect(await pushOf(id)).toMatchObject({ label: 'Cancelled', outcome: 'cancelled' });
    expect(stand.vouchers.get(posted.remoteId!)!.cancelled).toBe(true);
  });

  it('downloads the import file of a month with the same REMOTEIDs, naming what it leaves out', async () => {
    const file = await exportTallyXml(t.db, owner.membership, { period: '2025-06' });
    expect(file.fileName).toBe('tally-purchases-2025-06.xml');
    const posted = await pushOf(
      (await listBooksPushes(t.db, owner.membership)).find((p) => p.fileName === 'PM-2.pdf')!.documentId,
    );
    expect(file.xml).toContain(`REMOTEID="${posted.remoteId}"`);
    expect(file.xml).toContain('<SVCURRENTCOMPANY>Lotus Paper Works</SVCURRENTCOMPANY>');
    expect(file.refused.map((r) => r.fileName)).toContain('PM-3.pdf');
    expect(file.xml).toMatch(/<!-- Not included: PM-3\.pdf: amounts do not add up/);
  });
});
