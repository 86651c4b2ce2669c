import { describe, expect, it } from 'vitest';
import { textPdf } from '../test/pdf-builder.ts';
import { extractDocument } from './extract.ts';
import type { FieldProvider, FieldRequest } from './field-provider.ts';
import { readProvidedValue } from './field-provider.ts';

const invoice = textPdf([
  ['TAX INVOICE', 'Taxable Value 1,000.00', 'CGST @ 9% 90.00', 'SGST @ 9% 90.00', 'Grand Total 1,180.00'],
]);

/** A stand-in for a language model: answers from a fixed table and records what it was asked. */
function answering(answers: Record<string, unknown>): FieldProvider & { asked: FieldRequest[] } {
  const asked: FieldRequest[] = [];
  return {
    asked,
    async proposeFields(request) {
      asked.push(request);
      return answers;
    },
  };
}

describe('a field provider', () => {
  it('is asked only for empty fields, with the document text, and its values are marked llm', async () => {
    const provider = answering({ documentNumber: 'INV/9', documentDate: '14-08-2025', total: 5 });
    const r = await extractDocument(invoice, { type: 'invoice', fieldProvider: provider });
    expect(provider.asked).toHaveLength(1);
    expect(provider.asked[0]!.missing).toContain('documentNumber');
    expect(provider.asked[0]!.missing).not.toContain('total');
    expect(provider.asked[0]!.text).toMatch(/Grand Total 1,180.00/);
    expect(r.fields.documentNumber).toBe('INV/9');
    expect(r.fields.documentDate).toBe('2025-08-14');
    // A value the rules found is never replaced.
    expect(r.fields.total).toBe(1180);
    expect(r.provenance.documentNumber?.source).toBe('llm');
    expect(r.confidence.documentNumber).toBeLessThan(0.8);
  });

  it('drops answers that do not read as their kind or that break a check that passed', async () => {
    const provider = answering({
      documentDate: 'sometime last August',
      vendorGstin: '29AABCT1332L1ZB',
      roundOff: '5.00',
      buyerName: 'Acme Traders',
    });
    const r = await extractDocument(invoice, { type: 'invoice', fieldProvider: provider });
    expect(r.fields.documentDate).toBeNull();
    // The check character fails: a new failed check, so the answer goes.
    expect(r.fields.vendorGstin).toBeNull();
    // 1,000 + 90 + 90 + 5 ≠ 1,180: taxes_sum_to_total passed without it.
    expect(r.fields.roundOff).toBeNull();
    expect(r.checks.find((c) => c.code === 'taxes_sum_to_total')?.ok).toBe(true);
    expect(r.fields.buyerName).toBe('Acme Traders');
  });

  it('reads answers with the engine value readers', () => {
    expect(readProvidedValue('invoice', 'total', 'Rs. 1,23,456.78/-')).toBe(123456.78);
    expect(readProvidedValue('invoice', 'placeOfSupply', 'Karnataka')).toBe('29');
    expect(readProvidedValue('invoice', 'documentNumber', 'INV-1 or maybe INV-2')).toBeNull();
    expect(readProvidedValue('invoice', 'vendorGstin', '29AABCT1332L1ZA')).toBe('29AABCT1332L1ZA');
  });
});
