import { boxOf, type Layout, type Segment } from '../layout.ts';
import { profileOf } from '../profiles/index.ts';
import type { BBox, DocumentType, Word } from '../types.ts';
import {
  CUT_NUMBER_DOUBT,
  LABEL_GEOMETRY as G,
  OCR_DOUBT,
  VALUE_PLACE_SCORE,
  withOcrDoubt,
} from './header-weights.ts';
import { findLabelHits, isLabelText, type LabelHit, STATE_LINE } from './labels.ts';
import { type ParsedValue, parseValue } from './values.ts';

/** A candidate reading of one field. */
export interface Candidate {
  field: string;
  value: string | number;
  page: number;
  bbox: BBox;
  source: 'text' | 'ocr';
  /** 0..1: how sure the reading is from its position (same cell > right cell > cell below) and label. */
  score: number;
}

/** Words of a segment covering a character span of its text (the text joins words with single spaces). */
export function wordsInSpan(seg: Segment, start: number, end: number): Word[] {
  const out: Word[] = [];
  let pos = 0;
  for (const w of seg.words) {
    const ws = pos;
    const we = pos + w.text.length;
    if (we > start && ws < end) out.push(w);
    pos = we + 1;
  }
  return out.length ? out : seg.words;
}

/** Build a candidate from a parsed value inside a segment's text starting at `offset`. */
export function candidateFrom(
  field: string,
  seg: Segment,
  parsed: ParsedValue,
  offset: number,
  score: number,
): Candidate {
  const words = wordsInSpan(seg, offset + parsed.start, offset + parsed.end);
  return {
    field,
    value: parsed.value,
    page: seg.page,
    bbox: boxOf(words),
    source: words[0]?.source ?? 'text',
    // OCR words carry their own doubt into the field.
    score: withOcrDoubt(score, words, OCR_DOUBT.field),
  };
}

/**
 * The nearest segment to the right of `seg` on its line, passing over a cell that holds only the
 * label's colon or dash ("Invoice No. | : | TI-0042").
 */
