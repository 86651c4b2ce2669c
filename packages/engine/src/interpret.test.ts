import { describe, expect, it } from 'vitest';
import { pageOfLines } from '../test/test-words.ts';
import { interpretDocument, type QrReading } from './interpret.ts';
import { rescaleLinesToTaxable } from './interpret-money.ts';

describe('rescaleLinesToTaxable', () => {
  it('scales lines whose decimal points OCR dropped so the lines sum to the taxable value', () => {
    const lines = [
      { quantity: 10, rate: 25, discount: null, amount: 250 },
      // 553.50 read as 55350, so the amount 90,774.00 as 9077400.
      { quantity: 164, rate: 55350, discount: null, amount: 9077400 },
    ];
    expect(rescaleLinesToTaxable(lines, 91024)).toBe(true);
    expect(lines[1]).toEqual({ quantity: 164, rate: 553.5, discount: null, amount: 90774 });
    expect(lines[0]).toEqual({ quantity: 10, rate: 25, discount: null, amount: 250 });
  });

  it('changes nothing when the lines already add up, or when several repairs would', () => {
    const ok = [{ quantity: 2, rate: 50, amount: 100 }];
    expect(rescaleLinesToTaxable(ok, 100)).toBe(false);
    // Either line divided by 10 gives the same sum: no way to tell which was misread.
    const twins = [
      { quantity: 1, rate: 1000, amount: 1000 },
      { quantity: 1, rate: 1000, amount: 1000 },
    ];
    expect(rescaleLinesToTaxable(twins, 1100)).toBe(false);
    expect(twins[0]?.amount).toBe(1000);
  });
});

describe('interpretDocument with an unverified e-invoice QR', () => {
  const page = pageOfLines([
    'TAX INVOICE',
    'Invoice No : INV-4411',
    'GSTIN : 29AAGCR4375J1ZU',
    'Total Invoice Value 1,180.00',
  ]);
  const qr = (sellerGstin: string): QrReading => ({
    raw: '',
    payload: { SellerGstin: sellerGstin, DocNo: 'INV-4411', TotInvVal: 1180 },
    signatureValid: null,
    bbox: null,
    page: 1,
    docDate: null,
  });

  it('keeps a valid printed GSTIN over a QR GSTIN that fails its check character, and reports the mismatch', () => {
    const out = interpretDocument([page], 'invoice', qr('29AAGCR4375J0Z2'));
    expect(out.fields.vendorGstin).toBe('29AAGCR4375J1ZU');
    const check = out.checks.find((c) => c.code === 'qr_matches_printed');
    expect(check?.ok).toBe(false);
    expect(check?.message).toContain('29AAGCR4375J0Z2');
  });

  it('takes a valid QR GSTIN', () => {
    const out = interpretDocument([page], 'invoice', qr('27AAECM8421K1Z8'));
    expect(out.fields.vendorGstin).toBe('27AAECM8421K1Z8');
  });
});

describe('interpretDocument withholding a refuted total', () => {
  it('gives no total the amount in words contradicts when nothing adds up, and says what was read', () => {
    const page = pageOfLines(
      [
        'TAX INVOICE',
        'Invoice No : INV-7',
        'Total  12,400.00',
        'Amount in words: Rupees Twelve Lakh Forty Thousand Only',
      ],
      'ocr',
    );
    const out = interpretDocument([page], 'invoice', null);
    expect(out.fields.total).toBeNull();
    expect(out.warnings.join(' ')).toContain(
      'total left empty: 12400 was read, but amount in words is 1240000',
    );
    expect(out.checks.find((c) => c.code === 'amount_in_words_matches_total')?.ok).toBe(false);
  });

  it('keeps a total that the taxes add up to, whatever the words say', () => {
    const page = pageOfLines(
      [
        'TAX INVOICE',
        'Taxable Value  1,000.00',
        'CGST @ 9%  90.00',
        'SGST @ 9%  90.00',
        'Total  1,180.00',
        'Amount in words: Rupees One Thousand One Hundred Only',
      ],
      'ocr',
    );
    const out = interpretDocument([page], 'invoice', null);
    expect(out.fields.total).toBe(1180);
  });
});

