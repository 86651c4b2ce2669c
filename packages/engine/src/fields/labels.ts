import type { Layout, Segment } from '../layout.ts';
import { wordPhrases } from '../phrases.ts';
import { profileOf } from '../profiles/index.ts';
import type { DocumentType } from '../types.ts';
import { LABEL_GEOMETRY as G, LABEL_WEIGHT } from './header-weights.ts';
import {
  AMOUNT_LABELS,
  type FieldSpec,
  GENERIC_DATE,
  normalizeLabelText,
  PARTY_LABELS,
} from './vocabulary.ts';

/** Labels of a GSTIN ("GSTIN", "GSTIN/UIN", "GST No.", "GST Reg."). */
export const GSTIN_LABELS = ['gstin', 'gst in', 'gst no', 'gst reg', 'uin'];

/** Labels of a business's other registrations (PAN, CIN, FSSAI, Udyam...). */
export const REGISTRATION_LABELS = ['pan', 'cin', 'tan', 'iec', 'fssai', 'msme', 'udyam', 'llpin'];

/** Labels of a way to reach a party. */
export const CONTACT_LABELS = [
  ...['ph', 'phone', 'tel', 'telephone', 'mob', 'mobile', 'fax', 'email', 'e-mail', 'website', 'web'],
  ...['contact', 'kind attn', 'attn'],
];

/** Labels of dispatch, reference and terms rows that no extracted field takes. */
const REFERENCE_LABELS = [
  ...['terms', 'mode', 'delivery note', 'reference', 'other reference', 'other references'],
  ...['dispatch', 'dispatched', 'despatch', 'despatched', 'destination', 'bill of lading', 'lr'],
  ...['supply type', 'document type', 'reverse charge', 'transporter', 'gate entry', 'department'],
  ...['store', 'remarks', 'format no', 'vendor code', 'supplier code', 'purchasing group', 'pr no'],
  ...['quotation', 'incoterms', 'inco terms'],
];

/** Labels of an amount in words and of bank details. */
const WORDS_AND_BANK_LABELS = [
  'amount',
  'total in words',
  'rupees',
  'in words',
  'bank',
  'a/c',
  'account',
  'ifsc',
  'branch',
];

/** A "State: …" / "State Code: …" row of a block or cell ("Code: 29" too). */
export const STATE_LINE = /^(?:code\s*[:-]|state\b)/i;

/** Words that start a label on Indian business documents but name no field we extract. */
const OTHER_LABELS: RegExp[] = [
  wordPhrases(
    [
      ...GSTIN_LABELS,
      ...REGISTRATION_LABELS,
      ...CONTACT_LABELS,
      ...REFERENCE_LABELS,
      ...WORDS_AND_BANK_LABELS,
    ],
    { atStart: true },
  ),
  STATE_LINE,
];

/** A segment recognised as the label of a header field. */
export interface LabelHit {
  spec: FieldSpec;
  segment: Segment;
  /** Character offset in the segment text where the label ends (its value may follow). */
  end: number;
  /** Higher when the wording is specific ("Invoice Date") than generic ("Date"). */
  weight: number;
  /** The label's first line when it wraps in its cell ("Place of" over "Supply"): `segment` is its last. */
  upper?: Segment;
}

/** Test the start of a segment's text against patterns; returns the end of the match. */
export function matchStart(text: string, patterns: readonly RegExp[]): number | null {
  // OCR puts stray quote marks and bars before a word at a box edge ("“Supplier :"); skip them.
  const lead = OCR_LEAD.exec(text)?.[0].length ?? 0;
  const t = normalizeLabelText(text.slice(lead));
  for (const p of patterns) {
    const m = p.exec(t);
    if (m && m.index === 0) return lead + originalLength(text.slice(lead), m[0].length);
  }
  return null;
}

/** How much of `text` normalises to its first `n` characters (normalising drops spaces). */
function originalLength(text: string, n: number): number {
  // A mark after the prefix keeps its trailing space from being trimmed away.
  const normalised = (k: number) => normalizeLabelText(`${text.slice(0, k)}x`).length - 1;
  let k = n;
  while (k < text.length && normalised(k) < n) k++;
  return k;
}

/** The number of an item in a list of terms ("2 Payment Terms", "(3) Delivery", "4) Freight"). */
const LIST_NUMBER = /^\s*\(?\d{1,2}\)?[.)]?\s+(?=[A-Za-z]{3})/;

/**
 * Like `matchStart`, for a field label that may follow its list number in a list of terms ("2
 * Payment Terms :"). Only field labels: a numbered section heading ("3. Party Details") is not a
 * party's heading.
 */
/** A code (a digit and a letter or separator, no spaces) before a word: a value, then a label. */
const CODE_LEAD = /^(?=\S*\d)(?=\S*[A-Za-z/_-])\S{3,}\s+(?=[A-Za-z])/;