export function rightOf(layout: Layout, seg: Segment): Segment | null {
  const line = layout.lines[seg.line]!;
  const i = line.segments.indexOf(seg);
  const next = line.segments[i + 1];
  if (next && /^[:\-–.#]+$/.test(next.text.trim())) return line.segments[i + 2] ?? next;
  return next ?? null;
}

/**
 * The first segment below `seg` in the same column (x-overlap), within a few lines. Lines of other
 * columns in between (a party block beside an "Invoice No" cell whose value is centred lower
 * down) carry the column on; an empty band of more than a few line heights ends it.
 */
export function belowOf(layout: Layout, seg: Segment, maxLines: number = G.belowLines): Segment | null {
  const line = layout.lines[seg.line]!;
  let above = line.y1;
  for (let k = seg.line + 1; k < Math.min(layout.lines.length, seg.line + 1 + maxLines); k++) {
    const next = layout.lines[k]!;
    if (next.page !== seg.page || next.y0 - above > G.belowGapHeights * line.height) break;
    if (next.y0 - line.y1 > G.belowReachHeights * line.height) break;
    above = next.y1;
    const overlapping = next.segments.filter((s) => Math.min(s.x1, seg.x1) - Math.max(s.x0, seg.x0) > 0);
    const aligned =
      overlapping.find((s) => Math.abs(s.x0 - seg.x0) < G.columnSlack) ??
      overlapping.sort((a, b) => Math.abs(a.x0 - seg.x0) - Math.abs(b.x0 - seg.x0))[0];
    if (aligned) return aligned;
  }
  return null;
}

/**
 * The part of a segment below a label that stands under the label's own column. A value printed
 * close to a longer text in the column to its left (a party's name beside "Voucher No.") is read
 * as one segment with it; the words from the label's left edge on are the value.
 */
function underLabel(below: Segment | null, label: Segment): Segment | null {
  const start = label.x0 - G.columnSlack;
  if (!below || below.x0 >= start) return below;
  const words = below.words.filter((w) => w.x0 >= start);
  if (!words.length || words.length === below.words.length) return below;
  return { ...below, words, text: words.map((w) => w.text).join(' '), x0: words[0]!.x0 };
}

/**
 * Undo OCR slips in a document number read from a scan:
 * - letters of a short prefix read as look-alike digits ("S1/2526/01837", "P0/2025/028");
 * - one glyph read twice as its digit and letter forms ("P0O/2026/04417" for PO/...);
 * - zeros read as the letter O inside a run of zeros ("24TNO0O280" for 24TN000280);
 * - capitals read as lower case in an upper-case prefix ("Ti-01243" for TI-01243);
 * - the slash after a letter prefix read as I ("POI24-25/0417" for PO/24-25/0417);
 * - the O of a two-letter prefix read as a zero before a long run of digits ("0R552309…");
 * - a zero for the O of a later part that is otherwise letters ("ABC/STORE/P0/112").
 */
export function repairOcrDocNumber(value: string): string {
  const v = repairPrefix(value);
  // A later part that is letters but for a zero ("ABC/STORE/P0/112") read its O as 0.
  return v.replace(/(?<=[/-])(?=[A-Z]*0)[A-Z0]{2,5}(?=[/-]|$)/g, (part) =>
    // Zeros at most half the part: letters with an O misread, not a number.
    (part.split('0').length - 1) * 2 <= part.length ? part.replaceAll('0', 'O') : part,
  );
}

function repairPrefix(value: string): string {
  // A zero before a letter and a long run of digits is the O of a letter prefix ("0R5523…").
  let v = value.replace(/^0(?=[A-Z]\d{6,}$)/, 'O');
  // A run of O/0 that holds a real 0 and runs into digits is zeros.
  v = v.replace(/[O0]*0[O0]*(?=\d)/g, (run) => '0'.repeat(run.length));
  // A slash read as I (or l, |) after a letter prefix, in a number that separates with slashes.
  v = v.replace(/^([A-Z0]{2,4})[Il|](?=\d[\d-]*\/)/, '$1/');
  const m = /^([A-Za-z0-9]{1,5})(\s?[/-].*)$/.exec(v);
  if (!m?.[1] || !/[A-Za-z]/.test(m[1])) return v;
  let prefix = m[1];
  const capitals = prefix !== prefix.toLowerCase();
  // A lone lower-case l among capitals is a capital I drawn as a bar ("Sl/" is "SI/").
  if (capitals && /^[A-Z0-9l]+$/.test(prefix)) prefix = prefix.replaceAll('l', 'I');
  // Lower-case letters among capitals: OCR's x-height look-alikes (i/I, o/O, s/S, c/C...).
  if (capitals && /^[A-Zioscvwxzu0-9]+$/.test(prefix)) prefix = prefix.toUpperCase();
  if (!/^[A-Z0158]+$/.test(prefix)) return v;
  return lettersForDigits(prefix) + m[2];
}

/** The letter each digit of a letter prefix stands for ("P0" is "PO", "S1" is "SI"). */
const LETTER_OF_DIGIT: Readonly<Record<string, string>> = { '0': 'O', '1': 'I', '5': 'S', '8': 'B' };

/**
 * A prefix of capitals and look-alike digits as letters. One glyph read twice, as a digit and as
 * its letter ("P0O" for "PO"), is that letter once.
 */
function lettersForDigits(prefix: string): string {
  let out = '';
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix[i]!;
    const letter = LETTER_OF_DIGIT[c];
    const next = prefix[i + 1];
    const twice =
      next !== undefined && (LETTER_OF_DIGIT[next] === c || (letter !== undefined && letter === next));
    out += letter ?? c;
    if (twice) i++;
  }
  return out;
}

/** Read the value of one label hit: after the label in its own segment, the next cell, or below. */
export function resolveHit(layout: Layout, type: DocumentType, hit: LabelHit): Candidate[] {
  const found = resolveValue(layout, type, hit);
  if (!found) return [];
  if (
    found.candidate.source === 'ocr' &&
    hit.spec.kind === 'docno' &&
    typeof found.candidate.value === 'string'
  )
    found.candidate.value = repairOcrDocNumber(found.candidate.value);
  if (hit.spec.kind === 'docno') completeCutNumber(layout, found);
  if (hit.spec.kind === 'text') completeOpenBracket(layout, found.candidate, found.seg);
  if (hit.spec.kind === 'text') completeCutPhrase(layout, type, found.candidate, found.seg, hit.segment);
  const date = pairedDate(hit, found.seg, found.end);
  return date ? [found.candidate, date] : [found.candidate];
}

function resolveValue(
  layout: Layout,
  type: DocumentType,
  hit: LabelHit,
): { candidate: Candidate; seg: Segment; end: number } | null {
  const { spec, segment: seg, end } = hit;
  // The value read at a place, scored by that place and the label's weight.
  const at = (s: Segment, p: ParsedValue, offset: number, place: keyof typeof VALUE_PLACE_SCORE) => ({
    candidate: candidateFrom(spec.field, s, p, offset, VALUE_PLACE_SCORE[place] * hit.weight),
    seg: s,
    end: offset + p.end,
  });
  const rest = seg.text.slice(end);
  let inline = parseValue(spec.kind, rest);
  // OCR cuts a date into cells ("Date: 23 | Jan | 2025"): read it with the next cells on the line.
  if (!inline && spec.kind === 'date' && /\d/.test(rest)) {
    const line = layout.lines[seg.line]!;
    const i = line.segments.indexOf(seg);
    const after = line.segments.slice(i + 1, i + 1 + G.datePieceCells);
    const joined = [rest, ...after.map((s) => s.text)].join(' ');
    const p = parseValue('date', joined);
    if (p && p.start <= rest.length) inline = { ...p, end: Math.min(p.end, rest.length) };
  }
  if (inline) return at(seg, inline, end, 'inline');
  // Something unparseable after the label (e.g. "Terms : Net 45" for a date) is its value: stop.
  // OCR's marks for a colon ("PO No. ©", or a lone "D") are not a value: one glyph read from a
  // scan is a speck, more letters or digits are a value.
  const speck = seg.words[0]?.source === 'ocr' && rest.trim().length === 1;
  if (/[A-Za-z0-9]/.test(rest) && spec.kind !== 'text' && !speck) return null;
  // A state's value cell often carries its own row label ("State: Karnataka, Code: 29").
  const valueCell = (s: Segment) =>
    !isLabelText(s.text, type) || (spec.kind === 'state' && STATE_LINE.test(s.text));
  // A label wrapped in its cell ("Place of" / "Supply"): its value may stand beside either line.
  for (const labelSeg of hit.upper ? [seg, hit.upper] : [seg]) {
    const right = rightOf(layout, labelSeg);
    if (right && right.x0 - labelSeg.x1 < G.rightCellReach && valueCell(right)) {
      const p = parseValue(spec.kind, right.text);
      if (p) return at(right, p, 0, 'rightCell');
      // Not a value of this kind: a neighbouring column header; the value may still be below.
    }
  }
  const below = underLabel(belowOf(layout, seg), seg);
  if (below && valueCell(below)) {
    const p = parseValue(spec.kind, below.text);
    if (p) return at(below, p, 0, 'below');
  }
  if (spec.kind === 'state' && below) {
    const found = stateInColumn(layout, type, below);
    if (found) return at(found.seg, found.p, 0, 'stateInColumn');
  }
  return null;
}

/** Lines of an address block under a column heading, at most. */
const COLUMN_LINES = 4;

/**
 * The state named in the address block that a "Place of Supply" heading heads (a consignee's
 * name, then its address): the first of its next lines in the column to name a state.
 */
function stateInColumn(
  layout: Layout,
  type: DocumentType,
  first: Segment,
): { seg: Segment; p: ParsedValue } | null {
  let cur: Segment | null = first;
  for (let i = 0; cur && i < COLUMN_LINES; i++) {
    if (isLabelText(cur.text, type)) return null;
    const p = parseValue('state', cur.text);
    if (p) return { seg: cur, p };
    cur = belowOf(layout, cur, 2);
  }
  return null;
}

/**
 * A document number cut at a separator ("INV/2024-" then the end of its cell, or the next label):
 * a narrow cell wrapped it. The cell's next line, directly below and holding one short code,
 * completes it ("25"); a number left cut is not trusted.
 */
/**
 * A text value whose bracket is left open at the end of its cell wrapped ("… (after the goods pass" /
 * "inspection)"): the next line's one segment under the value that closes it completes it.
 */
function completeOpenBracket(layout: Layout, c: Candidate, seg: Segment): void {
  if (typeof c.value !== 'string' || c.value.lastIndexOf('(') <= c.value.lastIndexOf(')')) return;
  const next = wrappedLine(layout, seg);
  const [x0, y0, x1, y1] = c.bbox;
  const tail = next?.segments.filter((s) => s.x0 >= x0 - 2 && s.x0 < x1) ?? [];
  const t = tail[0];
  if (tail.length !== 1 || !t || !/^[^()]*\)/.test(t.text)) return;
  c.value = `${c.value} ${t.text}`;
  c.bbox = [Math.min(x0, t.x0), y0, Math.max(x1, t.x1), Math.max(y1, t.y1)];
}

