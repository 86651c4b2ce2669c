import { profileOf } from '../profiles/index.ts';
import type { DocumentType } from '../types.ts';
import { type Chunk, chunkLine, type Line, overlap } from './geometry.ts';
import { hasDigit, isDigits, isPlainFigure, withoutPercent } from './numbers.ts';
import type { LabelClass } from './vocabulary.ts';
import {
  classifyLabel,
  HEADER_WORDS,
  isTaxGroupLabel,
  normaliseHeaderToken,
  normaliseLabel,
  STRONG_HEADER_WORDS,
} from './vocabulary.ts';
import {
  DEFAULT_WORD_HEIGHT,
  GROUP_LABEL_REACH,
  GROUP_LABEL_REACH_SHARE,
  HEADER_CELL_GAP,
  HEADER_LINE_GAP,
  HEADER_SUBROW_GAP,
  HEADER_WORD_SHARE,
  LABEL_OVERLAP,
  MIN_STRONG_HEADER_WORDS,
  OTHER_HEADER_MIN_CELLS,
  QUALIFIER_GAP,
} from './weights.ts';

/** One-word qualifiers that join the label before them ("HSN" | "Code", "Item" | "No."). */
const QUALIFIERS = new Set(['code', 'no', 'number', '#']);

/** One column of a line-item table, located by its header label. */
export interface Column extends LabelClass {
  x0: number;
  x1: number;
  /** The header label as printed (all its lines). */
  label: string;
}

/** A line-item table header found on a page. */
export interface TableHeader {
  /** Index of the first and last header line in the page's lines. */
  first: number;
  last: number;
  y0: number;
  y1: number;
  /** Columns left to right. */
  columns: Column[];
}

function headerTokens(line: Line): string[] {
  return line.words.flatMap((w) => normaliseLabel(w.text).split(' ')).filter((t) => t !== '');
}

/** How many distinct strong header words a line holds (0 when it reads like data). */
function strongCount(line: Line): number {
  const toks = headerTokens(line);
  return new Set(toks.filter((t) => STRONG_HEADER_WORDS.has(t))).size;
}

/**
 * Whether a line under a table is another table's header row ("Rate | Rate | Rate | Taxable
 * value" of a GST summary): three or more cells, two or more column words, mostly header words,
 * no figures.
 */
export function isAnotherHeaderRow(line: Line): boolean {
  if (line.words.some((w) => hasDigit(w.text))) return false;
  return chunkLine(line).length >= OTHER_HEADER_MIN_CELLS && strongCount(line) >= 2 && isHeaderish(line);
}

/** Whether a line looks like part of a table header: mostly header words and no data numbers. */
function isHeaderish(line: Line, junkNumbers = 0): boolean {
  let known = 0;
  let total = 0;
  let numbers = 0;
  for (const w of line.words) {
    // Header labels carry no numbers; "4. Details of Goods" above an e-invoice table is a caption.
    // Digits inside OCR junk ("5s" for "Sl") only count as unknown words.
    const misreadPercent = /^[0-9]%\)?$/.test(w.text); // OCR's "9%" for a lone "%"
    // A number ("12.", "3)", "1,250.00", "18%") is data, not a label.
    const number =
      isPlainFigure(withoutPercent(w.text)) || (w.text.endsWith(')') && isDigits(w.text.slice(0, -1)));
    if (!misreadPercent && number) {
      if (++numbers > junkNumbers) return false;
      continue;
    }
    for (const t of normaliseLabel(w.text).split(' ')) {
      if (t === '') continue;
      total++;
      if (HEADER_WORDS.has(t) || t === 'rs' || t === '%') known++;
    }
  }
  return total > 0 && known / total >= HEADER_WORD_SHARE;
}

/** Whether a line holds column words only: no figure, no word a header does not use. */
function isLabelRow(line: Line): boolean {
  const toks = headerTokens(line);
  return (
    toks.length > 0 && !line.words.some((w) => hasDigit(w.text)) && toks.every((t) => HEADER_WORDS.has(t))
  );
}

/**
 * Find the line-item table headers on a page: lines rich in column vocabulary, extended to the
 * adjacent header lines above and below (labels wrapped over 2–3 lines). Only headers that make a
 * line-item table for the document type are returned (description plus quantities), which also
 * rules out the HSN summary table (HSN + taxable value + tax, but no quantity). With `weak`, a
 * header read only in part (description plus one more column) is accepted; the caller completes
 * its columns from the data and checks it again.
 */
