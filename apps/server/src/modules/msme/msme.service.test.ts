import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { documents } from '../../db/schema/index.ts';
import { isAppError } from '../../lib/app-error.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { createWorkflow } from '../flows/flows.service.ts';
import { createMember, createTestEnv } from '../flows/test-support.ts';
import { upsertVendorFromDocument } from '../vendors/vendors.repo.ts';
import { listMsmeVendors } from './msme.repo.ts';
import { addObjection, getMsmeView, resolveObjection, saveRegistration } from './msme.service.ts';
import { addBankRate, getMsmeSettings, removeBankRate } from './msme-bank-rates.ts';
import { export43bh, exportForm1 } from './msme-export.ts';
import { importPayments, recordPayment } from './msme-payments.ts';

// Made-up suppliers, GSTINs, numbers and amounts throughout.
const MICRO = '29AAFCM1111B1Z5';
const TRADER = '24AABFT3333D1ZQ';
const CHANGES = '27AABCS2222C1ZZ';

let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;
let owner: Awaited<ReturnType<typeof createMember>>;
let stranger: Awaited<ReturnType<typeof createMember>>;
const ids: Record<string, string> = {};
const vendorIds: Record<string, string> = {};

async function insertRead(
  type: 'INVOICE' | 'PO' | 'GRN',
  fileName: string,
  extraction: Record<string, unknown>,
) {
  const flow = await createWorkflow(t.db, {
    env,
    user: owner.user,
    membership: owner.membership,
    input: {
      name: `${type} ${fileName}`,
      types: [type],
      io: {
        input: { kind: 'upload', url: '', folderName: '' },
        output: { kind: 'xlsx', sheetId: '', sheetName: fileName },
      },
    },
  });
  const [row] = await t.db
    .insert(documents)
    .values({
      organizationId: owner.membership.organizationId,
      flowId: flow.id,
      sourceId: fileName,
      contentHash: fileName,
      fileName,
      status: 'done',
      processedAt: new Date(),
      extraction: {
        contract: 'extraction/v1',
        checks: [],
        confidence: {},
        provenance: {},
        error: null,
        ...extraction,
      },
    })
    .returning();
  return row!.id;
}

const line = {
  description: 'Brass fittings',
  hsnSac: '74122019',
  unit: 'NOS',
  quantity: 100,
  rate: 1000,
  amount: 100000,
};
const invoice = (
  number: string,
  date: string,
  gstin: string,
  total: number,
  extra: Record<string, unknown> = {},
) => ({
  documentType: 'invoice',
  fields: {
    documentNumber: number,
    documentDate: date,
    vendorGstin: gstin,
    vendorName: `Supplier ${gstin.slice(2, 7)}`,
    taxableValue: total,
    total,
    ...extra,
  },
  lineItems: [],
});

