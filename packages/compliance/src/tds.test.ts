import { describe, expect, it } from 'vitest';
import { computeTds, type TdsResult, type VendorProfile } from './tds.ts';
import { sectionOfLine, sectionOfSac } from './tds-sections.ts';
import { invoice, OTHER, SUPPLIER, SUPPLIER_MH } from './test-helpers.ts';

// A person (4th PAN character P) and a company (C).
const PERSON = '29BBHPR7731M1Z2'; // = OTHER
const COMPANY = SUPPLIER;

const bill = (date: string, amount: number, hsnSac: string, gstin: string | null = COMPANY, file?: string) =>
  invoice({
    date,
    number: `B-${date}`,
    file: file ?? `${gstin}-${date}.pdf`,
    gstin,
    taxable: amount,
    lines: [{ hsnSac, amount, gstRate: 18 }],
  });
const brief = (r: TdsResult) => r.sections.map((s) => [s.section, s.base, s.taxable, s.rate, s.tds]);

describe('TDS sections of a line', () => {
  it('reads the SAC table, the longest prefix winning', () => {
    expect(sectionOfSac('995411')).toBe('194C');
    expect(sectionOfSac('998363')).toBe('194C'); // advertising, inside 9983
    expect(sectionOfSac('998313')).toBe('194J(b)');
    expect(sectionOfSac('9982 11')).toBe('194J(b)');
    expect(sectionOfSac('996111')).toBe('194H');
    expect(sectionOfSac('997212')).toBe('194I(b)');
    expect(sectionOfSac('997319')).toBe('194I(a)');
    expect(sectionOfSac('997331')).toBeNull(); // 99733 is not hire of machinery
    expect(sectionOfSac('996331')).toBe('194C');
    expect(sectionOfSac('998599')).toBeNull();
  });

  it('puts the profile first, then the SAC, then goods under 194Q only with the turnover flag', () => {
    expect(sectionOfLine('998313', '194C', false)).toBe('194C');
    expect(sectionOfLine('73181500', '194J(a)', true)).toBe('194J(a)');
    expect(sectionOfLine('73181500', null, true)).toBe('194Q');
    expect(sectionOfLine('73181500', null, false)).toBeNull();
    expect(sectionOfLine('998599', null, true)).toBeNull(); // a service no section covers is not goods
    expect(sectionOfLine(null, null, true)).toBeNull();
  });
});

describe('194C', () => {
  it('taxes a single bill above ₹30,000 at 1 % for a person, nothing at ₹30,000 exactly', () => {
    const out = computeTds([
      bill('2025-05-02', 30_000, '996511', PERSON),
      bill('2025-06-02', 30_050, '996511', PERSON),
    ]);
    expect(brief(out[0]!)).toEqual([['194C', 30_000, 0, 1, 0]]);
    // 30,050 × 1 % = 300.50: half a rupee rounds up
    expect(brief(out[1]!)).toEqual([['194C', 30_050, 30_050, 1, 301]]);
    expect(out[1]!.vendorPan).toBe('BBHPR7731M');
  });

  it('catches up the whole year once bills pass ₹1,00,000, across two GSTINs of one PAN, at 2 % for a company', () => {
    const out = computeTds([
      bill('2025-04-10', 40_000, '995411', COMPANY),
      bill('2025-05-10', 25_000, '995411', SUPPLIER_MH),
      bill('2025-06-10', 20_000, '995411', COMPANY),
      bill('2025-07-10', 20_000, '995411', SUPPLIER_MH),
      bill('2025-08-10', 5_000, '995411', COMPANY),
    ]);
    expect(out.map((r) => r.tds)).toEqual([800, 0, 0, 1300, 100]);
    expect(out[3]!.sections[0]).toMatchObject({
      taxable: 65_000,
      reason: 'payments this year passed ₹1,00,000',
    });
  });

  it('starts again on 1 April', () => {
    const out = computeTds([bill('2026-03-20', 90_000, '995411'), bill('2026-04-02', 20_000, '995411')]);
    expect(out.map((r) => r.sections[0]!.taxable)).toEqual([90_000, 0]);
  });
});

