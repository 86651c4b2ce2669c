import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { computeGstinCheckChar } from '@bahi/india';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { documents } from '../../db/schema/index.ts';
import { isAppError } from '../../lib/app-error.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { correctDocument } from '../documents/document-review.service.ts';
import { createWorkflow } from '../flows/flows.service.ts';
import { createMember, createTestEnv } from '../flows/test-support.ts';
import { decideGstRow, getGstReconciliation, uploadGstr2b } from './gst.service.ts';
import { exportGst } from './gst-export.ts';

// Made-up suppliers: GSTINs built with a valid check character, names nobody uses.
const gstin = (first14: string) => first14 + computeGstinCheckChar(first14);
const KESAR = gstin('27AAQFK4321M1Z'); // same state as the buyer
const NILGIRI = gstin('29AAHCN9876P1Z');
const TAPTI = gstin('24AAJCT2468R1Z');
const BUYER = gstin('27AABCB1357Q1Z');

let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;
let owner: Awaited<ReturnType<typeof createMember>>;
let stranger: Awaited<ReturnType<typeof createMember>>;
let flowId: string;
const ids: Record<string, string> = {};

async function insertInvoice(fileName: string, fields: Record<string, unknown>): Promise<string> {
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
        fields: { buyerGstin: BUYER, ...fields },
        lineItems: [],
      },
    })
    .returning();
  return row!.id;
}

/** A GSTR-2B JSON as the portal gives it; `itemised` puts amounts per rate in `items[]`. */
function make2b(
  period: string,
  suppliers: Array<{ ctin: string; trdnm: string; inv: Array<Record<string, unknown>> }>,
  itemised = false,
): Uint8Array {
  const shape = (inv: Record<string, unknown>) => {
    if (!itemised) return inv;
    const { txval, igst, cgst, sgst, cess, ...rest } = inv;
    return { ...rest, items: [{ rt: 18, txval, igst, cgst, sgst, cess }] };
  };
  const json = {
    data: {
      gstin: BUYER,
      rtnprd: period,
      docdata: { b2b: suppliers.map((s) => ({ ...s, inv: s.inv.map(shape) })) },
    },
  };
  return new TextEncoder().encode(JSON.stringify(json));
}

const AUGUST = make2b('082025', [
  {
    ctin: KESAR,
    trdnm: 'Kesar Packaging',
    inv: [
      // Matched exactly.
      {
        inum: 'KP/25-26/0101',
        dt: '04-08-2025',
        val: 11800,
        pos: '27',
        txval: 10000,
        igst: 0,
        cgst: 900,
        sgst: 900,
        cess: 0,
      },
      // Within tolerance (50 paise on the taxable value).
      {
        inum: 'KP/25-26/0102',
        dt: '06-08-2025',
        val: 5900.5,
        pos: '27',
        txval: 5000.5,
        igst: 0,
        cgst: 450,
        sgst: 450,
        cess: 0,
      },
      // Mismatch: the supplier filed ₹200 more.
      {
        inum: 'KP/25-26/0103',
        dt: '09-08-2025',
        val: 23836,
        pos: '27',
        txval: 20200,
        igst: 0,
        cgst: 1818,
        sgst: 1818,
        cess: 0,
      },
      // Missing in books.
      {
        inum: 'KP/25-26/0109',
        dt: '20-08-2025',
        val: 3540,
        pos: '27',
        txval: 3000,
        igst: 0,
        cgst: 270,
        sgst: 270,
        cess: 0,
      },
    ],
  },
  {
    ctin: NILGIRI,
    trdnm: '=HYPERLINK("x")',
    // Probable: another number, same amounts, two days apart.
    inv: [
      {
        inum: 'NT-7781',
        dt: '12-08-2025',
        val: 47200,
        pos: '27',
        txval: 40000,
        igst: 7200,
        cgst: 0,
        sgst: 0,
        cess: 0,
      },
    ],
  },
]);