describe('interpretDocument: "OK" must mean right', () => {
  const REVIEW_LINE = 0.8;

  it('leaves a total nothing confirms below the review line, and a confirmed one above it', () => {
    const alone = interpretDocument(
      [pageOfLines(['TAX INVOICE', 'Invoice No : INV-9', 'Freight  1,200.00', 'Grand Total  8,400.00'])],
      'invoice',
      null,
    );
    expect(alone.fields.total).toBe(8400);
    expect(alone.confidence.total).toBeLessThan(REVIEW_LINE);

    const confirmed = interpretDocument(
      [
        pageOfLines([
          'TAX INVOICE',
          'Taxable Value  1,000.00',
          'CGST @ 9%  90.00',
          'SGST @ 9%  90.00',
          'Total  1,180.00',
        ]),
      ],
      'invoice',
      null,
    );
    expect(confirmed.confidence.total).toBeGreaterThanOrEqual(0.9);
  });

  it('does not let words that state only the rupees vouch for a total with paise', () => {
    const out = interpretDocument(
      [
        pageOfLines([
          'TAX INVOICE',
          'Invoice No : INV-10',
          'Total  48,215.40',
          'Amount in words: Rupees Forty Eight Thousand Two Hundred Fifteen Only',
        ]),
      ],
      'invoice',
      null,
    );
    expect(out.fields.total).toBe(48215.4);
    expect(out.confidence.total).toBeLessThan(REVIEW_LINE);
  });

  it('gives no name when a label or a copy marker stands where the name should be', () => {
    const out = interpretDocument(
      [
        pageOfLines([
          'TAX INVOICE  ORIGINAL FOR RECIPIENT',
          'Bill To',
          'Legal Name',
          'GSTIN : 27AAECM8421K1Z8',
          'Invoice No : INV-11',
        ]),
      ],
      'invoice',
      null,
    );
    expect(out.fields.buyerName).not.toBe('Legal Name');
    expect(String(out.fields.vendorName ?? '')).not.toMatch(/original|recipient/i);
  });

  it('doubts a name that contradicts the PAN holder type of its GSTIN', () => {
    const out = interpretDocument(
      [
        pageOfLines([
          'TAX INVOICE',
          'Bill To',
          'Kaveri Labs Private Limited',
          // A person's PAN (fourth character P) beside a company's name.
          'GSTIN : 09ABCPS1234K1Z5',
          'Invoice No : INV-12',
        ]),
      ],
      'invoice',
      null,
    );
    if (out.fields.buyerName) expect(out.confidence.buyerName).toBeLessThan(REVIEW_LINE);
  });
});

describe('interpretDocument: one GSTIN on both sides', () => {
  it('doubts both parties when the supplier and the buyer read the same GSTIN', () => {
    const out = interpretDocument(
      [
        pageOfLines([
          'ACME TOOLS PRIVATE LIMITED',
          'GSTIN : 27AAECM8421K1Z8',
          'TAX INVOICE',
          'Invoice No : INV-13',
          'Bill To',
          'Sharma Traders',
          'GSTIN : 27AAECM8421K1Z8',
        ]),
      ],
      'invoice',
      null,
    );
    expect(out.fields.vendorGstin).toBe('27AAECM8421K1Z8');
    expect(out.fields.buyerGstin).toBe('27AAECM8421K1Z8');
    expect(out.confidence.vendorGstin).toBeLessThan(0.8);
    expect(out.confidence.buyerGstin).toBeLessThan(0.8);
  });
});

describe('interpretDocument: a title whose number stands in the next cell', () => {
  it('reads "TAX INVOICE | BC-42" as the invoice number, and "# Inv. No. :" as a label', () => {
    const titled = interpretDocument(
      [pageOfLines(['BILLING CO  TAX INVOICE  BC-42', 'Issue Date:  02/10/2024'])],
      'invoice',
      null,
    );
    expect(titled.fields.documentNumber).toBe('BC-42');
    const hashed = interpretDocument(
      [pageOfLines(['Tax Invoice', 'Bill To  # Inv. No. :  Bill-88'])],
      'invoice',
      null,
    );
    expect(hashed.fields.documentNumber).toBe('Bill-88');
    // An amount beside a title is no number.
    const amount = interpretDocument([pageOfLines(['TAX INVOICE  1,180.00'])], 'invoice', null);
    expect(amount.fields.documentNumber).toBeNull();
  });
});

