import { computeGstinCheckChar } from '@bahi/india';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { documents } from '../../db/schema/index.ts';
import { isAppError } from '../../lib/app-error.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { approveDocument } from '../documents/document-review.service.ts';
import { findFlowById } from '../flows/flows.repo.ts';
import { createWorkflow } from '../flows/flows.service.ts';
import { createMember, createTestEnv } from '../flows/test-support.ts';
import { getSheetView, loadSheetContent } from '../sheets/sheets.service.ts';
import { upsertVendorFromDocument } from '../vendors/vendors.repo.ts';
import { listVendors, updateVendor } from '../vendors/vendors.service.ts';
import { getInvoiceTds, getTdsView, setTdsSettings, tdsDueDate } from './tds.service.ts';
import { NO_TDS_SECTION } from './tds-sheet.ts';

// Made-up suppliers: a consulting firm (194J(b) by SAC), a transporter (194C) and a goods seller.
const gstin = (first14: string) => first14 + computeGstinCheckChar(first14);
const CONSULT = gstin('27AAFFV2468K1Z');
const TRANSPORT = gstin('27AACCR1357L1Z');
const STEEL = gstin('24AABCS9753N1Z');

let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;
let owner: Awaited<ReturnType<typeof createMember>>;
let stranger: Awaited<ReturnType<typeof createMember>>;
let flowId: string;
const ids: Record<string, string> = {};

async function insertInvoice(
  fileName: string,
  vendorGstin: string,
  date: string,
  lines: Array<{ hsnSac: string; amount: number }>,
): Promise<string> {
  const taxable = lines.reduce((s, l) => s + l.amount, 0);
  const [row] = await t.db
    .insert(documents)
    .values({
      organizationId: owner.membership.organizationId,
      flowId,
      sourceId: fileName,
      contentHash: fileName,
      fileName,
      status: 'done',
      processedAt: new Date(),
      extraction: {
        contract: 'extraction/v1',
        file: fileName,
        documentType: 'invoice',
        checks: [],
        confidence: {},
        provenance: {},
        error: null,
        fields: {
          vendorGstin,
          vendorName: `Vendor ${vendorGstin.slice(2, 7)}`,
          documentNumber: fileName.replace('.pdf', '').toUpperCase(),
          documentDate: date,
          taxableValue: taxable,
          igst: Math.round(taxable * 0.18 * 100) / 100,
          total: Math.round(taxable * 1.18 * 100) / 100,
        },
        lineItems: lines.map((l) => ({ description: 'Service', ...l })),
      },
    })
    .returning();
  await upsertVendorFromDocument(t.db, owner.membership.organizationId, {
    gstin: vendorGstin,
    name: `Vendor ${vendorGstin.slice(2, 7)}`,
    stateCode: vendorGstin.slice(0, 2),
  });
  return row!.id;
}

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup } = await createTestEnv());
  owner = await createMember(t.db, 'Tds Owner');
  stranger = await createMember(t.db, 'Tds Stranger');
  const flow = await createWorkflow(t.db, {
    env,
    user: owner.user,
    membership: owner.membership,
    input: {
      name: 'Purchase invoices',
      types: ['INVOICE'],
      io: {
        input: { kind: 'upload', url: '', folderName: '' },
        output: { kind: 'xlsx', sheetId: '', sheetName: 'Purchases' },
      },
    },
  });
  flowId = flow.id;
  ids.apr = await insertInvoice('cf-01.pdf', CONSULT, '2025-04-15', [{ hsnSac: '998311', amount: 20000 }]);
  ids.jun = await insertInvoice('cf-02.pdf', CONSULT, '2025-06-10', [{ hsnSac: '998311', amount: 25000 }]);
  ids.sep = await insertInvoice('cf-03.pdf', CONSULT, '2025-09-05', [{ hsnSac: '998311', amount: 10000 }]);
  ids.nextYear = await insertInvoice('cf-04.pdf', CONSULT, '2026-04-20', [
    { hsnSac: '998311', amount: 20000 },
  ]);
  ids.truck = await insertInvoice('rt-01.pdf', TRANSPORT, '2025-09-12', [
    { hsnSac: '996511', amount: 35000 },
  ]);
  ids.steel = await insertInvoice('st-01.pdf', STEEL, '2025-09-20', [
    { hsnSac: '72085110', amount: 5100000 },
  ]);
});

