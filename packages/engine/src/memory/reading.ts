/**
 * The reading half of memory: label keys, how a value is read by a recipe, and where a known value
 * is printed. Learning and recalling share it, so what is learned is exactly what will be read.
 */
import { getFieldKind } from '@bahi/contracts/extraction';
import { repairOcrDocNumber } from '../fields/header.ts';
import { parseValue } from '../fields/values.ts';
import type { ValueKind } from '../fields/vocabulary.ts';
import { boxOf, type Layout, type Segment } from '../layout.ts';
import { profileOf } from '../profiles/index.ts';
import type { FieldValue } from '../result.ts';
import type { BBox, DocumentType, Word } from '../types.ts';
import { PAISA_TOLERANCE } from '../util.ts';
import type { FieldRecipe, Relation } from './types.ts';

/** A label's key: its words of letters, lower case ("Invoice No. :" → "invoice no"). */
export function anchorKey(text: string): string {
  return text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 0)
    .join(' ');
}

/** How a field's value is read: the labelled-field kind, else the contract's kind. */
export function readingKind(type: DocumentType, field: string): ValueKind {
  const spec = profileOf(type).fieldSpecs.find((s) => s.field === field);
  if (spec) return spec.kind;
  const kind = getFieldKind(type, field);
  if (kind === 'money' || kind === 'date' || kind === 'gstin' || kind === 'text' || kind === 'currency')
    return kind;
  if (kind === 'stateCode') return 'state';
  return 'docno';
}

/** Two values of one kind are the same value (the corpus scorer's sense of equal). */
export function sameValue(kind: ValueKind, a: FieldValue, b: FieldValue): boolean {
  if (a === null || b === null) return false;
  if (kind === 'money') return Math.abs(Number(a) - Number(b)) <= PAISA_TOLERANCE;
  const norm = (v: FieldValue) =>
    kind === 'text'
      ? String(v)
          .replace(/[\s.,\-–—]/g, '')
          .toLowerCase()
      : String(v).replace(/\s+/g, '').toUpperCase();
  return norm(a) === norm(b);
}

/** A value read by a recipe, with where it stood. */
export interface Reading {
  value: string | number;
  page: number;
  bbox: BBox;
  source: Word['source'];
  /** The segment holding the anchor: readings are told apart by their order on the document. */
  anchor: Segment;
}

const join = (words: Word[]) => words.map((w) => w.text).join(' ');

function parse(kind: ValueKind, words: Word[]): Pick<Reading, 'value' | 'bbox' | 'source'> | null {
  if (!words.length) return null;
  const text = join(words);
  if (kind === 'text') {
    const t = text.replace(/^[\s:;,.\-–]+|[\s,;:]+$/g, '').trim();
    return t.length >= 2 ? { value: t, bbox: boxOf(words), source: words[0]!.source } : null;
  }
  const p = parseValue(kind, text);
  if (!p) return null;
  const source = words[0]!.source;
  // A number read from a scan gets the rules' repair of OCR slips ("Al/24-25/…" is "AI/24-25/…").
  const value =
    kind === 'docno' && source === 'ocr' && typeof p.value === 'string'
      ? repairOcrDocNumber(p.value)
      : p.value;
  return { value, bbox: boxOf(words), source };
}