const invoice = (
  number: string,
  date: string,
  taxable: number,
  tax: { igst?: number; cgst?: number; sgst?: number },
) => ({
  documentNumber: number,
  documentDate: date,
  taxableValue: taxable,
  igst: tax.igst ?? 0,
  cgst: tax.cgst ?? 0,
  sgst: tax.sgst ?? 0,
  total: taxable + (tax.igst ?? 0) + (tax.cgst ?? 0) + (tax.sgst ?? 0),
});

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup } = await createTestEnv());
  owner = await createMember(t.db, 'Gst Owner');
  stranger = await createMember(t.db, 'Gst Stranger');
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
  const kesar = { vendorGstin: KESAR, vendorName: 'Kesar Packaging', placeOfSupply: '27' };
  ids.matched = await insertInvoice('kp-101.pdf', {
    ...kesar,
    ...invoice('KP/2025-26/101', '2025-08-04', 10000, { cgst: 900, sgst: 900 }),
  });
  ids.within = await insertInvoice('kp-102.pdf', {
    ...kesar,
    ...invoice('KP-102', '2025-08-06', 5000, { cgst: 450, sgst: 450 }),
  });
  ids.mismatch = await insertInvoice('kp-103.pdf', {
    ...kesar,
    ...invoice('KP/25-26/0103', '2025-08-09', 20000, { cgst: 1800, sgst: 1800 }),
  });
  ids.probable = await insertInvoice('nt-81.pdf', {
    vendorGstin: NILGIRI,
    vendorName: 'Nilgiri Traders',
    ...invoice('NT-0081', '2025-08-10', 40000, { igst: 7200 }),
  });
  ids.missing = await insertInvoice('tp-5.pdf', {
    vendorGstin: TAPTI,
    vendorName: 'Tapti Tools',
    ...invoice('TT/55', '2025-08-18', 8000, { igst: 1440 }),
  });
});

afterAll(async () => {
  await t?.close();
  await cleanup?.();
});

const upload = (bytes: Uint8Array, member = owner, name = 'GSTR2B_082025.json') =>
  uploadGstr2b(t.db, { env, user: member.user, membership: member.membership, file: { name, bytes } });

const rowOf = async (documentId: string) =>
  (await getGstReconciliation(t.db, owner.membership, { period: '082025' })).rows.find(
    (r) => r.invoice?.id === documentId,
  )!;

describe('GSTR-2B upload', () => {
  it('refuses a file that is not a GSTR-2B, with a message saying so', async () => {
    for (const bytes of [
      new TextEncoder().encode('not json at all'),
      new TextEncoder().encode('{"data":{"x":1}}'),
    ]) {
      const error = await upload(bytes).catch((e: unknown) => e);
      expect(isAppError(error) && error.code).toBe('validation');
      expect((error as Error).message).toMatch(/not a GSTR-2B/);
    }
    expect((await getGstReconciliation(t.db, owner.membership)).periods).toEqual([]);
  });

  it('keeps the file, and the same bytes uploaded again change nothing', async () => {
    const first = await upload(AUGUST);
    expect(first.created).toBe(true);
    expect(first.file).toMatchObject({ period: '082025', gstin: BUYER, documents: 5, current: true });
    const again = await upload(AUGUST, owner, 'renamed copy.json');
    expect(again).toEqual({ file: first.file, created: false });
    const view = await getGstReconciliation(t.db, owner.membership);
    expect(view.periods).toEqual(['082025']);
    expect(view.files).toHaveLength(1);
    // The bytes are kept as uploaded.
    const kept = await readFile(
      join(env.dataDir, 'gstr2b', owner.membership.organizationId, `${first.file.sha256}.json`),
    );
    expect(new Uint8Array(kept)).toEqual(AUGUST);
  });
});