describe('194J, 194H and 194I', () => {
  it('194J(b): fees pass ₹50,000 and the year is caught up at 10 %', () => {
    const out = computeTds([bill('2025-07-01', 30_000, '998221'), bill('2025-10-03', 35_000, '998221')]);
    expect(brief(out[1]!)).toEqual([['194J(b)', 35_000, 65_000, 10, 6500]]);
  });

  it('194J(a) from a vendor profile overrides the SAC and covers goods lines too', () => {
    const vendors: VendorProfile[] = [{ pan: 'AAGCS4821K', gstin: COMPANY, section: '194J(a)' }];
    const inv = invoice({
      date: '2025-07-01',
      taxable: 60_000,
      lines: [
        { hsnSac: '998313', amount: 50_000, gstRate: 18 },
        { hsnSac: '84713010', amount: 10_000, gstRate: 18 },
      ],
    });
    expect(brief(computeTds([inv], { vendors, buyerTurnoverAbove10cr: true })[0]!)).toEqual([
      ['194J(a)', 60_000, 60_000, 2, 1200],
    ]);
  });

  it('a profile without a GSTIN belongs to every GSTIN of its PAN', () => {
    const vendors: VendorProfile[] = [{ pan: 'AAGCS4821K', section: '194H' }];
    const out = computeTds([bill('2025-07-01', 25_000, '998599', SUPPLIER_MH)], { vendors });
    expect(brief(out[0]!)).toEqual([['194H', 25_000, 25_000, 2, 500]]);
  });

  it('194H: commission passes ₹20,000 in the year', () => {
    const out = computeTds([bill('2025-07-01', 12_000, '996211'), bill('2025-08-01', 9_000, '996211')]);
    expect(out.map((r) => r.sections[0]!.taxable)).toEqual([0, 21_000]);
    expect(out[1]!.tds).toBe(420);
  });

  it('194I: rent or hire above ₹50,000 on the invoice, each invoice alone', () => {
    const out = computeTds([
      bill('2025-07-01', 50_000, '997212'),
      bill('2025-08-01', 50_001, '997212'),
      bill('2025-09-01', 60_000, '997319'),
    ]);
    expect(out.map(brief)).toEqual([
      [['194I(b)', 50_000, 0, 10, 0]],
      [['194I(b)', 50_001, 50_001, 10, 5000]],
      [['194I(a)', 60_000, 60_000, 2, 1200]],
    ]);
  });
});

describe('194Q', () => {
  it('taxes only the part of the year’s purchases above ₹50 lakh, with the turnover flag', () => {
    const books = [
      bill('2025-05-01', 4_800_000, '72085120'),
      bill('2025-06-01', 300_000, '72085120'),
      bill('2025-07-01', 10_000, '72085120'),
    ];
    const out = computeTds(books, { buyerTurnoverAbove10cr: true });
    expect(out.map(brief)).toEqual([
      [['194Q', 4_800_000, 0, 0.1, 0]],
      [['194Q', 300_000, 100_000, 0.1, 100]],
      [['194Q', 10_000, 10_000, 0.1, 10]],
    ]);
    expect(computeTds(books).map((r) => r.sections)).toEqual([[], [], []]);
  });

  it('lists goods and services of one invoice under their own sections', () => {
    const inv = invoice({
      date: '2025-07-01',
      taxable: 45_000,
      lines: [
        { hsnSac: '84818090', amount: 10_000, gstRate: 18 },
        { hsnSac: '998719', amount: 35_000, gstRate: 18 },
      ],
    });
    expect(brief(computeTds([inv], { buyerTurnoverAbove10cr: true })[0]!)).toEqual([
      ['194C', 35_000, 35_000, 2, 700],
      ['194Q', 10_000, 0, 0.1, 0],
    ]);
  });
});

