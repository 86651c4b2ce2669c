import { describe, expect, it } from 'vitest';
import {
  type ConfidenceEvidence,
  FEATURE_NAMES,
  fieldFeatures,
  fieldGroup,
} from '../bench/confidence/features.ts';
import { learnedConfidence, toConfidence } from '../bench/confidence/learned.ts';
import { fitModel, probabilityRight, type Sample } from '../bench/confidence/model.ts';

const at = (name: (typeof FEATURE_NAMES)[number]) => FEATURE_NAMES.indexOf(name);

/** Values read by OCR are wrong one time in four here; text-layer values never. */
function samples(): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < 400; i++) {
    const x = FEATURE_NAMES.map(() => 0);
    x[at('bias')] = 1;
    x[at('rule')] = 0.9;
    const ocr = i % 2 === 0;
    x[at('ocr')] = ocr ? 1 : 0;
    out.push({ group: i % 3 ? 'number' : 'name', x, y: ocr && i % 8 === 0 ? 0 : 1, w: 1 });
  }
  return out;
}

describe('learned confidence', () => {
  it('learns which values fail and sets its bands where the training values keep their precision', () => {
    const s = samples();
    const model = fitModel(s, { iterations: 1500, targets: { sure: 0.99, ok: 0.7 } });
    const text = s.find((x) => x.x[at('ocr')] === 0)!;
    const ocr = s.find((x) => x.x[at('ocr')] === 1)!;
    const pText = probabilityRight(model, 'number', text.x);
    const pOcr = probabilityRight(model, 'number', ocr.x);
    expect(pText).toBeGreaterThan(0.95);
    expect(pOcr).toBeGreaterThan(0.6);
    expect(pOcr).toBeLessThan(0.85);
    // Only text-layer values are right 99 % of the time: the sure band holds them and no OCR value.
    expect(toConfidence(model, pText)).toBeGreaterThanOrEqual(0.9);
    expect(toConfidence(model, pOcr)).toBeLessThan(0.9);
    expect(toConfidence(model, pOcr)).toBeGreaterThanOrEqual(0.8);
  });

  it('gives the same model for the same data (no randomness)', () => {
    expect(fitModel(samples(), { iterations: 200 })).toEqual(fitModel(samples(), { iterations: 200 }));
  });

  it('maps probabilities onto the product scale monotonically, thresholds onto 0.8 and 0.9', () => {
    const model = fitModel(samples(), { iterations: 10 });
    model.thresholds = { ok: 0.9, sure: 0.97 };
    expect(toConfidence(model, 0.9)).toBeCloseTo(0.8);
    expect(toConfidence(model, 0.97)).toBeCloseTo(0.9);
    expect(toConfidence(model, 1)).toBeCloseTo(1);
    let last = -1;
    for (let p = 0; p <= 1; p += 0.01) {
      expect(toConfidence(model, p)).toBeGreaterThanOrEqual(last);
      last = toConfidence(model, p);
    }
  });

  it('only lowers what the rules gave: a failed check stays at the rules’ figure', () => {
    const model = fitModel(samples(), { iterations: 1500 });
    const e: ConfidenceEvidence = {
      type: 'invoice',
      fields: { documentNumber: 'SP/0042', total: 1180 },
      provenance: {
        documentNumber: { page: 1, bbox: [0, 0, 1, 1], source: 'text' },
        total: { page: 1, bbox: [0, 0, 1, 1], source: 'text' },
      },
      checks: [{ code: 'taxes_sum_to_total', field: 'total', ok: false, message: '' }],
      rule: { documentNumber: 0.95, total: 0.5 },
      raw: { documentNumber: 0.95, total: 0.9 },
      disputed: new Set(),
      amountsAddUp: false,
    };
    const c = learnedConfidence(model, e);
    expect(c.total).toBeLessThanOrEqual(0.5);
    expect(c.documentNumber).toBeLessThanOrEqual(0.95);
    expect(fieldFeatures('total', e)[at('failedCheck')]).toBe(1);
  });

  it('groups fields by the kind of value they hold', () => {
    expect(fieldGroup('total')).toBe('money');
    expect(fieldGroup('cgst')).toBe('money');
    expect(fieldGroup('documentDate')).toBe('date');
    expect(fieldGroup('vendorGstin')).toBe('gstin');
    expect(fieldGroup('buyerName')).toBe('name');
    expect(fieldGroup('vendorAddress')).toBe('text');
    expect(fieldGroup('documentNumber')).toBe('number');
    expect(fieldGroup('poNumber')).toBe('number');
    expect(fieldGroup('placeOfSupply')).toBe('code');
  });
});