const fail = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  throw new Error('expected an AppError');
};

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup } = await createTestEnv());
  owner = await createMember(t.db, 'Msme Owner');
  stranger = await createMember(t.db, 'Msme Stranger');
  const org = owner.membership.organizationId;
  for (const g of [MICRO, TRADER, CHANGES])
    await upsertVendorFromDocument(t.db, org, {
      gstin: g,
      name: `Supplier ${g.slice(2, 7)}`,
      stateCode: null,
    });
  for (const v of await listMsmeVendors(t.db, org)) vendorIds[v.gstin!] = v.id;

  // M1: ordered, received on 4 May, billed 1 May — accepted on the goods receipt's date.
  await insertRead('PO', 'po-1.pdf', {
    documentType: 'po',
    fields: { documentNumber: 'PO-501', documentDate: '2025-04-20', vendorGstin: MICRO },
    lineItems: [line],
  });
  await insertRead('GRN', 'grn-1.pdf', {
    documentType: 'grn',
    fields: { documentNumber: 'GRN-1', documentDate: '2025-05-04', vendorGstin: MICRO, poNumber: 'PO-501' },
    lineItems: [{ description: 'Brass fittings', unit: 'NOS', receivedQuantity: 100, acceptedQuantity: 100 }],
  });
  ids.m1 = await insertRead('INVOICE', 'm1.pdf', {
    ...invoice('MB/101', '2025-05-01', MICRO, 100000, { poNumber: 'PO-501' }),
    lineItems: [line],
  });
  ids.m2 = await insertRead('INVOICE', 'm2.pdf', invoice('MB/102', '2025-06-01', MICRO, 50000));
  ids.trader = await insertRead('INVOICE', 't1.pdf', invoice('TR/7', '2025-05-10', TRADER, 20000));
  ids.march = await insertRead('INVOICE', 'c1.pdf', invoice('CS/1', '2025-03-15', CHANGES, 30000));
  ids.april = await insertRead('INVOICE', 'c2.pdf', invoice('CS/2', '2025-04-15', CHANGES, 40000));

  const reg = (
    gstin: string,
    financialYear: number,
    category: 'micro' | 'small' | 'medium',
    activity: 'manufacturing' | 'trading' = 'manufacturing',
  ) =>
    saveRegistration(t.db, {
      user: owner.user,
      membership: owner.membership,
      input: {
        vendorId: vendorIds[gstin]!,
        financialYear,
        udyam: null,
        category,
        activity,
        writtenAgreement: false,
        agreedDays: null,
      },
    });
  await reg(MICRO, 2025, 'micro');
  await reg(TRADER, 2025, 'small', 'trading');
  await reg(CHANGES, 2024, 'small');
  await reg(CHANGES, 2025, 'medium');
  await addBankRate(t.db, {
    user: owner.user,
    membership: owner.membership,
    input: { bankRatePct: 6.5, effectiveFrom: '2020-01-01' },
  });
});

afterAll(async () => {
  await t?.close();
  await cleanup?.();
});

const pay = (invoiceId: string | null, date: string, amount: number, reference: string) =>
  recordPayment(t.db, {
    user: owner.user,
    membership: owner.membership,
    input: { vendorId: vendorIds[MICRO]!, invoiceId, date, amount, reference, delayReason: null },
  });

