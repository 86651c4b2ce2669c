import { GstSettingsSchema } from '@bahi/contracts';
import { computeGstinCheckChar } from '@bahi/india';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { activities, documents } from '../../db/schema/index.ts';
import { isAppError } from '../../lib/app-error.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { createWorkflow } from '../flows/flows.service.ts';
import { createMember, createTestEnv } from '../flows/test-support.ts';
import { replaceGstins } from '../organizations/organizations.repo.ts';
import {
  decideGstRow,
  getGstReconciliation,
  getGstSettings,
  setGstSettings,
  uploadGstr2b,
} from './gst.service.ts';

// One organisation filing GSTR-2B for two GSTINs (a Maharashtra and a Karnataka unit), made-up suppliers.
const gstin = (first14: string) => first14 + computeGstinCheckChar(first14);
const UNIT_MH = gstin('27AAECM2468B1Z');
const UNIT_KA = gstin('29AAECM2468B1Z');
const ELSEWHERE = gstin('07AAFCZ1122D1Z');
const SUPPLIER = gstin('27AAKFS3579E1Z');

let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;
let owner: Awaited<ReturnType<typeof createMember>>;
let viewer: Awaited<ReturnType<typeof createMember>>;
let flowId: string;
const ids: Record<string, string> = {};

async function insertInvoice(fileName: string, buyerGstin: string, number: string, taxable: number) {
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
          vendorGstin: SUPPLIER,
          vendorName: 'Sahyadri Fasteners',
          buyerGstin,
          documentNumber: number,
          documentDate: '2025-08-11',
          taxableValue: taxable,
          igst: Math.round(taxable * 18) / 100,
          total: Math.round(taxable * 118) / 100,
        },
        lineItems: [],
      },
    })
    .returning();
  return row!.id;
}

/** A GSTR-2B of August 2025 for `buyer`, holding the supplier's documents `[number, taxable]`. */
function make2b(buyer: string, docs: Array<[string, number]>): Uint8Array {
  const inv = docs.map(([inum, txval]) => ({
    inum,
    dt: '11-08-2025',
    val: Math.round(txval * 118) / 100,
    txval,
    igst: Math.round(txval * 18) / 100,
    cgst: 0,
    sgst: 0,
    cess: 0,
  }));
  const json = { data: { gstin: buyer, rtnprd: '082025', docdata: { b2b: [{ ctin: SUPPLIER, inv }] } } };
  return new TextEncoder().encode(JSON.stringify(json));
}

const upload = (bytes: Uint8Array, name: string) =>
  uploadGstr2b(t.db, { env, user: owner.user, membership: owner.membership, file: { name, bytes } });

const view = (gstin?: string) => getGstReconciliation(t.db, owner.membership, { gstin });

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup } = await createTestEnv());
  owner = await createMember(t.db, 'Two Units');
  viewer = await createMember(t.db, 'No Units');
  await replaceGstins(t.db, owner.membership.organizationId, [
    { gstin: UNIT_MH, label: 'Pune plant', stateCode: '27' },
    { gstin: UNIT_KA, label: 'Hosur depot', stateCode: '29' },
  ]);
  const flow = await createWorkflow(t.db, {
    env,
    user: owner.user,
    membership: owner.membership,
    input: {
      name: 'Purchases',
      types: ['INVOICE'],
      io: {
        input: { kind: 'upload', url: '', folderName: '' },
        output: { kind: 'xlsx', sheetId: '', sheetName: 'Purchases' },
      },
    },
  });
  flowId = flow.id;
  ids.mh = await insertInvoice('sf-11.pdf', UNIT_MH, 'SF-11', 10000);
  ids.ka = await insertInvoice('sf-12.pdf', UNIT_KA, 'SF-12', 20000);
  ids.close = await insertInvoice('sf-13.pdf', UNIT_MH, 'SF-13', 30000);
});

afterAll(async () => {
  await t?.close();
  await cleanup?.();
});

