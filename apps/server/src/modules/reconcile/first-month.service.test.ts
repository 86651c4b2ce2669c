import { computeGstinCheckChar } from '@bahi/india';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { documents, organizationGstins } from '../../db/schema/index.ts';
import { isAppError } from '../../lib/app-error.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { getDashboard } from '../dashboard/dashboard.service.ts';
import { approveDocument, correctDocument, getDocumentReview } from '../documents/document-review.service.ts';
import { removeDocument } from '../documents/documents.service.ts';
import { createWorkflow } from '../flows/flows.service.ts';
import { createMember, createTestEnv } from '../flows/test-support.ts';
import { listVendors, updateVendor } from '../vendors/vendors.service.ts';
import { getReconciliation, setFlowNoPo } from './reconcile.service.ts';

// Issue #26: one duplicate decision that Reconcile and every total obey, only verified money counted as
// verified, invoices that need no PO payable once approved, and vendors learned from approved documents.
// Every organisation, vendor and number here is made up.

let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;

const gstin = (first14: string) => first14 + computeGstinCheckChar(first14);
const SUPPLIER = gstin('27AAFCK4321M1Z');
const RENT = gstin('29AAHFR7788Q1Z');
const OWN = gstin('24AABCO5555B1Z');

const line = {
  description: 'Copper wire',
  hsnSac: '7408',
  unit: 'KG',
  quantity: 10,
  rate: 500,
  amount: 5000,
};

type Member = Awaited<ReturnType<typeof createMember>>;

async function newFlow(member: Member, type: 'INVOICE' | 'PO' | 'GRN', name: string) {
  return createWorkflow(t.db, {
    env,
    user: member.user,
    membership: member.membership,
    input: {
      name,
      types: [type],
      io: {
        input: { kind: 'upload', url: '', folderName: '' },
        output: { kind: 'xlsx', sheetId: '', sheetName: name },
      },
    },
  });
}

/** A read document as a run stores it; `status` and `duplicateOf` as the run decided them. */
async function insertRead(
  member: Member,
  flowId: string,
  doc: {
    fileName: string;
    status?: 'done' | 'needs_review';
    failedChecks?: string[];
    duplicateOf?: string;
    extraction: Record<string, unknown>;
  },
): Promise<string> {
  const [row] = await t.db
    .insert(documents)
    .values({
      organizationId: member.membership.organizationId,
      flowId,
      sourceId: doc.fileName,
      contentHash: doc.fileName,
      fileName: doc.fileName,
      status: doc.status ?? 'done',
      failedChecks: doc.failedChecks ?? [],
      duplicateOf: doc.duplicateOf ?? null,
      processedAt: new Date(),
      extraction: {
        contract: 'extraction/v1',
        checks: [],
        confidence: {},
        provenance: {},
        error: null,
        ...doc.extraction,
      },
    })
    .returning();
  return row!.id;
}

const invoiceOf = (fields: Record<string, unknown>, lineItems: Array<Record<string, unknown>> = [line]) => ({
  documentType: 'invoice',
  fields: { vendorGstin: SUPPLIER, vendorName: 'Kiran Cables', taxableValue: 5000, total: 5000, ...fields },
  lineItems,
});

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup } = await createTestEnv());
});

afterAll(async () => {
  await t.close();
  await cleanup();
});

