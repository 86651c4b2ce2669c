import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { computeGstinCheckChar } from '@bahi/india';
import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowUploads, vendorLinks } from '../../db/schema/index.ts';
import { inviteAndJoin } from '../../test/team-fixtures.ts';
import { startTestServer, type TestClient, type TestServer } from '../../test/test-server.ts';

// The onboarding link over HTTP against the real server: a made-up vendor fills in the public form, the
// finance team approves it, a later bank change waits for a second person.

let t: TestServer;
let owner: { client: TestClient; userId: string };
let approver: { client: TestClient };
const logLines: string[] = [];

/** A valid GSTIN of the PAN in state 27 (checksum computed). */
function gstinOf(pan: string, state = '27'): string {
  const first14 = `${state}${pan}1Z`;
  return first14 + computeGstinCheckChar(first14);
}

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(200, 7),
]);

function form(pan: string, overrides: Record<string, unknown> = {}) {
  return {
    legalName: 'Kavya Fasteners Private Limited',
    tradeName: 'Kavya Fasteners',
    constitution: 'private_limited',
    pan,
    gstins: [gstinOf(pan)],
    udyam: {
      number: 'UDYAM-MH-26-0012345',
      category: 'micro',
      activity: 'manufacturing',
      financialYear: '2026-27',
      writtenAgreement: true,
      agreedDays: 30,
    },
    bank: {
      holderName: 'Kavya Fasteners Private Limited',
      accountNumber: '50100012345678',
      accountNumberConfirm: '50100012345678',
      ifsc: 'HDFC0000001',
    },
    contacts: [{ name: 'Ravi Kumar', email: 'accounts@kavya.example', phone: '9876543210' }],
    tdsSection: '194C',
    ldc: null,
    ...overrides,
  };
}

async function makeLink(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.post('/api/vendor-links', { vendorName: 'Kavya Fasteners', ...body });
  expect(res.status).toBe(201);
  const token = new URL(res.body.url).pathname.split('/').at(-1)!;
  return { id: res.body.link.id as string, token, url: res.body.url as string };
}

async function attach(client: TestClient, token: string, bytes: Buffer, kind = 'cancelled_cheque') {
  const body = new FormData();
  body.append('file', new Blob([bytes]), 'cheque.png');
  return client.request(`/api/vendor-form/${token}/documents/${kind}`, { method: 'POST', body });
}

/** A vendor's whole way in: link, cheque, form; returns the submission's id once the finance team sees it. */
async function submitThroughLink(pan: string, overrides: Record<string, unknown> = {}) {
  const { token } = await makeLink(owner.client);
  const vendor = t.createClient();
  expect((await attach(vendor, token, PNG)).status).toBe(201);
  const sent = await vendor.post(`/api/vendor-form/${token}`, form(pan, overrides));
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const queue = await owner.client.get('/api/vendor-submissions');
  return {
    token,
    submission: queue.body.items.find((s: { fields: { pan: string } }) => s.fields.pan === pan && s),
  };
}

beforeAll(async () => {
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  );
  t = await startTestServer({ logger });
  owner = await t.createOnboardedUser('Asha Engineering');
  approver = await inviteAndJoin(t, owner.client, { role: 'approver', name: 'Chitra' });
});

afterAll(async () => {
  await t?.close();
});

