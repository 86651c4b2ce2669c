/**
 * Measures the batch splitter (`src/split.ts`) on a corpus whose pages dev-fast.ts has cached:
 * - every document alone must stay one document (a cut there loses its total and lines);
 * - every two neighbouring documents of a type, their pages put one after the other as one
 *   scanned batch would be, must be cut exactly where the second begins;
 * - a document followed by itself (a second copy) must stay one.
 *   npx tsx packages/engine/dev/dev-split.ts --corpus ../shared/corpus/dev [--only-list FILE] [--verbose]
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type PageSpan, splitPages } from '../src/split.ts';
import type { DocumentType, PageContent } from '../src/types.ts';

const args = process.argv.slice(2);
const opt = (f: string) => (args.includes(f) ? args[args.indexOf(f) + 1] : undefined);
const corpus = opt('--corpus') ?? '../shared/corpus/dev';
const cacheDir = opt('--cache') ?? '/tmp/bahi-pages-paddle';
const onlyList = opt('--only-list');
const verbose = args.includes('--verbose');
const only = onlyList ? new Set(readFileSync(onlyList, 'utf8').split('\n').filter(Boolean)) : null;

interface Doc {
  stem: string;
  type: DocumentType;
  pages: PageContent[];
}

const docs: Doc[] = [];
for (const name of readdirSync(corpus).sort()) {
  if (!name.endsWith('.truth.json')) continue;
  const stem = name.slice(0, -'.truth.json'.length);
  if (only && !only.has(stem)) continue;
  const file = readdirSync(corpus).find((f) => f.startsWith(`${stem}.`) && !f.endsWith('.json'));
  if (!file) continue;
  const cached = join(cacheDir, `${basename(realpathSync(join(corpus, file)))}.json`);
  if (!existsSync(cached)) continue;
  const truth = JSON.parse(readFileSync(join(corpus, name), 'utf8'));
  docs.push({ stem, type: truth.documentType, pages: JSON.parse(readFileSync(cached, 'utf8')).pages });
}

/** Pages of several documents as one file: page numbers continue across them. */
function batch(parts: Doc[]): PageContent[] {
  const out: PageContent[] = [];
  for (const d of parts)
    for (const p of d.pages) {
      const page = out.length + 1;
      out.push({ ...p, page, words: p.words.map((w) => ({ ...w, page })) });
    }
  return out;
}

const show = (s: PageSpan[]) => s.map((x) => `${x.from + 1}-${x.to + 1}`).join(',');
let aloneCut = 0;
let pairsRight = 0;
let pairs = 0;
let copiesCut = 0;
for (const d of docs) {
  const spans = splitPages(d.pages, d.type);
  if (spans.length !== 1) {
    aloneCut++;
    if (verbose) console.log(`alone cut   ${d.stem} → ${show(spans)}`);
  }
  const twice = splitPages(batch([d, d]), d.type);
  if (twice.length !== 1) {
    copiesCut++;
    if (verbose) console.log(`copy cut    ${d.stem} → ${show(twice)}`);
  }
}
for (const type of ['invoice', 'po', 'grn'] as const) {
  const ofType = docs.filter((d) => d.type === type);
  for (let i = 0; i + 1 < ofType.length; i++) {
    const [a, b] = [ofType[i]!, ofType[i + 1]!];
    pairs++;
    const spans = splitPages(batch([a, b]), type);
    const want = `1-${a.pages.length},${a.pages.length + 1}-${a.pages.length + b.pages.length}`;
    if (show(spans) === want) pairsRight++;
    else if (verbose) console.log(`pair wrong  ${a.stem} + ${b.stem} → ${show(spans)} (want ${want})`);
  }
}
console.log(
  `${docs.length} documents: ${aloneCut} cut alone, ${copiesCut} cut when followed by a copy; ` +
    `pairs cut right ${pairsRight}/${pairs} (${((100 * pairsRight) / Math.max(1, pairs)).toFixed(1)} %)`,
);
