import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZohoStandIn, type ZohoStandIn } from '../../test/zoho-books-stand-in.ts';
import { BooksUnreachableError } from './books-connector.ts';
import { createZohoBooksConnector, type ZohoBill, zohoUrls } from './zoho-books.ts';

// The Zoho Books client against the loopback stand-in: the parts the service tests do not reach.

let stand: ZohoStandIn;
beforeAll(async () => {
  stand = await startZohoStandIn({
    contacts: [
      { contact_id: 'c-plain', contact_name: 'Neem Supplies' },
      { contact_id: 'c-a', contact_name: 'Twin One', gst_no: '27AAAAA0000A1Z5' },
      { contact_id: 'c-b', contact_name: 'Twin Two', gst_no: '27AAAAA0000A1Z5' },
    ],
  });
});
afterAll(() => stand?.close());

const connector = (overrides: { refreshToken?: string } = {}) =>
  createZohoBooksConnector({
    organizationId: stand.organizationId,
    region: 'in',
    clientId: stand.client.id,
    clientSecret: stand.client.secret,
    refreshToken: overrides.refreshToken ?? stand.client.refreshToken,
    urls: stand.urls,
  });

const bill = (over: Partial<ZohoBill> = {}): ZohoBill => ({
  vendorName: 'Neem Supplies Private Limited',
  vendorGstin: null,
  billNumber: 'NS/1',
  date: '2025-06-10',
  sourceOfSupply: 'MH',
  destinationOfSupply: 'MH',
  lines: [
    { accountId: 'acc-purchases', taxId: 'tax-gst18', description: 'x', hsnOrSac: '4802', amount: 1000 },
  ],
  adjustment: 0,
  total: 1180,
  ...over,
});

describe('Zoho Books client', () => {
  it("reaches each data centre's own API and accounts server", () => {
    expect(zohoUrls('in')).toEqual({
      api: 'https://www.zohoapis.in/books/v3',
      accounts: 'https://accounts.zoho.in',
    });
    expect(zohoUrls('com.au').accounts).toBe('https://accounts.zoho.com.au');
    expect(zohoUrls('ca').api).toBe('https://www.zohoapis.ca/books/v3');
  });

  it('says a refused refresh token in words', async () => {
    const err = await connector({ refreshToken: 'wrong' })
      .listLedgers()
      .catch((e) => e);
    expect(err).toBeInstanceOf(BooksUnreachableError);
    expect(err.message).toMatch(/Zoho refused the refresh token \(invalid_code\)/);
  });

  it('finds an unregistered vendor by name; refuses two vendors with one GSTIN', async () => {
    const made = await connector().pushVoucher(bill(), 'create', { voucherId: null });
    expect(made).toMatchObject({ ok: true, counters: { CREATED: 1 } });
    expect(stand.bills.get(made.voucherId!)).toMatchObject({ vendor_id: 'c-plain', total: 1180 });
    const twins = await connector().pushVoucher(
      bill({ vendorName: 'Twin', vendorGstin: '27AAAAA0000A1Z5', billNumber: 'T/1' }),
      'create',
    );
    expect(twins).toMatchObject({
      ok: false,
      errors: ['2 vendors in Zoho Books carry the GSTIN 27AAAAA0000A1Z5: keep one'],
    });
  });

  it('refuses a bill whose total Zoho works out differently; the retry updates that bill, not a second', async () => {
    const off = await connector().pushVoucher(bill({ billNumber: 'NS/2', total: 1250 }), 'create');
    expect(off.ok).toBe(false);
    expect(off.errors[0]).toMatch(/total of ₹1180\.00 but the invoice says ₹1250\.00/);
    const again = await connector().pushVoucher(bill({ billNumber: 'NS/2' }), 'create', { voucherId: null });
    expect(again).toMatchObject({ ok: true, voucherId: off.voucherId, counters: { ALTERED: 1, FOUND: 1 } });
    expect([...stand.bills.values()].filter((b) => b.bill_number === 'NS/2')).toHaveLength(1);
  });

  it('makes the bill again when the one it knew was deleted in Zoho', async () => {
    const made = await connector().pushVoucher(bill({ billNumber: 'NS/3' }), 'create');
    stand.bills.delete(made.voucherId!);
    const again = await connector().pushVoucher(bill({ billNumber: 'NS/3' }), 'alter', {
      voucherId: made.voucherId,
    });
    expect(again).toMatchObject({ ok: true, counters: { CREATED: 1 } });
    expect(again.voucherId).not.toBe(made.voucherId);
  });
});
