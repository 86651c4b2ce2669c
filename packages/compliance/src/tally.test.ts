import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './sha256.ts';
import { exportTally } from './tally.ts';
import { buildPurchaseVoucher, type PurchaseVoucher, voucherRemoteId } from './tally-voucher.ts';
import { tallyEnvelope } from './tally-xml.ts';
import { type InvoiceSpec, invoice, SUPPLIER, SUPPLIER_MH } from './test-helpers.ts';

function voucherOf(spec: InvoiceSpec, options?: Parameters<typeof buildPurchaseVoucher>[1]): PurchaseVoucher {
  const r = buildPurchaseVoucher(invoice(spec), options);
  if (!r.ok) throw new Error(r.reason);
  return r.voucher;
}
/** Ledger → amount in rupees (Tally's signs), and that the voucher balances to the paisa. */
function entries(v: PurchaseVoucher): Record<string, number> {
  expect(v.entries.reduce((s, e) => s + e.amount, 0)).toBe(0);
  return Object.fromEntries(v.entries.map((e) => [e.ledger, e.amount / 100]));
}
const golden = (name: string, v: PurchaseVoucher) =>
  expect(tallyEnvelope([v])).toMatchFileSnapshot(`./golden/${name}.xml`);

describe('Tally purchase vouchers (golden XML)', () => {
  it('intra-state 18 %: CGST and SGST at 9 %', async () => {
    const v = voucherOf({ number: 'SF/25-26/0101', taxable: 10_000 });
    expect(entries(v)).toEqual({
      'Hesaraghatta Fasteners & Co.': 11_800,
      'Purchase @18%': -10_000,
      'Input CGST @9%': -900,
      'Input SGST @9%': -900,
    });
    expect(v).toMatchObject({ date: '20250814', reference: 'SF/25-26/0101', partyGstin: SUPPLIER });
    await golden('intra-18', v);
  });

  it('inter-state: IGST at the full rate', async () => {
    const v = voucherOf({
      gstin: SUPPLIER_MH,
      pos: '29',
      taxable: 25_000,
      igst: 4500,
      cgst: null,
      sgst: null,
      lines: [{ hsnSac: '84818090', amount: 25_000, gstRate: 18 }],
    });
    expect(entries(v)).toEqual({
      'Hesaraghatta Fasteners & Co.': 29_500,
      'Purchase @18%': -25_000,
      'Input IGST @18%': -4500,
    });
    await golden('inter-igst', v);
  });

  it('mixed rates: each rate’s tax from its lines, what is left of the head total to the highest rate', async () => {
    // 5 %: 1,234.50 × 2.5 % = 30.8625 → 30.86; 12 %: 2,000 × 6 % = 120; 18 % takes the rest of
    // the printed 240.87 (tax worked out on the whole invoice): 90.01, not 1,000 × 9 % = 90.
    const v = voucherOf({
      taxable: 4234.5,
      cgst: 240.87,
      sgst: 240.87,
      roundOff: -0.24,
      lines: [
        { hsnSac: '52021000', amount: 1234.5, gstRate: 5 },
        { hsnSac: '39172390', amount: 1000, gstRate: 18 },
        { hsnSac: '68159990', amount: 2000, gstRate: 12 },
      ],
    });
    expect(entries(v)).toEqual({
      'Hesaraghatta Fasteners & Co.': 4716,
      'Purchase @5%': -1234.5,
      'Input CGST @2.5%': -30.86,
      'Input SGST @2.5%': -30.86,
      'Purchase @12%': -2000,
      'Input CGST @6%': -120,
      'Input SGST @6%': -120,
      'Purchase @18%': -1000,
      'Input CGST @9%': -90.01,
      'Input SGST @9%': -90.01,
      'Round Off': 0.24,
    });
    await golden('mixed-rates', v);
  });

  it('cess on its own ledger, and the company’s ledger names', async () => {
    const ledgers = {
      parties: { [SUPPLIER_MH]: 'Hesaraghatta Fasteners (MH)' },
      purchase: { '28': 'Purchases 28%' },
      igst: { '28': 'IGST Input 28%' },
      cess: 'Compensation Cess Input',
    };
    const v = voucherOf(
      {
        gstin: SUPPLIER_MH,
        taxable: 50_000,
        igst: 14_000,
        cgst: null,
        sgst: null,
        cess: 6000,
        lines: [{ hsnSac: '22021010', amount: 50_000, gstRate: 28 }],
      },
      { ledgers },
    );
    expect(entries(v)).toEqual({
      'Hesaraghatta Fasteners (MH)': 70_000,
      'Purchases 28%': -50_000,
      'IGST Input 28%': -14_000,
      'Compensation Cess Input': -6000,
    });
    await golden('cess-mapped', v);
  });

  it('round-off both ways, and a gap under ₹1 the invoice does not print goes to round-off', async () => {
    const up = voucherOf({ taxable: 1234.56, roundOff: -0.78 }); // 1,456.78 billed as 1,456
    expect(entries(up)['Round Off']).toBe(0.78);
    const down = voucherOf({ taxable: 1234.2, roundOff: 0.44 });
    expect(entries(down)['Round Off']).toBe(-0.44);
    const unprinted = voucherOf({ taxable: 1000, total: 1180.6 });
    expect(entries(unprinted)).toMatchObject({ 'Hesaraghatta Fasteners & Co.': 1180.6, 'Round Off': -0.6 });
    await golden('round-off', up);
  });

  it('discounted lines: the purchase ledger takes the lines’ taxable value after discount', async () => {
    const v = voucherOf({
      taxable: 9000,
      lines: [
        { hsnSac: '73181500', amount: 4500, gstRate: 18, discount: 500 },
        { hsnSac: '73182200', amount: 4500, gstRate: 18, discount: 500 },
      ],
    });
    expect(entries(v)).toEqual({
      'Hesaraghatta Fasteners & Co.': 10_620,
      'Purchase @18%': -9000,
      'Input CGST @9%': -810,
      'Input SGST @9%': -810,
    });
    await golden('discount', v);
  });

  it('a bill of supply (no tax, no rate printed) is booked at 0 %', async () => {
    const v = voucherOf({
      number: 'BOS-17',
      taxable: 8400,
      cgst: null,
      sgst: null,
      lines: [{ hsnSac: '07031010', amount: 8400, gstRate: null }],
    });
    expect(entries(v)).toEqual({ 'Hesaraghatta Fasteners & Co.': 8400, 'Purchase @0%': -8400 });
    await golden('bill-of-supply', v);
  });

  it('an unregistered supplier has no PARTYGSTIN; names are escaped', async () => {
    const v = voucherOf({
      gstin: null,
      vendor: 'Raju <Tools> & "Sons"',
      taxable: 500,
      cgst: null,
      sgst: null,
      lines: [{ amount: 500 }],
    });
    const xml = tallyEnvelope([v]);
    expect(xml).not.toContain('<PARTYGSTIN>');
    expect(xml).toContain('<PARTYLEDGERNAME>Raju &lt;Tools&gt; &amp; &quot;Sons&quot;</PARTYLEDGERNAME>');
    await golden('unregistered', v);
  });
});