describe('one duplicate decision', () => {
  it('holds the copy Review flagged, never the original, and "not a duplicate" changes what Reconcile does', async () => {
    const owner = await createMember(t.db, 'Dup Owner');
    const ctx = { db: t.db, env };
    const po = await newFlow(owner, 'PO', 'POs');
    const grn = await newFlow(owner, 'GRN', 'GRNs');
    const inv = await newFlow(owner, 'INVOICE', 'Bills');
    await insertRead(owner, po.id, {
      fileName: 'po.pdf',
      extraction: {
        documentType: 'po',
        fields: { documentNumber: 'PO-1', documentDate: '2025-06-01', vendorGstin: SUPPLIER },
        lineItems: [{ ...line, quantity: 20, amount: 10000 }],
      },
    });
    await insertRead(owner, grn.id, {
      fileName: 'grn.pdf',
      extraction: {
        documentType: 'grn',
        fields: { documentNumber: 'G-1', poNumber: 'PO-1', vendorGstin: SUPPLIER },
        lineItems: [{ description: 'Copper wire', unit: 'KG', receivedQuantity: 10, acceptedQuantity: 10 }],
      },
    });
    const original = await insertRead(owner, inv.id, {
      fileName: 'kc-14.pdf',
      extraction: invoiceOf({ documentNumber: 'KC/14', documentDate: '2025-07-05', poNumber: 'PO-1' }),
    });
    // The copy was read later but carries an earlier date: the match's own rule would hold the original.
    const copy = await insertRead(owner, inv.id, {
      fileName: 'kc-14-again.pdf',
      status: 'needs_review',
      failedChecks: ['possible_duplicate'],
      duplicateOf: original,
      extraction: invoiceOf({ documentNumber: 'KC/14', documentDate: '2025-07-01', poNumber: 'PO-1' }),
    });

    const held = await getReconciliation(t.db, owner.membership);
    const byId = (view: typeof held, id: string) => view.invoices.find((i) => i.invoice.id === id)!;
    expect(byId(held, original)).toMatchObject({ status: 'matched', payable: 'yes', copyOf: null });
    expect(byId(held, copy)).toMatchObject({ payable: 'no', copyOf: { id: original } });
    expect(byId(held, copy).reasons.map((r) => r.code)).toEqual(['duplicate_invoice']);
    expect(byId(held, copy).reasons[0]!.message).toMatch(/copy of KC\/14.*Review/);
    // Undecided copies count in no total: only the original's ₹5,000, verified.
    expect(held.totals).toEqual({
      verified: 5000,
      awaitingReview: 0,
      verifiedCount: 1,
      awaitingReviewCount: 0,
    });
    expect(held.counts.heldCopies).toBe(1);
    const dash = await getDashboard(t.db, owner.membership.organizationId, 10);
    expect(dash.stats).toMatchObject({
      documentsVerified: 3,
      documentsAwaitingReview: 0,
      costSavingsInr: 30,
    });

    // A person says it is not a duplicate: both are real invoices, so the second is billed beyond receipt.
    await approveDocument(ctx, { user: owner.user, membership: owner.membership, id: copy });
    const [row] = await t.db.select().from(documents).where(eq(documents.id, copy));
    expect(row!.duplicateDecision).toBe('not_duplicate');
    const decided = await getReconciliation(t.db, owner.membership);
    expect(byId(decided, copy).copyOf).toBeNull();
    expect(byId(decided, copy).reasons.map((r) => r.code)).not.toContain('duplicate_invoice');
    expect(byId(decided, original).reasons.map((r) => r.code)).toEqual(['over_billed']);
    expect(decided.totals).toMatchObject({ verified: 10000, verifiedCount: 2 });
    // The decision outlives a later correction (the approval lapses, the copy is not held again).
    await correctDocument(ctx, {
      user: owner.user,
      membership: owner.membership,
      id: copy,
      input: { fields: { total: '5,001' }, lines: [] },
    });
    const review = await getDocumentReview(t.db, { env, membership: owner.membership, id: copy });
    expect(review.duplicateOf).toBeNull();
    const corrected = await getReconciliation(t.db, owner.membership);
    expect(byId(corrected, copy)).toMatchObject({ copyOf: null, verified: false });
    expect(corrected.totals).toEqual({
      verified: 5000,
      awaitingReview: 5001,
      verifiedCount: 1,
      awaitingReviewCount: 1,
    });
  });

  it('removing a flagged copy records the decision "duplicate" and leaves the original paid', async () => {
    const owner = await createMember(t.db, 'Dup Remover');
    const inv = await newFlow(owner, 'INVOICE', 'Bills');
    const original = await insertRead(owner, inv.id, {
      fileName: 'a.pdf',
      extraction: invoiceOf({ documentNumber: 'R-1', documentDate: '2025-08-01', poNumber: null }),
    });
    const copy = await insertRead(owner, inv.id, {
      fileName: 'b.pdf',
      status: 'needs_review',
      failedChecks: ['possible_duplicate'],
      duplicateOf: original,
      extraction: invoiceOf({ documentNumber: 'R-1', documentDate: '2025-08-01', poNumber: null }),
    });
    const [vendorBefore] = await listVendors(t.db, owner.membership);
    expect(vendorBefore).toBeUndefined();
    await removeDocument(t.db, { user: owner.user, membership: owner.membership, id: copy });
    const [row] = await t.db.select().from(documents).where(eq(documents.id, copy));
    expect(row).toMatchObject({ status: 'removed', duplicateDecision: 'duplicate' });
    const view = await getReconciliation(t.db, owner.membership);
    expect(view.invoices.map((i) => i.invoice.id)).toEqual([original]);
  });
});

