/**
 * `npm run bench:folds`: the engine's score on each vendor-disjoint fold of the real corpus
 * (`folds.ts`), beside the trust figures of `shared/corpus/trust-check.mjs` per fold: how many
 * documents would be written without review ("OK" rows), how many of those carry a wrong header
 * value, and how often a value given with confidence ≥ 0.9 is right.
 *
 *   npm run bench:folds                                   # runs `bahi extract` on the corpus
 *   npm run bench:folds -- --predictions /tmp/p.ndjson    # scores saved output (dev/dev-fast.ts)
 *   npm run bench:folds -- --list                         # which documents are in folds 1–4
 *
 * Options: --corpus DIR (default ../shared/corpus/real), --folds N (5), --scorer FILE
 * (../shared/corpus/score.mjs), --verbose (each OK row with a wrong value, folds 1–4 only).
 * Fold 5 is the held-out fold: develop on 1–4 and read fold 5 only through its score, so the list
 * and the verbose output never name its documents.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { assignFolds, type CorpusDoc, loadCorpusDocs } from './folds.ts';

const repo = resolve(import.meta.dirname, '../../..');
const { values: opts } = parseArgs({
  options: {
    corpus: { type: 'string', default: resolve(repo, '../shared/corpus/real') },
    scorer: { type: 'string', default: resolve(repo, '../shared/corpus/score.mjs') },
    predictions: { type: 'string' },
    folds: { type: 'string', default: '5' },
    list: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
const FOLDS = Number(opts.folds);
const HELD_OUT = FOLDS;

/** The rules trust-check.mjs and the server use for "written without review". */
const CRITICAL: Record<string, string[]> = {
  invoice: ['documentNumber', 'documentDate', 'vendorName', 'total'],
  po: ['documentNumber', 'documentDate', 'vendorName'],
  grn: ['documentNumber', 'documentDate', 'vendorName'],
};

interface Prediction {
  file: string;
  error?: unknown;
  fields?: Record<string, unknown>;
  lineItems?: unknown[];
  checks?: Array<{ ok: boolean }>;
  confidence?: Record<string, number>;
}
interface Counts {
  tp: number;
  fp: number;
  fn: number;
}
interface Scorer {
  matches(field: string, truth: unknown, pred: unknown): boolean;
  scoreDoc(
    truth: unknown,
    pred: unknown,
    perField: (k: string) => { add(o: Counts): void },
  ): {
    header: Counts;
    lines: Counts;
  };
}

/** score.mjs runs its CLI on import; load its functions from a copy without the call. */
async function loadScorer(file: string): Promise<Scorer> {
  const src = readFileSync(file, 'utf8').replace(/^main\(\)\.catch.*$/m, '');
  const lib = join(tmpdir(), `bahi-folds-score-${process.pid}.mjs`);
  writeFileSync(lib, src);
  return (await import(lib)) as Scorer;
}

