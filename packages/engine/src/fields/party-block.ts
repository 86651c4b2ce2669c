import { findDates, stateCodeFromText } from '@bahi/india';
import { boxOf, type Layout, type Line, type Segment } from '../layout.ts';
import { wordPhrases } from '../phrases.ts';
import { isTitleText, profileOf } from '../profiles/index.ts';
import type { DocumentType } from '../types.ts';
import { median } from '../util.ts';
import type { Candidate } from './header.ts';
import { OCR_DOUBT, withOcrDoubt } from './header-weights.ts';
import {
  CONTACT_LABELS,
  GSTIN_LABELS,
  isLabelText,
  matchStart,
  REGISTRATION_LABELS,
  STATE_LINE,
} from './labels.ts';
import { isPlaceName, repairOcrText } from './ocr-words.ts';
import { cutAddressAfterForm } from './party-names.ts';
import {
  MISSPELT_STATE_CONFIDENCE,
  misspeltStateInAddress,
  stateFromAddress,
  stateOfGstinInAddress,
} from './party-state.ts';
import { BLOCK_GEOMETRY as B, NAME_LINES, PARTY_SCORE, TABLE_START, UNDER_HEADING } from './party-weights.ts';
import { collapseSpaces, findGstins } from './values.ts';
import { PARTY_LABELS } from './vocabulary.ts';

/**
 * Reading one party block: the lines stacked under a party heading (or a letterhead's name), sorted
 * into the party's name, address, GSTIN and state.
 */

/** What the engine read about one party (supplier or buyer). */
export interface Party {
  name: Candidate | null;
  gstin: Candidate | null;
  address: Candidate | null;
  stateCode: Candidate | null;
}

/** A party heading's role: the supplier, the bill-to buyer, or a ship-to / consignee. */
export type Role = 'vendor' | 'buyer' | 'shipTo';

/** A row of a party block that is a way to reach it or a registration, never its address. */
const CONTACT = wordPhrases(
  [
    ...CONTACT_LABELS,
    'cell',
    'url',
    ...REGISTRATION_LABELS,
    'reg office',
    'regd office',
    'reg. office',
    'regd. office',
  ],
  { atStart: true },
);
/** A GSTIN's row in a party block ("GSTIN :" at the start of a line). */
export const GSTIN_LABEL = wordPhrases(GSTIN_LABELS, { atStart: true });

const COLUMN_HEADER =
  /\b(?:s\.? ?no|sl\.?|sr\.?)\b.*\b(?:description|particulars|item|material)\b|\b(?:description|particulars)\b.*\b(?:qty|quantity|hsn|rate|uom)\b/i;

/** A party of which nothing was read. */
export const EMPTY: Party = { name: null, gstin: null, address: null, stateCode: null };

/** The party a heading's text names on this type of document ("Bill To", "Supplier", "Consignee"). */
export function headingRole(text: string, type: DocumentType): Role | null {
  const t = text.trim();
  if (matchStart(t, PARTY_LABELS.shipTo) !== null) return 'shipTo';
  if (matchStart(t, PARTY_LABELS.buyer) !== null) return 'buyer';
  // "To," / "M/s." / "Party" address the other party: the buyer on an invoice, the supplier on a PO or GRN.
  const issuer = profileOf(type).issuer;
  if (matchStart(t, PARTY_LABELS.counterparty) !== null) return issuer === 'vendor' ? 'buyer' : 'vendor';
  // "From" is the issuer: the supplier on an invoice, the buyer on a PO.
  if (/^from\b/i.test(t)) return issuer;
  if (matchStart(t, PARTY_LABELS.vendor) !== null) return 'vendor';
  return null;
}

/** A party field read from a block's segments, scored by how it was read and by OCR's doubt. */
export function candidate(
  field: string,
  segs: Segment[],
  value: string | null,
  score: number,
): Candidate | null {
  if (!value || !segs.length) return null;
  const words = segs.flatMap((s) => s.words);
  return {
    field,
    value,
    page: segs[0]!.page,
    bbox: boxOf(words),
    source: words[0]?.source ?? 'text',
    score: withOcrDoubt(score, words, OCR_DOUBT.party),
  };
}

/** A block's row label set in its own cell ("Name | : Sahyadri Environment Pvt. Ltd."). */
const ROW_LABEL =
  /^(?:name|address|state(?: name| code)?|gstin(?:\/uin)?|phone|contact|e-?mail|city|pin(?: code)?|m\s?\/\s?s\.?)\s*:?$/i;

