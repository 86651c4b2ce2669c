import { describe, expect, it } from 'vitest';
import {
  acceptanceOf,
  bankRateOn,
  computeMsme,
  form1Rows,
  type MsmeInvoiceInput,
  type MsmePayment,
  type MsmeRegistration,
  msmeCoverage,
  msmeInterest,
  msmePaymentDays,
  section43bhRows,
} from './msme.ts';

// Made-up suppliers, amounts and dates throughout.

const reg = (financialYear: number, over: Partial<MsmeRegistration> = {}): MsmeRegistration => ({
  financialYear,
  udyam: 'UDYAM-KA-03-0001234',
  category: 'micro',
  activity: 'manufacturing',
  writtenAgreement: false,
  agreedDays: null,
  ...over,
});

const inv = (
  id: string,
  date: string,
  amountPaise: number,
  over: Partial<MsmeInvoiceInput> = {},
): MsmeInvoiceInput => ({
  id,
  vendorId: 'v1',
  invoiceDate: date,
  grnDate: date,
  amountPaise,
  objections: [],
  ...over,
});

let paymentSeq = 0;
const pay = (date: string, amountPaise: number, over: Partial<MsmePayment> = {}): MsmePayment => ({
  id: `p${++paymentSeq}`,
  vendorId: 'v1',
  invoiceId: null,
  date,
  amountPaise,
  ...over,
});

/** A bank rate of 6% in force long before any invoice here. */
const RATE_6 = [{ from: '2020-01-01', pct: 6 }];

const regs = (...list: Array<[string, MsmeRegistration]>) => {
  const map = new Map<string, MsmeRegistration[]>();
  for (const [v, r] of list) map.set(v, [...(map.get(v) ?? []), r]);
  return map;
};

describe('coverage', () => {
  it('covers micro and small manufacturers and service providers', () => {
    expect(msmeCoverage(reg(2025), 2025)).toEqual({ covered: true, reason: null });
    expect(msmeCoverage(reg(2025, { category: 'small', activity: 'services' }), 2025).covered).toBe(true);
  });

  it('shows medium enterprises, traders and unregistered vendors as not covered, saying why', () => {
    expect(msmeCoverage(reg(2025, { category: 'medium' }), 2025)).toEqual({
      covered: false,
      reason: expect.stringMatching(/Medium enterprise/),
    });
    expect(msmeCoverage(reg(2025, { category: 'small', activity: 'trading' }), 2025).reason).toMatch(
      /Trader/,
    );
    expect(msmeCoverage(undefined, 2025).reason).toBe('No MSME category recorded for 2025-26');
  });
});

describe('due date', () => {
  it('is the agreed days capped at 45, or 15 with no written agreement', () => {
    expect(msmePaymentDays({ writtenAgreement: true, agreedDays: 30 })).toBe(30);
    expect(msmePaymentDays({ writtenAgreement: true, agreedDays: 60 })).toBe(45);
    expect(msmePaymentDays({ writtenAgreement: false, agreedDays: 30 })).toBe(15);
    expect(msmePaymentDays({ writtenAgreement: true, agreedDays: null })).toBe(15);
  });
});

describe('acceptance', () => {
  it("is the goods receipt's date, else the invoice date marked assumed", () => {
    expect(acceptanceOf(inv('a', '2025-05-01', 1, { grnDate: '2025-05-04' }))).toEqual({
      acceptedOn: '2025-05-04',
      acceptance: 'goods_receipt',
    });
    expect(acceptanceOf(inv('a', '2025-05-01', 1, { grnDate: null }))).toEqual({
      acceptedOn: '2025-05-01',
      acceptance: 'assumed_invoice_date',
    });
  });

  it('moves to the day a written objection was resolved, and waits while one is open', () => {
    const objected = inv('a', '2025-05-01', 1, {
      objections: [{ raisedOn: '2025-05-06', resolvedOn: '2025-06-02', note: 'Short supply' }],
    });
    expect(acceptanceOf(objected)).toEqual({ acceptedOn: '2025-06-02', acceptance: 'objection_resolved' });
    const [result] = computeMsme([objected], {
      registrations: regs(['v1', reg(2025)]),
      payments: [],
      asOf: '2025-06-10',
      bankRates: RATE_6,
    });
    expect(result?.dueDate).toBe('2025-06-17');
    expect(result?.daysLeft).toBe(7);

    const open = inv('b', '2025-05-01', 1, { objections: [{ raisedOn: '2025-05-06', resolvedOn: null }] });
    const [waiting] = computeMsme([open], {
      registrations: regs(['v1', reg(2025)]),
      payments: [],
      asOf: '2025-08-01',
      bankRates: RATE_6,
    });
    expect(waiting).toMatchObject({
      acceptance: 'objection_open',
      dueDate: null,
      daysLeft: null,
      interestPaise: 0,
    });
  });

  it('ignores an objection raised more than 15 days after delivery', () => {
    const late = inv('a', '2025-05-01', 1, {
      objections: [{ raisedOn: '2025-05-20', resolvedOn: '2025-06-02' }],
    });
    expect(acceptanceOf(late).acceptedOn).toBe('2025-05-01');
  });
});