export function findHeaders(lines: Line[], type: DocumentType, weak = false): TableHeader[] {
  const found: TableHeader[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    // A partly read header may carry one OCR-garbled label read as a number.
    if (strongCount(line) < (weak ? 2 : MIN_STRONG_HEADER_WORDS) || !isHeaderish(line, weak ? 1 : 0))
      continue;
    if (found.some((h) => i >= h.first && i <= h.last)) continue;
    let first = i;
    let last = i;
    const h = line.h || DEFAULT_WORD_HEIGHT;
    while (first > 0) {
      const prev = lines[first - 1] as Line;
      const cur = lines[first] as Line;
      if (cur.y0 - prev.y1 > h * HEADER_LINE_GAP || !isHeaderish(prev)) break;
      first--;
    }
    while (last < lines.length - 1) {
      const next = lines[last + 1] as Line;
      const cur = lines[last] as Line;
      const gap = next.y0 - cur.y1;
      // Sub-labels in a header row of their own ruled cells ("Rate" | "Value" under "IGST") sit
      // further down than a wrapped label, but are header words, every one of them.
      const subRow = gap <= h * HEADER_SUBROW_GAP && isLabelRow(next);
      if ((gap > h * HEADER_LINE_GAP && !subRow) || !isHeaderish(next)) break;
      last++;
    }
    const band = lines.slice(first, last + 1);
    const columns = buildColumns(band);
    if (weak ? !isPartialHeader(columns) : !isLineItemHeader(columns, type)) continue;
    found.push({
      first,
      last,
      y0: Math.min(...band.map((l) => l.y0)),
      y1: Math.max(...band.map((l) => l.y1)),
      columns,
    });
  }
  return found;
}

/** A header OCR read only in part: a description column and one more item column. */
function isPartialHeader(columns: Column[]): boolean {
  const kinds = new Set(columns.map((c) => c.kind));
  const others = [
    'hsn',
    'quantity',
    'rate',
    'amount',
    'unit',
    'ordered',
    'received',
    'accepted',
    'rejected',
  ] as const;
  return kinds.has('description') && others.some((k) => kinds.has(k));
}

/** Whether classified columns make a line-item table of this document type. */
export function isLineItemHeader(columns: Column[], type: DocumentType): boolean {
  const kinds = new Set(columns.map((c) => c.kind));
  if (!kinds.has('description')) return false;
  if (profileOf(type).lines.kind === 'receipt')
    return kinds.has('received') || kinds.has('accepted') || kinds.has('ordered');
  return kinds.has('quantity') && (kinds.has('rate') || kinds.has('amount'));
}

interface LabelPart {
  lineIndex: number;
  chunk: Chunk;
}

/**
 * Turn the words of a header band into labelled columns. Same-line words close together form one
 * label; labels on different lines that overlap horizontally are one stacked label ("Taxable" over
 * "Value"). A tax-head label spanning sub-columns ("IGST" over "%" and "Amt") is not a column: it
 * prefixes the sub-columns under it.
 */
export function buildColumns(band: Line[]): Column[] {
  const parts: LabelPart[] = [];
  band.forEach((line, lineIndex) => {
    for (const chunk of chunkLine(line, HEADER_CELL_GAP)) {
      for (const piece of splitByVocabulary(chunk)) parts.push({ lineIndex, chunk: piece });
    }
  });
  const spanning = spanningParts(parts);
  const drafts = draftColumns(parts, spanning);
  prefixTaxGroupLabels(parts, spanning, drafts);
  const columns: Column[] = drafts
    .sort((a, b) => a.x0 - b.x0)
    .map((d) => ({ ...classifyLabel(normaliseLabel(d.label)), x0: d.x0, x1: d.x1, label: d.label }));
  return tidyColumns(columns);
}

/** A column label being assembled from the parts of the header band's lines. */
interface Draft {
  x0: number;
  x1: number;
  top: number;
  label: string;
}

