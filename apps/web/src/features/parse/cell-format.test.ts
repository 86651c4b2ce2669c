import { describe, expect, it } from 'vitest';
import { formatCell, getRowTone, inferCellKind, orderColumns } from './cell-format.ts';

describe('inferCellKind', () => {
  it('prefers the declared kind and guesses from contract field names', () => {
    expect(inferCellKind('total', 'text')).toBe('text');
    expect(inferCellKind('total')).toBe('money');
    expect(inferCellKind('Taxable Value')).toBe('money');
    expect(inferCellKind('quantity')).toBe('number');
    expect(inferCellKind('gstRate')).toBe('percent');
    expect(inferCellKind('documentDate')).toBe('date');
    expect(inferCellKind('processedAt', 'text')).toBe('datetime');
    expect(inferCellKind('reviewFlag', 'text')).toBe('status');
    expect(inferCellKind('vendorGstin')).toBe('text');
  });
});

describe('inferCellKind without a declared kind', () => {
  it('reads every contract field as before: amounts money, quantities numbers, GST % percent', () => {
    const expected: Record<string, string> = {
      taxableValue: 'money',
      cgst: 'money',
      sgst: 'money',
      igst: 'money',
      cess: 'money',
      roundOff: 'money',
      total: 'money',
      amount: 'money',
      rate: 'money',
      discount: 'money',
      quantity: 'number',
      orderedQuantity: 'number',
      receivedQuantity: 'number',
      acceptedQuantity: 'number',
      rejectedQuantity: 'number',
      lineNo: 'number',
      line: 'number',
      pages: 'number',
      gstRate: 'percent',
      documentDate: 'date',
      poDate: 'date',
      dueDate: 'date',
      ackDate: 'date',
      deliveryDate: 'date',
      invoiceDate: 'date',
      documentNumber: 'text',
      vendorName: 'text',
      vendorStateCode: 'text',
      placeOfSupply: 'text',
      currency: 'text',
      irn: 'text',
      hsnSac: 'text',
      unit: 'text',
      description: 'text',
      paymentTerms: 'text',
    };
    const actual = Object.fromEntries(Object.keys(expected).map((key) => [key, inferCellKind(key)]));
    expect(actual).toEqual(expected);
  });
});

describe('formatCell', () => {
  it('groups money in lakhs and crores with paise', () => {
    expect(formatCell(235609, 'money')).toBe('2,35,609.00');
    expect(formatCell(12345678.5, 'money')).toBe('1,23,45,678.50');
    expect(formatCell('-0.2', 'money')).toBe('-0.20');
  });
  it('formats other kinds and empties', () => {
    expect(formatCell(120000, 'number')).toBe('1,20,000');
    expect(formatCell(18, 'percent')).toBe('18%');
    expect(formatCell('2024-09-23', 'date')).toBe('23/09/2024');
    expect(formatCell('2026-11-21T11:46:00.000Z', 'datetime')).toMatch(/Nov 2026/);
    expect(formatCell('23/09/2024', 'date')).toBe('23/09/2024');
    expect(formatCell(null, 'money')).toBe('');
    expect(formatCell(['gstin_checksum', 'taxes_sum_to_total'], 'text')).toBe(
      'gstin_checksum, taxes_sum_to_total',
    );
    expect(formatCell('33ASRFS6183T1Z0', 'text')).toBe('33ASRFS6183T1Z0');
  });
});

describe('getRowTone', () => {
  it('flags failed and review rows', () => {
    expect(getRowTone({ status: 'failed' })).toBe('failed');
    expect(getRowTone({ status: 'needs_review' })).toBe('review');
    expect(getRowTone({ confidence: 'review' })).toBe('review');
    expect(getRowTone({ failedChecks: ['taxes_sum_to_total'] })).toBe('review');
    expect(getRowTone({ status: 'done', failedChecks: [] })).toBe(null);
    // A note beside an OK row (whom it is billed to was not checked) does not highlight it.
    expect(getRowTone({ reviewFlag: 'ok', checksFailed: 'buyer_not_checked' })).toBe(null);
    // Approved as it stands: its reasons stay in the checks column without asking for a look.
    expect(getRowTone({ reviewFlag: 'approved', checksFailed: 'taxes_sum_to_total' })).toBe(null);
  });
});

describe('orderColumns', () => {
  it('puts the file name and review columns first and drops hidden ones', () => {
    const columns = ['fileName', 'link', 'documentNumber', 'total', 'checksFailed', 'reviewFlag'].map(
      (key) => ({ key }),
    );
    expect(orderColumns(columns, new Set(['link'])).map((c) => c.key)).toEqual([
      'fileName',
      'reviewFlag',
      'checksFailed',
      'documentNumber',
      'total',
    ]);
  });
  it('keeps the server order for the line items tab', () => {
    const columns = ['documentNumber', 'fileName', 'lineNo'].map((key) => ({ key }));
    expect(orderColumns(columns, new Set()).map((c) => c.key)).toEqual([
      'fileName',
      'documentNumber',
      'lineNo',
    ]);
  });
});
