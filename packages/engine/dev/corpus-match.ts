// Dev tools only: the corpus scorer's rule for whether a predicted value matches the truth
// (shared/corpus/score.mjs, "Matching"), so dev scripts score the way the corpus does.
import { listFieldsOfKind } from '@bahi/contracts/extraction';

const DATE = /Date$/;
// Compared exactly: codes, GSTINs, state codes, the currency (vehicle numbers ignore spaces and hyphens).
const CODE = new Set(
  (['code', 'gstin', 'stateCode', 'currency'] as const)
    .flatMap((k) => listFieldsOfKind(k))
    .filter((f) => f !== 'vehicleNumber'),
);
const NUMERIC = new Set([
  ...listFieldsOfKind('money'),
  ...listFieldsOfKind('quantity'),
  ...listFieldsOfKind('percent'),
]);
const norm = (s: unknown) =>
  String(s)
    .replace(/[\s.,\-\u2013\u2014]/g, '')
    .toLowerCase();

/** Whether a predicted value of `field` matches the truth as the corpus scorer counts it. */
export function matchesTruth(field: string, truth: unknown, pred: unknown): boolean {
  if (pred === null || pred === undefined) return false;
  if (NUMERIC.has(field)) return typeof pred === 'number' && Math.abs(pred - Number(truth)) <= 0.01 + 1e-9;
  if (DATE.test(field) || CODE.has(field)) return pred === truth;
  if (field === 'vehicleNumber')
    return (
      String(pred).replace(/[\s-]/g, '').toUpperCase() === String(truth).replace(/[\s-]/g, '').toUpperCase()
    );
  return norm(pred) === norm(truth);
}
