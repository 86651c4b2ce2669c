import type { Vendor } from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import { toVendorFormValues, VendorFormSchema, vendorFormMessages } from './vendor-form.ts';

const vendor: Vendor = {
  id: 'v1',
  gstin: '29AAACB1234C1Z5',
  pan: 'AAACB1234C',
  stateCode: '29',
  name: 'Acme Traders',
  displayName: null,
  namesSeen: ['Acme Traders'],
  paymentTermsDays: 30,
  msmeUdyam: null,
  tolerances: { qtyPct: 2, pricePct: null, amountRupees: null },
  documents: 3,
  firstDocumentDate: null,
  lastDocumentDate: null,
  invoicedTotal: 0,
  awaitingReviewTotal: 0,
  awaitingReviewInvoices: 0,
  noPoNeeded: false,
  tds: { section: null, panOperative: true, ldc: null },
  onboarded: false,
  bankHold: false,
};

const messagesOf = (values: unknown) =>
  Object.fromEntries(
    (VendorFormSchema.safeParse(values).error?.issues ?? []).map((i) => [i.path.join('.'), i.message]),
  );

describe('VendorFormSchema', () => {
  it('turns the boxes into the PATCH body: empty clears, the Udyam number is upper-cased', () => {
    const values = {
      ...toVendorFormValues(vendor),
      displayName: '  Acme  ',
      msmeUdyam: ' udyam-mh-26-0012345 ',
      paymentTermsDays: '',
      noPoNeeded: true,
    };
    expect(VendorFormSchema.parse(values)).toEqual({
      displayName: 'Acme',
      paymentTermsDays: null,
      msmeUdyam: 'UDYAM-MH-26-0012345',
      noPoNeeded: true,
      tolerances: { qtyPct: 2, pricePct: null, amountRupees: null },
    });
  });

  it('says what the dialog always said, under the field it concerns', () => {
    expect(
      messagesOf({
        ...toVendorFormValues(vendor),
        paymentTermsDays: '400',
        msmeUdyam: 'MSME-1',
        tolerances: { qtyPct: '150', pricePct: '', amountRupees: '-1' },
      }),
    ).toEqual({
      paymentTermsDays: vendorFormMessages.paymentTermsDays,
      msmeUdyam: 'An Udyam number looks like UDYAM-MH-26-0012345',
      'tolerances.qtyPct': vendorFormMessages.tolerances,
      'tolerances.amountRupees': vendorFormMessages.tolerances,
    });
  });

  it('takes at most 45 agreed days, as the MSMED Act and the server do', () => {
    expect(
      VendorFormSchema.parse({ ...toVendorFormValues(vendor), paymentTermsDays: '45' }).paymentTermsDays,
    ).toBe(45);
    expect(messagesOf({ ...toVendorFormValues(vendor), paymentTermsDays: '60' })).toEqual({
      paymentTermsDays: expect.stringMatching(/^Enter whole days from 0 to 45: the MSMED Act \(section 15\)/),
    });
  });

  it('fills the boxes from the vendor as stored', () => {
    expect(toVendorFormValues(vendor)).toEqual({
      displayName: '',
      paymentTermsDays: '30',
      msmeUdyam: '',
      noPoNeeded: false,
      tolerances: { qtyPct: '2', pricePct: '', amountRupees: '' },
    });
  });
});