describe('higher rates and certificates', () => {
  it('taxes a supplier without PAN at 20 %, adding up per supplier name', () => {
    const a = invoice({
      gstin: null,
      vendor: 'Nandi Tempo Service',
      date: '2025-06-01',
      number: '1',
      file: 'a.pdf',
      taxable: 20_000,
      lines: [{ hsnSac: '996511', amount: 20_000 }],
    });
    const b = invoice({
      gstin: null,
      vendor: 'Nandi Tempo Service',
      date: '2025-07-01',
      number: '2',
      file: 'b.pdf',
      taxable: 90_000,
      lines: [{ hsnSac: '996511', amount: 90_000 }],
    });
    const out = computeTds([a, b]);
    expect(out[0]!.vendorPan).toBeNull();
    expect(out.map(brief)).toEqual([[['194C', 20_000, 0, 20, 0]], [['194C', 90_000, 110_000, 20, 22_000]]]);
  });

  it('taxes an inoperative PAN at 20 % (5 % under 194Q)', () => {
    const vendors: VendorProfile[] = [{ pan: 'AAGCS4821K', gstin: COMPANY, panOperative: false }];
    const out = computeTds(
      [bill('2025-05-01', 40_000, '995411'), bill('2025-06-01', 5_100_000, '72085120')],
      { vendors, buyerTurnoverAbove10cr: true },
    );
    expect(out.map(brief)).toEqual([
      [['194C', 40_000, 40_000, 20, 8000]],
      [['194Q', 5_100_000, 100_000, 5, 5000]],
    ]);
  });

  it('applies a lower-deduction certificate inside its window and up to its limit, certificate first', () => {
    const vendors: VendorProfile[] = [
      {
        pan: 'AAGCS4821K',
        gstin: COMPANY,
        ldc: { section: '194J(b)', rate: 2, from: '2025-07-01', to: '2025-09-30', limit: 150_000 },
      },
    ];
    const out = computeTds(
      [
        bill('2025-06-15', 70_000, '998221'), // before the window
        bill('2025-07-15', 100_000, '998221'), // inside
        bill('2025-08-15', 80_000, '998221'), // across the limit: 50,000 left at 2 %
        bill('2025-09-15', 10_000, '998221'), // limit used up
        bill('2025-10-15', 20_000, '998221'), // after the window
      ],
      { vendors },
    );
    expect(out.map(brief)).toEqual([
      [['194J(b)', 70_000, 70_000, 10, 7000]],
      [['194J(b)', 100_000, 100_000, 2, 2000]],
      [
        ['194J(b)', 80_000, 50_000, 2, 1000],
        ['194J(b)', 80_000, 30_000, 10, 3000],
      ],
      [['194J(b)', 10_000, 10_000, 10, 1000]],
      [['194J(b)', 20_000, 20_000, 10, 2000]],
    ]);
    expect(out[2]!.tds).toBe(4000);
  });
});

describe('order and copies', () => {
  it('lists invoices by date, number and file; a copy booked twice is listed and counts towards nothing', () => {
    const original = bill('2025-06-01', 80_000, '995411', COMPANY, 'purchases/x.pdf');
    const copy = bill('2025-06-01', 80_000, '995411', COMPANY, 'scans/x.jpg');
    const later = bill('2025-07-01', 25_000, '995411', COMPANY, 'purchases/y.pdf');
    const out = computeTds([later, copy, original]);
    expect(out.map((r) => r.file)).toEqual(['purchases/x.pdf', 'scans/x.jpg', 'purchases/y.pdf']);
    expect(out.map((r) => r.tds)).toEqual([1600, 0, 500]);
    expect(out[1]!.sections[0]).toMatchObject({ taxable: 0, tds: 0 });
    // without the copy counted, 80,000 + 25,000 passes ₹1,00,000 only once: 25,000 more taxed
    expect(out[2]!.sections[0]!.taxable).toBe(25_000);
  });

  it('gives an invoice of no classified line no sections', () => {
    const out = computeTds([bill('2025-06-01', 80_000, '998599', OTHER)]);
    expect(out[0]).toMatchObject({ sections: [], tds: 0 });
  });
});
