import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as india from './index.ts';

describe('@bahi/india public API', () => {
  it('exports every name other packages code against', () => {
    const names = [
      'GSTIN_PATTERN',
      'normalizeGstinInput',
      'computeGstinCheckChar',
      'validateGstin',
      'isValidGstin',
      'panFromGstin',
      'isValidPan',
      'repairGstin',
      'STATES',
      'stateByCode',
      'stateCodeFromText',
      'parseIndianAmount',
      'formatIndianNumber',
      'roundMoney',
      'toPaise',
      'amountsEqual',
      'parseIndianDate',
      'findDates',
      'amountToWords',
      'parseAmountInWords',
      'gstSlabsOn',
      'isValidGstRate',
      'supplyTypeFor',
      'expectedTaxHeads',
      'splitGstRate',
      'isValidHsnSac',
      'isSac',
      'normalizeIndianPhone',
      'isValidIndianPhone',
    ];
    for (const name of names) expect(india, name).toHaveProperty(name);
  });

  it('stays browser-safe: no Node built-ins or dependencies in library code', () => {
    const dir = new URL('.', import.meta.url);
    const sources = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(sources.length).toBeGreaterThan(5);
    for (const file of sources) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      const imports = [...text.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]!);
      for (const spec of imports) expect(spec, `${file} imports ${spec}`).toMatch(/^\.\/[a-z-]+\.ts$/);
    }
  });
});