describe('invoices that need no purchase order', () => {
  it('read "No PO — needs approval" for a marked vendor or flow and are payable once approved', async () => {
    const owner = await createMember(t.db, 'Rent Payer');
    const ctx = { db: t.db, env };
    const bills = await newFlow(owner, 'INVOICE', 'Bills');
    const travel = await newFlow(owner, 'INVOICE', 'Travel');
    const rent = await insertRead(owner, bills.id, {
      fileName: 'rent-aug.pdf',
      extraction: invoiceOf({
        vendorGstin: RENT,
        vendorName: 'Lotus Estates',
        documentNumber: 'LE/8',
        documentDate: '2025-08-01',
        poNumber: null,
      }),
    });
    const goods = await insertRead(owner, bills.id, {
      fileName: 'goods.pdf',
      extraction: invoiceOf({ documentNumber: 'KC/20', documentDate: '2025-08-02', poNumber: null }),
    });
    const flight = await insertRead(owner, travel.id, {
      fileName: 'flight.pdf',
      extraction: invoiceOf({
        vendorGstin: gstin('07AAGCS1234D1Z'),
        vendorName: 'Sky Air',
        documentNumber: 'T-3',
        documentDate: '2025-08-03',
        poNumber: null,
      }),
    });
    const find = async (id: string) =>
      (await getReconciliation(t.db, owner.membership)).invoices.find((i) => i.invoice.id === id)!;
    // Unmarked: the contract's verdict stands.
    expect(await find(rent)).toMatchObject({
      status: 'exception',
      effectiveStatus: 'exception',
      payable: 'no',
    });

    await approveDocument(ctx, { user: owner.user, membership: owner.membership, id: rent });
    const vendor = (await listVendors(t.db, owner.membership)).find((v) => v.gstin === RENT)!;
    await updateVendor(t.db, {
      user: owner.user,
      membership: owner.membership,
      id: vendor.id,
      input: { noPoNeeded: true },
    });
    await setFlowNoPo(t.db, {
      user: owner.user,
      membership: owner.membership,
      input: { flowId: travel.id, noPoNeeded: true },
    });
    // The flow's invoice waits for a person; the vendor's, approved in Review, is payable.
    expect(await find(flight)).toMatchObject({
      shouldBePaid: 'no',
      effectiveStatus: 'no_po_needs_approval',
      payable: 'exception',
    });
    expect(await find(rent)).toMatchObject({ effectiveStatus: 'no_po_approved', payable: 'yes' });
    await approveDocument(ctx, { user: owner.user, membership: owner.membership, id: flight });
    expect(await find(flight)).toMatchObject({ effectiveStatus: 'no_po_approved', payable: 'yes' });
    // The three-way match still applies to the rest.
    expect(await find(goods)).toMatchObject({ effectiveStatus: 'exception', payable: 'no' });
    // Another organisation cannot mark this one's flow.
    const stranger = await createMember(t.db, 'Rent Stranger');
    const refused = await setFlowNoPo(t.db, {
      user: stranger.user,
      membership: stranger.membership,
      input: { flowId: bills.id, noPoNeeded: true },
    }).catch((e: unknown) => e);
    expect(isAppError(refused, 'not_found')).toBe(true);
  });
});