describe('payments and interest', () => {
  it('splits partial payments before and after the due date, with interest on the late part only', () => {
    // ₹1,00,000 accepted 1 May, no written agreement: due 16 May.
    const invoice = inv('a', '2025-05-01', 10_000_000);
    const [r] = computeMsme([invoice], {
      registrations: regs(['v1', reg(2025)]),
      payments: [pay('2025-05-10', 4_000_000, { invoiceId: 'a' }), pay('2025-06-16', 6_000_000)],
      asOf: '2025-07-01',
      bankRates: RATE_6,
    });
    expect(r).toMatchObject({
      dueDate: '2025-05-16',
      paidOnTimePaise: 4_000_000,
      paidLatePaise: 6_000_000,
      outstandingPaise: 0,
      daysLeft: null,
    });
    // One month late at 18% a year compounded monthly: 1.5% of ₹60,000.
    expect(r?.interestPaise).toBe(90_000);
  });

  it('counts days overdue and compounds interest monthly on what is still unpaid', () => {
    const [r] = computeMsme([inv('a', '2025-05-01', 10_000_000)], {
      registrations: regs(['v1', reg(2025)]),
      payments: [],
      asOf: '2025-07-26',
      bankRates: RATE_6,
    });
    expect(r?.daysLeft).toBe(-71);
    // Two monthly rests (16 June, 16 July), then 10 days simple.
    expect(r?.interestPaise).toBe(Math.round(10_000_000 * (1.015 ** 2 * (1 + (0.18 * 10) / 365) - 1)));
    expect(msmeInterest(10_000_000, { from: '2025-05-16', until: '2025-05-16', bankRatePct: 6 })).toBe(0);
  });

  it('gives no interest figure without a bank rate, and none for vendors not covered', () => {
    const invoices = [inv('a', '2025-05-01', 100_000), inv('b', '2025-05-01', 100_000, { vendorId: 'v2' })];
    const ctx = {
      registrations: regs(['v1', reg(2025)], ['v2', reg(2025, { category: 'medium' })]),
      payments: [],
      asOf: '2025-09-01',
    };
    expect(computeMsme(invoices, { ...ctx, bankRates: [] }).map((r) => r.interestPaise)).toEqual([
      null,
      null,
    ]);
    const [covered, medium] = computeMsme(invoices, { ...ctx, bankRates: RATE_6 });
    expect(covered?.interestPaise).toBeGreaterThan(0);
    expect(medium).toMatchObject({ interestPaise: 0, coverage: { covered: false } });
  });

  it('takes the bank rate in force on each invoice’s due date, so a change between two invoices splits them', () => {
    // Due 16 May at 6%; due 16 July after the rate became 6.5% on 1 July. Both paid a month late.
    const rates = [
      { from: '2025-07-01', pct: 6.5 },
      { from: '2020-01-01', pct: 6 },
    ];
    expect(bankRateOn(rates, '2025-06-30')).toBe(6);
    expect(bankRateOn(rates, '2025-07-01')).toBe(6.5);
    expect(bankRateOn(rates, '2019-12-31')).toBeNull();
    const [may, july] = computeMsme(
      [inv('may', '2025-05-01', 10_000_000), inv('jul', '2025-07-01', 10_000_000)],
      {
        registrations: regs(['v1', reg(2025)]),
        payments: [
          pay('2025-06-16', 10_000_000, { invoiceId: 'may' }),
          pay('2025-08-16', 10_000_000, { invoiceId: 'jul' }),
        ],
        asOf: '2025-09-01',
        bankRates: rates,
      },
    );
    // The May invoice keeps 6% (18% a year) though the rate rose while it was late: 1.5% of ₹1,00,000.
    expect(may).toMatchObject({ dueDate: '2025-05-16', bankRatePct: 6, interestPaise: 150_000 });
    // The July invoice was due after the change: 19.5% a year, 1.625% for the month.
    expect(july).toMatchObject({ dueDate: '2025-07-16', bankRatePct: 6.5, interestPaise: 162_500 });
  });

  it('gives no interest figure for late money due before the first recorded rate, and 0 for money not late', () => {
    const [early, onTime] = computeMsme([inv('a', '2025-05-01', 100_000), inv('b', '2025-08-20', 100_000)], {
      registrations: regs(['v1', reg(2025)]),
      payments: [],
      asOf: '2025-08-25',
      bankRates: [{ from: '2025-07-01', pct: 6.5 }],
    });
    expect(early).toMatchObject({ bankRatePct: null, interestPaise: null });
    expect(onTime).toMatchObject({ dueDate: '2025-09-04', interestPaise: 0 });
  });

  it("applies a vendor's payment not naming an invoice to the oldest due first", () => {
    const results = computeMsme([inv('new', '2025-06-01', 50_000), inv('old', '2025-05-01', 30_000)], {
      registrations: regs(['v1', reg(2025)]),
      payments: [pay('2025-06-05', 40_000)],
      asOf: '2025-06-05',
      bankRates: RATE_6,
    });
    expect(results.map((r) => [r.id, r.outstandingPaise])).toEqual([
      ['new', 40_000],
      ['old', 0],
    ]);
  });
});