describe('GSTR-2B matched against the purchase register', () => {
  it('puts each invoice and 2B document in its tab with counts and ITC at stake', async () => {
    const view = await getGstReconciliation(t.db, owner.membership);
    const tabOf = (id: string) => view.rows.find((r) => r.invoice?.id === id)?.tab;
    expect(tabOf(ids.matched!)).toBe('matched');
    expect(tabOf(ids.within!)).toBe('within_tolerance');
    expect(tabOf(ids.mismatch!)).toBe('mismatch');
    expect(tabOf(ids.probable!)).toBe('probable');
    expect(tabOf(ids.missing!)).toBe('missing_in_2b');
    const counts = Object.fromEntries(view.tabs.map((x) => [x.tab, [x.count, x.itc]]));
    expect(counts).toEqual({
      matched: [1, 1800],
      within_tolerance: [1, 900],
      mismatch: [1, 3600],
      probable: [1, 7200],
      missing_in_2b: [1, 1440],
      missing_in_books: [1, 540],
    });
    const mismatch = view.rows.find((r) => r.invoice?.id === ids.mismatch)!;
    expect(mismatch.differences.map((d) => d.field)).toEqual(['taxableValue', 'cgst', 'sgst']);
    expect(mismatch.ims).toBe('pending');
    expect(view.rows.find((r) => r.tab === 'missing_in_books')).toMatchObject({
      vendorName: 'Kesar Packaging',
      gstr2b: { documentNumber: 'KP/25-26/0109', period: '082025' },
    });
    const kesar = view.suppliers.find((s) => s.pan === KESAR.slice(2, 12))!;
    expect(kesar.counts).toMatchObject({ matched: 1, within_tolerance: 1, mismatch: 1, missing_in_books: 1 });
    expect(kesar.itcAtRisk).toBe(4140);
  });

  it('reads the itemised shape of the portal the same way', async () => {
    const other = await createMember(t.db, 'Gst Itemised');
    const bytes = make2b(
      '092025',
      [
        {
          ctin: KESAR,
          trdnm: 'Kesar Packaging',
          inv: [
            {
              inum: 'Q-1',
              dt: '01-09-2025',
              val: 118,
              pos: '27',
              txval: 100,
              igst: 0,
              cgst: 9,
              sgst: 9,
              cess: 0,
            },
          ],
        },
      ],
      true,
    );
    await upload(bytes, other);
    const view = await getGstReconciliation(t.db, other.membership);
    expect(view.rows.map((r) => [r.tab, r.gstr2b?.taxableValue, r.itc])).toEqual([
      ['missing_in_books', 100, 18],
    ]);
  });

  it('is scoped to the organisation: another one sees none of it and cannot decide on it', async () => {
    const view = await getGstReconciliation(t.db, stranger.membership);
    expect(view).toMatchObject({ periods: [], period: null, rows: [] });
    const error = await decideGstRow(t.db, {
      user: stranger.user,
      membership: stranger.membership,
      input: {
        action: 'accept',
        documentId: ids.mismatch!,
        gstr2bKey: `${KESAR}|KP/25-26/0103|2025-08-09`,
        reason: 'Looks fine to me, really',
      },
    }).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe('not_found');
  });

  it('matches again when an invoice is corrected', async () => {
    expect((await rowOf(ids.mismatch!)).tab).toBe('mismatch');
    await correctDocument(
      { db: t.db, env },
      {
        user: owner.user,
        membership: owner.membership,
        id: ids.mismatch!,
        input: { fields: { taxableValue: '20200', cgst: '1818', sgst: '1818', total: '23836' }, lines: [] },
      },
    );
    expect(await rowOf(ids.mismatch!)).toMatchObject({
      tab: 'matched',
      status: 'matched',
      ims: 'accept',
      differences: [],
    });
    // Put it back as it was read, for the tests below.
    await correctDocument(
      { db: t.db, env },
      {
        user: owner.user,
        membership: owner.membership,
        id: ids.mismatch!,
        input: { fields: { taxableValue: '20000', cgst: '1800', sgst: '1800', total: '23600' }, lines: [] },
      },
    );
    expect((await rowOf(ids.mismatch!)).tab).toBe('mismatch');
  });
});

