/**
 * Does confidence mean something? Reads `npx bahi extract` NDJSON for a corpus and reports, per
 * confidence band, how often the header values the engine gave are right (only fields the truth
 * labels; a value for a field the truth leaves null counts as wrong).
 *   npx bahi extract --type invoice ../shared/corpus/real/*.{pdf,jpg,...} > /tmp/inv.ndjson   (and po, grn)
 *   npx tsx packages/engine/dev/dev-calibration.ts CORPUS_DIR /tmp/inv.ndjson [/tmp/po.ndjson ...]
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { matchesTruth } from './corpus-match.ts';

const [corpus, ...files] = process.argv.slice(2);
if (!corpus || !files.length) {
  console.error('usage: dev-calibration.ts CORPUS_DIR PREDICTIONS.ndjson...');
  process.exit(2);
}
const BANDS = [0.99, 0.95, 0.9, 0.8, 0.7, 0.5, 0];
const tally = new Map<number, { right: number; wrong: number }>(
  BANDS.map((b) => [b, { right: 0, wrong: 0 }]),
);
const wrongs: string[] = [];
for (const file of files)
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as {
      file: string;
      error: unknown;
      fields: Record<string, unknown>;
      confidence: Record<string, number>;
    };
    if (r.error) continue;
    const stem = basename(r.file).replace(/\.[^.]+$/, '');
    const truthFile = join(corpus, `${stem}.truth.json`);
    if (!existsSync(truthFile)) continue;
    const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as { fields: Record<string, unknown> };
    for (const [f, v] of Object.entries(r.fields)) {
      if (v === null || v === undefined || !(f in truth.fields)) continue;
      const c = r.confidence[f] ?? 0;
      const band = BANDS.find((b) => c >= b)!;
      const ok = truth.fields[f] !== null && matchesTruth(f, truth.fields[f], v);
      tally.get(band)![ok ? 'right' : 'wrong']++;
      if (!ok && c >= 0.9)
        wrongs.push(
          `${stem} ${f}=${JSON.stringify(v)} (truth ${JSON.stringify(truth.fields[f])}, conf ${c})`,
        );
    }
  }
console.log('confidence   values  right  precision');
let cumRight = 0;
let cumAll = 0;
BANDS.forEach((b, i) => {
  const t = tally.get(b)!;
  const n = t.right + t.wrong;
  cumRight += t.right;
  cumAll += n;
  const range = i === 0 ? `≥ ${b}` : `${b}–${BANDS[i - 1]}`;
  console.log(
    `${range.padEnd(11)} ${String(n).padStart(7)} ${String(t.right).padStart(6)}  ${n ? (t.right / n).toFixed(3) : '-'}   (≥ ${b}: ${cumAll ? (cumRight / cumAll).toFixed(3) : '-'} of ${cumAll})`,
  );
});
if (wrongs.length) console.log(`\nwrong at confidence ≥ 0.9:\n  ${wrongs.join('\n  ')}`);