/**
 * In a block laid out as "label | : value" rows ("Name: | Meena Iyer", "State | Delhi 07"), the
 * label's cell alone says nothing: read it with the value cell beside it, so "Name : …" gives the
 * name and "GSTIN : …" the GSTIN.
 */
function withValueCell(lineSegs: Segment[], seg: Segment, rightLimit: number): Segment {
  if (!ROW_LABEL.test(seg.text.trim())) return seg;
  const next = lineSegs[lineSegs.indexOf(seg) + 1];
  if (!next || next.x0 >= rightLimit - B.edgeSlack || next.x0 - seg.x1 > B.rowValueReach) return seg;
  const value = next.text.trim();
  // A label cell beside it is another row label, not this one's value.
  if (ROW_LABEL.test(value.startsWith(':') ? value.slice(1).trim() : value)) return seg;
  const joined = joinSegments(seg, next);
  // "Name | Test Traders": the label read with its colon, so it is stripped as a label.
  return seg.text.trimEnd().endsWith(':') || value.startsWith(':')
    ? joined
    : { ...joined, text: `${seg.text.trim()}: ${next.text}` };
}

/** Two segments of one line read as one: the left one's text, then the right one's. */
function joinSegments(left: Segment, right: Segment): Segment {
  return {
    ...left,
    x1: right.x1,
    y0: Math.min(left.y0, right.y0),
    y1: Math.max(left.y1, right.y1),
    words: [...left.words, ...right.words],
    text: `${left.text} ${right.text}`,
  };
}

/** A line that is only a company's legal form: the end of a name that wrapped. */
const COMPANY_FORM_LINE =
  /^(?:(?:pvt\.?|private|public)\s+)?(?:ltd\.?|limited)$|^(?:llp|company(?: (?:ltd\.?|limited))?|co\.?|corporation|(?:and|&) (?:co\.?|company|sons))$/i;
/** A name line broken after a joining word. */
const JOINING_END = /\b(?:and|&|of|for)$/i;
/** Words that head a block or a field, never a party's name when they stand alone. */
const NOT_A_NAME =
  /^(?:name|notes?|details?|address|remarks?|description|particulars|contact(?: details)?|phone|e-?mail|signature|authori[sz]ed signatory|terms(?: (?:and|&) conditions)?)$/i;

/** A label of a reference ("Ref No.", "Order Date :", "Cust. ID"): a field's name, never a party's. */
const REFERENCE_LABEL = /^[\w.&/ ]{0,20}\b(?:no|number|date|id|code)\.?\s*:?$/i;

/**
 * A name without what OCR or the layout glued to it: a leading mark ("<74 Konkan Marine Tools"),
 * a document number run on after it, with any stray mark after that ("... Rewa Alloys)
 * PO/NCL/25-26/314 L"). Empty when what is left is a heading word ("Name", "Notes") or a role in
 * brackets ("Details of Consignee (Shipped to)").
 */
export function tidyName(text: string): string {
  const t = text
    .replace(/^[<>|{}©®[\]~]+\S*\s+(?=[A-Za-z])/, '')
    .replace(/\s+[A-Z]{1,6}\/[\w/-]*\d[\w/-]*(?:\s+\S{1,2})?$/, '')
    .trim();
  if (NOT_A_NAME.test(t) || REFERENCE_LABEL.test(t) || isPlaceName(t)) return '';
  if (/\((?:ship(?:ped)?|bill(?:ed)?|deliver(?:ed)?)\s*to\)/i.test(t)) return '';
  return cutAddressAfterForm(t);
}

/** OCR confidence below which a word of a name is a guess, not a reading. */
const ILLEGIBLE_CONF = 0.5;

function hasIllegibleWord(segs: Segment[]): boolean {
  return segs.some((s) =>
    s.words.some((w) => w.source === 'ocr' && w.conf < ILLEGIBLE_CONF && /[A-Za-z]{2}/.test(w.text)),
  );
}

/** The opening of a letter ("Dear Sir,", "Respected Madam"), never a party's name. */
export const SALUTATION = /^(?:dear|respected|sir|madam|to whom)\b/i;

/** "M/s." before a party's name: a salutation, not part of the name. */
const MS_PREFIX = /^m\s?\/\s?s\.?\s*:?\s+(?=\S)/i;