describe('a category change between years', () => {
  it("judges each invoice by its own financial year's category", () => {
    const registrations = regs(
      ['v1', reg(2024, { category: 'small' })],
      ['v1', reg(2025, { category: 'medium' })],
    );
    const [march, april] = computeMsme([inv('m', '2025-03-20', 1_000), inv('a', '2025-04-05', 1_000)], {
      registrations,
      payments: [],
      asOf: '2025-06-01',
      bankRates: RATE_6,
    });
    expect(march).toMatchObject({ financialYear: 2024, coverage: { covered: true } });
    expect(april).toMatchObject({ financialYear: 2025, coverage: { covered: false } });
  });
});

describe('Form-1 for a half-year', () => {
  it('buckets paid within and beyond 45 days, and unpaid within and beyond 45 days, per supplier', () => {
    const invoices = [
      inv('within', '2025-04-01', 10_000),
      inv('later', '2025-04-10', 20_000),
      inv('open-young', '2025-09-10', 30_000),
      inv('open-old', '2025-07-01', 40_000),
      inv('last-year', '2025-03-01', 50_000),
      inv('paid-after', '2025-09-20', 60_000),
      inv('medium', '2025-04-10', 70_000, { vendorId: 'v2' }),
    ];
    const payments = [
      pay('2025-05-10', 10_000, { invoiceId: 'within' }),
      pay('2025-06-30', 20_000, { invoiceId: 'later', delayReason: 'Awaiting a test certificate' }),
      pay('2025-03-20', 50_000, { invoiceId: 'last-year' }),
      pay('2025-10-05', 60_000, { invoiceId: 'paid-after' }),
      pay('2025-08-01', 70_000, { vendorId: 'v2', invoiceId: 'medium' }),
    ];
    const results = computeMsme(invoices, {
      registrations: regs(['v1', reg(2024)], ['v1', reg(2025)], ['v2', reg(2025, { category: 'medium' })]),
      payments,
      asOf: '2025-12-31',
      bankRates: RATE_6,
    });
    const rows = form1Rows(invoices, results, { financialYear: 2025, half: 'H1' });
    expect(rows).toEqual([
      {
        vendorId: 'v1',
        paidWithin45: { count: 1, paise: 10_000 },
        paidLater: { count: 1, paise: 20_000 },
        outstandingWithin45: { count: 2, paise: 90_000 },
        outstandingBeyond45: { count: 1, paise: 40_000 },
        reasons: ['Awaiting a test certificate'],
      },
    ]);
    const h2 = form1Rows(invoices, results, { financialYear: 2025, half: 'H2' });
    expect(h2[0]).toMatchObject({
      paidWithin45: { count: 1, paise: 60_000 },
      outstandingBeyond45: { count: 2, paise: 70_000 },
    });
  });
});

describe('section 43B(h) at year end', () => {
  it('disallows what is unpaid beyond the due date at 31 March, allows what is paid by the due date', () => {
    const invoices = [
      inv('late', '2025-03-01', 10_000),
      inv('in-time', '2025-03-25', 20_000),
      inv('pending', '2025-03-28', 30_000),
      inv('paid', '2025-03-02', 40_000),
    ];
    const results = computeMsme(invoices, {
      registrations: regs(['v1', reg(2024, { writtenAgreement: true, agreedDays: 30 })]),
      payments: [
        pay('2025-04-20', 10_000, { invoiceId: 'late' }),
        pay('2025-04-20', 20_000, { invoiceId: 'in-time' }),
        pay('2025-03-10', 40_000, { invoiceId: 'paid' }),
      ],
      asOf: '2025-04-21',
      bankRates: RATE_6,
    });
    expect(section43bhRows(results, 2024)).toEqual([
      expect.objectContaining({
        id: 'late',
        dueDate: '2025-03-31',
        unpaidAtYearEndPaise: 10_000,
        disallowedPaise: 10_000,
      }),
      expect.objectContaining({ id: 'in-time', allowedPaise: 20_000, disallowedPaise: 0, atRiskPaise: 0 }),
      expect.objectContaining({
        id: 'pending',
        dueDate: '2025-04-27',
        atRiskPaise: 30_000,
        disallowedPaise: 0,
      }),
    ]);
  });
});
