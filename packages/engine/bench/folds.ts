/**
 * Vendor-disjoint folds of a labelled corpus, for measuring how the engine reads paper it was not
 * developed on. Two documents share a fold when they share a party that prints or receives them:
 * the supplier (by GSTIN, else by normalised name) or the issuer (the supplier of an invoice, the
 * buying company of a PO or GRN, whose layout the paper carries). Groups are dealt to folds
 * largest first, each to the fold with the fewest documents, ties by name, so the split depends
 * only on the truth files and never changes between runs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One labelled document of a corpus folder. */
export interface CorpusDoc {
  /** File name without its extension (the truth file is `<stem>.truth.json`). */
  stem: string;
  /** Path of the document itself. */
  file: string;
  type: 'invoice' | 'po' | 'grn';
  truth: { documentType: string; fields: Record<string, unknown>; lineItems?: unknown[] };
}

const EXTENSIONS = ['.pdf', '.png', '.jpg', '.jpeg', '.webp', '.jfif', '.tif', '.tiff', '.gif'];

/** Every document of `dir` that has a truth file beside it, in name order. */
export function loadCorpusDocs(dir: string): CorpusDoc[] {
  const docs: CorpusDoc[] = [];
  for (const name of readdirSync(dir).sort((a, b) => a.localeCompare(b))) {
    if (!name.endsWith('.truth.json')) continue;
    const stem = name.slice(0, -'.truth.json'.length);
    const file = EXTENSIONS.map((x) => join(dir, stem + x)).find(existsSync);
    if (!file) continue;
    const truth = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    docs.push({ stem, file, type: truth.documentType, truth });
  }
  return docs;
}

/** A party's key: its GSTIN when one is labelled, else its name reduced to letters and digits. */
function partyKey(gstin: unknown, name: unknown): string | null {
  if (typeof gstin === 'string' && gstin.length === 15) return `gstin:${gstin.toUpperCase()}`;
  if (typeof name === 'string' && name.trim()) return `name:${name.toLowerCase().replace(/[^a-z0-9]+/g, '')}`;
  return null;
}

/** The keys that tie a document to others: its supplier and its issuer. */
function keysOf(d: CorpusDoc): string[] {
  const f = d.truth.fields;
  const vendor = partyKey(f.vendorGstin, f.vendorName);
  const buyer = partyKey(f.buyerGstin, f.buyerName);
  const issuer = d.type === 'invoice' ? vendor : buyer;
  return [...new Set([vendor, issuer].filter((k): k is string => k !== null))];
}

/** Fold number (1-based) of each document stem. */
export function assignFolds(docs: CorpusDoc[], folds = 5): Map<string, number> {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  const union = (a: string, b: string) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  };
  for (const d of docs) {
    const node = `doc:${d.stem}`;
    parent.set(node, node);
    for (const k of keysOf(d)) {
      if (!parent.has(k)) parent.set(k, k);
      union(node, k);
    }
  }
  const groups = new Map<string, string[]>();
  for (const d of docs) {
    const root = find(`doc:${d.stem}`);
    groups.set(root, [...(groups.get(root) ?? []), d.stem]);
  }
  const ordered = [...groups.values()]
    .map((g) => g.sort())
    .sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
  const sizes = new Array<number>(folds).fill(0);
  const out = new Map<string, number>();
  for (const g of ordered) {
    const fold = sizes.indexOf(Math.min(...sizes));
    sizes[fold] = sizes[fold]! + g.length;
    for (const stem of g) out.set(stem, fold + 1);
  }
  return out;
}
