import { describe, expect, it } from 'vitest';
import { layoutCellWords, pageOfLines } from '../test/test-words.ts';
import { findAmountInWords, readWordsAmount, recheckResult, runChecks } from './checks.ts';
import { buildLayout } from './layout.ts';

describe('findAmountInWords', () => {
  it('reads the printed amount in words', () => {
    const layout = buildLayout([
      pageOfLines(['Amount in words: Rupees Ninety Eight Thousand Seven Hundred Only']),
    ]);
    expect(findAmountInWords(layout)?.value).toBe(98700);
  });

  it('ignores a garbled OCR reading instead of contradicting the total', () => {
    const garbled = 'INR nety Eight Eight Thousand Thousand Seven Hundred Hundre Ninety Eight';
    expect(findAmountInWords(buildLayout([pageOfLines([garbled], 'ocr')]))).toBeNull();
    // The same words from a text layer are what the document prints: they are read.
    expect(findAmountInWords(buildLayout([pageOfLines([garbled], 'text')]))).not.toBeNull();
  });

  it("does not fall back to the tax's amount in words when the invoice's cannot be read", () => {
    const page = pageOfLines(
      [
        'Amount Chargeable (in words)',
        'TWO THOUSAND FOUR HUNDRED AND SIXTHY ONE ONLY',
        'HSN/SAC  Taxable Amt  Total Tax Amt',
        'Amount Chargeable (in words)',
        'THREE HUNDRED AND SEVENTY FIVE ONLY',
      ],
      'ocr',
    );
    expect(findAmountInWords(buildLayout([page]))).toBeNull();
  });
});

describe('runChecks', () => {
  it('reports the amount in words against the total, passed or failed', () => {
    const fields = { total: 98798 };
    const ok = runChecks('invoice', fields, [], 98798).find(
      (c) => c.code === 'amount_in_words_matches_total',
    );
    const bad = runChecks('invoice', fields, [], 17798).find(
      (c) => c.code === 'amount_in_words_matches_total',
    );
    expect(ok?.ok).toBe(true);
    expect(bad?.ok).toBe(false);
    // Words that give no paise state the rupees of the figure.
    const rupees = runChecks('invoice', { total: 456789.5 }, [], 456789).find(
      (c) => c.code === 'amount_in_words_matches_total',
    );
    expect(rupees?.ok).toBe(true);
  });
});

describe('the amount in words beside other columns', () => {
  it('is read in its own column across its lines', () => {
    const cell = (x: number, y: number, text: string) =>
      layoutCellWords(x, y, text, { charWidth: 4, space: 3, height: 10 });
    const words = [
      ...cell(56, 620, '7 Payment Terms 30 Days Credit'),
      ...cell(348, 620, 'Rs. Thirty Four Lakh Sixty Two Thousand One'),
      ...cell(56, 631, '8 Jurisdiction'),
      ...cell(127, 631, 'Subject to Raipur Jurisdiction only.'),
      ...cell(348, 631, 'Hundred Three Rs. only.'),
    ];
    const layout = buildLayout([{ page: 1, width: 595, height: 842, words, source: 'text' }]);
    expect(findAmountInWords(layout)?.value).toBe(3462103);
  });
});

describe('an OCR amount in words cut short', () => {
  it('is no reading when garbled words go on under it', () => {
    const cell = (x: number, y: number, text: string) =>
      layoutCellWords(x, y, text, { charWidth: 4, space: 3, height: 10, source: 'ocr' });
    const words = [
      ...cell(32, 553, 'Rupees Two Thousand Seven Hundred Twenty'),
      ...cell(32, 567, 'Foutr Sevcn'),
    ];
    const layout = buildLayout([{ page: 1, width: 595, height: 842, words, source: 'ocr' }]);
    expect(findAmountInWords(layout)).toBeNull();
  });
});

describe('recheckResult', () => {
  const extracted = {
    documentType: 'invoice' as const,
    fields: { taxableValue: 1000, cgst: 90, sgst: 90, total: 1108 } as Record<string, string | number | null>,
    checks: [
      { code: 'taxes_sum_to_total' as const, field: 'total', ok: false, message: 'x' },
      {
        code: 'amount_in_words_matches_total' as const,
        field: 'total',
        ok: false,
        message: 'amount in words is 1180, total is 1108',
      },
      { code: 'qr_matches_printed' as const, field: null, ok: true, message: '' },
    ],
  };

  it('runs the field checks again on corrected values, with the amount in words read from the paper', () => {
    const checks = recheckResult(extracted, { ...extracted.fields, total: 1180 }, []);
    expect(checks.find((c) => c.code === 'taxes_sum_to_total')?.ok).toBe(true);
    expect(checks.find((c) => c.code === 'amount_in_words_matches_total')?.ok).toBe(true);
    // The QR's verdict is about the paper, not the values: kept as it was.
    expect(checks.find((c) => c.code === 'qr_matches_printed')?.ok).toBe(true);
  });

  it('fails again when the correction is itself wrong', () => {
    const checks = recheckResult(extracted, { ...extracted.fields, total: 1200 }, []);
    expect(checks.find((c) => c.code === 'amount_in_words_matches_total')).toMatchObject({
      ok: false,
      message: 'amount in words is 1180, total is 1200',
    });
  });

  it('reads the words amount from a passed check as the total it matched', () => {
    expect(
      readWordsAmount({
        fields: { total: 500 },
        checks: [{ code: 'amount_in_words_matches_total', field: 'total', ok: true, message: '' }],
      }),
    ).toBe(500);
    expect(readWordsAmount({ fields: { total: 500 }, checks: [] })).toBeNull();
  });
});