describe('vendor onboarding link', () => {
  it('stores only the hash of the token, and never logs it', async () => {
    const { id, token } = await makeLink(owner.client, { prefill: { pan: 'AAKCK1234F' } });
    const [row] = await t.server.db.select().from(vendorLinks).where(eq(vendorLinks.id, id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    const dump = await t.server.db.execute(sql`select row_to_json(l)::text as j from vendor_links l`);
    const rows = (dump as unknown as { rows: Array<{ j: string }> }).rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.j.includes(token))).toBe(false);
    const view = await t.createClient().get(`/api/vendor-form/${token}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ state: 'open', organizationName: 'Asha Engineering', locked: ['pan'] });
    await t.createClient().post(`/api/vendor-form/${token}`, {});
    expect(logLines.some((l) => l.includes('/api/vendor-form/[token]'))).toBe(true);
    expect(logLines.some((l) => l.includes(token))).toBe(false);
  });

  it('refuses a bad PAN, a GSTIN of another PAN and an unknown IFSC, each in words', async () => {
    const { token } = await makeLink(owner.client);
    const vendor = t.createClient();
    const badPan = await vendor.post(`/api/vendor-form/${token}`, form('AAKQK1234F'));
    expect(badPan.status).toBe(400);
    expect(badPan.body.error.fields.pan).toContain('4th character');
    const otherGstin = await vendor.post(
      `/api/vendor-form/${token}`,
      form('AAKCK1234F', { gstins: [gstinOf('AAKCM9999Z')] }),
    );
    expect(otherGstin.body.error.fields['gstins.0']).toContain('belongs to PAN AAKCM9999Z, not AAKCK1234F');
    const account = {
      holderName: 'Kavya',
      accountNumber: '50100012345678',
      accountNumberConfirm: '50100012345678',
    };
    const badIfsc = await vendor.post(
      `/api/vendor-form/${token}`,
      form('AAKCK1234F', { bank: { ...account, ifsc: 'ZZZZ0000001' } }),
    );
    expect(badIfsc.status).toBe(400);
    expect(badIfsc.body.error.fields['bank.ifsc']).toBe(
      'No bank has the code ZZZZ: check the IFSC on the cheque',
    );
    const twice = await vendor.post(
      `/api/vendor-form/${token}`,
      form('AAKCK1234F', {
        bank: { ...account, accountNumberConfirm: '50100012345679', ifsc: 'HDFC0000001' },
      }),
    );
    expect(twice.body.error.fields['bank.accountNumberConfirm']).toBe(
      'The two account numbers differ: type it again',
    );
    const noCheque = await vendor.post(`/api/vendor-form/${token}`, form('AAKCK1234F'));
    expect(noCheque.body.error.fields.documents).toContain('cancelled cheque');
  });

  it('takes one submission (409 after), refuses a non-image document and a large upload (413)', async () => {
    const { token } = await makeLink(owner.client);
    const vendor = t.createClient();
    expect((await attach(vendor, token, Buffer.from('=HYPERLINK("x")'))).status).toBe(400);
    const big = await attach(vendor, token, Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]));
    expect(big.status).toBe(413);
    expect((await attach(vendor, token, PNG)).status).toBe(201);
    expect((await vendor.post(`/api/vendor-form/${token}`, form('AAKCK1234F'))).status).toBe(200);
    const again = await vendor.post(`/api/vendor-form/${token}`, form('AAKCK1234F'));
    expect(again.status).toBe(409);
    const view = await vendor.get(`/api/vendor-form/${token}`);
    expect(view.body).toMatchObject({ state: 'submitted', prefill: {}, documents: [] });
  });

  it('approves a PAN-keyed vendor with its GSTINs, audited, and counts it on the dashboard', async () => {
    const pan = 'AAFCV2345K';
    const { submission } = await submitThroughLink(pan, {
      gstins: [gstinOf(pan), gstinOf(pan, '29')],
      bank: {
        holderName: 'Vega Tools',
        accountNumber: '123456789012',
        accountNumberConfirm: '123456789012',
        ifsc: 'SBIN0000001',
      },
    });
    expect(submission).toMatchObject({ status: 'pending', existingVendorId: null, bankUsedBy: null });
    expect(submission.fields.bank.bankName).toBe('State Bank of India');
    const before = (await owner.client.get('/api/dashboard')).body.stats.vendorsOnboarded;
    const approved = await owner.client.post(`/api/vendor-submissions/${submission.id}/approve`);
    expect(approved.status).toBe(200);
    const vendors = (await owner.client.get('/api/vendors')).body.items.filter(
      (v: { pan: string }) => v.pan === pan,
    );
    expect(vendors.map((v: { gstin: string }) => v.gstin).sort()).toEqual([gstinOf(pan), gstinOf(pan, '29')]);
    expect(vendors.every((v: { onboarded: boolean }) => v.onboarded)).toBe(true);
    expect((await owner.client.get('/api/dashboard')).body.stats.vendorsOnboarded).toBe(before + 1);
    // The Udyam details given become the vendor's MSME registration for that year, on each GSTIN.
    const msme = (await owner.client.get('/api/msme')).body;
    const registered = msme.vendors.filter((v: { pan: string }) => v.pan === pan);
    expect(registered).toHaveLength(2);
    for (const v of registered)
      expect(v.registrations).toMatchObject([
        { financialYear: 2026, category: 'micro', activity: 'manufacturing' },
      ]);
    const [entry] = (await owner.client.get('/api/audit?kind=vendor.submission_approved')).body.events;
    expect(entry.summary).toContain(`PAN ${pan}`);
  });

  it('holds a bank change on an active vendor for a second person, and refuses one account on two vendors', async () => {
    const pan = 'AABCB3456L';
    const first = await submitThroughLink(pan, {
      bank: {
        holderName: 'Bharat Bolts',
        accountNumber: '222233334444',
        accountNumberConfirm: '222233334444',
        ifsc: 'HDFC0000001',
      },
    });
    await owner.client.post(`/api/vendor-submissions/${first.submission.id}/approve`);
    const second = await submitThroughLink(pan, {
      bank: {
        holderName: 'Bharat Bolts',
        accountNumber: '999988887777',
        accountNumberConfirm: '999988887777',
        ifsc: 'HDFC0000001',
      },
    });
    expect(second.submission.bankChange).toBe(true);
    expect(second.submission.differences.map((d: { field: string }) => d.field)).toContain('bank');
    const approved = await owner.client.post(`/api/vendor-submissions/${second.submission.id}/approve`);
    expect(approved.body.bankChangeId).toBeTruthy();
    const held = (await owner.client.get('/api/vendors')).body.items.find(
      (v: { pan: string }) => v.pan === pan,
    );
    expect(held.bankHold).toBe(true);
    const own = await owner.client.post(`/api/vendor-bank-changes/${approved.body.bankChangeId}/approve`);
    expect(own.status).toBe(403);
    expect(own.body.error.message).toContain('someone else must approve');
    const checked = await approver.client.post(
      `/api/vendor-bank-changes/${approved.body.bankChangeId}/approve`,
    );
    expect(checked.status).toBe(200);
    const released = (await owner.client.get('/api/vendors')).body.items.find(
      (v: { pan: string }) => v.pan === pan,
    );
    expect(released.bankHold).toBe(false);

    const copycat = await submitThroughLink('AABCC4567M', {
      bank: {
        holderName: 'Copy Cat',
        accountNumber: '999988887777',
        accountNumberConfirm: '999988887777',
        ifsc: 'HDFC0000002',
      },
    });
    expect(copycat.submission.bankUsedBy).toBe('Kavya Fasteners Private Limited');
    const refused = await owner.client.post(`/api/vendor-submissions/${copycat.submission.id}/approve`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('one account cannot be paid as two vendors');
  });

  it('reopens the same link when changes are requested', async () => {
    const { token, submission } = await submitThroughLink('AAGCR5678N');
    const back = await owner.client.post(`/api/vendor-submissions/${submission.id}/request-changes`, {
      note: 'Attach a clearer cheque',
    });
    expect(back.status).toBe(200);
    const view = await t.createClient().get(`/api/vendor-form/${token}`);
    expect(view.body).toMatchObject({ state: 'open', changesRequested: 'Attach a clearer cheque' });
    expect((await t.createClient().post(`/api/vendor-form/${token}`, form('AAGCR5678N'))).status).toBe(200);
  });

  it('answers 410 for an expired or revoked link, with the same words', async () => {
    const expired = await makeLink(owner.client);
    await t.server.db
      .update(vendorLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(vendorLinks.id, expired.id));
    const a = await t.createClient().get(`/api/vendor-form/${expired.token}`);
    expect(a.status).toBe(410);
    expect(
      (await t.createClient().post(`/api/vendor-form/${expired.token}`, form('AAKCK1234F'))).status,
    ).toBe(410);
    const revoked = await makeLink(owner.client);
    expect((await owner.client.request(`/api/vendor-links/${revoked.id}`, { method: 'DELETE' })).status).toBe(
      200,
    );
    const b = await t.createClient().get(`/api/vendor-form/${revoked.token}`);
    expect(b.status).toBe(410);
    expect(b.body.error.message).toBe(a.body.error.message);
  });

  it('takes the vendor’s invoices into the flow finance chose, marked with the link', async () => {
    const flow = await owner.client.post('/api/workflows', {
      name: 'Vendor invoices',
      types: ['INVOICE'],
      io: {
        input: { kind: 'upload', url: '', folderName: '' },
        output: { kind: 'xlsx', sheetId: '', sheetName: 'Invoices' },
      },
    });
    expect(flow.status).toBe(201);
    const { id, token } = await makeLink(owner.client, { invoiceFlowId: flow.body.id });
    const body = new FormData();
    body.append('files', new Blob([Buffer.from('%PDF-1.4\n%made up\n')]), 'bill-7.pdf');
    const res = await t
      .createClient()
      .request(`/api/vendor-form/${token}/invoices`, { method: 'POST', body });
    expect(res.status).toBe(201);
    const rows = await t.server.db.select().from(flowUploads).where(eq(flowUploads.vendorLinkId, id));
    expect(rows.map((r) => r.fileName)).toEqual(['bill-7.pdf']);
  });

  it('keeps another organisation out', async () => {
    const { submission } = await submitThroughLink('AAHCS6789P');
    const { id } = await makeLink(owner.client);
    const other = await t.createOnboardedUser('Other Company');
    expect((await other.client.get('/api/vendor-submissions')).body.items).toEqual([]);
    expect((await other.client.get('/api/vendor-links')).body.items).toEqual([]);
    expect((await other.client.post(`/api/vendor-submissions/${submission.id}/approve`)).status).toBe(404);
    expect((await other.client.request(`/api/vendor-links/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await other.client.get(`/api/vendor-documents/${submission.documents[0].id}`)).status).toBe(404);
    expect((await owner.client.get(`/api/vendor-documents/${submission.documents[0].id}`)).status).toBe(200);
  });

  // Last: it blocks this test client's address for the rest of the window.
  it('answers 429 to a flood of bad tokens', async () => {
    const guesser = t.createClient();
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++)
      statuses.push((await guesser.get(`/api/vendor-form/made-up-token-${i}-aaaaaaaaaaaa`)).status);
    expect(statuses.slice(0, 20).every((s) => s === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('sending a link by e-mail without outgoing mail', () => {
  it('says mail is not configured when the link is made, and refuses to send it in words', async () => {
    const res = await owner.client.post('/api/vendor-links', { vendorName: 'No Mail Traders' });
    expect(res.body).toMatchObject({ emailed: false, mailConfigured: false });
    const token = new URL(res.body.url).pathname.split('/').at(-1)!;
    const sent = await owner.client.post(`/api/vendor-links/${res.body.link.id}/email`, {
      to: 'accounts@nomail.example.test',
      token,
    });
    expect(sent.status).toBe(409);
    expect(sent.body.error.message).toMatch(/no outgoing mail set up .*copy the link/);
    const injected = await owner.client.post(`/api/vendor-links/${res.body.link.id}/email`, {
      to: 'accounts@nomail.example.test\r\nBcc: all@example.test',
      token,
    });
    expect(injected.status).toBe(400);
    expect(injected.body.error.fields.to).toMatch(/one e-mail address/);
  });
});