describe('decisions with a written reason', () => {
  const decide = (input: Parameters<typeof decideGstRow>[1]['input']) =>
    decideGstRow(t.db, { user: owner.user, membership: owner.membership, input });

  it('accepts a difference, and the acceptance lapses when the difference changes', async () => {
    const key = (await rowOf(ids.mismatch!)).gstr2b!.key;
    const accepted = await decide({
      action: 'accept',
      documentId: ids.mismatch!,
      gstr2bKey: key,
      reason: 'Freight added by supplier, credit note promised',
    });
    expect(accepted).toMatchObject({
      tab: 'matched',
      decided: 'accepted',
      ims: 'accept',
      status: 'mismatch',
    });
    expect(accepted.decisions).toMatchObject([
      { action: 'accept', userName: 'Gst Owner', reason: 'Freight added by supplier, credit note promised' },
    ]);
    await correctDocument(
      { db: t.db, env },
      {
        user: owner.user,
        membership: owner.membership,
        id: ids.mismatch!,
        input: { fields: { taxableValue: '19000' }, lines: [] },
      },
    );
    expect(await rowOf(ids.mismatch!)).toMatchObject({ tab: 'mismatch', decided: null });
  });

  it('refuses a decision the row does not allow', async () => {
    const key = (await rowOf(ids.matched!)).gstr2b!.key;
    const error = await decide({
      action: 'accept',
      documentId: ids.matched!,
      gstr2bKey: key,
      reason: 'Nothing to accept here at all',
    }).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe('conflict');
  });

  it('links and unlinks, keeping the history with who and when', async () => {
    const view = await getGstReconciliation(t.db, owner.membership);
    const orphan = view.rows.find((r) => r.tab === 'missing_in_books')!.gstr2b!.key;
    const linked = await decide({
      action: 'link',
      documentId: ids.missing!,
      gstr2bKey: orphan,
      reason: 'Supplier filed under its sister unit by mistake',
    });
    expect(linked).toMatchObject({ decided: 'linked', status: 'mismatch', gstr2b: { key: orphan } });
    expect(linked.differences.map((d) => d.field)).toContain('vendorGstin');
    let after = await getGstReconciliation(t.db, owner.membership);
    expect(after.tabs.find((x) => x.tab === 'missing_in_books')!.count).toBe(0);

    const unlinked = await decide({
      action: 'unlink',
      documentId: ids.missing!,
      gstr2bKey: orphan,
      reason: 'Wrong pair, the supplier confirmed on call',
    });
    expect(unlinked).toMatchObject({ tab: 'missing_in_2b', gstr2b: null });
    expect(unlinked.decisions.map((d) => [d.action, d.userName])).toEqual([
      ['link', 'Gst Owner'],
      ['unlink', 'Gst Owner'],
    ]);
    expect(unlinked.decisions.every((d) => !Number.isNaN(Date.parse(d.at)))).toBe(true);

    // An automatic pair a person took apart stays apart.
    const probableKey = (await rowOf(ids.probable!)).gstr2b!.key;
    await decide({
      action: 'unlink',
      documentId: ids.probable!,
      gstr2bKey: probableKey,
      reason: 'Different order, amounts only look alike',
    });
    after = await getGstReconciliation(t.db, owner.membership);
    expect(after.rows.find((r) => r.invoice?.id === ids.probable)).toMatchObject({
      tab: 'missing_in_2b',
      decided: 'unlinked',
    });
    expect(after.rows.some((r) => r.key === `g:${probableKey}`)).toBe(true);
  });

  it('exports every tab and the IMS list, with text defused against formulas', async () => {
    const all = await exportGst(t.db, { env, membership: owner.membership, period: '082025' });
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(all.path);
    expect(book.worksheets.map((w) => w.name)).toEqual([
      'Matched',
      'Within tolerance',
      'Mismatch',
      'Probable',
      'Missing in 2B',
      'Missing in books',
      'Suppliers',
      'IMS Actions',
    ]);
    const ims = await exportGst(t.db, { env, membership: owner.membership, period: '082025', only: 'ims' });
    const imsBook = new ExcelJS.Workbook();
    await imsBook.xlsx.readFile(ims.path);
    const sheet = imsBook.worksheets[0]!;
    expect(sheet.name).toBe('IMS Actions');
    const values = sheet.getSheetValues().slice(2) as unknown[][];
    expect(values).toHaveLength(5);
    const names = values.map((v) => v[2]);
    expect(names).toContain(`'=HYPERLINK("x")`);
    expect(values.map((v) => v[11]).sort()).toEqual(['Accept', 'Accept', 'Pending', 'Pending', 'Pending']);
    await rm(all.path);
    await rm(ims.path);
  });
});