function matchFieldLabel(text: string, patterns: readonly RegExp[]): number | null {
  const plain = matchStart(text, patterns);
  if (plain !== null) return plain;
  // A list number ("3. Invoice No"), or a code whose cell ran into the next label ("PO/26-1 Date"):
  // the text layer merges cells set closer than a space apart.
  const lead = (LIST_NUMBER.exec(text) ?? CODE_LEAD.exec(text))?.[0].length;
  if (!lead) return null;
  const end = matchStart(text.slice(lead), patterns);
  return end === null ? null : lead + end;
}

/**
 * Stray marks before the first word of a cell: quotes, bars, underscores, tildes, rules, bullets, or a
 * box edge read as a lone lower-case "i" or "l" before a capitalised word, set apart or glued to it
 * ("i Place of Supply", "lDated").
 */
export const OCR_LEAD = /^(?:[\s"'“”‘’`|_~#*•=\-–]+(?=[A-Za-z])|[il] ?(?=[A-Z][a-z]))/;

/** True when a segment starts with any known label (field, party, amount or other). */
export function isLabelText(text: string, type: DocumentType): boolean {
  if (matchStart(text, OTHER_LABELS) !== null) return true;
  if (matchStart(text, [GENERIC_DATE]) !== null) return true;
  for (const s of profileOf(type).fieldSpecs) if (matchStart(text, s.labels) !== null) return true;
  for (const list of Object.values(PARTY_LABELS)) if (matchStart(text, list) !== null) return true;
  for (const list of Object.values(AMOUNT_LABELS)) if (matchStart(text, list) !== null) return true;
  // A short segment ending in a colon is a label whatever its wording.
  return /^[A-Za-z][A-Za-z .'/&()-]{1,30}:\s*$/.test(text);
}

/**
 * Find the segments that label header fields. A bare "Date"/"Dated" takes its meaning from the
 * number label to its left on the same line (Tally's "Buyer's Order No. | Dated") or directly
 * above it in the same column ("GRN No.:" over "Date:"), else it is the document date.
 */
export function findLabelHits(layout: Layout, type: DocumentType, skip: (s: Segment) => boolean): LabelHit[] {
  const specs = profileOf(type).fieldSpecs;
  const byField = new Map(specs.map((s) => [s.field, s]));
  const hits: LabelHit[] = [];
  const hitBySegment = new Map<Segment, LabelHit>();
  for (const seg of layout.segments) {
    const inTable = skip(seg);
    // Every field's own wording first; a title followed by a number ("Invoice Date.11-03-2023"
    // reads like "INVOICE X-7") only when no label names the segment.
    for (const weak of [false, true]) {
      if (hitBySegment.has(seg)) break;
      for (const spec of specs) {
        // A PO's delivery schedule is often a table column: its first row carries the date.
        if (inTable && spec.field !== 'deliveryDate') continue;
        const patterns = weak ? spec.weakLabels : spec.labels;
        if (!patterns) continue;
        let end = weak ? matchStart(seg.text, patterns) : matchFieldLabel(seg.text, patterns);
        // A label whose colon opens the next cell ("Payment | : 30 days"), as tab stops set it.
        if (end === null && !weak) end = labelBeforeColonCell(layout, seg, patterns);
        // A title whose number stands in the next cell ("TAX INVOICE | BC-42").
        if (end === null && weak) end = titleBeforeNumberCell(layout, seg, patterns);
        if (end === null) continue;
        const hit = { spec, segment: seg, end, weight: weak ? LABEL_WEIGHT.weak : LABEL_WEIGHT.specific };
        hits.push(hit);
        hitBySegment.set(seg, hit);
        break;
      }
    }
  }
  // Labels stacked over two or three header lines ("Delivery" over "Schedule").
  for (const seg of layout.segments) {
    if (hitBySegment.has(seg) || seg.text.length > G.stackedMaxChars || isLabelText(seg.text, type)) continue;
    const below = stackedBelow(layout, seg);
    if (!below || hitBySegment.has(below)) continue;
    const text = `${seg.text} ${below.text}`;
    for (const spec of specs) {
      if (skip(seg) && spec.field !== 'deliveryDate') continue;
      const end = matchStart(text, spec.labels);
      if (end === null || end <= seg.text.length + 1) continue;
      const hit = {
        spec,
        segment: below,
        end: Math.min(below.text.length, end - seg.text.length - 1),
        weight: LABEL_WEIGHT.stacked,
        upper: seg,
      };
      hits.push(hit);
      hitBySegment.set(below, hit);
      break;
    }
  }
  for (const seg of layout.segments) {
    if (skip(seg) || hitBySegment.has(seg)) continue;
    const end = matchStart(seg.text, [GENERIC_DATE]);
    if (end === null) continue;
    const owner =
      numberLabelBeside(layout, seg, hitBySegment) ?? numberLabelAbove(layout, seg, hitBySegment, end);
    const field = owner?.spec.dateField ?? 'documentDate';
    const spec = byField.get(field);
    if (!spec) continue;
    hits.push({ spec, segment: seg, end, weight: owner ? LABEL_WEIGHT.dateOfNumber : LABEL_WEIGHT.bareDate });
  }
  return hits;
}

/**
 * A label cell whose colon was set at a tab stop, opening the value's cell ("Payment | : 30 days"):
 * the label read with its colon, ending at its cell's end.
 */
function labelBeforeColonCell(layout: Layout, seg: Segment, patterns: readonly RegExp[]): number | null {
  const line = layout.lines[seg.line]!;
  const next = line.segments[line.segments.indexOf(seg) + 1];
  if (!next?.text.startsWith(':')) return null;
  const end = matchFieldLabel(`${seg.text} :`, patterns);
  return end === null ? null : Math.min(end, seg.text.length);
}

/** One code holding a digit, alone in its cell: a document number, not a phrase or a figure. */
const NUMBER_CELL = /^[A-Za-z0-9][A-Za-z0-9/_.-]*\d[A-Za-z0-9/_.-]*$/;

/** A figure with separators ("1,180.00"): an amount, not a document number. */
function isFigure(text: string): boolean {
  return /^[\d,.]+$/.test(text) && (text.includes(',') || text.includes('.'));
}

/**
 * A segment that is only a title ("TAX INVOICE") with a number cell right beside it on its line:
 * the title labels that number. Returns the end of the title, or null.
 */
function titleBeforeNumberCell(layout: Layout, seg: Segment, patterns: RegExp[]): number | null {
  const line = layout.lines[seg.line]!;
  const next = line.segments[line.segments.indexOf(seg) + 1];
  if (!next || !NUMBER_CELL.test(next.text) || isFigure(next.text)) return null;
  const end = matchStart(`${seg.text} ${next.text}`, patterns);
  return end !== null && end <= seg.text.length + 1 ? seg.text.length : null;
}

/**
 * The next part of a label wrapped in its cell ("Delivery" over "Schedule"). Lines of other
 * columns may fall between the two parts (a party block beside a narrow "Invoice" / "No" cell).
 */
function stackedBelow(layout: Layout, seg: Segment): Segment | null {
  const line = layout.lines[seg.line]!;
  for (let k = seg.line + 1; k <= seg.line + G.stackedLines && k < layout.lines.length; k++) {
    const next = layout.lines[k]!;
    if (next.page !== seg.page || next.y0 - line.y1 > G.stackedGapHeights * line.height) return null;
    const cx = (seg.x0 + seg.x1) / 2;
    const s = next.segments.find(
      (b) => Math.abs(b.x0 - seg.x0) < G.stackedSlack || Math.abs((b.x0 + b.x1) / 2 - cx) < G.stackedSlack,
    );
    if (s) return s;
  }
  return null;
}

function numberLabelBeside(layout: Layout, seg: Segment, hits: Map<Segment, LabelHit>): LabelHit | null {
  const line = layout.lines[seg.line]!;
  const i = line.segments.indexOf(seg);
  // The label itself, or a "label | value" pair, immediately to the left.
  for (const j of [i - 1, i - 2]) {
    const left = line.segments[j];
    if (!left) break;
    const hit = hits.get(left);
    if (hit) return hit.spec.dateField ? hit : null;
    if (j === i - 1 && isLabelText(left.text, 'invoice')) return null;
  }
  return null;
}

function numberLabelAbove(
  layout: Layout,
  seg: Segment,
  hits: Map<Segment, LabelHit>,
  dateEnd: number,
): LabelHit | null {
  const line = layout.lines[seg.line]!;
  for (let k = seg.line - 1; k >= Math.max(0, seg.line - 2); k--) {
    const above = layout.lines[k]!;
    if (above.page !== seg.page || seg.y0 - above.y1 > G.dateOwnerGapHeights * line.height) break;
    const aligned = above.segments.find(
      (s) => Math.abs(s.x0 - seg.x0) < G.dateOwnerSlack || labelEndsAlign(s, hits.get(s), seg, dateEnd),
    );
    if (!aligned) continue;
    const hit = hits.get(aligned);
    return hit?.spec.dateField ? hit : null;
  }
  return null;
}

/**
 * Labels set flush right ("Invoice No :" over "Dated :", or without colons) line up where their
 * words end, not where they start: the right edge of a number label's words and of the date's.
 */
function labelEndsAlign(above: Segment, hit: LabelHit | undefined, seg: Segment, dateEnd: number): boolean {
  if (!hit) return false;
  const [x, y] = [xAtChar(above, hit.end), xAtChar(seg, dateEnd)];
  // Within a character or two: OCR may drop the colon after one of them.
  return x !== undefined && y !== undefined && Math.abs(x - y) <= seg.y1 - seg.y0;
}

/** The right edge of the words that spell the first `chars` characters of a segment's text. */
function xAtChar(seg: Segment, chars: number): number | undefined {
  let pos = 0;
  let x: number | undefined;
  for (const w of seg.words) {
    if (pos >= chars) break;
    x = w.x1;
    pos += w.text.length + 1;
  }
  return x;
}