/** A part that overlaps two or more parts of one lower line spans sub-columns: keep it apart. */
function spanningParts(parts: LabelPart[]): Set<number> {
  const spanning = new Set<number>();
  parts.forEach((p, i) => {
    const byLine = new Map<number, number>();
    for (const q of parts) {
      if (q.lineIndex <= p.lineIndex) continue;
      if (overlap(p.chunk.x0, p.chunk.x1, q.chunk.x0, q.chunk.x1) > LABEL_OVERLAP) {
        byLine.set(q.lineIndex, (byLine.get(q.lineIndex) ?? 0) + 1);
      }
    }
    if ([...byLine.values()].some((n) => n >= 2)) spanning.add(i);
  });
  return spanning;
}

/** Parts of different lines that overlap horizontally, joined into one label each. */
function draftColumns(parts: LabelPart[], spanning: Set<number>): Draft[] {
  const parent = parts.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i] as number] as number;
      i = parent[i] as number;
    }
    return i;
  };
  for (let i = 0; i < parts.length; i++) {
    if (spanning.has(i)) continue;
    for (let j = i + 1; j < parts.length; j++) {
      if (spanning.has(j)) continue;
      const a = parts[i] as LabelPart;
      const b = parts[j] as LabelPart;
      if (a.lineIndex === b.lineIndex) continue;
      if (overlap(a.chunk.x0, a.chunk.x1, b.chunk.x0, b.chunk.x1) > LABEL_OVERLAP) parent[find(i)] = find(j);
    }
  }
  const groups = new Map<number, LabelPart[]>();
  parts.forEach((p, i) => {
    if (spanning.has(i)) return;
    const r = find(i);
    groups.set(r, [...(groups.get(r) ?? []), p]);
  });
  return [...groups.values()].map((g) => {
    g.sort((a, b) => a.lineIndex - b.lineIndex || a.chunk.x0 - b.chunk.x0);
    return {
      x0: Math.min(...g.map((p) => p.chunk.x0)),
      x1: Math.max(...g.map((p) => p.chunk.x1)),
      top: Math.min(...g.map((p) => p.lineIndex)),
      label: g.map((p) => p.chunk.text).join(' '),
    };
  });
}

/**
 * Tax-head group labels ("CGST" over "Rate | Amount"): spanning parts, or lone tax words sitting
 * above other labels, prefix the labels under them.
 */
function prefixTaxGroupLabels(parts: LabelPart[], spanning: Set<number>, drafts: Draft[]): void {
  const groupLabels: Draft[] = [];
  parts.forEach((p, i) => {
    if (spanning.has(i)) {
      groupLabels.push({ x0: p.chunk.x0, x1: p.chunk.x1, top: p.lineIndex, label: p.chunk.text });
    }
  });
  for (let i = drafts.length - 1; i >= 0; i--) {
    const d = drafts[i] as Draft;
    if (!isTaxGroupLabel(normaliseLabel(d.label))) continue;
    const below = drafts.filter((o) => o !== d && o.top > d.top && nearUnder(d, o));
    if (below.length > 0) {
      groupLabels.push(d);
      drafts.splice(i, 1);
    }
  }
  for (const g of groupLabels) {
    const norm = normaliseLabel(g.label);
    if (!isTaxGroupLabel(norm)) continue;
    for (const d of drafts) if (d.top > g.top && nearUnder(g, d)) d.label = `${g.label} ${d.label}`;
  }
}

/** Overlapping boxes cut back, split qualifiers and split descriptions joined. */
function tidyColumns(all: Column[]): Column[] {
  // An unknown label whose box runs over named columns (an OCR box swallowing a border) is cut
  // back to its own space.
  for (const o of all) {
    if (o.kind !== 'other') continue;
    for (const c of all) {
      if (c === o || c.kind === 'other' || overlap(o.x0, o.x1, c.x0, c.x1) <= 0) continue;
      if (c.x0 > o.x0) o.x1 = Math.min(o.x1, c.x0 - 1);
      else o.x0 = Math.max(o.x0, c.x1 + 1);
    }
  }
  const columns = all.filter((c) => c.x1 > c.x0);
  // A qualifier split off its label ("HSN" | "Code") belongs to it.
  for (let i = columns.length - 1; i > 0; i--) {
    const a = columns[i - 1] as Column;
    const b = columns[i] as Column;
    // Only a one-word qualifier ("Code", "No.") joins; "Delivery Date" is a column of its own.
    const qualifier = QUALIFIERS.has(normaliseLabel(b.label));
    if (a.kind === 'other' || !qualifier || b.x0 - a.x1 > QUALIFIER_GAP) continue;
    const joined = classifyLabel(normaliseLabel(`${a.label} ${b.label}`));
    if (joined.kind === a.kind)
      columns.splice(i - 1, 2, { ...a, x1: Math.max(a.x1, b.x1), label: `${a.label} ${b.label}` });
  }
  // A description label OCR split in two ("Description" | "of Goods") is one column.
  for (let i = columns.length - 1; i > 0; i--) {
    const a = columns[i - 1] as Column;
    const b = columns[i] as Column;
    if (a.kind === 'description' && b.kind === 'description') {
      columns.splice(i - 1, 2, {
        ...a,
        x1: Math.max(a.x1, b.x1),
        priority: Math.max(a.priority, b.priority),
        label: `${a.label} ${b.label}`,
      });
    }
  }
  return columns;
}