/** Words a sentence does not end on: a term's text cut after one goes on in the next line. */
const JOINING_WORDS = new Set(['the', 'of', 'to', 'and', '&', 'for', 'with', 'against', 'from', 'at', 'by']);

/**
 * A term's text cut after a joining word ("… Prior To Dispatch The" / "Material"): its line wrapped
 * back to the label's or the value's left edge, where the next line's only segment goes on.
 */
function completeCutPhrase(
  layout: Layout,
  type: DocumentType,
  c: Candidate,
  seg: Segment,
  label: Segment,
): void {
  if (typeof c.value !== 'string') return;
  const last = c.value.split(' ').pop()?.toLowerCase() ?? '';
  if (!JOINING_WORDS.has(last)) return;
  const next = wrappedLine(layout, seg);
  const t = next?.segments.length === 1 ? next.segments[0]! : null;
  const aligned = (x: number) => t !== null && Math.abs(t.x0 - x) < G.columnSlack;
  if (!t || !(aligned(label.x0) || aligned(c.bbox[0])) || isLabelText(t.text, type)) return;
  const [x0, y0, x1, y1] = c.bbox;
  c.value = `${c.value} ${t.text}`;
  c.bbox = [Math.min(x0, t.x0), y0, Math.max(x1, t.x1), Math.max(y1, t.y1)];
}