describe('MSME clock', () => {
  it("accepts on the matched goods receipt's date, else the invoice date marked assumed", async () => {
    const view = await getMsmeView(t.db, owner.membership, '2025-05-10');
    const m1 = view.invoices.find((i) => i.invoice.id === ids.m1)!;
    expect(m1).toMatchObject({
      acceptedOn: '2025-05-04',
      acceptance: 'goods_receipt',
      days: 15,
      dueDate: '2025-05-19',
      daysLeft: 9,
    });
    const m2 = view.invoices.find((i) => i.invoice.id === ids.m2)!;
    expect(m2).toMatchObject({ acceptance: 'assumed_invoice_date', acceptedOn: '2025-06-01' });
  });

  it('moves acceptance to the day a written objection was resolved', async () => {
    const objection = await addObjection(t.db, {
      user: owner.user,
      membership: owner.membership,
      input: {
        invoiceId: ids.m2!,
        raisedOn: '2025-06-05',
        resolvedOn: null,
        note: 'Threads out of tolerance',
      },
    });
    let m2 = (await getMsmeView(t.db, owner.membership, '2025-06-10')).invoices.find(
      (i) => i.invoice.id === ids.m2,
    )!;
    expect(m2).toMatchObject({ acceptance: 'objection_open', dueDate: null, daysLeft: null });
    await resolveObjection(t.db, {
      user: owner.user,
      membership: owner.membership,
      id: objection.id,
      resolvedOn: '2025-06-20',
    });
    m2 = (await getMsmeView(t.db, owner.membership, '2025-07-10')).invoices.find(
      (i) => i.invoice.id === ids.m2,
    )!;
    expect(m2).toMatchObject({
      acceptance: 'objection_resolved',
      acceptedOn: '2025-06-20',
      dueDate: '2025-07-05',
      daysLeft: -5,
    });
    expect(m2.interest).toBeGreaterThan(0);
  });

  it('splits partial payments before and after the due date; overdue totals and this week follow', async () => {
    await pay(ids.m1!, '2025-05-10', 40000, 'UTR-A1');
    await pay(null, '2025-06-25', 60000, 'UTR-A2');
    const view = await getMsmeView(t.db, owner.membership, '2025-07-10');
    const m1 = view.invoices.find((i) => i.invoice.id === ids.m1)!;
    expect(m1).toMatchObject({ paidOnTime: 40000, paidLate: 60000, outstanding: 0, daysLeft: null });
    expect(m1.interest).toBeGreaterThan(0);
    // Overdue: the rest of MB/102 and last March's CS/1; this week's list includes what is overdue.
    expect(view.totals).toMatchObject({
      overdue: 80000,
      overdueCount: 2,
      dueThisWeek: 80000,
      dueThisWeekCount: 2,
    });
    expect(view.bankRates.map((r) => [r.effectiveFrom, r.bankRatePct])).toEqual([['2020-01-01', 6.5]]);
    // The same payment again is refused, not counted twice.
    expect((await fail(pay(ids.m1!, '2025-05-10', 40000, 'UTR-A1'))).code).toBe('conflict');
  });

  it('prices each invoice at the bank rate in force on its due date, so a rate change splits two invoices', async () => {
    const before = await getMsmeView(t.db, owner.membership, '2025-07-10');
    const m1Before = before.invoices.find((i) => i.invoice.id === ids.m1)!;
    const m2Before = before.invoices.find((i) => i.invoice.id === ids.m2)!;
    expect(m1Before.dueDate! < '2025-07-01').toBe(true);
    // The Reserve Bank's change took effect on 1 July: MB/102 (due 5 July) moves, the May one does not.
    await addBankRate(t.db, {
      user: owner.user,
      membership: owner.membership,
      input: { bankRatePct: 7, effectiveFrom: '2025-07-01' },
    });
    const after = await getMsmeView(t.db, owner.membership, '2025-07-10');
    const m1 = after.invoices.find((i) => i.invoice.id === ids.m1)!;
    const m2 = after.invoices.find((i) => i.invoice.id === ids.m2)!;
    expect(m1).toMatchObject({ bankRatePct: 6.5, interest: m1Before.interest });
    expect(m2.bankRatePct).toBe(7);
    expect(m2.interest!).toBeGreaterThan(m2Before.interest!);
    // Five days late at 21 % a year on what is still owed (simple for the days short of a month).
    expect(m2.interest).toBeCloseTo((m2.outstanding * 0.21 * 5) / 365, 2);
    expect(after.totals.interest).toBeCloseTo(
      after.invoices.reduce((s, i) => s + (i.interest ?? 0), 0),
      2,
    );

    // The same day again replaces that day's rate; another organisation cannot remove it; removing it puts
    // the first figures back.
    const replaced = await addBankRate(t.db, {
      user: owner.user,
      membership: owner.membership,
      input: { bankRatePct: 7.25, effectiveFrom: '2025-07-01' },
    });
    expect(replaced.bankRates.map((r) => [r.effectiveFrom, r.bankRatePct])).toEqual([
      ['2025-07-01', 7.25],
      ['2020-01-01', 6.5],
    ]);
    const july = replaced.bankRates[0]!;
    expect((await fail(removeBankRate(t.db, { ...stranger, id: july.id }))).code).toBe('not_found');
    await removeBankRate(t.db, { ...owner, id: july.id });
    expect((await getMsmeSettings(t.db, owner.membership)).bankRates).toHaveLength(1);
    const back = await getMsmeView(t.db, owner.membership, '2025-07-10');
    expect(back.invoices.find((i) => i.invoice.id === ids.m2)!.interest).toBe(m2Before.interest);
  });

  it('gives no interest figure for an invoice due before the first recorded rate, and counts it apart', async () => {
    const { bankRates } = await getMsmeSettings(t.db, owner.membership);
    await removeBankRate(t.db, { ...owner, id: bankRates[0]!.id });
    await addBankRate(t.db, {
      user: owner.user,
      membership: owner.membership,
      input: { bankRatePct: 6.5, effectiveFrom: '2025-07-01' },
    });
    const view = await getMsmeView(t.db, owner.membership, '2025-07-10');
    const m1 = view.invoices.find((i) => i.invoice.id === ids.m1)!;
    expect(m1).toMatchObject({ bankRatePct: null, interest: null });
    expect(view.totals.interestUnpriced).toBeGreaterThan(0);
    const { bankRates: now } = await getMsmeSettings(t.db, owner.membership);
    await removeBankRate(t.db, { ...owner, id: now[0]!.id });
    await addBankRate(t.db, {
      user: owner.user,
      membership: owner.membership,
      input: { bankRatePct: 6.5, effectiveFrom: '2020-01-01' },
    });
  });

  it('shows trading and medium vendors as not covered, and judges each year by its own category', async () => {
    const view = await getMsmeView(t.db, owner.membership, '2025-07-10');
    const of = (id: string) => view.invoices.find((i) => i.invoice.id === id)!;
    expect(of(ids.trader!)).toMatchObject({
      covered: false,
      notCoveredReason: expect.stringMatching(/Trader/),
      interest: 0,
    });
    expect(of(ids.april!)).toMatchObject({
      covered: false,
      financialYear: 2025,
      notCoveredReason: expect.stringMatching(/Medium/),
    });
    expect(of(ids.march!)).toMatchObject({ covered: true, financialYear: 2024, dueDate: '2025-03-30' });
    // Not covered: outside the overdue totals.
    expect(view.totals.overdueCount).toBe(2);
  });
});

