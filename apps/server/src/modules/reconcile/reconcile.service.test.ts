import { rm } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { documents, flows } from '../../db/schema/index.ts';
import { isAppError } from '../../lib/app-error.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { correctDocument } from '../documents/document-review.service.ts';
import { createWorkflow } from '../flows/flows.service.ts';
import { createMember, createTestEnv } from '../flows/test-support.ts';
import { upsertVendorFromDocument } from '../vendors/vendors.repo.ts';
import { listVendors, updateVendor } from '../vendors/vendors.service.ts';
import { getReconciliation, overrideInvoice, setTolerances } from './reconcile.service.ts';
import { exportReconciliation } from './reconcile-export.ts';

let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;
let owner: Awaited<ReturnType<typeof createMember>>;
let stranger: Awaited<ReturnType<typeof createMember>>;
let invoiceId: string;

const VENDOR = '27AAACA1234A1ZK';

async function insertRead(
  member: typeof owner,
  type: 'INVOICE' | 'PO' | 'GRN',
  fileName: string,
  extraction: Record<string, unknown>,
): Promise<string> {
  const flow = await createWorkflow(t.db, {
    env,
    user: member.user,
    membership: member.membership,
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
      organizationId: member.membership.organizationId,
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
  description: 'Sodium Carbonate',
  hsnSac: '28362010',
  unit: 'KG',
  quantity: 100,
  rate: 50,
  amount: 5000,
};

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup } = await createTestEnv());
  owner = await createMember(t.db, 'Match Owner');
  stranger = await createMember(t.db, 'Match Stranger');
  await insertRead(owner, 'PO', 'po-77.pdf', {
    documentType: 'po',
    fields: {
      documentNumber: 'PO/25-26/0077',
      documentDate: '2025-07-01',
      vendorGstin: VENDOR,
      vendorName: 'Acme Chem',
    },
    lineItems: [line],
  });
  await insertRead(owner, 'GRN', 'grn-5.pdf', {
    documentType: 'grn',
    fields: {
      documentNumber: 'GRN-5',
      documentDate: '2025-07-10',
      vendorGstin: VENDOR,
      poNumber: 'PO/25-26/77',
    },
    lineItems: [
      { description: 'Sodium Carbonate', unit: 'KG', receivedQuantity: 100, acceptedQuantity: 100 },
    ],
  });
  // Billed 5 % above the PO rate.
  invoiceId = await insertRead(owner, 'INVOICE', 'bill-9.pdf', {
    documentType: 'invoice',
    fields: {
      documentNumber: 'AC/9',
      documentDate: '2025-07-12',
      vendorGstin: VENDOR,
      vendorName: 'Acme Chem',
      poNumber: 'PO 25-26/0077',
      taxableValue: 5250,
      total: 5250,
    },
    lineItems: [{ ...line, rate: 52.5, amount: 5250 }],
  });
});

afterAll(async () => {
  await t.close();
  await cleanup();
});

