import { buildPurchaseVoucher, type PurchaseVoucher, readBookInvoice } from '@bahi/compliance';
import { computeGstinCheckChar } from '@bahi/india';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTallyStandIn, type TallyStandIn } from '../../test/tally-stand-in.ts';
import { BooksUnreachableError } from './books-connector.ts';
import { createTallyConnector, readImportAnswer } from './tally-connector.ts';
import { parseXml } from './xml-tree.ts';

// Made-up supplier and figures.

const gstin = (first14: string) => first14 + computeGstinCheckChar(first14);
const VENDOR = gstin('27AABCP1234Q1Z');
const SUPPLIER = gstin('27AAACK4321M1Z');

function voucher(total = 1180, party = 'Pine Stationers'): PurchaseVoucher {
  const result = buildPurchaseVoucher(
    readBookInvoice({
      file: 'a.pdf',
      fields: {
        vendorName: 'Pine Stationers',
        vendorGstin: VENDOR,
        buyerGstin: gstin('27AAECB9876R1Z'),
        documentNumber: 'PS/101',
        documentDate: '2025-06-10',
        taxableValue: 1000,
        cgst: (total - 1000) / 2,
        sgst: (total - 1000) / 2,
        total,
      },
      lineItems: [{ description: 'Paper', amount: 1000, gstRate: 18 }],
    }),
    { ledgers: { parties: { [VENDOR]: party } } },
  );
  if (!result.ok) throw new Error(result.reason);
  return result.voucher;
}

let stand: TallyStandIn;
beforeAll(async () => {
  stand = await startTallyStandIn();
  stand.ledgers.set('Pine Stationers', {
    name: 'Pine Stationers',
    parent: 'Sundry Creditors',
    gstin: VENDOR,
  });
});
afterAll(() => stand.close());

describe('Tally connector against the stand-in', () => {
  it('reads the ledger list with groups and GSTINs', async () => {
    const tally = createTallyConnector({ host: '127.0.0.1', port: stand.port, company: stand.company });
    const ledgers = await tally.listLedgers();
    expect(ledgers.find((l) => l.name === 'Pine Stationers')).toEqual({
      name: 'Pine Stationers',
      parent: 'Sundry Creditors',
      gstin: VENDOR,
    });
    expect(ledgers.some((l) => l.name === 'Input CGST @9%')).toBe(true);
  });

  it('says in words when the company is not open', async () => {
    const tally = createTallyConnector({ host: '127.0.0.1', port: stand.port, company: 'Other Co' });
    await expect(tally.listLedgers()).rejects.toThrow(/SVCurrentCompany/);
  });

  it('says in words when nothing listens', async () => {
    const tally = createTallyConnector({ host: '127.0.0.1', port: 1, company: 'X', timeoutMs: 2000 });
    await expect(tally.listLedgers()).rejects.toBeInstanceOf(BooksUnreachableError);
  });

  it('creates, then alters by REMOTEID, never doubles; cancels', async () => {
    const tally = createTallyConnector({ host: '127.0.0.1', port: stand.port, company: stand.company });
    const first = await tally.pushVoucher(voucher(), 'create');
    expect(first).toMatchObject({ ok: true, counters: { CREATED: 1, ALTERED: 0, ERRORS: 0 } });
    expect(first.voucherId).toMatch(/^\d+$/);
    const again = await tally.pushVoucher(voucher(1180.02), 'alter');
    expect(again).toMatchObject({
      ok: true,
      counters: { CREATED: 0, ALTERED: 1 },
      voucherId: first.voucherId,
    });
    expect(stand.vouchers.size).toBe(1);
    const cancelled = await tally.pushVoucher(voucher(1180.02), 'cancel');
    expect(cancelled).toMatchObject({ ok: true, counters: { CANCELLED: 1 } });
    expect([...stand.vouchers.values()][0]!.cancelled).toBe(true);
  });

  it('refuses an unknown ledger with its LINEERROR', async () => {
    const tally = createTallyConnector({ host: '127.0.0.1', port: stand.port, company: stand.company });
    const answer = await tally.pushVoucher(voucher(1180, 'Nobody & Sons'), 'create');
    expect(answer.ok).toBe(false);
    expect(answer.errors).toEqual(["Could not find Ledger 'Nobody & Sons'"]);
  });

  it('refuses an unbalanced voucher', async () => {
    const tally = createTallyConnector({ host: '127.0.0.1', port: stand.port, company: stand.company });
    const v = voucher();
    v.entries[0]!.amount += 500;
    const answer = await tally.pushVoucher(v, 'create');
    expect(answer.errors[0]).toMatch(/Voucher totals do not match/);
  });

  it('creates party ledgers under Sundry Creditors', async () => {
    const tally = createTallyConnector({ host: '127.0.0.1', port: stand.port, company: stand.company });
    const answer = await tally.createPartyLedgers([
      { name: 'Lotus Freight', gstin: SUPPLIER, state: 'Maharashtra', registrationType: 'Regular' },
    ]);
    expect(answer).toMatchObject({ ok: true, counters: { CREATED: 1 } });
    expect(stand.ledgers.get('Lotus Freight')).toMatchObject({
      parent: 'Sundry Creditors',
      state: 'Maharashtra',
    });
  });
});

describe('reading Tally answers', () => {
  it('reads the ERP 9 RESPONSE layout too', () => {
    const a = readImportAnswer(
      '<RESPONSE><CREATED>0</CREATED><ALTERED>0</ALTERED><LASTVCHID>0</LASTVCHID><ERRORS>1</ERRORS><LINEERROR>Voucher date is missing</LINEERROR></RESPONSE>',
    );
    expect(a).toEqual({
      ok: false,
      counters: { CREATED: 0, ALTERED: 0, ERRORS: 1 },
      voucherId: null,
      errors: ['Voucher date is missing'],
    });
  });

  it('refuses DOCTYPEs and reads entities', () => {
    expect(() => parseXml('<!DOCTYPE x [<!ENTITY a SYSTEM "file:///etc/passwd">]><A>&a;</A>')).toThrow();
    expect(parseXml('<A N="x &amp; y">&lt;b&gt;&#65;</A>')).toMatchObject({
      attrs: { N: 'x & y' },
      text: '<b>A',
    });
  });
});
