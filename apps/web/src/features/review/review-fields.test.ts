import type { DocumentReview } from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import {
  buildFieldGroups,
  buildLineRows,
  describeFieldKey,
  describeLesson,
  findNextLook,
  formatInputValue,
} from './review-fields.ts';

function makeReview(extraction: Record<string, unknown>, corrected: string[] = []): DocumentReview {
  return {
    document: {
      id: 'd1',
      flowId: 'f1',
      runId: null,
      fileName: 'bill.pdf',
      sourceKind: 'upload',
      size: 1,
      status: 'needs_review',
      error: null,
      failedChecks: [],
      reviewFlag: 'review',
      processedAt: null,
      fileUrl: '/api/documents/d1/file',
      pageRange: null,
      extraction,
    },
    flowName: 'Bills',
    pages: [],
    pagesError: null,
    corrected,
    approvedAt: null,
    approvedBy: null,
    events: [],
    previousId: null,
    nextId: null,
    nextToReviewId: null,
    duplicateOf: null,
  };
}

const extraction = {
  documentType: 'invoice',
  fields: {
    documentNumber: 'INV-1',
    documentDate: '2025-08-14',
    vendorName: 'Acme',
    total: 1180,
    taxableValue: 1000,
  },
  lineItems: [
    {
      description: 'Steel',
      amount: 1000,
      provenance: { amount: { page: 1, bbox: [1, 2, 3, 4], source: 'ocr' } },
    },
  ],
  checks: [
    {
      code: 'taxes_sum_to_total',
      field: 'total',
      ok: false,
      message: 'taxable value + taxes = 1000, total is 1180',
    },
  ],
  confidence: { documentNumber: 0.95, documentDate: 0.6, total: 0.5 },
  provenance: { total: { page: 1, bbox: [10, 20, 30, 40], source: 'text' } },
};

describe('review fields', () => {
  it('groups header fields with their source, box and what asks for a look', () => {
    const groups = buildFieldGroups(makeReview(extraction));
    // Key fields first, in the order a checker reads a bill; the rest folded.
    expect(groups.map((g) => [g.title, g.folded])).toEqual([
      ['Key fields', false],
      ['More fields', true],
    ]);
    expect(groups[0]!.values.map((v) => v.key).slice(0, 4)).toEqual([
      'documentNumber',
      'documentDate',
      'vendorName',
      'vendorGstin',
    ]);
    expect(groups[0]!.values.at(-1)!.key).toBe('total');
    const all = groups.flatMap((g) => g.values);
    const total = all.find((v) => v.key === 'total')!;
    expect(total).toMatchObject({ source: 'text', box: { page: 1, bbox: [10, 20, 30, 40] }, label: 'Total' });
    expect(total.problems).toEqual([
      "Taxable value plus taxes doesn't equal the total: taxable value + taxes = 1000, total is 1180",
      'Read with low confidence',
    ]);
    expect(all.find((v) => v.key === 'documentDate')!.problems).toEqual(['Read with low confidence']);
    expect(all.find((v) => v.key === 'vendorGstin')).toMatchObject({
      value: null,
      source: 'none',
      problems: [],
    });
  });

  it('marks a corrected value as corrected and no longer unsure', () => {
    const all = buildFieldGroups(makeReview(extraction, ['documentDate'])).flatMap((g) => g.values);
    expect(all.find((v) => v.key === 'documentDate')).toMatchObject({ source: 'corrected', problems: [] });
  });

  it('says which correction taught a value read from memory, until a person types their own', () => {
    const learned = {
      ...extraction,
      provenance: {
        ...extraction.provenance,
        documentNumber: { page: 1, bbox: [1, 1, 2, 2], source: 'text', learnedFrom: 'INV-0142' },
        vendorName: { page: 1, bbox: [1, 1, 2, 2], source: 'text', learnedFrom: null },
      },
    };
    const all = buildFieldGroups(makeReview(learned)).flatMap((g) => g.values);
    const number = all.find((v) => v.key === 'documentNumber')!;
    expect(number.lesson).toEqual({ from: 'INV-0142' });
    expect(describeLesson(number.lesson!)).toBe('Learned from your correction on INV-0142');
    expect(describeLesson(all.find((v) => v.key === 'vendorName')!.lesson!)).toBe(
      'Learned from your correction of an earlier document from the same sender',
    );
    expect(all.find((v) => v.key === 'total')!.lesson).toBeNull();
    const typed = buildFieldGroups(makeReview(learned, ['documentNumber'])).flatMap((g) => g.values);
    expect(typed.find((v) => v.key === 'documentNumber')!.lesson).toBeNull();
  });

  it('builds line cells keyed by line and field', () => {
    const { rows } = buildLineRows(makeReview(extraction));
    expect(rows[0]!.find((c) => c.key === 'lineItems.1.amount')).toMatchObject({
      value: 1000,
      source: 'ocr',
      box: { page: 1, bbox: [1, 2, 3, 4] },
    });
  });

  it('jumps from one value that asks for a look to the next, wrapping round', () => {
    const values = buildFieldGroups(makeReview(extraction)).flatMap((g) => g.values);
    expect(findNextLook(values, null)).toBe('documentDate');
    expect(findNextLook(values, 'documentDate')).toBe('total');
    expect(findNextLook(values, 'total')).toBe('documentDate');
  });

  it('shows values the way a person types them', () => {
    expect(formatInputValue('date', '2025-08-14')).toBe('14/08/2025');
    expect(formatInputValue('money', 123456.5)).toBe('1,23,456.50');
    expect(formatInputValue('text', null)).toBe('');
    expect(describeFieldKey('invoice', 'lineItems.2.amount')).toBe('Line 2 · Amount');
    expect(describeFieldKey('invoice', 'total')).toBe('Total');
  });
});
