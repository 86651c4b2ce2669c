import { describe, expect, it } from 'vitest';
import {
  type InvoiceResult,
  type MatchDocument,
  normalizeDocumentNumber,
  type PoResult,
  reconcileDocuments,
} from './reconcile.ts';

const VENDOR = '29AABCT1332L1ZA';

function po(lines: Array<[string, number, number]>, number = 'PO/25-26/0042'): MatchDocument {
  return {
    file: `po-${number}.pdf`,
    documentType: 'po',
    fields: { documentNumber: number, documentDate: '2025-06-01', vendorGstin: VENDOR },
    lineItems: lines.map(([description, quantity, rate]) => ({
      description,
      hsnSac: '8501',
      unit: 'Nos',
      quantity,
      rate,
      amount: quantity * rate,
    })),
  };
}

function grn(
  file: string,
  lines: Array<[string, number, number?]>,
  poNumber = 'PO/25-26/0042',
): MatchDocument {
  return {
    file,
    documentType: 'grn',
    fields: { documentNumber: file, poNumber, vendorGstin: VENDOR },
    lineItems: lines.map(([description, received, accepted]) => ({
      description,
      unit: 'Nos',
      receivedQuantity: received,
      acceptedQuantity: accepted ?? received,
    })),
  };
}

function invoice(
  file: string,
  lines: Array<[string, number, number]>,
  extra: { number?: string; date?: string; poNumber?: string | null; gstin?: string } = {},
): MatchDocument {
  return {
    file,
    documentType: 'invoice',
    fields: {
      documentNumber: extra.number ?? file,
      documentDate: extra.date ?? '2025-07-01',
      vendorGstin: extra.gstin ?? VENDOR,
      poNumber: extra.poNumber === undefined ? 'PO/25-26/0042' : extra.poNumber,
    },
    lineItems: lines.map(([description, quantity, rate]) => ({
      description,
      hsnSac: '8501',
      unit: 'Nos',
      quantity,
      rate,
      amount: quantity * rate,
    })),
  };
}

const invoices = (results: Array<InvoiceResult | PoResult>) =>
  Object.fromEntries(results.filter((r): r is InvoiceResult => r.kind === 'invoice').map((r) => [r.file, r]));
const codes = (r: InvoiceResult) => r.reasons.map((x) => (x.line ? `${x.code}:${x.line}` : x.code));