describe('bank statement import', () => {
  it('names every bad row and imports nothing; the fixed file imports once', async () => {
    const bad = [
      'Value Date,Withdrawal,UTR,Supplier GSTIN,Invoice No,Reason for delay',
      '31/02/2025,100,UTR-B1,29AAFCM1111B1Z5,,',
      '12/07/2025,abc,UTR-B2,29AAFCM1111B1Z5,,',
      '12/07/2025,500,UTR-B3,07AAAAA0000A1Z5,,',
      '12/07/2025,500,UTR-B4,29AAFCM1111B1Z5,NOPE/1,',
    ].join('\n');
    const error = await fail(
      importPayments(t.db, { user: owner.user, membership: owner.membership, csv: bad }),
    );
    expect(error.code).toBe('validation');
    expect(error.message).toMatch(/4 rows need fixing; nothing was imported/);
    expect(Object.values(error.fields ?? {})).toEqual([
      expect.stringMatching(/^Row 2: the date "31\/02\/2025" is not a date/),
      expect.stringMatching(/^Row 3: the amount "abc"/),
      expect.stringMatching(/^Row 4: no vendor with GSTIN 07AAAAA0000A1Z5/),
      expect.stringMatching(/^Row 5: no invoice NOPE\/1/),
    ]);
    const good = [
      'Date,Amount,Reference,GSTIN,Invoice No,Reason for delay',
      '"12/07/2025","20,000.00",=CMD(),29AAFCM1111B1Z5,MB/102,Waiting for replacement',
    ].join('\r\n');
    expect(await importPayments(t.db, { user: owner.user, membership: owner.membership, csv: good })).toEqual(
      { imported: 1, alreadyRecorded: 0 },
    );
    expect(await importPayments(t.db, { user: owner.user, membership: owner.membership, csv: good })).toEqual(
      { imported: 0, alreadyRecorded: 1 },
    );
    const view = await getMsmeView(t.db, owner.membership, '2025-07-15');
    expect(view.invoices.find((i) => i.invoice.id === ids.m2)).toMatchObject({
      paidLate: 20000,
      outstanding: 30000,
    });
    expect(view.payments[0]).toMatchObject({ reference: '=CMD()', source: 'import', amount: 20000 });
  });
});