describe('invoices Tally must not get', () => {
  it('refuses an invoice that does not add up, with the reason', () => {
    const r = buildPurchaseVoucher(invoice({ taxable: 16_600, total: 17_843 }));
    expect(r).toEqual({
      ok: false,
      reason:
        'amounts do not add up to the total: taxable value + taxes + round-off = ₹19,588.00, total ₹17,843.00',
    });
    // ₹1.00 apart is still written (round-off), ₹1.01 is not
    expect(buildPurchaseVoucher(invoice({ taxable: 1000, total: 1181 })).ok).toBe(true);
    expect(buildPurchaseVoucher(invoice({ taxable: 1000, total: 1181.01 })).ok).toBe(false);
  });

  it('refuses an invoice without number, date or total', () => {
    expect(buildPurchaseVoucher(invoice({ number: null }))).toMatchObject({
      ok: false,
      reason: 'the invoice shows no number',
    });
    expect(buildPurchaseVoucher(invoice({ date: null }))).toMatchObject({
      ok: false,
      reason: 'the invoice shows no date',
    });
    expect(buildPurchaseVoucher(invoice({ total: null }))).toMatchObject({
      ok: false,
      reason: 'the invoice shows no total',
    });
  });

  it('leaves refused invoices out of the export and lists them', () => {
    const out = exportTally([
      invoice({ file: 'bad.pdf', taxable: 100, total: 900 }),
      invoice({ file: 'good.pdf' }),
    ]);
    expect(out.vouchers).toHaveLength(1);
    expect(out.skipped).toEqual([
      { file: 'bad.pdf', documentNumber: 'SF/25-26/0101', reason: expect.stringMatching(/do not add up/) },
    ]);
  });
});

describe('REMOTEID and the TDS seam', () => {
  it('is one for the same supplier, number key and financial year, whatever the file; another otherwise', () => {
    const id = voucherRemoteId(invoice({ number: 'SF/25-26/0101', file: 'a.pdf' }));
    expect(voucherRemoteId(invoice({ number: 'sf-101', file: 'scans/b.jpg' }))).toBe(id);
    expect(voucherRemoteId(invoice({ number: 'SF-102' }))).not.toBe(id);
    expect(voucherRemoteId(invoice({ number: 'SF-101', gstin: SUPPLIER_MH }))).not.toBe(id);
    expect(voucherRemoteId(invoice({ number: 'SF-101', date: '2026-04-14' }))).not.toBe(id);
    expect(id).toMatch(/^bahi-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // both copies of a document booked twice are written with that one id
    const out = exportTally([
      invoice({ file: 'a.pdf' }),
      invoice({ file: 'scans/a.jpg', number: 'SF-0101' }),
    ]);
    expect(out.vouchers.map((v) => v.remoteId)).toEqual([id, id]);
  });

  it('books TDS on its ledger and credits the party with the rest', () => {
    const v = voucherOf({ taxable: 50_000 }, { tds: { ledger: 'TDS Payable 194C', amount: 100_000 } });
    expect(entries(v)).toEqual({
      'Hesaraghatta Fasteners & Co.': 58_000,
      'TDS Payable 194C': 1000,
      'Purchase @18%': -50_000,
      'Input CGST @9%': -4500,
      'Input SGST @9%': -4500,
    });
  });

  it('hashes with SHA-256', () => {
    for (const s of ['', 'abc', 'x'.repeat(55), 'y'.repeat(64), 'ಬಿಲ್ ₹'.repeat(40)])
      expect(sha256Hex(s)).toBe(createHash('sha256').update(s).digest('hex'));
  });
});