describe('three-way match', () => {
  it('matches an invoice billing what two receipts accepted, lines in any order', () => {
    const out = reconcileDocuments([
      invoice('inv-1.pdf', [
        ['LED panel 18 W', 10, 100],
        ['Gear motor 0.5 HP', 2, 15000],
      ]),
      po([
        ['Gear motor 0.5 HP', 2, 15000],
        ['LED panel 18 W', 10, 100],
      ]),
      grn('grn-1.pdf', [['Gear motor 0.5 HP', 1]]),
      grn('grn-2.pdf', [
        ['Gear motor 0.5 HP', 1],
        ['LED panel 18 W', 10],
      ]),
    ]);
    const inv = invoices(out)['inv-1.pdf']!;
    expect(inv).toMatchObject({
      status: 'matched',
      shouldBePaid: 'yes',
      matchedGrns: ['grn-1.pdf', 'grn-2.pdf'],
    });
    expect(inv.lines.map((l) => l.poLine)).toEqual([2, 1]);
    expect(out.find((r) => r.kind === 'po')).toMatchObject({ receipt: 'full', billing: 'full' });
  });

  it('bills against accepted, not received, and counts earlier invoices as already billed', () => {
    const docs = [
      po([['Motor', 10, 100]]),
      grn('grn.pdf', [['Motor', 8, 6]]),
      invoice('first.pdf', [['Motor', 4, 100]], { date: '2025-07-01' }),
      invoice('second.pdf', [['Motor', 4, 100]], { date: '2025-07-05' }),
    ];
    const out = invoices(reconcileDocuments(docs));
    expect(out['first.pdf']!.status).toBe('matched');
    expect(codes(out['second.pdf']!)).toEqual(['over_billed:1']);
    expect(out['second.pdf']!.lines[0]).toMatchObject({ billed: 4, received: 6, alreadyBilled: 4 });
    // The same answer whatever order the files come in.
    expect(invoices(reconcileDocuments([...docs].reverse()))).toEqual(out);
  });

  it('tells price variance from a rate within tolerance, and flags lines the PO does not have', () => {
    const docs = [
      po([
        ['Motor', 2, 1000],
        ['Pump', 2, 500],
      ]),
      grn('grn.pdf', [
        ['Motor', 2],
        ['Pump', 2],
      ]),
      invoice('inv.pdf', [
        ['Motor', 2, 1010],
        ['Pump', 2, 550],
        ['Installation charges', 1, 800],
      ]),
    ];
    const inv = invoices(reconcileDocuments(docs))['inv.pdf']!;
    expect(codes(inv)).toEqual(['price_variance:2', 'unmatched_line:3']);
    expect(inv.lines[0]!.status).toBe('matched_within_tolerance');
    expect(inv.shouldBePaid).toBe('exception');
  });

  it("uses a vendor's own tolerances where set, the defaults for everyone else", () => {
    const docs = [
      po([['Pump', 2, 500]]),
      grn('grn.pdf', [['Pump', 2]]),
      invoice('inv.pdf', [['Pump', 2, 540]]),
    ];
    // 8 % above the PO rate: an exception under the default 2 %.
    expect(codes(invoices(reconcileDocuments(docs))['inv.pdf']!)).toEqual(['price_variance:1']);
    const agreed = new Map([[VENDOR, { pricePct: 10 }]]);
    const inv = invoices(reconcileDocuments(docs, undefined, { vendorTolerances: agreed }))['inv.pdf']!;
    expect(inv.status).toBe('matched_within_tolerance');
    // Another vendor's agreement changes nothing here.
    const other = new Map([['27AAACA1234A1ZK', { pricePct: 10 }]]);
    expect(
      codes(invoices(reconcileDocuments(docs, undefined, { vendorTolerances: other }))['inv.pdf']!),
    ).toEqual(['price_variance:1']);
  });

  it('says no receipt, no PO, vendor mismatch and duplicate as the contract names them', () => {
    const out = invoices(
      reconcileDocuments([
        po([['Motor', 2, 1000]]),
        invoice('unreceived.pdf', [['Motor', 2, 1000]]),
        invoice('orphan.pdf', [['Motor', 1, 1000]], { poNumber: 'PO/99/1' }),
        invoice('stranger.pdf', [['Motor', 1, 1000]], { gstin: '27AAPFU0939F1ZV', number: 'S-1' }),
        invoice('z-copy.pdf', [['Motor', 2, 1000]], { number: 'unreceived.pdf' }),
      ]),
    );
    expect(codes(out['unreceived.pdf']!)).toEqual(['no_receipt:1']);
    expect(out['orphan.pdf']).toMatchObject({ matchedPo: null, matchedGrns: [], shouldBePaid: 'no' });
    expect(codes(out['orphan.pdf']!)).toEqual(['no_po']);
    expect(codes(out['stranger.pdf']!)).toContain('vendor_mismatch');
    expect(out['stranger.pdf']!.matchedPo).toBe('po-PO/25-26/0042.pdf');
    expect(out['z-copy.pdf']).toMatchObject({ shouldBePaid: 'no' });
    expect(codes(out['z-copy.pdf']!)).toContain('duplicate_invoice');
  });

  it("follows a person's duplicate decision instead of the date order", () => {
    // The copy carries an earlier date than the original (a misread date): the rule alone holds the original.
    const docs = [
      po([['Motor', 2, 1000]]),
      grn('grn.pdf', [['Motor', 2]]),
      invoice('original.pdf', [['Motor', 2, 1000]], { number: 'A-7', date: '2025-07-05' }),
      invoice('copy.pdf', [['Motor', 2, 1000]], { number: 'A-7', date: '2025-07-01' }),
    ];
    expect(codes(invoices(reconcileDocuments(docs))['original.pdf']!)).toContain('duplicate_invoice');
    const held = invoices(reconcileDocuments(docs, undefined, { duplicates: new Map([['copy.pdf', true]]) }));
    expect(held['original.pdf']).toMatchObject({ status: 'matched', shouldBePaid: 'yes' });
    expect(held['copy.pdf']).toMatchObject({ shouldBePaid: 'no' });
    expect(codes(held['copy.pdf']!)).toContain('duplicate_invoice');
    // "Not a duplicate": both are real invoices, so the second one is over-billed, not a copy.
    const distinct = invoices(
      reconcileDocuments(docs, undefined, { duplicates: new Map([['copy.pdf', false]]) }),
    );
    expect(codes(distinct['copy.pdf']!)).not.toContain('duplicate_invoice');
    expect(codes(distinct['original.pdf']!)).not.toContain('duplicate_invoice');
    expect(codes(distinct['original.pdf']!)).toEqual(['over_billed:1']);
  });

  it('finds the single open PO of the vendor when the invoice names none', () => {
    const out = invoices(
      reconcileDocuments([
        po([['Motor', 2, 1000]]),
        grn('grn.pdf', [['Motor', 2]]),
        {
          ...invoice('unnamed.pdf', [['Motor', 2, 1000]], { poNumber: null }),
          fields: {
            documentNumber: 'U-1',
            documentDate: '2025-07-01',
            vendorGstin: VENDOR,
            poNumber: null,
            taxableValue: 2000,
          },
        },
      ]),
    );
    expect(out['unnamed.pdf']).toMatchObject({ status: 'matched', matchedPo: 'po-PO/25-26/0042.pdf' });
  });

  it("gives a PO whose number was not read the number its vendor's GRN and invoice print", () => {
    const unread = { ...po([['Motor', 2, 1000]]), file: 'scan.pdf' };
    unread.fields = { ...unread.fields, documentNumber: null };
    const out = reconcileDocuments([
      unread,
      grn('grn.pdf', [['Motor', 2]]),
      invoice('inv.pdf', [['Motor', 2, 1000]]),
    ]);
    expect(invoices(out)['inv.pdf']).toMatchObject({
      status: 'matched',
      matchedPo: 'scan.pdf',
      matchedGrns: ['grn.pdf'],
    });
    expect(out.find((r) => r.kind === 'po')).toMatchObject({ receipt: 'full', billing: 'full' });
    // Another vendor's document never claims it.
    const stranger = reconcileDocuments([
      unread,
      invoice('other.pdf', [['Motor', 2, 1000]], { gstin: '27AAPFU0939F1ZV' }),
    ]);
    expect(invoices(stranger)['other.pdf']).toMatchObject({ matchedPo: null, shouldBePaid: 'no' });
  });

  it('normalises PO numbers: case, spaces, separators and leading zeros', () => {
    expect(normalizeDocumentNumber('po/25-26/0323')).toBe(normalizeDocumentNumber('PO 25/26/323'));
    expect(normalizeDocumentNumber('4500012345')).toBe('4500012345');
  });
});
