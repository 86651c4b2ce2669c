import { type ConfidenceEvidence, fieldFeatures, fieldGroup } from './features.ts';
import { type ConfidenceModel, probabilityRight } from './model.ts';

/**
 * A probability on the confidence scale the product reads: the model's `ok` threshold maps to 0.8
 * (the review line) and its `sure` threshold to 0.9, linearly between, so the bands keep the meaning
 * they were fitted for.
 */
export function toConfidence(model: ConfidenceModel, p: number): number {
  const { ok, sure } = model.thresholds;
  const lerp = (x: number, x0: number, x1: number, y0: number, y1: number) =>
    x1 > x0 ? y0 + ((x - x0) / (x1 - x0)) * (y1 - y0) : y0;
  if (p >= sure) return lerp(p, sure, 1, 0.9, 1);
  if (p >= ok) return lerp(p, ok, sure, 0.8, 0.9);
  return lerp(p, 0, ok, 0, 0.8);
}

/**
 * The learned confidence of each value the rules gave one: the model's probability that it is
 * right, on the product's scale. It can only lower a value's confidence: a rule of the document
 * (a failed check, a refuted amount, a disputed label) stands, and the model adds the doubts the
 * rules do not know about.
 */
export function learnedConfidence(model: ConfidenceModel, e: ConfidenceEvidence): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [field, rule] of Object.entries(e.rule)) {
    const p = probabilityRight(model, fieldGroup(field), fieldFeatures(field, e));
    out[field] = Math.round(Math.min(rule, toConfidence(model, p)) * 100) / 100;
  }
  return out;
}