describe('payment terms two labels word differently', () => {
  it('are left below the review line', () => {
    const r = interpretDocument(
      [
        pageOfLines([
          'PURCHASE ORDER',
          'PO No.  KS/PO/26-27/041',
          'PO Date  12.03.2026',
          'Terms of payment :  Net 30 days from invoice date',
          'Terms of payment : 50% advance, balance before dispatch',
        ]),
      ],
      'po',
      null,
    );
    expect(r.fields.paymentTerms).not.toBeNull();
    expect(r.confidence.paymentTerms).toBeLessThan(0.8);
  });
});

describe('interpretDocument: charges printed under the lines', () => {
  it('keeps a taxable value the lines and a shipping charge make, below the review line', () => {
    const page = pageOfLines(
      [
        'TAX INVOICE',
        'Invoice No : INV-52',
        'S.No  Description  Qty  Rate  Amount',
        '1  Pressure gauge  4  1,250.00  5,000.00',
        '2  Valve seat  2  1,700.00  3,400.00',
        'Shipping Charges    350.00',
        'Total Before Tax    8,750.00',
        'Round Off    (-) 0.40',
        'Total    8,749.60',
      ],
      'ocr',
    );
    const out = interpretDocument([page], 'invoice', null);
    expect(out.fields.taxableValue).toBe(8750);
    expect(out.confidence.taxableValue).toBeLessThan(0.8);
  });
});

describe('interpretDocument: a purchase order that leaves GST to the invoice', () => {
  const SURE = 0.9;

  it('takes the lines priced before tax as the order value when no total is printed, below "sure"', () => {
    const page = pageOfLines([
      'PURCHASE ORDER',
      'PO No : SP/2425/0417',
      'S.No  Description  Quantity  Rate  Amount',
      '1  Centrifugal pump 2 HP  4  12,500.00  50,000.00',
      '2  Gland packing set  10  310.50  3,105.00',
      'Sub amount of the lines  53,105.00',
      'Terms: GST extra as applicable',
    ]);
    const out = interpretDocument([page], 'po', null);
    expect(out.fields.taxableValue).toBe(53105);
    expect(out.fields.total).toBe(53105);
    expect(out.confidence.taxableValue).toBeLessThan(SURE);
    expect(out.confidence.total).toBeLessThan(SURE);
  });

  it('gives no order value from lines whose sum the page does not print', () => {
    const page = pageOfLines([
      'PURCHASE ORDER',
      'PO No : SP/2425/0418',
      'S.No  Description  Quantity  Rate  Amount',
      '1  Centrifugal pump 2 HP  4  12,500.00  50,000.00',
      '2  Gland packing set  10  310.50  3,105.00',
      'Terms: GST extra as applicable',
    ]);
    const out = interpretDocument([page], 'po', null);
    expect(out.fields.taxableValue ?? null).toBeNull();
    expect(out.fields.total ?? null).toBeNull();
  });

  it('reads a total that is the sum of lines priced before tax as the taxable value too', () => {
    const page = pageOfLines([
      'PURCHASE ORDER',
      'PO No : SP/2425/0419',
      'S.No  Description  Quantity  Rate  Amount',
      '1  Sluice valve 100 mm  2  8,400.00  16,800.00',
      'Total  16,800.00',
    ]);
    const out = interpretDocument([page], 'po', null);
    expect(out.fields.total).toBe(16800);
    expect(out.fields.taxableValue).toBe(16800);
  });
});

describe('interpretDocument: a GST half whose label OCR misread', () => {
  it('takes the same figure on the next row as the other half, below the review line', () => {
    const page = pageOfLines(
      [
        'TAX INVOICE',
        'Bill No : 418',
        'Item  Qty  Rate  Amount',
        'Masala dosa  2  80  160',
        'Lassi  2  40  80',
        'Sub Total  240.00',
        'SGST @ 2.5%  6.00',
        'C G S I @ 2.5%  6.00',
      ],
      'ocr',
    );
    const out = interpretDocument([page], 'invoice', null);
    expect(out.fields.sgst).toBe(6);
    expect(out.fields.cgst).toBe(6);
    expect(out.confidence.cgst).toBeLessThan(0.8);
  });

  it('leaves the other half empty when no neighbouring row prints the figure', () => {
    const page = pageOfLines(
      ['TAX INVOICE', 'Bill No : 419', 'Sub Total  240.00', 'SGST @ 2.5%  6.00', 'Thank you  visit again'],
      'ocr',
    );
    expect(interpretDocument([page], 'invoice', null).fields.cgst ?? null).toBeNull();
  });
});
