import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeGstinCheckChar } from '@bahi/india';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPdf } from '../../../../../packages/engine/test/pdf-builder.ts';
import type { PushAction, PushKnown } from '../../adapters/books/books-connector.ts';
import type { ZohoBill } from '../../adapters/books/zoho-books.ts';
import type { Env } from '../../config/env.ts';
import { booksConnections, booksPushes, documents } from '../../db/schema/index.ts';
import type { JobPayload, JobSender } from '../../jobs/registry.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { startZohoStandIn, type ZohoStandIn } from '../../test/zoho-books-stand-in.ts';
import { approveDocument, correctDocument } from '../documents/document-review.service.ts';
import { removeDocument } from '../documents/documents.service.ts';
import { createWorkflow } from '../flows/flows.service.ts';
import { createMember, createTestEnv } from '../flows/test-support.ts';
import { findConnection } from './books.repo.ts';
import { cancelInTally, listBooksPushes, postToTally } from './books.service.ts';
import { type PushContext, pushDocument, requeueStalledPushes } from './books-post.ts';
import {
  getZohoConnection,
  getZohoMapping,
  saveZohoConnection,
  saveZohoMapping,
  testZohoConnection,
} from './books-zoho.ts';
import { zohoConnectorOf } from './books-zoho-connection.ts';

// Made-up suppliers and figures. The buyer is in Maharashtra (27): a 27 supplier is intra-state (GST18, a
// tax group), a 29 supplier inter-state (IGST18).
const gstin = (first14: string) => first14 + computeGstinCheckChar(first14);
const PAPER = gstin('27AABCP1234Q1Z');
const CONSULT = gstin('29AAFFK1357N1Z');
const MISSING = gstin('27AADCN4321P1Z');
const BUYER = gstin('27AAECB9876R1Z');

let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;
let files: string;
let stand: ZohoStandIn;
let owner: Awaited<ReturnType<typeof createMember>>;
let flowId: string;

const org = () => owner.membership.organizationId;
const ctx = (extra: Partial<PushContext> = {}) => ({ db: t.db, env, zohoUrls: stand.urls, ...extra });

function recordingQueue() {
  const sent: Array<JobPayload<'books-push'>> = [];
  const jobs: JobSender = {
    async send(name, payload) {
      if (name === 'books-push') sent.push(payload as JobPayload<'books-push'>);
    },
  };
  return { jobs, sent };
}

async function drain(sent: Array<JobPayload<'books-push'>>, workerId = 'w1') {
  while (sent.length > 0) await pushDocument({ ...ctx(), workerId }, sent.shift()!);
}

/** An approved-ready invoice whose PDF is a real file under the organisation's folder root. */
async function insertInvoice(number: string, vendor: { gstin: string; name: string }, taxable: number) {
  const inter = vendor.gstin.slice(0, 2) !== '27';
  const tax = Math.round(taxable * 18) / 100;
  const path = join(files, `${number}.pdf`);
  await writeFile(path, textPdf([[`Tax invoice ${number}`, `Supplier ${vendor.name}`]]));
  const [row] = await t.db
    .insert(documents)
    .values({
      organizationId: org(),
      flowId,
      sourceKind: 'local',
      sourceId: number,
      sourcePath: path,
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
          documentDate: '2025-06-10',
          taxableValue: taxable,
          ...(inter ? { igst: tax } : { cgst: tax / 2, sgst: tax / 2 }),
          total: taxable + tax,
        },
        lineItems: [{ description: 'Goods', hsnSac: '4802', amount: taxable, gstRate: 18 }],
      },
    })
    .returning();
  await approveDocument({ db: t.db, env }, { user: owner.user, membership: owner.membership, id: row!.id });
  return row!.id;
}

const pushOf = async (id: string) =>
  (await listBooksPushes(t.db, owner.membership, [id])).find((p) => p.kind === 'zoho')!;
const post = (jobs: JobSender, ids: string[]) =>
  postToTally({ db: t.db, jobs }, { ...owner, documentIds: ids, kind: 'zoho' });
