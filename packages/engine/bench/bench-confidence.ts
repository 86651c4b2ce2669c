/**
 * `npm run bench:confidence`: would confidence learned from the corpora beat the hand-set rules?
 * For each vendor-disjoint fold of the real corpus, fits the learned model (`src/confidence/`) on
 * the synthetic dev corpus plus the other four folds, and scores the fold three ways: the rules'
 * confidence as shipped, the learned confidence as a veto over it (the lower of the two), and the
 * learned confidence alone. Reported per fold as trust-check does: OK rows (no review asked), OK
 * rows with a wrong header value, precision of values given ≥ 0.9.
 *
 *   npx tsx packages/engine/dev/dev-fast.ts --corpus ../shared/corpus/real --ocr paddle --out /tmp/real.ndjson
 *   npx tsx packages/engine/dev/dev-fast.ts --corpus ../shared/corpus/dev --ocr paddle --out /tmp/dev.ndjson
 *   npm run bench:confidence -- --real /tmp/real.ndjson --dev /tmp/dev.ndjson
 *
 * Options: --sure P and --ok P (the precision the learned bands must keep on the training values;
 * default 0.99 and 0.98), --real-weight N (a real value against a synthetic one, default 3).
 * Fold 5 is held out as everywhere: only its figures are printed.
 */
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { matchesTruth } from '../dev/corpus-match.ts';
import { fieldGroup } from './confidence/features.ts';
import { toConfidence } from './confidence/learned.ts';
import { type ConfidenceModel, fitModel, probabilityRight } from './confidence/model.ts';
import { readSavedPredictions, type SavedPrediction, samplesOf } from './confidence-samples.ts';
import { assignFolds, type CorpusDoc, loadCorpusDocs } from './folds.ts';

const repo = resolve(import.meta.dirname, '../../..');
const { values: opts } = parseArgs({
  options: {
    real: { type: 'string' },
    dev: { type: 'string' },
    sure: { type: 'string', default: '0.99' },
    ok: { type: 'string', default: '0.98' },
    'real-weight': { type: 'string', default: '3' },
  },
});
if (!opts.real || !opts.dev) {
  console.error(
    'usage: npm run bench:confidence -- --real REAL.ndjson --dev DEV.ndjson (dev/dev-fast.ts output)',
  );
  process.exit(2);
}

/** The rules trust-check.mjs and the server use for "written without review". */
const CRITICAL: Record<string, string[]> = {
  invoice: ['documentNumber', 'documentDate', 'vendorName', 'total'],
  po: ['documentNumber', 'documentDate', 'vendorName'],
  grn: ['documentNumber', 'documentDate', 'vendorName'],
};
const MODES = ['rules', 'veto', 'learned'] as const;
type Mode = (typeof MODES)[number];
interface Trust {
  ok: number;
  okWrong: number;
  hi: number;
  hiRight: number;
}

/** Each value's confidence under one mode. */
function confidenceOf(p: SavedPrediction, model: ConfidenceModel, mode: Mode): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [f, rule] of Object.entries(p.confidence ?? {})) {
    const x = p._features?.[f];
    const learned = x ? toConfidence(model, probabilityRight(model, fieldGroup(f), x)) : rule;
    out[f] = mode === 'rules' ? rule : mode === 'veto' ? Math.min(rule, learned) : learned;
  }
  return out;
}

function trustOf(
  docs: CorpusDoc[],
  preds: Map<string, SavedPrediction>,
  model: ConfidenceModel,
  mode: Mode,
): Trust {
  const t: Trust = { ok: 0, okWrong: 0, hi: 0, hiRight: 0 };
  for (const d of docs) {
    const p = preds.get(basename(d.file));
    if (!p || p.error) continue;
    const conf = confidenceOf(p, model, mode);
    const fields = p.fields ?? {};
    const right = (f: string, v: unknown) =>
      d.truth.fields[f] !== null && d.truth.fields[f] !== undefined && matchesTruth(f, d.truth.fields[f], v);
    const scored = Object.entries(fields).filter(
      ([f, v]) => v !== null && v !== undefined && f in d.truth.fields,
    );
    for (const [f, v] of scored)
      if ((conf[f] ?? 0) >= 0.9) {
        t.hi++;
        if (right(f, v)) t.hiRight++;
      }
    const review =
      (p.checks ?? []).some((c) => !c.ok) ||
      CRITICAL[d.type]!.some((f) => fields[f] === null || fields[f] === undefined || fields[f] === '') ||
      Object.values(conf).some((c) => c < 0.8);
    if (review) continue;
    t.ok++;
    if (scored.some(([f, v]) => !right(f, v))) t.okWrong++;
  }
  return t;
}

const real = loadCorpusDocs(resolve(repo, '../shared/corpus/real'));
const dev = loadCorpusDocs(resolve(repo, '../shared/corpus/dev'));
const folds = assignFolds(real);
const realPreds = readSavedPredictions(opts.real);
const devSamples = samplesOf(dev, readSavedPredictions(opts.dev), 1);
const byFile = new Map(realPreds.map((p) => [basename(p.file), p]));
const targets = { sure: Number(opts.sure), ok: Number(opts.ok) };
const weight = Number(opts['real-weight']);
const cell = (t: Trust) =>
  `${String(t.ok).padStart(4)} ${String(t.okWrong).padStart(3)} ${(t.hi ? t.hiRight / t.hi : 1).toFixed(3)} (${t.hi})`.padEnd(
    22,
  );
console.log(`fold  thresholds ok/sure | ${MODES.map((m) => `${m}: OK wrong P≥.9`.padEnd(22)).join(' | ')}`);
const totals = new Map<Mode, Trust>(MODES.map((m) => [m, { ok: 0, okWrong: 0, hi: 0, hiRight: 0 }]));
for (let k = 1; k <= 5; k++) {
  const training = real.filter((d) => folds.get(d.stem) !== k);
  const model = fitModel([...devSamples, ...samplesOf(training, realPreds, weight)], { targets });
  const held = real.filter((d) => folds.get(d.stem) === k);
  const cells = MODES.map((m) => {
    const t = trustOf(held, byFile, model, m);
    const sum = totals.get(m)!;
    for (const key of ['ok', 'okWrong', 'hi', 'hiRight'] as const) sum[key] += t[key];
    return cell(t);
  });
  const thr = `${model.thresholds.ok.toFixed(3)}/${model.thresholds.sure.toFixed(3)}`;
  const label = k === 5 ? '5*' : String(k);
  console.log(`${label.padEnd(6)}${thr.padEnd(14)} | ${cells.join(' | ')}`);
}
console.log(`${'all'.padEnd(20)} | ${MODES.map((m) => cell(totals.get(m)!)).join(' | ')}`);
console.log('* held-out fold; each fold is scored by a model fitted without it');