/** `bahi extract` over the corpus, one batch per type (as score.mjs runs it). */
function extractAll(docs: CorpusDoc[]): Prediction[] {
  const out: Prediction[] = [];
  for (const type of ['invoice', 'po', 'grn'] as const) {
    const files = docs.filter((d) => d.type === type).map((d) => d.file);
    if (!files.length) continue;
    process.stderr.write(`running: npx bahi extract --type ${type} (${files.length} files)\n`);
    const r = spawnSync('npx', ['--no', 'bahi', 'extract', '--type', type, ...files], {
      cwd: repo,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    if (r.status !== 0 && !r.stdout) throw new Error(`bahi extract failed: ${r.stderr}`);
    for (const line of r.stdout.split('\n')) if (line.trim()) out.push(JSON.parse(line));
  }
  return out;
}

function readPredictions(file: string): Prediction[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

const add = (a: Counts, b: Counts) => {
  a.tp += b.tp;
  a.fp += b.fp;
  a.fn += b.fn;
};
const prec = (c: Counts) => (c.tp + c.fp ? c.tp / (c.tp + c.fp) : 1);
const f1 = (c: Counts) => {
  const p = prec(c);
  const r = c.tp + c.fn ? c.tp / (c.tp + c.fn) : 1;
  return p + r ? (2 * p * r) / (p + r) : 0;
};

/** Score, header precision and trust of one set of documents. */
function evaluate(scorer: Scorer, docs: CorpusDoc[], preds: Map<string, Prediction>) {
  const all = { tp: 0, fp: 0, fn: 0 };
  const header = { tp: 0, fp: 0, fn: 0 };
  const invHeader = { tp: 0, fp: 0, fn: 0 };
  let ok = 0;
  let okWrong = 0;
  let hi = 0;
  let hiRight = 0;
  const wrongRows: string[] = [];
  const ignore = () => ({ add() {} });
  for (const d of docs) {
    const p = preds.get(basename(d.file)) ?? null;
    const s = scorer.scoreDoc(d.truth, p, ignore);
    add(all, s.header);
    add(all, s.lines);
    add(header, s.header);
    if (d.type === 'invoice') add(invHeader, s.header);
    if (!p || p.error) continue;
    const fields = p.fields ?? {};
    const labelled = (k: string) => d.truth.fields[k] !== null && d.truth.fields[k] !== undefined;
    const right = (k: string, v: unknown) => labelled(k) && scorer.matches(k, d.truth.fields[k], v);
    const scored = Object.entries(fields).filter(
      ([k, v]) => v !== null && v !== undefined && k in d.truth.fields,
    );
    for (const [k, v] of scored)
      if ((p.confidence?.[k] ?? 0) >= 0.9) {
        hi++;
        if (right(k, v)) hiRight++;
      }
    const review =
      (p.checks ?? []).some((c) => !c.ok) ||
      CRITICAL[d.type]!.some((f) => fields[f] === null || fields[f] === undefined || fields[f] === '') ||
      Object.values(p.confidence ?? {}).some((c) => c < 0.8);
    if (review) continue;
    ok++;
    const wrong = scored.filter(([k, v]) => !right(k, v));
    if (wrong.length) {
      okWrong++;
      wrongRows.push(
        `${d.stem}: ${wrong.map(([k, v]) => `${k}=${JSON.stringify(v)} (truth ${JSON.stringify(d.truth.fields[k])})`).join(', ')}`,
      );
    }
  }
  return { docs: docs.length, all, header, invHeader, ok, okWrong, hi, hiRight, wrongRows };
}

const docs = loadCorpusDocs(opts.corpus);
const folds = assignFolds(docs, FOLDS);
if (opts.list) {
  for (let f = 1; f <= FOLDS; f++) {
    const members = docs.filter((d) => folds.get(d.stem) === f);
    const names =
      f === HELD_OUT ? '(held out: read it only through its score)' : members.map((d) => d.stem).join(' ');
    console.log(`fold ${f} (${members.length} docs): ${names}`);
  }
  process.exit(0);
}
const scorer = await loadScorer(opts.scorer);
const predictions = opts.predictions ? readPredictions(opts.predictions) : extractAll(docs);
const byFile = new Map(predictions.map((p) => [basename(p.file), p]));

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const row = (label: string, r: ReturnType<typeof evaluate>) =>
  [
    label.padEnd(6),
    String(r.docs).padStart(5),
    f1(r.all).toFixed(3).padStart(9),
    prec(r.header).toFixed(3).padStart(9),
    (r.invHeader.tp + r.invHeader.fp ? prec(r.invHeader).toFixed(3) : '-').padStart(9),
    String(r.ok).padStart(5),
    String(r.okWrong).padStart(6),
    (r.ok ? pct(r.okWrong / r.ok) : '-').padStart(8),
    (r.hi ? (r.hiRight / r.hi).toFixed(3) : '-').padStart(10),
  ].join(' ');
console.log('fold    docs  overall  header P  inv hdr P   OK  wrong  wrong %  conf≥.9 P');
const results: Array<ReturnType<typeof evaluate>> = [];
for (let f = 1; f <= FOLDS; f++) {
  const r = evaluate(
    scorer,
    docs.filter((d) => folds.get(d.stem) === f),
    byFile,
  );
  results.push(r);
  console.log(row(f === HELD_OUT ? `${f}*` : String(f), r));
}
const mean = (g: (r: ReturnType<typeof evaluate>) => number) =>
  results.reduce((s, r) => s + g(r), 0) / results.length;
console.log(
  `mean   ${''.padStart(5)} ${mean((r) => f1(r.all))
    .toFixed(3)
    .padStart(8)} ${mean((r) => prec(r.header))
    .toFixed(3)
    .padStart(9)} ${mean((r) => prec(r.invHeader))
    .toFixed(3)
    .padStart(9)}`,
);
const whole = evaluate(scorer, docs, byFile);
console.log(row('all', whole));
console.log('* held-out fold: develop on folds 1–4, read this one only through its score');
if (opts.verbose)
  for (const d of docs)
    if (folds.get(d.stem) !== HELD_OUT)
      for (const w of evaluate(scorer, [d], byFile).wrongRows)
        console.log(`  OK but wrong (fold ${folds.get(d.stem)}): ${w}`);