const billsOf = (number: string) => [...stand.bills.values()].filter((b) => b.bill_number === number);

beforeAll(async () => {
  t = await createTestDb();
  files = await mkdtemp(join(tmpdir(), 'bahi-zoho-files-'));
  ({ env, cleanup } = await createTestEnv({ BAHI_FOLDER_ROOTS: files }));
  stand = await startZohoStandIn({
    contacts: [
      { contact_id: 'c-paper', contact_name: 'Paper Mart', gst_no: PAPER },
      { contact_id: 'c-kaveri', contact_name: 'Kaveri Consultants', gst_no: CONSULT },
    ],
  });
  owner = await createMember(t.db, 'Zoho Owner');
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
  if (files) await rm(files, { recursive: true, force: true });
});

describe('Zoho Books connection and mapping', () => {
  it('keeps the secrets sealed, says a wrong organisation in words, and reads accounts, taxes and vendors', async () => {
    const input = {
      organizationId: '60099999999',
      region: 'in' as const,
      clientId: stand.client.id,
      clientSecret: stand.client.secret,
      refreshToken: stand.client.refreshToken,
      autoPost: false,
    };
    await saveZohoConnection({ db: t.db, env }, { ...owner, input });
    const [row] = await t.db.select().from(booksConnections).where(eq(booksConnections.kind, 'zoho'));
    expect(row!.secretEnc).toMatch(/^v1:/);
    expect(row!.secretEnc).not.toContain(stand.client.refreshToken);
    const wrong = await testZohoConnection(ctx(), owner.membership);
    expect(wrong).toMatchObject({
      ok: false,
      message: 'Zoho Books refused: This user is not a part of the organization.',
    });

    // Saved again without secrets: the stored ones are kept.
    const { clientSecret: _s, refreshToken: _r, ...rest } = input;
    const shown = await saveZohoConnection(
      { db: t.db, env },
      { ...owner, input: { ...rest, organizationId: stand.organizationId } },
    );
    expect(shown).toMatchObject({
      configured: true,
      clientId: stand.client.id,
      hasSecrets: true,
      region: 'in',
    });
    expect(JSON.stringify(shown)).not.toContain(stand.client.secret);
    const ok = await testZohoConnection(ctx(), owner.membership);
    expect(ok.ok).toBe(true);
    expect(ok.vendors).toContainEqual({ name: 'Paper Mart', parent: 'Vendors', gstin: PAPER });
    expect(ok.taxes.find((x) => x.id === 'tax-gst18')).toMatchObject({ kind: 'group', percentage: 18 });
    expect((await getZohoConnection({ db: t.db, env }, owner.membership)).lastTest).toMatchObject({
      ok: true,
    });
  });

  it('suggests the purchase account and taxes of each rate from what Zoho lists', async () => {
    const view = await getZohoMapping(t.db, owner.membership);
    expect(view.rates).toEqual(expect.arrayContaining(['5', '18']));
    expect(view.suggested.purchase['18']).toBe('acc-purchases');
    expect(view.suggested.intraTax['18']).toBe('tax-gst18');
    expect(view.suggested.interTax['18']).toBe('tax-igst18');
    expect(view.suggested.purchase['0']).toBe('acc-purchases');
    expect(view.suggested.intraTax['0']).toBeUndefined();
    await saveZohoMapping(t.db, { ...owner, input: view.suggested });
    expect((await getZohoMapping(t.db, owner.membership)).mapping).toEqual(view.suggested);
  });
});