/** The number of leading words of `seg` whose key is `anchor` (0 when they are not the anchor). */
function anchorPrefix(seg: Segment, anchor: string): number {
  for (let k = 1; k <= Math.min(8, seg.words.length); k++) {
    const key = anchorKey(join(seg.words.slice(0, k)));
    if (key === anchor) {
      // Let trailing punctuation ("No. :") belong to the label.
      let end = k;
      while (
        end < seg.words.length &&
        anchorKey(seg.words[end]!.text) === '' &&
        /^[:.#-]+$/.test(seg.words[end]!.text)
      )
        end++;
      return end;
    }
    if (key.length > anchor.length) return 0;
  }
  return 0;
}

/** Every reading a relation gives from every place the anchor is printed, in document order. */
export function readAll(
  layout: Layout,
  recipe: Pick<FieldRecipe, 'anchor' | 'relation' | 'kind'>,
): Reading[] {
  const out: Reading[] = [];
  for (const seg of layout.segments) {
    const n = anchorPrefix(seg, recipe.anchor);
    if (!n) continue;
    const got = readFrom(layout, seg, n, recipe);
    if (got) out.push({ ...got, page: seg.page, anchor: seg });
  }
  return out;
}

function readFrom(
  layout: Layout,
  seg: Segment,
  labelWords: number,
  recipe: Pick<FieldRecipe, 'relation' | 'kind'>,
): Pick<Reading, 'value' | 'bbox' | 'source'> | null {
  if (recipe.relation === 'inline') return parse(recipe.kind, seg.words.slice(labelWords));
  if (labelWords < seg.words.length) return null;
  if (recipe.relation === 'right') {
    const line = layout.lines[seg.line]!;
    const next = line.segments.find((s) => s.x0 >= seg.x1 - 1);
    return next ? parse(recipe.kind, next.words) : null;
  }
  // Below: the first line under the label with a segment in its column.
  const h = seg.y1 - seg.y0;
  for (let k = seg.line + 1; k < Math.min(layout.lines.length, seg.line + 5); k++) {
    const line = layout.lines[k]!;
    if (line.page !== seg.page || line.y0 - seg.y1 > 6 * h) break;
    const under = line.segments.find((s) => s.x0 < seg.x1 + 2 && s.x1 > seg.x0 - 2);
    if (under) return parse(recipe.kind, under.words);
  }
  return null;
}

/** A recipe that reads a known value back, and which of the recipe's readings on the page it is. */
export interface FoundRecipe {
  anchor: string;
  relation: Relation;
  kind: ValueKind;
  /** Position of the matching reading among all the recipe's readings, from the first and from the last. */
  fromStart: number;
  fromEnd: number;
  /** Where the value was read back. */
  boxes: BBox[];
  /** Where the label stood (page, and shares of the page's width and height). */
  at: { page: number; x: number; y: number };
}

/** Where a segment stands on its page, as shares of the page's width and height. */
export function placeOf(layout: Layout, seg: Segment): { page: number; x: number; y: number } {
  const page = layout.pages.find((p) => p.page === seg.page);
  const r = (n: number) => Math.round(n * 1000) / 1000;
  return {
    page: seg.page,
    x: r(seg.x0 / (page?.width || 1)),
    y: r(seg.y0 / (page?.height || 1)),
  };
}

/**
 * The reading a recipe means on a new page: by place for a header field (nearest to where its label
 * stood, on the same page first), by its count from the end for money (below a table that grows),
 * else by its count from the top.
 */
export function pickReading(
  layout: Layout,
  all: Reading[],
  recipe: Pick<FieldRecipe, 'kind' | 'fromStart' | 'fromEnd' | 'at'>,
): Reading | null {
  if (!all.length) return null;
  if (recipe.kind === 'money') return all[Math.max(0, all.length - 1 - recipe.fromEnd)]!;
  const at = recipe.at;
  if (!at) return all[Math.min(all.length - 1, recipe.fromStart)]!;
  const best = all.reduce((b, r) => (placeDistance(layout, r, at) < placeDistance(layout, b, at) ? r : b));
  // Nothing where the label stood (OCR lost it this time): another instance of a common label
  // ("Dated" of the invoice, not of the order) is no stand-in. Empty beats wrong.
  return placeDistance(layout, best, at) <= MAX_PLACE_SHIFT ? best : null;
}

/** How far a reading's label stands from where a recipe's label stood (another page counts as far). */
function placeDistance(layout: Layout, r: Reading, at: NonNullable<FieldRecipe['at']>): number {
  const p = placeOf(layout, r.anchor);
  return (p.page === at.page ? 0 : 10) + Math.hypot(p.x - at.x, p.y - at.y);
}

/**
 * Whether a header recipe's label stands twice where it stood, reading different values: two
 * "Dated" labels a line apart (the invoice's and the order's) against a place learned from a page
 * photographed at a slant. Place cannot tell them apart, so the lesson says nothing there.
 */
export function placeIsAmbiguous(
  layout: Layout,
  all: Reading[],
  recipe: Pick<FieldRecipe, 'kind' | 'at'>,
): boolean {
  const at = recipe.at;
  if (!at || recipe.kind === 'money') return false;
  const near = all.filter((r) => placeDistance(layout, r, at) <= MAX_PLACE_SHIFT);
  return near.some((r) => !sameValue(recipe.kind, r.value, near[0]!.value));
}

/**
 * How far a header label may move between two documents of one issuer, as a share of the page: a
 * buyer's address a line longer moves what follows by about a line (2–3 % of an A4 page).
 */
const MAX_PLACE_SHIFT = 0.03;

/** Where a known value is printed: the recipes (anchor and relation) that read it back exactly. */
export function recipesFor(layout: Layout, kind: ValueKind, value: FieldValue): FoundRecipe[] {
  const found: FoundRecipe[] = [];
  const seen = new Set<string>();
  const tryAt = (seg: Segment, labelWords: number, relation: Relation) => {
    const anchor = anchorKey(join(seg.words.slice(0, labelWords)));
    const key = `${relation}|${anchor}`;
    if (!/[a-z]{2}/.test(anchor) || seen.has(key)) return;
    const got = readFrom(layout, seg, labelWords, { relation, kind });
    if (!got || !sameValue(kind, got.value, value)) return;
    seen.add(key);
    const all = readAll(layout, { anchor, relation, kind });
    const at = all.findIndex((r) => r.anchor === seg);
    if (at >= 0)
      found.push({
        anchor,
        relation,
        kind,
        fromStart: at,
        fromEnd: all.length - 1 - at,
        boxes: [got.bbox],
        at: placeOf(layout, seg),
      });
  };
  for (const seg of layout.segments) {
    for (let k = 1; k < Math.min(9, seg.words.length); k++) tryAt(seg, k, 'inline');
    if (seg.words.length <= 6) {
      tryAt(seg, seg.words.length, 'right');
      tryAt(seg, seg.words.length, 'below');
    }
  }
  return found;
}