describe('GSTR-2B per buyer GSTIN', () => {
  it("matches a GSTIN's 2B only with the invoices billed to that GSTIN", async () => {
    // The supplier filed SF-12 (billed to the Karnataka unit) under the Maharashtra GSTIN by mistake.
    const mh = await upload(
      make2b(UNIT_MH, [
        ['SF-11', 10000],
        ['SF-12', 20000],
        ['SF-13', 30000.5],
      ]),
      'mh.json',
    );
    expect(mh.file).toMatchObject({ gstin: UNIT_MH, ownGstin: true });
    const v = await view();
    expect(v.gstins).toEqual([{ gstin: UNIT_MH, ownGstin: true }]);
    expect(v.gstin).toBe(UNIT_MH);
    expect(v.rows.every((r) => r.buyerGstin === UNIT_MH)).toBe(true);
    const byNumber = new Map(v.rows.map((r) => [r.books?.documentNumber ?? r.gstr2b?.documentNumber, r.tab]));
    expect(byNumber).toEqual(
      new Map([
        ['SF-11', 'matched'],
        ['SF-13', 'within_tolerance'],
        // Not claimed by the invoice billed to the other unit: the Maharashtra 2B holds it, its books do not.
        ['SF-12', 'missing_in_books'],
      ]),
    );
  });

  it("refuses to link an invoice with a document of another GSTIN's 2B, saying why", async () => {
    // Before the Karnataka unit's 2B is in: its invoice waits outside every match.
    const error = await decideGstRow(t.db, {
      user: owner.user,
      membership: owner.membership,
      input: {
        action: 'link',
        documentId: ids.ka!,
        gstr2bKey: `${SUPPLIER}|SF-12|2025-08-11`,
        reason: 'The supplier filed it under the other unit',
      },
    }).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe('conflict');
    expect((error as Error).message).toContain(
      `in the GSTR-2B of ${UNIT_MH}, but the invoice is billed to ${UNIT_KA}`,
    );
  });

  it('matches the other GSTIN on its own once its 2B is uploaded, and shows each by its GSTIN', async () => {
    await upload(make2b(UNIT_KA, [['SF-12', 20000]]), 'ka.json');
    const mh = await view();
    expect(mh.gstins.map((g) => g.gstin)).toEqual([UNIT_MH, UNIT_KA].sort());
    const ka = await view(UNIT_KA);
    expect(ka.gstin).toBe(UNIT_KA);
    expect(ka.rows.map((r) => [r.invoice?.id, r.tab, r.buyerGstin])).toEqual([[ids.ka, 'matched', UNIT_KA]]);
    expect(ka.files.map((f) => f.gstin).sort()).toEqual([UNIT_MH, UNIT_KA].sort());
    // A GSTIN not in the period falls back to the first.
    expect((await view(ELSEWHERE)).gstin).toBe(mh.gstin);
  });

  it("says when a file's GSTIN is not one of the organisation's, and lists it after its own", async () => {
    const other = await upload(make2b(ELSEWHERE, [['SF-99', 500]]), 'elsewhere.json');
    expect(other.file).toMatchObject({ gstin: ELSEWHERE, ownGstin: false });
    const v = await view(ELSEWHERE);
    expect(v.gstins.at(-1)).toEqual({ gstin: ELSEWHERE, ownGstin: false });
    expect(v.gstin).toBe(ELSEWHERE);
    // None of the books is billed to it: only its own documents, missing in books.
    expect(v.rows.map((r) => [r.tab, r.gstr2b?.documentNumber])).toEqual([['missing_in_books', 'SF-99']]);
    // An organisation without GSTINs in its profile cannot tell: null.
    const unknown = await uploadGstr2b(t.db, {
      env,
      user: viewer.user,
      membership: viewer.membership,
      file: { name: 'x.json', bytes: make2b(ELSEWHERE, [['SF-99', 500]]) },
    });
    expect(unknown.file.ownGstin).toBeNull();
  });
});

describe('GSTR-2B amount tolerance', () => {
  const tabOf = async (id: string) => (await view(UNIT_MH)).rows.find((r) => r.invoice?.id === id)?.tab;
  const set = (toleranceRupees: number) =>
    setGstSettings(t.db, { user: owner.user, membership: owner.membership, input: { toleranceRupees } });

  it("is the contract's ₹1.00 until set, and the match follows a change at once", async () => {
    expect(await getGstSettings(t.db, owner.membership)).toEqual({ toleranceRupees: 1 });
    expect((await view(UNIT_MH)).toleranceRupees).toBe(1);
    expect(await tabOf(ids.close!)).toBe('within_tolerance');
    // Nothing tolerated: 50 paise apart is a mismatch, with the difference named.
    expect(await set(0)).toEqual({ toleranceRupees: 0 });
    const strict = (await view(UNIT_MH)).rows.find((r) => r.invoice?.id === ids.close)!;
    expect(strict.tab).toBe('mismatch');
    expect(strict.differences.map((d) => d.field)).toEqual(['taxableValue', 'igst']);
    expect(await tabOf(ids.mh!)).toBe('matched');
    expect(await set(2.5)).toEqual({ toleranceRupees: 2.5 });
    expect((await view(UNIT_MH)).toleranceRupees).toBe(2.5);
    expect(await tabOf(ids.close!)).toBe('within_tolerance');
  });

  it('records who changed it, from what to what, and belongs to the organisation alone', async () => {
    const events = await t.db
      .select()
      .from(activities)
      .where(
        and(
          eq(activities.organizationId, owner.membership.organizationId),
          eq(activities.kind, 'gst.settings'),
        ),
      );
    expect(events.map((e) => e.message)).toEqual(
      expect.arrayContaining(['Two Units set the GSTR-2B amount tolerance from ₹0.00 to ₹2.50']),
    );
    expect(await getGstSettings(t.db, viewer.membership)).toEqual({ toleranceRupees: 1 });
  });

  it('refuses a negative, too large or sub-paisa tolerance with words that say why', () => {
    const error = (v: number) =>
      GstSettingsSchema.safeParse({ toleranceRupees: v }).error?.issues[0]?.message;
    expect(error(-1)).toBe('Cannot be negative');
    expect(error(20000)).toBe('At most ₹10,000');
    expect(error(1.005)).toBe('Rupees and paise only');
    expect(error(12.5)).toBeUndefined();
  });
});