describe('reconcile', () => {
  it('matches the invoice to its PO and GRN across flows and says why it is an exception', async () => {
    const view = await getReconciliation(t.db, owner.membership);
    expect(view.counts).toMatchObject({ invoices: 1, exceptions: 1, pos: 1 });
    const [invoice] = view.invoices;
    expect(invoice).toMatchObject({
      invoice: { id: invoiceId, fileName: 'bill-9.pdf', documentNumber: 'AC/9' },
      po: { fileName: 'po-77.pdf' },
      grns: [{ fileName: 'grn-5.pdf' }],
      status: 'exception',
      effectiveStatus: 'exception',
      payable: 'exception',
    });
    expect(invoice!.reasons.map((r) => r.code)).toEqual(['price_variance']);
    expect(invoice!.lines[0]).toMatchObject({
      rate: 52.5,
      poRate: 50,
      billed: 100,
      received: 100,
      ordered: 100,
    });
    expect(view.pos[0]).toMatchObject({ receipt: 'full', billing: 'full' });
    // Matching again from the same documents gives the same answer.
    expect(await getReconciliation(t.db, owner.membership)).toEqual(view);
  });

  it('writes the match as a workbook: one row per invoice line, the exception queue, the POs', async () => {
    const file = await exportReconciliation(t.db, env, owner.membership);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file.path);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Matches', 'Exceptions', 'Purchase Orders']);
    const read = (name: string) => {
      const sheet = book.getWorksheet(name)!;
      const labels: string[] = [];
      sheet.getRow(1).eachCell((cell, c) => {
        labels[c] = String(cell.value);
      });
      const rows: Array<Record<string, unknown>> = [];
      for (let r = 2; r <= sheet.rowCount; r++) {
        const row: Record<string, unknown> = {};
        sheet.getRow(r).eachCell((cell, c) => {
          row[labels[c]!] = cell.value;
        });
        rows.push(row);
      }
      return rows;
    };
    expect(read('Matches')).toMatchObject([
      {
        'Invoice No.': 'AC/9',
        Line: 1,
        'PO No.': 'PO/25-26/0077',
        'GRN No.': 'GRN-5',
        Rate: 52.5,
        'PO Rate': 50,
      },
    ]);
    expect(String(read('Matches')[0]!.Reasons)).toMatch(/^Rate differs from the purchase order \(line 1\)/);
    expect(read('Exceptions')).toMatchObject([{ 'Invoice No.': 'AC/9', 'Should Be Paid': 'Hold' }]);
    expect(read('Purchase Orders')).toMatchObject([{ 'PO No.': 'PO/25-26/0077', Received: 'In full' }]);
    await rm(file.path);
  });

  it("keeps another organisation's documents and overrides apart", async () => {
    expect((await getReconciliation(t.db, stranger.membership)).invoices).toEqual([]);
    const refused = await overrideInvoice(t.db, {
      user: stranger.user,
      membership: stranger.membership,
      documentId: invoiceId,
      input: {
        reason: 'Agreed the new rate on the phone',
      },
    }).catch((e: unknown) => e);
    expect(isAppError(refused, 'not_found')).toBe(true);
  });

  it('clears an exception with a written reason, kept with who and when', async () => {
    await t.db
      .update(flows)
      .set({ workbookWrittenAt: new Date() })
      .where(eq(flows.organizationId, owner.membership.organizationId));
    const after = await overrideInvoice(t.db, {
      user: owner.user,
      membership: owner.membership,
      documentId: invoiceId,
      input: {
        reason: 'Rate revised by the vendor from July; PO amendment to follow',
      },
    });
    expect(after).toMatchObject({ status: 'exception', effectiveStatus: 'overridden', payable: 'yes' });
    expect(after.override).toMatchObject({ userName: 'Match Owner', codes: ['price_variance'] });
    // The invoice flows' workbooks ("Matches" tab) are rewritten on their next download; others are not.
    const stale = await t.db
      .select({ types: flows.types, writtenAt: flows.workbookWrittenAt })
      .from(flows)
      .where(eq(flows.organizationId, owner.membership.organizationId));
    expect(stale.filter((f) => f.types.includes('INVOICE')).every((f) => f.writtenAt === null)).toBe(true);
    // Once is enough: the invoice has nothing left to override.
    expect(await getReconciliation(t.db, owner.membership)).toMatchObject({
      counts: { exceptions: 0, overridden: 1 },
    });
  });

  it("applies the organisation's tolerances, and a vendor's own where set", async () => {
    const status = async () => (await getReconciliation(t.db, owner.membership)).invoices[0]!.status;
    expect(await status()).toBe('exception');
    // 5 % above the PO rate: within a 6 % organisation tolerance.
    await setTolerances(t.db, {
      user: owner.user,
      membership: owner.membership,
      input: { qtyPct: 0, pricePct: 6, amountRupees: 1 },
    });
    expect(await status()).toBe('matched_within_tolerance');
    expect((await getReconciliation(t.db, owner.membership)).tolerances.pricePct).toBe(6);
    // This vendor agreed to 1 %: its own tolerance wins.
    await upsertVendorFromDocument(t.db, owner.membership.organizationId, {
      gstin: VENDOR,
      name: 'Acme Chem',
      stateCode: null,
    });
    const [vendor] = await listVendors(t.db, owner.membership);
    await updateVendor(t.db, {
      user: owner.user,
      membership: owner.membership,
      id: vendor!.id,
      input: {
        tolerances: { qtyPct: null, pricePct: 1, amountRupees: null },
      },
    });
    expect(await status()).toBe('exception');
    expect((await listVendors(t.db, owner.membership))[0]!.tolerances).toEqual({
      qtyPct: null,
      pricePct: 1,
      amountRupees: null,
    });
    // Back to the defaults for the tests after this one.
    await updateVendor(t.db, {
      user: owner.user,
      membership: owner.membership,
      id: vendor!.id,
      input: {
        tolerances: { qtyPct: null, pricePct: null, amountRupees: null },
      },
    });
    await setTolerances(t.db, {
      user: owner.user,
      membership: owner.membership,
      input: { qtyPct: 0, pricePct: 2, amountRupees: 1 },
    });
    expect(await status()).toBe('exception');
    // Another organisation keeps its own (the defaults).
    expect((await getReconciliation(t.db, stranger.membership)).tolerances.pricePct).toBe(2);
  });

  it('runs the MSME payment clock from the goods receipt: agreed days, at most 45, 15 when none agreed', async () => {
    await upsertVendorFromDocument(t.db, owner.membership.organizationId, {
      gstin: VENDOR,
      name: 'Acme Chem',
      stateCode: null,
    });
    const [vendor] = await listVendors(t.db, owner.membership);
    expect(vendor).toMatchObject({ gstin: VENDOR, pan: 'AAACA1234A', documents: 3, invoicedTotal: 5250 });
    const clock = async (now: string) =>
      await getReconciliation(t.db, owner.membership, new Date(`${now}T06:00:00Z`));
    // Not an MSME supplier yet: no clock.
    expect((await clock('2025-08-01')).invoices[0]!.msme).toBeNull();
    await updateVendor(t.db, {
      user: owner.user,
      membership: owner.membership,
      id: vendor!.id,
      input: { msmeUdyam: 'UDYAM-MH-26-0012345' },
    });
    // Nothing agreed in writing: 15 days from acceptance on 10 July.
    let view = await clock('2025-07-20');
    expect(view.invoices[0]!.msme).toEqual({
      udyam: 'UDYAM-MH-26-0012345',
      acceptedOn: '2025-07-10',
      days: 15,
      payBy: '2025-07-25',
      daysLeft: 5,
    });
    expect(view.msmeDue).toEqual([invoiceId]);
    // Sixty days stored (a row saved before the contract refused more than 45): the law still caps it at 45.
    await updateVendor(t.db, {
      user: owner.user,
      membership: owner.membership,
      id: vendor!.id,
      input: { paymentTermsDays: 60 },
    });
    view = await clock('2025-07-20');
    expect(view.invoices[0]!.msme).toMatchObject({ days: 45, payBy: '2025-08-24', daysLeft: 35 });
    expect(view.msmeDue).toEqual([]);
    // Past due shows with days below zero.
    expect((await clock('2025-08-30')).invoices[0]!.msme?.daysLeft).toBe(-6);
    expect((await clock('2025-08-30')).msmeDue).toEqual([invoiceId]);
    // Another organisation cannot touch this vendor.
    await expect(
      updateVendor(t.db, {
        user: stranger.user,
        membership: stranger.membership,
        id: vendor!.id,
        input: { paymentTermsDays: 1 },
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('matches again when a document is corrected, and an override does not cover a new exception', async () => {
    // A person corrects the invoice's PO number to one no PO carries: now it has no PO.
    await correctDocument(
      { db: t.db, env },
      {
        user: owner.user,
        membership: owner.membership,
        id: invoiceId,
        input: {
          fields: { poNumber: 'PO/25-26/0999' },
          lines: [],
        },
      },
    );
    const [invoice] = (await getReconciliation(t.db, owner.membership)).invoices;
    expect(invoice!.reasons.map((r) => r.code)).toContain('no_po');
    expect(invoice).toMatchObject({ effectiveStatus: 'exception', override: null });
    expect(invoice!.overrides).toHaveLength(1);
  });
});
