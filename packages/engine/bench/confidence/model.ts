import { FEATURE_NAMES, FIELD_GROUPS, type FieldGroup } from './features.ts';

/**
 * A fitted confidence model: logistic regression per field group over `FEATURE_NAMES`, each
 * group's weights the shared weights plus its own offsets (a group with few examples stays near
 * the shared ones). `npm run bench:confidence` fits one per held-out fold and compares it with the
 * rules' confidence; extraction does not use it until it beats them there (see the bench's note).
 */
export interface ConfidenceModel {
  version: number;
  /** What it was fitted on, for the record (corpora and folds; never a file list). */
  trainedOn: string;
  features: string[];
  shared: number[];
  groups: Record<FieldGroup, number[]>;
  /**
   * The probability a value must reach to be given each confidence band: `sure` (≥ 0.9, written
   * without a second look) and `ok` (≥ 0.8, no review asked), chosen on the training data so that
   * the bands keep their meaning.
   */
  thresholds: { sure: number; ok: number };
}

/** One training example: a value's features, its group, whether it was right, and its weight. */
export interface Sample {
  group: FieldGroup;
  x: number[];
  y: 0 | 1;
  w: number;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The model's probability that a value with these features is right. */
export function probabilityRight(model: ConfidenceModel, group: FieldGroup, x: number[]): number {
  const g = model.groups[group];
  let z = 0;
  for (let i = 0; i < x.length; i++) z += x[i]! * (model.shared[i]! + (g?.[i] ?? 0));
  return sigmoid(z);
}

/** Options of {@link fitModel}. */
export interface FitOptions {
  /** L2 penalty on the shared weights (per unit of sample weight). */
  l2Shared?: number;
  /** L2 penalty on a group's offsets: larger keeps groups closer to the shared weights. */
  l2Group?: number;
  iterations?: number;
  trainedOn?: string;
  /** Precision a band must keep on the training data: `sure` and `ok`. */
  targets?: { sure: number; ok: number };
}

/**
 * Fit the model by full-batch gradient descent with Adam steps (the data are a few thousand values:
 * seconds, and the same result every run — no randomness anywhere).
 */
export function fitModel(samples: Sample[], opts: FitOptions = {}): ConfidenceModel {
  const d = FEATURE_NAMES.length;
  const l2s = opts.l2Shared ?? 0.01;
  const l2g = opts.l2Group ?? 0.1;
  const iterations = opts.iterations ?? 3000;
  const params = [new Array(d).fill(0), ...FIELD_GROUPS.map(() => new Array(d).fill(0))];
  const m = params.map((p) => p.map(() => 0));
  const v = params.map((p) => p.map(() => 0));
  const gIndex = new Map(FIELD_GROUPS.map((g, i) => [g, i + 1]));
  const total = samples.reduce((s, x) => s + x.w, 0) || 1;
  for (let it = 1; it <= iterations; it++) {
    const grad = params.map((p) => p.map(() => 0));
    for (const s of samples) {
      const gi = gIndex.get(s.group)!;
      let z = 0;
      for (let i = 0; i < d; i++) z += s.x[i]! * (params[0]![i]! + params[gi]![i]!);
      const err = (sigmoid(z) - s.y) * s.w;
      for (let i = 0; i < d; i++) {
        grad[0]![i]! += err * s.x[i]!;
        grad[gi]![i]! += err * s.x[i]!;
      }
    }
    params.forEach((p, k) => {
      const l2 = k === 0 ? l2s : l2g;
      for (let i = 0; i < d; i++) {
        // The bias is not pulled towards zero: it carries the base rate.
        const pen = k === 0 && i === 0 ? 0 : l2 * p[i]!;
        const g = grad[k]![i]! / total + pen;
        m[k]![i] = 0.9 * m[k]![i]! + 0.1 * g;
        v[k]![i] = 0.999 * v[k]![i]! + 0.001 * g * g;
        const mh = m[k]![i]! / (1 - 0.9 ** it);
        const vh = v[k]![i]! / (1 - 0.999 ** it);
        p[i] = p[i]! - (0.05 * mh) / (Math.sqrt(vh) + 1e-8);
      }
    });
  }
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  const model: ConfidenceModel = {
    version: 1,
    trainedOn: opts.trainedOn ?? '',
    features: [...FEATURE_NAMES],
    shared: params[0]!.map(round),
    groups: Object.fromEntries(FIELD_GROUPS.map((g, i) => [g, params[i + 1]!.map(round)])) as Record<
      FieldGroup,
      number[]
    >,
    thresholds: { sure: 1, ok: 1 },
  };
  const targets = opts.targets ?? { sure: 0.99, ok: 0.98 };
  model.thresholds = {
    sure: bandThreshold(model, samples, targets.sure),
    ok: bandThreshold(model, samples, targets.ok),
  };
  return model;
}

/**
 * The lowest probability above which the training values are right at least `precision` of the
 * time (by weight): the values at or over it form the band.
 */
function bandThreshold(model: ConfidenceModel, samples: Sample[], precision: number): number {
  const scored = samples
    .map((s) => ({ p: probabilityRight(model, s.group, s.x), y: s.y, w: s.w }))
    .sort((a, b) => b.p - a.p);
  let right = 0;
  let all = 0;
  let best = 1;
  for (let i = 0; i < scored.length; i++) {
    right += scored[i]!.y * scored[i]!.w;
    all += scored[i]!.w;
    // Only cut between different probabilities: equal ones are in the band together.
    if (i + 1 < scored.length && scored[i + 1]!.p === scored[i]!.p) continue;
    if (right / all >= precision) best = scored[i]!.p;
  }
  return Math.round(best * 1e4) / 1e4;
}