describe('posting bills to Zoho Books', () => {
  it('creates the bill with its PDF, sends nothing for an unchanged re-push, updates the same bill after a correction', async () => {
    const { jobs, sent } = recordingQueue();
    const id = await insertInvoice('PM-1', { gstin: PAPER, name: 'Paper Mart Pvt Ltd' }, 5000);
    expect(await post(jobs, [id])).toEqual({ queued: 1, skipped: [] });
    expect(sent).toEqual([{ organizationId: org(), documentId: id, kind: 'zoho' }]);
    await drain(sent);
    const posted = await pushOf(id);
    expect(posted).toMatchObject({ kind: 'zoho', label: 'Posted', outcome: 'created', error: null });
    const [bill] = billsOf('PM-1');
    expect(bill).toMatchObject({ bill_id: posted.voucherId, vendor_id: 'c-paper', total: 5900, updated: 0 });
    expect(bill!.line_items).toEqual([
      expect.objectContaining({ account_id: 'acc-purchases', tax_id: 'tax-gst18', rate: 5000 }),
    ]);
    expect(bill!.documents).toEqual([expect.objectContaining({ file_name: 'PM-1.pdf' })]);

    const requests = stand.requests.length;
    await post(jobs, [id]);
    await drain(sent);
    expect(stand.requests.length).toBe(requests);
    expect((await pushOf(id)).label).toBe('Posted');

    await correctDocument(
      { db: t.db, env },
      { ...owner, id, input: { fields: { documentDate: '2025-06-12' }, lines: [] } },
    );
    await approveDocument({ db: t.db, env }, { ...owner, id });
    await post(jobs, [id]);
    await drain(sent);
    expect(await pushOf(id)).toMatchObject({ label: 'Altered', voucherId: posted.voucherId });
    expect(billsOf('PM-1')).toEqual([expect.objectContaining({ date: '2025-06-12', updated: 1 })]);
    expect(billsOf('PM-1')[0]!.documents).toHaveLength(1);
  });

  it('adopts a bill already in Zoho for the vendor and number instead of doubling it', async () => {
    const { jobs, sent } = recordingQueue();
    stand.bills.set('keyed-by-hand', {
      bill_id: 'keyed-by-hand',
      vendor_id: 'c-kaveri',
      bill_number: 'KC-7',
      date: '2025-06-10',
      status: 'open',
      line_items: [{ account_id: 'acc-office', rate: 1, quantity: 1 }],
      adjustment: 0,
      total: 1,
      documents: [],
      updated: 0,
    });
    const id = await insertInvoice('KC-7', { gstin: CONSULT, name: 'Kaveri Consultants' }, 2000);
    await post(jobs, [id]);
    await drain(sent);
    expect(await pushOf(id)).toMatchObject({
      label: 'Posted',
      voucherId: 'keyed-by-hand',
      counters: { FOUND: 1 },
    });
    expect(billsOf('KC-7')).toEqual([
      expect.objectContaining({ bill_id: 'keyed-by-hand', total: 2360, updated: 1 }),
    ]);
    expect(billsOf('KC-7')[0]!.line_items[0]).toMatchObject({ tax_id: 'tax-igst18' });
  });

  it('a worker killed after Zoho made the bill: the retry finds it, no bill lost or doubled', async () => {
    const { jobs, sent } = recordingQueue();
    const id = await insertInvoice('PM-9', { gstin: PAPER, name: 'Paper Mart' }, 1200);
    await post(jobs, [id]);
    const real = await zohoConnectorOf(ctx(), (await findConnection(t.db, org(), 'zoho'))!);
    const dying: PushContext['connectorFor'] = () => ({
      ...real,
      async pushVoucher(bill: ZohoBill, action: PushAction, known?: PushKnown) {
        await real.pushVoucher(bill, action, known);
        throw new Error('process killed');
      },
    });
    await expect(
      pushDocument({ ...ctx({ connectorFor: dying }), workerId: 'A' }, sent.shift()!),
    ).rejects.toThrow('killed');
    expect(billsOf('PM-9')).toHaveLength(1);
    await t.db
      .update(booksPushes)
      .set({ claimedAt: new Date(Date.now() - 3_600_000) })
      .where(eq(booksPushes.documentId, id));
    expect(await requeueStalledPushes({ db: t.db, jobs })).toBe(1);
    expect(sent[0]).toMatchObject({ kind: 'zoho' });
    await drain(sent, 'B');
    expect(await pushOf(id)).toMatchObject({ label: 'Posted', voucherId: billsOf('PM-9')[0]!.bill_id });
    expect(billsOf('PM-9')).toHaveLength(1);
  });

  it('buys a new access token when Zoho no longer takes the old one', async () => {
    const { jobs, sent } = recordingQueue();
    const id = await insertInvoice('PM-3', { gstin: PAPER, name: 'Paper Mart' }, 800);
    const issued = stand.tokensIssued;
    stand.expireTokens();
    await post(jobs, [id]);
    await drain(sent);
    expect((await pushOf(id)).label).toBe('Posted');
    expect(stand.tokensIssued).toBe(issued + 1);
    expect(billsOf('PM-3')).toHaveLength(1);
  });

  it("shows Zoho's refusal in words: a vendor it does not have, a tax it does not know, a rate not mapped", async () => {
    const { jobs, sent } = recordingQueue();
    const missing = await insertInvoice('NS-1', { gstin: MISSING, name: 'Neem Supplies' }, 700);
    await post(jobs, [missing]);
    await drain(sent);
    expect(await pushOf(missing)).toMatchObject({
      label: 'Failed',
      error: `Zoho Books refused it: The vendor Neem Supplies (GSTIN ${MISSING}) is not in Zoho Books: add it as a vendor with its GSTIN, then post again`,
    });

    const view = await getZohoMapping(t.db, owner.membership);
    await saveZohoMapping(t.db, { ...owner, input: { ...view.mapping, intraTax: { '18': 'tax-deleted' } } });
    const id = await insertInvoice('PM-4', { gstin: PAPER, name: 'Paper Mart' }, 300);
    await post(jobs, [id]);
    await drain(sent);
    expect(await pushOf(id)).toMatchObject({
      label: 'Failed',
      error: 'Zoho Books refused it: Invalid value passed for tax_id',
      counters: { ERRORS: 1, CODE: 2 },
    });
    await saveZohoMapping(t.db, { ...owner, input: { ...view.mapping, intraTax: {} } });
    const writes = stand.billWrites;
    await post(jobs, [id]);
    await drain(sent);
    expect((await pushOf(id)).error).toBe(
      'Not sent: choose the Zoho Books tax for GST 18% within the state (CGST + SGST) in the Zoho Books mapping (Integrations)',
    );
    expect(stand.billWrites).toBe(writes);
    await saveZohoMapping(t.db, { ...owner, input: view.mapping });
    await post(jobs, [id]);
    await drain(sent);
    expect(await pushOf(id)).toMatchObject({ label: 'Posted', error: null });
  });

  it('two workers handed the same batch write each bill once', async () => {
    const { jobs, sent } = recordingQueue();
    const ids = [];
    for (const n of ['TW-1', 'TW-2', 'TW-3', 'TW-4'])
      ids.push(await insertInvoice(n, { gstin: PAPER, name: 'Paper Mart' }, 900));
    await post(jobs, ids);
    const writes = stand.billWrites;
    const batch = [...sent];
    sent.length = 0;
    await Promise.all([
      Promise.all(batch.map((p) => pushDocument({ ...ctx(), workerId: 'W1' }, p))),
      Promise.all(batch.map((p) => pushDocument({ ...ctx(), workerId: 'W2' }, p))),
    ]);
    expect(stand.billWrites - writes).toBe(4);
    for (const [i, id] of ids.entries()) {
      expect((await pushOf(id)).label).toBe('Posted');
      expect(billsOf(`TW-${i + 1}`)).toHaveLength(1);
    }
  });

  it('voids the bill of a removed document after confirmation', async () => {
    const { jobs, sent } = recordingQueue();
    const id = await insertInvoice('PM-5', { gstin: PAPER, name: 'Paper Mart' }, 400);
    await post(jobs, [id]);
    await drain(sent);
    await removeDocument(t.db, { ...owner, id });
    await cancelInTally({ db: t.db, jobs }, { ...owner, documentId: id, kind: 'zoho' });
    await drain(sent);
    expect(await pushOf(id)).toMatchObject({ label: 'Cancelled', outcome: 'cancelled' });
    expect(billsOf('PM-5')[0]!.status).toBe('void');
  });
});