afterAll(async () => {
  await t?.close();
  await cleanup?.();
});

const tdsOf = (id: string) => getInvoiceTds(t.db, owner.membership, id);

describe('TDS per invoice', () => {
  it('adds fees up per PAN, section and financial year: nothing until the year passes ₹50,000, then all of it', async () => {
    expect((await tdsOf(ids.apr!)).sections).toEqual([
      {
        section: '194J(b)',
        base: 20000,
        taxable: 0,
        rate: 10,
        tds: 0,
        reason: 'fees this year within ₹50,000',
      },
    ]);
    expect((await tdsOf(ids.jun!)).tds).toBe(0);
    const sep = await tdsOf(ids.sep!);
    expect(sep.sections).toEqual([
      {
        section: '194J(b)',
        base: 10000,
        taxable: 55000,
        rate: 10,
        tds: 5500,
        reason: 'fees this year passed ₹50,000',
      },
    ]);
    expect(sep.netPayable).toBe(11800 - 5500);
    // A new financial year starts from nothing.
    expect((await tdsOf(ids.nextYear!)).sections[0]).toMatchObject({ taxable: 0, tds: 0 });
  });

  it('taxes a single transport bill above ₹30,000 at 2 % for a company', async () => {
    expect((await tdsOf(ids.truck!)).sections).toEqual([
      {
        section: '194C',
        base: 35000,
        taxable: 35000,
        rate: 2,
        tds: 700,
        reason: 'this bill is above ₹30,000',
      },
    ]);
  });

  it("follows the vendor's profile: an inoperative PAN, a lower-deduction certificate", async () => {
    const vendor = (await listVendors(t.db, owner.membership)).find((v) => v.gstin === TRANSPORT)!;
    expect(vendor.tds).toEqual({ section: null, panOperative: true, ldc: null });
    await updateVendor(t.db, {
      user: owner.user,
      membership: owner.membership,
      id: vendor.id,
      input: { tds: { section: null, panOperative: false, ldc: null } },
    });
    expect((await tdsOf(ids.truck!)).sections[0]).toMatchObject({ rate: 20, tds: 7000 });
    expect((await tdsOf(ids.truck!)).sections[0]!.reason).toMatch(/PAN inoperative/);
    const ldc = {
      number: 'LDC-0042',
      section: '194C' as const,
      rate: 0.5,
      from: '2025-04-01',
      to: '2026-03-31',
      limitRupees: 100000,
    };
    const saved = await updateVendor(t.db, {
      user: owner.user,
      membership: owner.membership,
      id: vendor.id,
      input: { tds: { section: null, panOperative: true, ldc } },
    });
    expect(saved.tds.ldc).toEqual(ldc);
    expect((await tdsOf(ids.truck!)).sections[0]).toMatchObject({ rate: 0.5, tds: 175 });
  });

  it("applies 194Q to goods only when the organisation's turnover passed ₹10 crore", async () => {
    expect((await tdsOf(ids.steel!)).sections).toEqual([]);
    await setTdsSettings(t.db, {
      user: owner.user,
      membership: owner.membership,
      input: { turnoverAbove10cr: true },
    });
    expect((await tdsOf(ids.steel!)).sections).toEqual([
      {
        section: '194Q',
        base: 5100000,
        taxable: 100000,
        rate: 0.1,
        tds: 100,
        reason: 'purchases from this seller this year passed ₹50,00,000',
      },
    ]);
  });

  it('sums a month by section with the deposit due date, and says what awaits approval', async () => {
    await approveDocument(
      { db: t.db, env },
      { user: owner.user, membership: owner.membership, id: ids.sep! },
    );
    const view = await getTdsView(t.db, owner.membership, '2025-09');
    expect(view.months).toEqual(['2026-04', '2025-09', '2025-06', '2025-04']);
    expect(view.turnoverAbove10cr).toBe(true);
    expect(view.summary).toEqual({
      month: '2025-09',
      dueDate: '2025-10-07',
      sections: [
        { section: '194C', invoices: 1, base: 35000, tds: 175 },
        { section: '194J(b)', invoices: 1, base: 10000, tds: 5500 },
        { section: '194Q', invoices: 1, base: 5100000, tds: 100 },
      ],
      tds: 5775,
      invoices: 3,
      withTds: 3,
      awaitingApproval: 2,
    });
    expect(view.invoices.map((i) => i.invoice.id).sort()).toEqual([ids.sep, ids.truck, ids.steel].sort());
    expect(tdsDueDate('2026-03')).toBe('2026-04-30');
    expect(tdsDueDate('2025-12')).toBe('2026-01-07');
  });

  it("gives each invoice row of the flow's sheet its TDS section, rate, amount, net payable and reason", async () => {
    const view = await getSheetView(t.db, {
      env,
      membership: owner.membership,
      flowId,
      query: { tab: 'documents', dir: 'asc', page: 1 },
    });
    expect(view.columns.map((c) => c.key)).toEqual(
      expect.arrayContaining(['tdsSection', 'tdsRate', 'tdsAmount', 'netPayable', 'tdsReason']),
    );
    const row = (id: string) => view.rows.find((r) => r.documentId === id)!;
    expect(row(ids.sep!)).toMatchObject({
      tdsSection: '194J(b)',
      tdsRate: 10,
      tdsAmount: 5500,
      netPayable: 11800 - 5500,
      tdsReason: 'fees this year passed ₹50,000',
    });
    // Below the threshold: the section is named, nothing is deducted, the whole total is payable.
    expect(row(ids.apr!)).toMatchObject({ tdsSection: '194J(b)', tdsAmount: 0, netPayable: 23600 });
    // The certificate's rate (set above) reaches the sheet too.
    expect(row(ids.truck!)).toMatchObject({ tdsSection: '194C', tdsRate: 0.5, tdsAmount: 175 });
    // The workbook is written from the same rows.
    const content = await loadSheetContent(t.db, env, (await findFlowById(t.db, flowId))!);
    expect(content.documents.find((r) => r.documentId === ids.steel)).toMatchObject({
      tdsSection: '194Q',
      tdsAmount: 100,
      netPayable: Math.round(5100000 * 1.18 * 100) / 100 - 100,
    });
  });

  it('says so in the sheet when no line of an invoice falls under a TDS section', async () => {
    const plain = await insertInvoice('misc-01.pdf', STEEL, '2025-10-02', [
      { hsnSac: '48201010', amount: 500 },
    ]);
    await setTdsSettings(t.db, {
      user: owner.user,
      membership: owner.membership,
      input: { turnoverAbove10cr: false },
    });
    const content = await loadSheetContent(t.db, env, (await findFlowById(t.db, flowId))!);
    expect(content.documents.find((r) => r.documentId === plain)).toMatchObject({
      tdsSection: null,
      tdsRate: null,
      tdsAmount: 0,
      netPayable: 590,
      tdsReason: NO_TDS_SECTION,
    });
    await setTdsSettings(t.db, {
      user: owner.user,
      membership: owner.membership,
      input: { turnoverAbove10cr: true },
    });
  });

  it('counts a second copy of an invoice once in the month by section', async () => {
    const copy = await insertInvoice('cf-03-copy.pdf', CONSULT, '2025-09-05', [
      { hsnSac: '998311', amount: 10000 },
    ]);
    // Same supplier, number and year as cf-03: the books hold it twice.
    await t.db
      .update(documents)
      .set({
        extraction: sql`jsonb_set(extraction, '{fields,documentNumber}', '"CF-03"')`,
      })
      .where(eq(documents.id, copy));
    // Which of the two is the copy follows the register's order; one of them is taxed, once.
    const both = [(await tdsOf(copy)).tds, (await tdsOf(ids.sep!)).tds].sort((a, b) => a - b);
    expect(both).toEqual([0, 5500]);
    const view = await getTdsView(t.db, owner.membership, '2025-09');
    expect(view.summary?.sections.find((s) => s.section === '194J(b)')).toEqual({
      section: '194J(b)',
      invoices: 1,
      base: 10000,
      tds: 5500,
    });
    expect(view.summary?.invoices).toBe(3);
    await t.db.delete(documents).where(eq(documents.id, copy));
  });

  it('is scoped to the organisation', async () => {
    const error = await getInvoiceTds(t.db, stranger.membership, ids.sep!).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe('not_found');
    expect((await getTdsView(t.db, stranger.membership)).months).toEqual([]);
  });
});
