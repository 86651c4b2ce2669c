import type { ExtractionResult } from '@bahi/engine';
import { describe, expect, it } from 'vitest';
import { applyCorrections, collectLatestCorrections, listCorrectedFields } from './document-corrections.ts';

const reading = {
  contract: 'extraction/v1',
  file: 'bill.pdf',
  documentType: 'invoice',
  pages: 1,
  source: 'text',
  fields: { documentNumber: 'INV-1', taxableValue: 1000, cgst: 90, sgst: 90, total: 1108 },
  lineItems: [{ description: 'Steel', amount: 1000 }],
  checks: [],
  confidence: { total: 0.5 },
  provenance: {},
  error: null,
} as unknown as ExtractionResult;

describe('corrections over a new reading', () => {
  it('takes the latest value a person gave each field', () => {
    const latest = collectLatestCorrections([
      { kind: 'corrected', field: 'total', newValue: 1200 },
      { kind: 'approved', field: null, newValue: null },
      { kind: 'corrected', field: 'total', newValue: 1180 },
      { kind: 'corrected', field: 'lineItems.3.amount', newValue: 5 },
    ]);
    expect([...latest]).toEqual([
      ['total', 1180],
      ['lineItems.3.amount', 5],
    ]);
  });

  it('lays them over the reading, re-checks, and leaves out cells of lines the reading lost', () => {
    const latest = new Map<string, string | number | null>([
      ['total', 1180],
      ['lineItems.1.description', 'MS Steel'],
      ['lineItems.3.amount', 5],
    ]);
    const result = applyCorrections(reading, latest)!;
    expect(result.fields.total).toBe(1180);
    expect(result.confidence.total).toBe(1);
    expect(result.lineItems).toEqual([{ description: 'MS Steel', amount: 1000 }]);
    expect(result.checks.find((c) => c.code === 'taxes_sum_to_total')?.ok).toBe(true);
    expect(listCorrectedFields(result, latest).sort()).toEqual(['lineItems.1.description', 'total']);
    expect(applyCorrections(reading, new Map())).toBeNull();
  });
});
