/**
 * Dev measure of line-item extraction alone, with the corpus scorer's line rules (predicted lines
 * paired with truth lines in order; each field of a paired line scored; missing or extra lines
 * cost every field they hold). Text-layer PDFs are read with mupdf; scans use the OCR cache
 * written by dev-ocr-cache.ts (skipped when absent).
 *
 *   npx tsx packages/engine/dev/dev-score-tables.ts [--details] [--only NAME] [CORPUS_DIR]
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFieldsOfKind } from '@bahi/contracts/extraction';
import { openPdf, readPageWords } from '../src/pdf/text.ts';
import { extractLineItems } from '../src/tables/index.ts';
import type { DocumentType, PageContent } from '../src/types.ts';

const args = process.argv.slice(2);
const details = args.includes('--details');
const onlyIdx = args.indexOf('--only');
const only = onlyIdx >= 0 ? args[onlyIdx + 1] : undefined;
const corpus =
  args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--only') ??
  new URL('../../../../shared/corpus/dev/', import.meta.url).pathname;
const OCR_CACHE = process.env.BAHI_OCR_CACHE ?? '/tmp/bahi-tables-ocr';

const MONEY = new Set(listFieldsOfKind('money'));
const NUMBER = new Set([...listFieldsOfKind('quantity'), ...listFieldsOfKind('percent')]);
const CODE = new Set(['hsnSac']);
const norm = (s: unknown) =>
  String(s)
    .replace(/[\s.,\-\u2013\u2014]/g, '')
    .toLowerCase();
const present = (v: unknown) => v !== null && v !== undefined;

function matches(field: string, truth: unknown, pred: unknown): boolean {
  if (!present(pred)) return false;
  if (MONEY.has(field) || NUMBER.has(field))
    return typeof pred === 'number' && Math.abs(pred - Number(truth)) <= 0.01 + 1e-9;
  if (CODE.has(field)) return typeof pred === 'string' && pred.trim() === truth;
  return typeof pred === 'string' && norm(pred) === norm(truth);
}

class Tally {
  tp = 0;
  fp = 0;
  fn = 0;
  add(o: { tp: number; fp: number; fn: number }) {
    this.tp += o.tp;
    this.fp += o.fp;
    this.fn += o.fn;
  }
  get f1() {
    const p = this.tp + this.fp ? this.tp / (this.tp + this.fp) : 1;
    const r = this.tp + this.fn ? this.tp / (this.tp + this.fn) : 1;
    return p + r ? (2 * p * r) / (p + r) : 0;
  }
  toString() {
    return `F1 ${this.f1.toFixed(3)} (tp ${this.tp} fp ${this.fp} fn ${this.fn})`;
  }
}

type Line = Record<string, unknown>;

function scoreLines(truth: Line[], pred: Line[], perField: Map<string, Tally>, out: string[]): Tally {
  const t = new Tally();
  const keys = truth.length ? Object.keys(truth[0] as Line) : [];
  for (let i = 0; i < Math.max(truth.length, pred.length); i++) {
    const tl = truth[i];
    const pl = pred[i];
    for (const k of keys) {
      let o = { tp: 0, fp: 0, fn: 0 };
      if (tl && pl) {
        const tv = tl[k];
        const pv = pl[k];
        if (present(tv))
          o = matches(k, tv, pv) ? { tp: 1, fp: 0, fn: 0 } : { tp: 0, fp: present(pv) ? 1 : 0, fn: 1 };
        else if (present(pv)) o = { tp: 0, fp: 1, fn: 0 };
      } else if (tl) o = { tp: 0, fp: 0, fn: present(tl[k]) ? 1 : 0 };
      else o = { tp: 0, fp: present(pl?.[k]) ? 1 : 0, fn: 0 };
      t.add(o);
      if (!perField.has(k)) perField.set(k, new Tally());
      perField.get(k)?.add(o);
      if ((o.fp || o.fn) && out.length < 12) {
        out.push(
          `line[${i + 1}].${k} truth=${JSON.stringify(tl ? tl[k] : '(none)')} got=${JSON.stringify(pl ? pl[k] : '(none)')}`,
        );
      }
    }
  }
  return t;
}

function loadPages(stem: string, scanned: boolean): PageContent[] | null {
  if (scanned) {
    const cached = join(OCR_CACHE, `${stem}.json`);
    return existsSync(cached) ? (JSON.parse(readFileSync(cached, 'utf8')) as PageContent[]) : null;
  }
  const doc = openPdf(readFileSync(join(corpus, `${stem}.pdf`)));
  const pages: PageContent[] = [];
  for (let i = 0; i < doc.countPages(); i++) pages.push(readPageWords(doc.loadPage(i), i + 1));
  return pages;
}

const bySource = new Map<string, Tally>();
const byFamily = new Map<string, Tally>();
const perField = new Map<string, Tally>();
let skipped = 0;
let ms = 0;
for (const name of readdirSync(corpus)
  .filter((f) => f.endsWith('.truth.json'))
  .sort()) {
  const stem = name.slice(0, -'.truth.json'.length);
  if (only && !stem.includes(only)) continue;
  const truth = JSON.parse(readFileSync(join(corpus, name), 'utf8'));
  const scanned = Boolean(truth.meta?.scanned);
  const pages = loadPages(stem, scanned);
  if (!pages) {
    skipped++;
    continue;
  }
  const t0 = performance.now();
  const res = extractLineItems(pages, truth.documentType as DocumentType);
  ms += performance.now() - t0;
  const out: string[] = [];
  const t = scoreLines(truth.lineItems, res.lineItems, perField, out);
  const src = scanned ? (truth.meta?.photo ? 'photo' : 'scanned') : 'text';
  const fam = `${truth.meta?.family}/${src === 'text' ? 'text' : 'scan'}`;
  for (const [m, k] of [
    [bySource, src],
    [byFamily, fam],
  ] as const) {
    if (!m.has(k)) m.set(k, new Tally());
    m.get(k)?.add(t);
  }
  if (details && (t.fp || t.fn)) {
    console.log(`${stem} [${fam}] lines ${res.lineItems.length}/${truth.lineItems.length} ${t}`);
    for (const o of out) console.log(`    ${o}`);
  }
}
console.log('per field:');
for (const [k, t] of perField) console.log(`  ${k.padEnd(18)} ${t}`);
console.log('per family:');
for (const [k, t] of [...byFamily].sort()) console.log(`  ${k.padEnd(22)} ${t}`);
console.log('by source:');
for (const [k, t] of bySource) console.log(`  ${k.padEnd(10)} ${t}`);
console.log(`skipped (no OCR cache): ${skipped}; table time ${ms.toFixed(0)} ms`);