/** Whether a lower label sits under an upper (group) label: its centre within the label's reach. */
function nearUnder(upper: { x0: number; x1: number }, lower: { x0: number; x1: number }): boolean {
  const w = upper.x1 - upper.x0;
  const reach = Math.max(GROUP_LABEL_REACH, GROUP_LABEL_REACH_SHARE * w);
  const c = (lower.x0 + lower.x1) / 2;
  return c >= upper.x0 - reach && c <= upper.x1 + reach;
}

const HEAD_FAMILY: Record<string, string> = {
  description: 'desc',
  particulars: 'desc',
  hsn: 'hsn',
  sac: 'hsn',
  hsnsac: 'hsn',
  qty: 'qty',
  quantity: 'qty',
  rate: 'rate',
  price: 'rate',
  amount: 'amount',
  amt: 'amount',
  value: 'amount',
  disc: 'disc',
  discount: 'disc',
  uom: 'unit',
  per: 'unit',
  gst: 'gst',
  igst: 'gst',
  cgst: 'gst',
  sgst: 'gst',
  tax: 'gst',
  sl: 'serial',
  sno: 'serial',
  sr: 'serial',
  '#': 'serial',
};

/**
 * Split a same-line chunk that holds two labels run together ("Ordered Qty Recd. Qty",
 * "Qty UOM" printed with narrow gaps): it has head words of two column families, or two quantity
 * heads. Phrases with one head ("Unit Price", "Rate per Unit", "Taxable Value") stay whole.
 * The cut goes in the widest gap between the two heads.
 */
function splitByVocabulary(chunk: Chunk): Chunk[] {
  const heads: Array<{ index: number; family: string }> = [];
  chunk.words.forEach((w, index) => {
    for (const t of normaliseLabel(w.text).split(' ')) {
      const family = HEAD_FAMILY[t];
      if (family) heads.push({ index, family });
    }
  });
  for (let a = 0; a + 1 < heads.length; a++) {
    const h1 = heads[a] as { index: number; family: string };
    const h2 = heads[a + 1] as { index: number; family: string };
    if (h1.index === h2.index) continue;
    const twoQty = h1.family === 'qty' && h2.family === 'qty';
    // "Taxable Value"/"Total Amount": same family, one label. "Rate … Amount": two labels.
    if (h1.family === h2.family && !twoQty) continue;
    if (h1.family === 'rate' && h2.family === 'unit') continue; // "Rate per Unit"/"Price per UOM"
    // "GST Rate", "Tax Amount", "IGST Amt": a tax head names the next word's column.
    if (h1.family === 'gst' && (h2.family === 'rate' || h2.family === 'amount')) continue;
    let cut = h1.index + 1;
    let widest = -Infinity;
    for (let k = h1.index + 1; k <= h2.index; k++) {
      const gap = (chunk.words[k]?.x0 ?? 0) - (chunk.words[k - 1]?.x1 ?? 0);
      if (gap > widest) {
        widest = gap;
        cut = k;
      }
    }
    const mk = (ws: Chunk['words']): Chunk => ({
      words: ws,
      x0: Math.min(...ws.map((w) => w.x0)),
      x1: Math.max(...ws.map((w) => w.x1)),
      text: ws.map((w) => w.text).join(' '),
    });
    return [mk(chunk.words.slice(0, cut)), ...splitByVocabulary(mk(chunk.words.slice(cut)))];
  }
  return [chunk];
}

/** Normalised header token of a word (exported for tests and the row reader's stop rules). */
export function headerToken(text: string): string {
  return normaliseHeaderToken(text);
}