async function readSheet(file: { path: string }) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file.path);
  const sheet = book.worksheets[0]!;
  const labels: string[] = [];
  sheet.getRow(1).eachCell((c, i) => {
    labels[i] = String(c.value);
  });
  const rows: Array<Record<string, unknown>> = [];
  sheet.eachRow((row, n) => {
    if (n === 1) return;
    const out: Record<string, unknown> = {};
    row.eachCell((c, i) => {
      out[labels[i]!] = c.value;
    });
    rows.push(out);
  });
  return rows;
}

describe('workbooks', () => {
  it('Form-1 for April–September: paid within and beyond 45 days, unpaid within and beyond, per PAN', async () => {
    const rows = await readSheet(
      await exportForm1(t.db, { env, membership: owner.membership, financialYear: 2025, half: 'H1' }),
    );
    const micro = rows.find((r) => r['PAN of the Supplier'] === 'AAFCM1111B')!;
    expect(micro).toMatchObject({
      // 10 May for MB/101; 12 July is 22 days after MB/102's objection was resolved.
      'Paid within 45 days: invoices': 2,
      'Paid within 45 days: amount': 60000,
      // 25 June is 52 days after MB/101's goods were received.
      'Paid after 45 days: invoices': 1,
      'Paid after 45 days: amount': 60000,
      'Outstanding beyond 45 days: invoices': 1,
      'Outstanding beyond 45 days: amount': 30000,
      'Reasons for delay': 'Threads out of tolerance',
    });
    expect(micro['Outstanding within 45 days: invoices']).toBe(0);
    const changed = rows.find((r) => r['PAN of the Supplier'] === 'AABCS2222C')!;
    expect(changed).toMatchObject({ 'Outstanding beyond 45 days: amount': 30000 });
    expect(rows.some((r) => r['PAN of the Supplier'] === 'AABFT3333D')).toBe(false);
  });

  it('the 43B(h) list disallows what stayed unpaid past the due date at 31 March', async () => {
    const rows = await readSheet(
      await export43bh(t.db, { env, membership: owner.membership, financialYear: 2024 }),
    );
    expect(rows).toEqual([
      expect.objectContaining({
        'Invoice No.': 'CS/1',
        'Unpaid at 31 March': 30000,
        'Disallowed u/s 43B(h)': 30000,
      }),
    ]);
  });
});

describe('organisation scoping', () => {
  it('another organisation sees none of this and cannot reach its vendors, invoices or objections', async () => {
    const view = await getMsmeView(t.db, stranger.membership, '2025-07-10');
    expect(view).toMatchObject({ invoices: [], vendors: [], payments: [], bankRates: [] });
    const input = {
      vendorId: vendorIds[MICRO]!,
      financialYear: 2025,
      udyam: null,
      category: 'micro' as const,
      activity: 'services' as const,
      writtenAgreement: false,
      agreedDays: null,
    };
    expect(
      (await fail(saveRegistration(t.db, { user: stranger.user, membership: stranger.membership, input })))
        .code,
    ).toBe('not_found');
    expect(
      (
        await fail(
          recordPayment(t.db, {
            user: stranger.user,
            membership: stranger.membership,
            input: {
              vendorId: vendorIds[MICRO]!,
              invoiceId: null,
              date: '2025-07-01',
              amount: 1,
              reference: 'X',
              delayReason: null,
            },
          }),
        )
      ).code,
    ).toBe('not_found');
    expect(
      (
        await fail(
          addObjection(t.db, {
            user: stranger.user,
            membership: stranger.membership,
            input: { invoiceId: ids.m1!, raisedOn: '2025-05-05', resolvedOn: null, note: 'x' },
          }),
        )
      ).code,
    ).toBe('not_found');
    const owners = await getMsmeView(t.db, owner.membership, '2025-07-10');
    const objectionId = owners.invoices.find((i) => i.invoice.id === ids.m2)!.objections[0]!.id;
    expect(
      (
        await fail(
          resolveObjection(t.db, {
            user: stranger.user,
            membership: stranger.membership,
            id: objectionId,
            resolvedOn: '2025-07-01',
          }),
        )
      ).code,
    ).toBe('not_found');
  });
});