/** Labels printed before a party's name in its block ("Name :", "Company Name:", "M/s."). */
const NAME_LABEL =
  /^(?:(?:company|firm|party|customer|buyer|supplier|vendor|client|trade|legal|business)(?: legal)?(?: entity)?\s*)?name\s*[:-]\s*|^(?:company|firm)\s*[:-]\s*/i;

/** A party's name without the label or salutation printed before it. */
export function stripNameLabel(text: string): string {
  return text.replace(NAME_LABEL, '').replace(MS_PREFIX, '').trim();
}

/** A party line with its spacing collapsed and stray marks at its ends dropped. */
export const clean = (s: string) =>
  collapseSpaces(s)
    // OCR reads box edges before a first word as quotes or bars ("‘Southern Pharmaceuticals").
    .replace(/^[\s,:;\-"'“”‘’`|_~]+|[\s,;:]+$/g, '')
    .trim();

/** An address line rather than a name: a comma, a number of three digits or more, address words. */
export const ADDRESS_LIKE =
  /,|\d{3}|\b(?:road|rd|street|st|marg|nagar|floor|estate|park|plot|shed|gala|sector|dist|district|industrial|highway|building|complex|chambers|tower|phase|gidc|midc|main|stage|cross|lane|colony|village|taluk|pin|near|opp|behind|block|survey|khasra|door|flat|unit|office)\b\.?/i;

/**
 * OCR spacing is uneven: a name or address line can come out as several segments. Join the
 * segments that follow closely on the same line (not labels), so the line reads whole.
 */
export function mergeOcrRun(
  lineSegs: Segment[],
  seg: Segment,
  type: DocumentType,
  rightLimit = Number.POSITIVE_INFINITY,
): Segment {
  if (seg.words[0]?.source !== 'ocr') return seg;
  let out = seg;
  for (let i = lineSegs.indexOf(seg) + 1; i < lineSegs.length; i++) {
    const next = lineSegs[i]!;
    // Never into the neighbouring column (a ship-to block beside the bill-to block).
    if (next.x0 >= rightLimit - B.edgeSlack || partsCells(out, next, type)) break;
    out = joinSegments(out, next);
  }
  return out;
}

/**
 * Read a party block: name, address lines, GSTIN and state from the segments stacked under an
 * anchor (or starting at a letterhead name). GSTIN, state, phone and e-mail lines are not address.
 */
export function readBlock(
  layout: Layout,
  type: DocumentType,
  first: Segment[],
  colX0: number,
  startLine: number,
  stopX: number | null,
  letterhead: boolean,
  rightLimit = Number.POSITIVE_INFINITY,
): Party {
  const start = { first, colX0, startLine, stopX, letterhead, rightLimit };
  const segs = collectBlockSegments(layout, type, start);
  const { name, address, gstin, ...printed } = sortBlockLines(segs, type, letterhead);
  let state = printed.state;
  let stateFrom = printed.stateSegs;
  let stateScore: number = PARTY_SCORE.state;
  // OCR slips in known address and company words ("Fandabad", "Industnal") are repaired.
  const fix = (s: Segment) => (s.words[0]?.source === 'ocr' ? repairOcrText(clean(s.text)) : clean(s.text));
  // An "Address :" row label, or the colon of its value cell, is not part of the address.
  const addressLines = address
    .map((s) =>
      fix(s)
        .replace(/^address\b\s*[:-]?\s*/i, '')
        .replace(/^[:-]\s*/, ''),
    )
    .filter(Boolean);
  if (!state) {
    const sure = stateFromAddress(addressLines) ?? stateOfGstinInAddress(gstin, addressLines);
    // A misspelt state only the spelling vouches for is read for review, never trusted.
    const code = sure ?? misspeltStateInAddress(addressLines);
    if (!sure) stateScore = MISSPELT_STATE_CONFIDENCE;
    if (code) {
      state = code;
      stateFrom = address.slice(-1);
    }
  }
  let nameText = tidyName(stripNameLabel(clean(name.map(fix).join(' '))));
  // A heading or a label is never a name ("Details of Consignee", "(Bill To)", "Notes"), nor is a
  // line that carries a date (OCR run together from a date row: "iModtfrerm-ot 18.Apr-26").
  if (
    nameText &&
    (headingRole(nameText.replace(/^[(/\s]+|[)\s]+$/g, ''), type) ||
      isLabelText(nameText, type) ||
      findDates(nameText).length > 0)
  )
    nameText = '';
  return {
    // A name OCR could barely read ("B aladll", a word at 12% confidence) is no name.
    name: candidate('name', name, nameText && !hasIllegibleWord(name) ? nameText : null, PARTY_SCORE.name),
    gstin,
    address: candidate(
      'address',
      address,
      addressLines.length ? addressLines.join(', ') : null,
      PARTY_SCORE.address,
    ),
    stateCode: candidate('stateCode', stateFrom, state, stateScore),
  };
}

/**
 * The rest of a name printed as a row's value ("Company: Sahyadri Pumps" over "Private Limited"
 * set under the value): a segment of `line` that starts where the block's only row's value starts and
 * is a company's legal form, or follows a name broken after a joining word.
 */
function wrappedNameValue(line: Line, segs: Segment[]): Segment | undefined {
  const row = segs.length === 1 ? segs[0]! : undefined;
  if (!row || !ROW_VALUE.test(row.text)) return undefined;
  const labelEnd = row.words.findIndex((w) => w.text.endsWith(':'));
  const valueStart = row.words[labelEnd + 1];
  if (labelEnd < 0 || !valueStart) return undefined;
  return line.segments.find(
    (s) =>
      Math.abs(s.x0 - valueStart.x0) < B.valueAlignSlack &&
      (COMPANY_FORM_LINE.test(clean(s.text)) || JOINING_END.test(clean(row.text))),
  );
}

/** "Label: value" in one segment. */
const ROW_VALUE = /^[A-Za-z][A-Za-z ./]{1,24}:\s*\S/;

/** Where a party block starts and how far it may reach. */
interface BlockStart {
  first: Segment[];
  colX0: number;
  startLine: number;
  /** The x of a "label | value" block's labels: a label there ends the block. */
  stopX: number | null;
  letterhead: boolean;
  rightLimit: number;
}

/**
 * The segments stacked under a party block's anchor, one a line, until a gap, a heading, a title,
 * another label column or a table ends the block.
 */
function collectBlockSegments(layout: Layout, type: DocumentType, start: BlockStart): Segment[] {
  const { first, colX0, startLine, stopX, letterhead, rightLimit } = start;
  let col = colX0;
  const segs: Segment[] = [...first];
  let last = layout.lines[startLine]!;
  let valueX: number | null = null;
  // The right edge of the block's heading (or first line), for blocks set flush right.
  const headingSeg = last.segments.find((s) => Math.abs(s.x0 - col) < B.columnSlack) ?? first[0];
  const rightEdge = headingSeg && headingSeg.x1 > col + B.flushRightMinWidth ? headingSeg.x1 : null;
  const page = last.page;
  for (let k = startLine + 1; k < layout.lines.length && segs.length < B.maxLines; k++) {
    const line = layout.lines[k]!;
    if (line.page !== page) break;
    if (line.y0 - last.y1 > B.blockGapHeights * Math.max(line.height, last.height)) break;
    // A label at the anchor's position ends a "label | value" stacked block.
    if (stopX !== null && Math.abs(stopX - col) > B.labelColumnApart) {
      if (line.segments.some((s) => Math.abs(s.x0 - stopX) < B.labelColumnSlack)) break;
    }
    const inColumn = (s: Segment) => Math.abs(s.x0 - col) < B.columnSlack;
    const centreOf = (s: Segment) => (s.x0 + s.x1) / 2;
    const seg =
      line.segments.find((s) =>
        letterhead
          ? inColumn(s) || Math.abs(centreOf(s) - centreOf(segs[0]!)) < B.letterheadCentreSlack
          : inColumn(s),
      ) ??
      centredUnder(line, segs.length === 0 && !letterhead ? headingSeg : undefined, rightLimit) ??
      flushRightLine(line, rightEdge, col, rightLimit);
    if (tableStarts(line, col, rightLimit)) break;
    // A name in a "Company: …" row that wrapped: its legal form sits under the value, not the label.
    const wrapped = seg ? undefined : wrappedNameValue(line, segs);
    if (wrapped) {
      segs.push(wrapped);
      last = line;
      continue;
    }
    // A row's value cell that wrapped ("Address | 8/3, Canal Road," over "Near Bus Stand"): its
    // next lines start under the value, not under the row labels.
    const x = valueX;
    const valueLine =
      seg || x === null
        ? undefined
        : line.segments.find((s) => Math.abs(s.x0 - x) < B.columnSlack && s.x1 < rightLimit + B.edgeSlack);
    if (valueLine && !isLabelText(valueLine.text, type)) {
      segs.push(valueLine);
      last = line;
      continue;
    }
    // A line with nothing in this column (a logo or title beside it) is skipped, not an end.
    if (!seg) continue;
    // A heading centred over its block: the block's own left edge is the column from here on.
    if (!segs.length && !inColumn(seg) && !letterhead) col = seg.x0;
    // "M/s. Bharat Traders" under a party heading is the party's name, not a new block.
    // "M/s." in a cell of its own ("M/S | Harini Traders") is the name's row label.
    const msCell = /^m\s?\/\s?s\.?\s*:?$/i.test(seg.text.trim());
    if (headingRole(seg.text, type) && !(segs.length === 0 && (MS_PREFIX.test(seg.text) || msCell))) break;
    if (isTitleText(seg.text) && seg.text.length < B.titleMaxChars) break;
    const row = withValueCell(line.segments, mergeOcrRun(line.segments, seg, type, rightLimit), rightLimit);
    segs.push(row);
    // Where this row's value cell starts, when the label's cell was read with it.
    const cells = line.segments.filter((c) => c.x0 >= row.x0 && c.x1 <= row.x1);
    valueX = cells[1]?.x0 ?? null;
    last = line;
  }
  return segs;
}

/** A line of a block set flush right (marketplace prints): it shares the heading's right edge. */
function flushRightLine(
  line: Line,
  rightEdge: number | null,
  col: number,
  rightLimit: number,
): Segment | undefined {
  if (rightEdge === null) return undefined;
  return line.segments.find(
    (s) =>
      Math.abs(s.x1 - rightEdge) < B.flushRightSlack &&
      s.x0 > col - B.flushRightReach &&
      s.x0 < rightLimit - B.edgeSlack &&
      // A stray mark at the edge (an OCR'd colon or rule) is not a line of the block.
      (s.text.match(/[A-Za-z0-9]/g) ?? []).length >= B.flushRightMinChars,
  );
}

/**
 * Whether a table starts on this line under a block: its header row names columns, its rows have
 * many cells. Cells of a box beside the block (Tally's invoice-number boxes) are not the block's:
 * they are counted apart. Marks left of the column (a box edge read as "3" or "|") belong to neither.
 */
function tableStarts(line: Line, col: number, rightLimit: number): boolean {
  const own = line.segments.filter((s) => s.x0 < rightLimit - B.edgeSlack && s.x0 > col - B.leftMarkMargin);
  const beside = line.segments.filter((s) => s.x0 >= rightLimit - B.edgeSlack);
  const figures = beside.filter((s) => /^[\d,.\s%₹]+[A-Za-z]{0,4}$/.test(s.text)).length;
  const serial = /^\d{1,3}\.?$/.test(own[0]?.text ?? '');
  return (
    own.length >= TABLE_START.ownCells ||
    (beside.length >= TABLE_START.besideCells && figures >= TABLE_START.besideFigures) ||
    (serial && beside.length >= TABLE_START.serialBesideCells) ||
    COLUMN_HEADER.test(line.text)
  );
}

/** A block's lines sorted into name, address, GSTIN and state (phone and e-mail lines dropped). */
function sortBlockLines(
  segs: Segment[],
  type: DocumentType,
  letterhead: boolean,
): {
  name: Segment[];
  address: Segment[];
  gstin: Candidate | null;
  state: string | null;
  stateSegs: Segment[];
} {
  const bodyHeight = median(segs.slice(1).map((s) => s.y1 - s.y0)) || 0;
  let name: Segment[] = [];
  const address: Segment[] = [];
  let gstin: Candidate | null = null;
  let state: string | null = null;
  let stateSegs: Segment[] = [];
  let ended = false;
  for (const s of segs) {
    const text = s.text;
    const g = findGstins(text)[0];
    if (g || GSTIN_LABEL.test(text)) {
      if (g && !gstin) {
        const words = s.words.filter((w) => findGstins(w.text).length) || s.words;
        gstin = candidate(
          'gstin',
          words.length ? [{ ...s, words }] : [s],
          String(g.value),
          // A repaired reading is evidence, not a printed fact: a reviewer should see it.
          g.valid ? (g.repaired ? PARTY_SCORE.repairedGstin : PARTY_SCORE.gstin) : PARTY_SCORE.failingGstin,
        );
      }
      if (name.length) ended = ended || address.length > 0;
      continue;
    }
    if (STATE_LINE.test(text)) {
      const code = stateCodeFromText(text);
      if (code && !state) {
        state = code;
        stateSegs = [s];
      }
      continue;
    }
    if (CONTACT.test(text) || /@|www\.|\+91|^\d[\d\s-]{8,}$/.test(text)) {
      if (name.length && address.length) ended = true;
      continue;
    }
    if (!name.length) {
      if (isLabelText(text.replace(MS_PREFIX, ''), type) && !letterhead) continue;
      name = [s];
      continue;
    }
    if (ended) continue;
    if (isLabelText(text, type)) {
      ended = true;
      continue;
    }
    // A name that wraps: the next line ends it with a company form ("SAHYADRI PUMPS (PUNE)" /
    // "PRIVATE LIMITED"), or the first line broke after a joining word ("Mehta Tiles And").
    if (
      !address.length &&
      name.length < NAME_LINES.max &&
      (COMPANY_FORM_LINE.test(clean(text)) || JOINING_END.test(clean(name[name.length - 1]!.text)))
    ) {
      name.push(s);
      continue;
    }
    // A letterhead name can wrap onto a second line in the same large type.
    if (
      letterhead &&
      !address.length &&
      name.length < NAME_LINES.max &&
      Math.abs(s.y1 - s.y0 - (name[0]!.y1 - name[0]!.y0)) < NAME_LINES.sameSizeSlack &&
      name[0]!.y1 - name[0]!.y0 > NAME_LINES.largerThanBody * bodyHeight
    ) {
      name.push(s);
      continue;
    }
    address.push(s);
  }
  return { name, address, gstin, state, stateSegs };
}

/**
 * The first line under a heading centred over its block ("Receiver Details" over "Name: … /
 * Address: …" set to the left of the heading's start), or under a short heading set one tab in:
 * its left-most segment under the heading.
 */
function centredUnder(line: Line, heading: Segment | undefined, rightLimit: number): Segment | undefined {
  if (!heading) return undefined;
  // The left-most segment starting between a little left of the heading and its middle, or
  // indented under a short heading ("To," over a block set one tab in).
  const indent = Math.min(
    heading.x1 + UNDER_HEADING.indentPastEnd,
    heading.x0 + UNDER_HEADING.indentPastStart,
  );
  const reach = Math.max((heading.x0 + heading.x1) / 2, indent);
  return line.segments.find(
    (s) => s.x0 < reach && s.x0 > heading.x0 - UNDER_HEADING.leftReach && s.x1 < rightLimit + B.edgeSlack,
  );
}

/**
 * The value cell beside a party heading on its line ("M/S | Sahyadri Pumps"): the next cell when
 * it starts within reach and is no label or heading of its own. Null when the block is under it.
 */
export function valueBesideHeading(line: Line, i: number, type: DocumentType): Segment | null {
  const anchor = line.segments[i];
  const right = line.segments[i + 1];
  if (!anchor || !right || right.x0 - anchor.x1 >= B.headingValueReach) return null;
  return isLabelText(right.text, type) || headingRole(right.text, type) ? null : right;
}

/**
 * Where the column of the block starting at `line.segments[from]` ends: the first segment to its
 * right that is a label or a role, or that sits well apart (a neighbouring box); none → no limit.
 */
export function columnLimit(line: Line, from: number, type: DocumentType): number {
  let prev = line.segments[from];
  if (!prev) return Number.POSITIVE_INFINITY;
  for (let k = from + 1; k < line.segments.length; k++) {
    const next = line.segments[k]!;
    if (partsCells(prev, next, type)) return next.x0;
    prev = next;
  }
  return Number.POSITIVE_INFINITY;
}

/** Whether `next` starts a cell of its own after `prev` on a line: far apart, a label or a party heading. */
function partsCells(prev: Segment, next: Segment, type: DocumentType): boolean {
  const h = Math.max(B.minLineHeight, prev.y1 - prev.y0);
  return (
    next.x0 - prev.x1 > B.cellGapHeights * h || isLabelText(next.text, type) || !!headingRole(next.text, type)
  );
}
