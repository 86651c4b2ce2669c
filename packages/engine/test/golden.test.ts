import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../src/extract.ts';

// Fixtures are HTML pages printed to PDF by chromium (the .html sources sit beside them), with
// label wording deliberately unlike the dev corpus ("Bill No.", "Billed To", "Supplier Details",
// "Receipt No.", "Truck No."). Expectations are written by hand from the HTML, not from output.
const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);

describe.each(['golden-invoice', 'golden-po', 'golden-grn'])('%s', (name) => {
  const expected = JSON.parse(readFileSync(fixture(`${name}.expected.json`), 'utf8')) as {
    documentType: string;
    fields: Record<string, unknown>;
    lineCount: number;
  };

  it('classifies the document and reads every header field', async () => {
    const r = await extractDocument(new Uint8Array(readFileSync(fixture(`${name}.pdf`))), { fileName: name });
    expect(r.error).toBeNull();
    expect(r.contract).toBe('extraction/v1');
    expect(r.documentType).toBe(expected.documentType);
    expect(r.source).toBe('text');
    expect(r.fields).toEqual(expected.fields);
    expect(r.lineItems).toHaveLength(expected.lineCount);
    // Every extracted field carries provenance inside the page and a confidence.
    for (const [k, v] of Object.entries(r.fields)) {
      if (v === null || k === 'currency') continue;
      const p = r.provenance[k];
      expect(p, k).toBeDefined();
      expect(p!.page).toBe(1);
      expect(p!.bbox[0]).toBeLessThanOrEqual(p!.bbox[2]);
      expect(p!.bbox[3]).toBeLessThan(842);
      expect(r.confidence[k]).toBeGreaterThan(0);
    }
    // The fixtures add up and carry valid GSTINs: every check passes.
    expect(r.checks.filter((c) => !c.ok)).toEqual([]);
  });
});

describe('checks flag what does not add up', () => {
  it('a wrong total fails taxes_sum_to_total and amount_in_words_matches_total', async () => {
    const { runChecks } = await import('../src/checks.ts');
    const checks = runChecks(
      'invoice',
      {
        taxableValue: 100,
        cgst: 9,
        sgst: 9,
        igst: null,
        total: 120,
        roundOff: null,
        vendorGstin: '29AABFK1234M1ZB',
      },
      [{ amount: 100 }],
      118,
    );
    const byCode = Object.fromEntries(checks.map((c) => [c.code, c.ok]));
    expect(byCode).toMatchObject({
      taxes_sum_to_total: false,
      amount_in_words_matches_total: false,
      lines_sum_to_taxable_value: true,
      gstin_format: true,
      gstin_checksum: false,
    });
  });

  it('IGST on an intra-state supply fails tax_type_matches_place_of_supply', async () => {
    const { runChecks } = await import('../src/checks.ts');
    const checks = runChecks(
      'invoice',
      { vendorStateCode: '29', placeOfSupply: '29', igst: 18, total: 118, taxableValue: 100 },
      [],
      null,
    );
    expect(checks.find((c) => c.code === 'tax_type_matches_place_of_supply')?.ok).toBe(false);
  });

  it('GRN lines whose accepted + rejected ≠ received fail grn_quantities_balance', async () => {
    const { runChecks } = await import('../src/checks.ts');
    const checks = runChecks(
      'grn',
      {},
      [{ receivedQuantity: 10, acceptedQuantity: 8, rejectedQuantity: 1 }],
      null,
    );
    expect(checks).toEqual([expect.objectContaining({ code: 'grn_quantities_balance', ok: false })]);
  });
});
