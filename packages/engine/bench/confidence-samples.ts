/**
 * Training examples for the learned confidence model (`src/confidence/`): every header value of a
 * saved prediction (dev-fast NDJSON, which carries each value's features as `_features`) whose
 * field the truth labels, marked right or wrong by the corpus scorer's rule.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { matchesTruth } from '../dev/corpus-match.ts';
import { fieldGroup } from './confidence/features.ts';
import type { Sample } from './confidence/model.ts';
import type { CorpusDoc } from './folds.ts';

/** One saved prediction, as dev/dev-fast.ts writes it. */
export interface SavedPrediction {
  file: string;
  error?: unknown;
  fields?: Record<string, unknown>;
  checks?: Array<{ ok: boolean; field?: string | null }>;
  confidence?: Record<string, number>;
  _features?: Record<string, number[]>;
}

/** Read an NDJSON file of predictions. */
export function readSavedPredictions(file: string): SavedPrediction[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as SavedPrediction);
}

/** The labelled values of `docs` in `preds` as samples of weight `weight`. */
export function samplesOf(docs: CorpusDoc[], preds: SavedPrediction[], weight: number): Sample[] {
  const byFile = new Map(preds.map((p) => [basename(p.file), p]));
  const out: Sample[] = [];
  for (const d of docs) {
    const p = byFile.get(basename(d.file));
    if (!p || p.error || !p._features) continue;
    for (const [field, x] of Object.entries(p._features)) {
      const value = p.fields?.[field];
      const truth = d.truth.fields[field];
      if (value === null || value === undefined || truth === undefined) continue;
      const right = truth !== null && matchesTruth(field, truth, value);
      out.push({ group: fieldGroup(field), x, y: right ? 1 : 0, w: weight });
    }
  }
  return out;
}