/** The line after a segment's when it follows closely enough to be the segment's cell wrapping. */
function wrappedLine(layout: Layout, seg: Segment): Layout['lines'][number] | null {
  const line = layout.lines[seg.line]!;
  const next = layout.lines[seg.line + 1];
  return next && next.page === seg.page && next.y0 - line.y1 <= G.wrapGapHeights * line.height ? next : null;
}

/**
 * A number cut at the end of its cell (its last word ends with the separator) goes on in the
 * cell's next line ("VKPL/25-26/PO-" over "61"). In a narrow cell whose text is centred in its
 * height, the wrap runs both ways: a piece above as well as below ("09A_GP" / "IL/26-" / "27").
 */
function completeCutNumber(layout: Layout, found: { candidate: Candidate; seg: Segment; end: number }): void {
  const { candidate: c, seg } = found;
  const after = seg.text.slice(found.end);
  if (typeof c.value !== 'string' || !/^[-/]\s*(?:$|[A-Za-z]{2})/.test(after)) return;
  const [x0, , x1] = c.bbox;
  const inColumn = (line: Layout['lines'][number] | null) =>
    line?.segments.filter((s) => Math.min(s.x1, x1) - Math.max(s.x0, x0) > 0) ?? [];
  const piece = (segs: Segment[]) =>
    segs.length === 1 && /^[A-Za-z0-9_]{1,6}$/.test(segs[0]!.text) ? segs[0]!.text : null;
  // Cut at the end of its cell: only the separator is left after the value, or a space follows it.
  const cut = after.trimEnd().length === 1 || after.startsWith(' ', 1);
  const tail = cut ? piece(inColumn(wrappedLine(layout, seg))) : null;
  const head = tail ? piece(inColumn(lineAbove(layout, seg))) : null;
  if (tail) c.value = `${head ?? ''}${c.value}${after[0]}${tail}`;
  // Three pieces put together by their place alone stay below review.
  if (!tail || head) c.score *= CUT_NUMBER_DOUBT;
}