describe('vendors from approved documents', () => {
  it("learns a vendor only when a document is approved, with a person's corrected name, never the organisation", async () => {
    const owner = await createMember(t.db, 'Master Keeper');
    const ctx = { db: t.db, env };
    await t.db
      .insert(organizationGstins)
      .values({ organizationId: owner.membership.organizationId, gstin: OWN, stateCode: '24' });
    const inv = await newFlow(owner, 'INVOICE', 'Bills');
    const misread = await insertRead(owner, inv.id, {
      fileName: 'misread.pdf',
      status: 'needs_review',
      failedChecks: ['missing:vendorName'],
      extraction: invoiceOf({
        vendorName: 'Legal Name',
        documentNumber: 'KC/31',
        documentDate: '2025-09-01',
      }),
    });
    // The buyer's own GSTIN read where the vendor's should be.
    const ownAsVendor = await insertRead(owner, inv.id, {
      fileName: 'own.pdf',
      status: 'needs_review',
      failedChecks: ['missing:documentDate'],
      extraction: invoiceOf({ vendorGstin: OWN, documentNumber: 'X-1', documentDate: null }),
    });
    expect(await listVendors(t.db, owner.membership)).toEqual([]);
    expect((await getDashboard(t.db, owner.membership.organizationId, 10)).stats).toMatchObject({
      vendorsOnboarded: 0,
      documentsVerified: 0,
      documentsAwaitingReview: 2,
      costSavingsInr: 0,
    });

    await correctDocument(ctx, {
      user: owner.user,
      membership: owner.membership,
      id: misread,
      input: { fields: { vendorName: 'Kiran Cables Pvt Ltd' }, lines: [] },
    });
    // Corrected but not approved: still not in the master.
    expect(await listVendors(t.db, owner.membership)).toEqual([]);
    await approveDocument(ctx, { user: owner.user, membership: owner.membership, id: misread });
    // Approving over a failed check needs a note, on the server too.
    const refused = await approveDocument(ctx, {
      user: owner.user,
      membership: owner.membership,
      id: ownAsVendor,
      input: {},
    }).catch((e: unknown) => e);
    expect(isAppError(refused, 'validation')).toBe(true);
    const approved = await approveDocument(ctx, {
      user: owner.user,
      membership: owner.membership,
      id: ownAsVendor,
      input: { note: 'Date checked against the register' },
    });
    expect(approved.events.at(-1)).toMatchObject({
      kind: 'approved',
      newValue: 'Date checked against the register',
    });
    const vendors = await listVendors(t.db, owner.membership);
    expect(vendors.map((v) => [v.gstin, v.name, v.invoicedTotal])).toEqual([
      [SUPPLIER, 'Kiran Cables Pvt Ltd', 5000],
    ]);
    expect((await getDashboard(t.db, owner.membership.organizationId, 10)).stats.vendorsOnboarded).toBe(1);
  });
});

describe('line rows a person can fix', () => {
  it('deletes a row that is not an item and adds an empty one, each kept in the trail', async () => {
    const owner = await createMember(t.db, 'Line Fixer');
    const inv = await newFlow(owner, 'INVOICE', 'Bills');
    const id = await insertRead(owner, inv.id, {
      fileName: 'lines.pdf',
      extraction: invoiceOf({ documentNumber: 'L-1', documentDate: '2025-09-05' }, [
        line,
        { description: 'ACCOUNT CLOSED', quantity: null, rate: null, amount: 86894 },
      ]),
    });
    const review = await correctDocument(
      { db: t.db, env },
      {
        user: owner.user,
        membership: owner.membership,
        id,
        input: { fields: {}, lines: [], deleteLines: [2], addLines: 1 },
      },
    );
    const items = (review.document.extraction as { lineItems: Array<Record<string, unknown>> }).lineItems;
    expect(items.map((l) => l.description ?? null)).toEqual(['Copper wire', null]);
    // Both saved in one transaction (one timestamp): compared without their order.
    const trail = review.events.map((e) => [e.field, e.oldValue, e.newValue]);
    expect(trail).toHaveLength(2);
    expect(trail).toEqual(
      expect.arrayContaining([
        ['lineItems.2', 'ACCOUNT CLOSED', null],
        ['lineItems.2', null, 'added'],
      ]),
    );
  });
});