/** The line before a segment's when it sits closely enough above to be the same cell wrapping. */
function lineAbove(layout: Layout, seg: Segment): Layout['lines'][number] | null {
  const line = layout.lines[seg.line]!;
  const prev = layout.lines[seg.line - 1];
  return prev && prev.page === seg.page && line.y0 - prev.y1 <= G.wrapGapHeights * line.height ? prev : null;
}

/**
 * "Order Ref : 7700123 dt. 20/02/2025": a number label's value often carries its date; read it
 * for the paired date field.
 */
function pairedDate(hit: LabelHit, seg: Segment, valueEnd: number): Candidate | null {
  if (!hit.spec.dateField) return null;
  const after = seg.text.slice(valueEnd);
  const m = /^\s*(?:dt\.?|dated|date|of|,|\/|&)\s*:?\s*/i.exec(after);
  if (!m) return null;
  const p = parseValue('date', after.slice(m[0].length));
  if (!p || p.start > 2) return null;
  const score = VALUE_PLACE_SCORE.pairedDate * hit.weight;
  return candidateFrom(hit.spec.dateField, seg, p, valueEnd + m[0].length, score);
}

/** The word after "Delivery" in a delivery column's label ("Delivery Date", "Deliv. Sch."). */
const DELIVERY_SECOND_WORDS = new Set(['date', 'schedule', 'sch', 'sch.', 'by', 'dt', 'dt.']);

/**
 * A PO's delivery schedule printed as a table column: on scans OCR often runs the column headers
 * into one phrase ("HSN Code Delivery Schedule Quantity UOM", or "Schedule Delivery" from a header
 * over two lines), so the label is found word by word and the date read from the first row under
 * those words.
 */
export function deliveryDateFromColumn(layout: Layout): Candidate | null {
  for (let li = 0; li < layout.lines.length; li++) {
    const line = layout.lines[li]!;
    const ws = line.words;
    for (let k = 0; k + 1 < ws.length; k++) {
      const a = ws[k]!.text.toLowerCase();
      const b = ws[k + 1]!.text.toLowerCase();
      // Tally's "Due on" column on a purchase order is each item's delivery date.
      const pair =
        (a.startsWith('deliv') && DELIVERY_SECOND_WORDS.has(b)) ||
        ((a === 'date' || a === 'schedule') && b.startsWith('deliv')) ||
        (a === 'due' && b === 'on');
      if (!pair) continue;
      const x0 = ws[k]!.x0 - G.deliveryColumnSlack;
      const x1 = ws[k + 1]!.x1 + G.deliveryColumnSlack;
      for (let n = li + 1; n < Math.min(layout.lines.length, li + 1 + G.deliveryRows); n++) {
        const row = layout.lines[n]!;
        if (row.page !== line.page) break;
        const under = row.words.filter((w) => (w.x0 + w.x1) / 2 >= x0 && (w.x0 + w.x1) / 2 <= x1);
        if (!under.length) continue;
        const text = under.map((w) => w.text).join(' ');
        const p = parseValue('date', text);
        if (!p) continue;
        const seg: Segment = { ...layout.segments[0]!, page: row.page, words: under, text, line: n };
        return candidateFrom('deliveryDate', seg, p, 0, VALUE_PLACE_SCORE.deliveryColumn);
      }
    }
  }
  return null;
}

/** Read every labelled header field; returns candidates per field, best first. */
export function extractLabelledFields(
  layout: Layout,
  type: DocumentType,
  skip: (s: Segment) => boolean,
): Map<string, Candidate[]> {
  const out = new Map<string, Candidate[]>();
  for (const hit of findLabelHits(layout, type, skip)) {
    for (const x of resolveHit(layout, type, hit)) {
      const list = out.get(x.field) ?? [];
      list.push(x);
      out.set(x.field, list);
    }
  }
  if (profileOf(type).deliveryDateInLines && !out.get('deliveryDate')?.length) {
    const c = deliveryDateFromColumn(layout);
    if (c) out.set('deliveryDate', [c]);
  }
  // Best score first; among equals, the earliest on the document (headers repeat on later pages).
  for (const list of out.values())
    list.sort((a, b) => b.score - a.score || a.page - b.page || a.bbox[1] - b.bbox[1]);
  return out;
}
