import { findDates, isValidGstin, STATES, stateByCode, stateCodeFromText } from '@bahi/india';
import { boxOf, type Layout, type Line, type Segment } from '../layout.ts';
import { isTitleText, profileOf } from '../profiles/index.ts';
import type { DocumentType } from '../types.ts';
import { editDistance, median } from '../util.ts';
import type { Candidate } from './header.ts';
import { OCR_DOUBT, withOcrDoubt } from './header-weights.ts';
import {
  CONTACT_LABELS,
  GSTIN_LABELS,
  isLabelText,
  matchStart,
  phrasePattern,
  REGISTRATION_LABELS,
  STATE_LINE,
} from './labels.ts';
import { isPlaceName, lowerWords, repairOcrText } from './ocr-words.ts';
import { cutAddressAfterForm, namesABusiness } from './party-names.ts';
import {
  BLOCK_GEOMETRY as B,
  LETTERHEAD,
  NAME_LINES,
  PARTY_SCORE,
  SAME_NAME,
  SIGN_OFF,
  STATE_IN_ADDRESS,
  TABLE_START,
  UNDER_HEADING,
} from './party-weights.ts';
import { collapseSpaces, countLetters, findGstins, stripLeadingSeparators, withoutSpaces } from './values.ts';
import { PARTY_LABELS } from './vocabulary.ts';

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
const CONTACT = phrasePattern(
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
  true,
);
/** A GSTIN's row in a party block. */
const GSTIN_LABEL = phrasePattern(GSTIN_LABELS, true);

const COLUMN_HEADER =
  /\b(?:s\.? ?no|sl\.?|sr\.?)\b.*\b(?:description|particulars|item|material)\b|\b(?:description|particulars)\b.*\b(?:qty|quantity|hsn|rate|uom)\b/i;

const EMPTY: Party = { name: null, gstin: null, address: null, stateCode: null };

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

function candidate(field: string, segs: Segment[], value: string | null, score: number): Candidate | null {
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
const SALUTATION = /^(?:dear|respected|sir|madam|to whom)\b/i;

/** "M/s." before a party's name: a salutation, not part of the name. */
const MS_PREFIX = /^m\s?\/\s?s\.?\s*:?\s+(?=\S)/i;

/** Labels printed before a party's name in its block ("Name :", "Company Name:", "M/s."). */
const NAME_LABEL =
  /^(?:(?:company|firm|party|customer|buyer|supplier|vendor|client|trade|legal|business)(?: legal)?(?: entity)?\s*)?name\s*[:-]\s*|^(?:company|firm)\s*[:-]\s*/i;

/** A party's name without the label or salutation printed before it. */
export function stripNameLabel(text: string): string {
  return text.replace(NAME_LABEL, '').replace(MS_PREFIX, '').trim();
}

const clean = (s: string) =>
  collapseSpaces(s)
    // OCR reads box edges before a first word as quotes or bars ("‘Southern Pharmaceuticals").
    .replace(/^[\s,:;\-"'“”‘’`|_~]+|[\s,;:]+$/g, '')
    .trim();

/** An address line rather than a name: a comma, a number of three digits or more, address words. */
const ADDRESS_LIKE =
  /,|\d{3}|\b(?:road|rd|street|st|marg|nagar|floor|estate|park|plot|shed|gala|sector|dist|district|industrial|highway|building|complex|chambers|tower|phase|gidc|midc|main|stage|cross|lane|colony|village|taluk|pin|near|opp|behind|block|survey|khasra|door|flat|unit|office)\b\.?/i;

function stateFromAddress(lines: string[]): string | null {
  // Lines joined with a space: a state name may wrap ("Dadra and Nagar" / "Haveli and Daman and Diu").
  const joined = lines.join(' ');
  for (const chunk of [joined, ...lines.slice().reverse()]) {
    const parts = chunk
      .split(/,|\s-\s|\s–\s/)
      .map((p) =>
        p
          .replace(/\b\d{3} ?\d{3}\b/g, '')
          .replace(/^[\s\-–]+|[\s\-–]+$/g, '')
          .trim(),
      )
      .filter((p) => p && /^[A-Za-z &.()]+$/.test(p));
    for (let j = parts.length - 1; j >= Math.max(0, parts.length - STATE_IN_ADDRESS.lastParts); j--) {
      const code = stateCodeFromText(parts[j]!);
      if (code && parts[j]!.length > 2) return code;
    }
  }
  return null;
}

/**
 * The state of the party's own GSTIN when its address names that state with an OCR slip
 * ("Tami Nadu"): the GSTIN vouches for which state is meant, the address that it is printed.
 */
function stateOfGstinInAddress(gstin: Candidate | null, lines: string[]): string | null {
  const code = typeof gstin?.value === 'string' && isValidGstin(gstin.value) ? gstin.value.slice(0, 2) : null;
  const state = code ? stateByCode(code) : undefined;
  if (!state || !lines.length) return null;
  const slips = Math.max(1, Math.floor(state.name.length / STATE_IN_ADDRESS.lettersPerSlip));
  return namedLoosely(state.name, lines, slips) ? state.code : null;
}

/** Whether the address lines name a state within `allowed` OCR slips. */
function namedLoosely(stateName: string, lines: string[], allowed: number): boolean {
  const name = stateName.toLowerCase();
  const words = lowerWords(lines.join(' '));
  const n = name.split(' ').length;
  for (let i = 0; i + n <= words.length; i++)
    if (editDistance(words.slice(i, i + n).join(' '), name, allowed) <= allowed) return true;
  return false;
}

/** How far a state read from a misspelt name, with nothing else for it, is trusted: review. */
export const MISSPELT_STATE_CONFIDENCE = 0.6;

/** Letters a state's name needs before a one-letter slip in it is still that state alone. */
const LOOSE_NAME_LETTERS = 8;

/**
 * The state an address names with one letter off ("Karnatka"): only long names, and only when
 * exactly one state is that close, so a slip never turns one state into another.
 */
function misspeltStateInAddress(lines: string[]): string | null {
  if (!lines.length) return null;
  const close = STATES.filter(
    (st) => !st.historical && st.name.length >= LOOSE_NAME_LETTERS && namedLoosely(st.name, lines, 1),
  );
  return close.length === 1 ? close[0]!.code : null;
}

/**
 * OCR spacing is uneven: a name or address line can come out as several segments. Join the
 * segments that follow closely on the same line (not labels), so the line reads whole.
 */
function mergeOcrRun(
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
function readBlock(
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
    // A line with nothing in this column (a logo or title beside it) is skipped, not an end.
    if (!seg) continue;
    // A heading centred over its block: the block's own left edge is the column from here on.
    if (!segs.length && !inColumn(seg) && !letterhead) col = seg.x0;
    // "M/s. Bharat Traders" under a party heading is the party's name, not a new block.
    // "M/s." in a cell of its own ("M/S | Harini Traders") is the name's row label.
    const msCell = /^m\s?\/\s?s\.?\s*:?$/i.test(seg.text.trim());
    if (headingRole(seg.text, type) && !(segs.length === 0 && (MS_PREFIX.test(seg.text) || msCell))) break;
    if (isTitleText(seg.text) && seg.text.length < B.titleMaxChars) break;
    segs.push(withValueCell(line.segments, mergeOcrRun(line.segments, seg, type, rightLimit), rightLimit));
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

function blockFromAnchor(layout: Layout, type: DocumentType, anchor: Segment): Party {
  const line = layout.lines[anchor.line]!;
  const role = headingRole(anchor.text, type);
  const label = matchStart(anchor.text, [
    ...PARTY_LABELS.shipTo,
    ...PARTY_LABELS.buyer,
    ...PARTY_LABELS.counterparty,
    ...PARTY_LABELS.vendor,
  ]);
  let restText = '';
  let restWords = anchor.words;
  if (label !== null) {
    // Drop a bracketed qualifier after the label: "Buyer (Bill to)", "Consignee (Ship to):".
    const after = stripLeadingSeparators(anchor.text.slice(label))
      .text.replace(/^\s*\([^)]*\)/, '')
      .replace(/^[\s/&|,]+/, '');
    restText = stripLeadingSeparators(after).text.trim();
    // "Bill to / Ship to", "Invoice To: (Bill To)": what follows the label is another heading.
    if (restText && (headingRole(restText, type) || isLabelText(restText, type))) restText = '';
    if (restText) restWords = anchor.words.slice(anchor.words.length - restText.split(' ').length);
  }
  const i = line.segments.indexOf(anchor);
  if (restText && role) {
    const first = { ...anchor, text: restText, words: restWords, x0: restWords[0]!.x0 };
    const limit = columnLimit(line, i, type);
    return readBlock(layout, type, [first], anchor.x0, anchor.line, null, false, limit);
  }
  const right = line.segments[i + 1];
  if (
    right &&
    right.x0 - anchor.x1 < B.headingValueReach &&
    !isLabelText(right.text, type) &&
    !headingRole(right.text, type)
  ) {
    const limit = columnLimit(line, i + 1, type);
    return readBlock(
      layout,
      type,
      [mergeOcrRun(line.segments, right, type, limit)],
      right.x0,
      anchor.line,
      anchor.x0,
      false,
      limit,
    );
  }
  return readBlock(layout, type, [], anchor.x0, anchor.line, null, false, columnLimit(line, i, type));
}

/**
 * Whether an address, phone, e-mail or GSTIN line follows a segment in its block: within its next
 * two lines, each no further below the one before than about two of its own heights (a logo's
 * tagline is close under it; the name block further down is a block of its own), starting near its
 * left edge or under it.
 */
function hasAddressBelow(layout: Layout, s: Segment): boolean {
  const h = Math.max(1, s.y1 - s.y0);
  let prev = { y1: s.y1, height: h };
  for (let i = s.line + 1; i < Math.min(layout.lines.length, s.line + 1 + LETTERHEAD.addressLines); i++) {
    const line = layout.lines[i] as Layout['lines'][number];
    if (
      line.page !== s.page ||
      line.y0 - prev.y1 > LETTERHEAD.addressGapHeights * Math.min(prev.height, line.height)
    )
      break;
    for (const t of line.segments) {
      const under = t.x0 < s.x1 && t.x1 > s.x0 && Math.abs(t.x0 - s.x0) < LETTERHEAD.addressIndentHeights * h;
      if (!under) continue;
      if (ADDRESS_LIKE.test(t.text) || /@|\b(?:ph|phone|tel|mob|mobile|gstin)\b/i.test(t.text)) return true;
    }
    prev = line;
  }
  return false;
}

/**
 * Choose the issuer's name among letterhead lines read by OCR (which, unlike a text layer, also
 * reads logos and stylised taglines). The issuer signs the document: a line that matches the name
 * in the signature block ("for ACME TRADERS" above "Authorised Signatory") wins. Otherwise a name
 * with an address under it beats one without, and among those the first, unless a later one is
 * much larger.
 */
function pickOcrLetterhead(layout: Layout, candidates: Segment[]): Segment | null {
  const signed = signatoryName(layout);
  if (signed) {
    const match = candidates.find((s) => sameName(s.text, signed));
    if (match) return match;
  }
  let best: Segment | null = null;
  let bestAddressed = false;
  for (const s of candidates) {
    const addressed = hasAddressBelow(layout, s);
    if (best && bestAddressed !== addressed) {
      if (addressed) {
        best = s;
        bestAddressed = true;
      }
      continue;
    }
    if (!best || s.y1 - s.y0 > LETTERHEAD.muchTaller * (best.y1 - best.y0)) {
      best = s;
      bestAddressed = addressed;
    }
  }
  return best;
}

/** A document title with its spaces lost. */
const GLUED_TITLE = /invoice|purchaseorder|workorder|billofsupply|cashmemo|goodsrece/i;

/** Signature wording under the issuer's "for NAME". */
const SIGNATORY = /authori[sz]ed|signatory|signature/i;

/** "for NAME" over a signature, or "For," alone on its line over the name (then without a name). */
const FOR_NAME = /^for\s*[,:]?(?:\s+(.*[A-Za-z]{2}.*))?$/i;

/** The name in a signature block: "for NAME" with signature wording on its line or the next few. */
function signatoryName(layout: Layout): string | null {
  for (let i = 0; i < layout.lines.length; i++) {
    const line = layout.lines[i] as Layout['lines'][number];
    for (const seg of line.segments) {
      const m = FOR_NAME.exec(seg.text.trim());
      if (!m?.[1] || SIGNATORY.test(m[1])) continue;
      const below = layout.lines.slice(i, i + SIGN_OFF.signatoryLines).filter((l) => l.page === line.page);
      if (below.some((l) => l.segments.some((t) => SIGNATORY.test(t.text)))) return m[1];
    }
  }
  return null;
}

/**
 * The issuer's sign-off at the foot of a document: "For," (or "For") alone on its line, and the
 * issuer's name on the next line, as Indian letters and POs close. Null when there is none.
 */
function signedOffBy(layout: Layout): Candidate | null {
  for (let i = 0; i < layout.lines.length - 1; i++) {
    const line = layout.lines[i]!;
    const forLine = line.segments.length === 1 ? FOR_NAME.exec(line.text.trim()) : null;
    if (!forLine || forLine[1] !== undefined) continue;
    const next = layout.lines[i + 1]!;
    const seg = next.segments.find((s) => Math.abs(s.x0 - line.segments[0]!.x0) < SIGN_OFF.alignSlack);
    if (!seg || next.page !== line.page || next.y0 - line.y1 > SIGN_OFF.gapHeights * line.height) continue;
    const text = tidyName(clean(seg.text));
    // A name: mostly letters, not signature wording or a label.
    const letters = countLetters(text);
    const fewLetters =
      letters < SIGN_OFF.minLetters || letters < SIGN_OFF.minLetterShare * withoutSpaces(text).length;
    if (fewLetters || SIGNATORY.test(text)) continue;
    return candidate('name', [seg], text, PARTY_SCORE.signedOff);
  }
  return null;
}

/** A letter's closing ("… Regards", "Yours faithfully,") at the end of its line. */
const CLOSING = /\b(?:regards|yours\s+(?:faithfully|truly|sincerely))\s*[,.]?\s*$/i;

/**
 * The issuer named under a letter's closing: "Regards", then the writer, a phone number and the
 * company, as POs written as letters end. Only a line that names a business counts (the writer's
 * own name does not), within the few lines under the closing.
 */
function closedBy(layout: Layout): Candidate | null {
  for (let i = 0; i < layout.lines.length; i++) {
    const line = layout.lines[i]!;
    if (!CLOSING.test(line.text)) continue;
    for (const next of layout.lines.slice(i + 1, i + 1 + SIGN_OFF.closingLines)) {
      if (next.page !== line.page) break;
      const seg = next.segments[0]!;
      const text = tidyName(clean(seg.text));
      if (/@|\d{4}/.test(text) || isLabelText(text, 'po')) continue;
      if (namesABusiness(text)) return candidate('name', [seg], text, PARTY_SCORE.closing);
    }
  }
  return null;
}

/** Two readings of one name: equal but for case, spacing, punctuation and an OCR slip or two. */
function sameName(a: string, b: string): boolean {
  const norm = (t: string) => t.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const x = norm(a);
  const y = norm(b);
  if (x.length < SAME_NAME.minChars || y.length < SAME_NAME.minChars) return false;
  const slips = Math.floor(Math.max(x.length, y.length) / SAME_NAME.charsPerSlip);
  return editDistance(x, y, slips + 1) <= slips;
}

/**
 * The issuer's block at the top of page 1, above the first party heading. A supplier's block set
 * in the column left of the heading may start on the heading's own line ("Sahyadri Pumps | Bill
 * to:"): the cells left of the heading on its line count too.
 */
function letterheadBlock(layout: Layout, type: DocumentType, anchor: Segment | null): Party {
  const page = layout.pages[0];
  if (!page) return EMPTY;
  const limitY = anchor?.y0 ?? page.height;
  const besideAnchor = (l: Line) => !!anchor && l.y1 > limitY + 1 && l.y0 < anchor.y1;
  const lines = layout.lines.filter((l) => l.page === page.page && (l.y1 <= limitY + 1 || besideAnchor(l)));
  let best: Segment | null = null;
  const ocrCandidates: Segment[] = [];
  for (const l of lines) {
    if (l.y0 > page.height * LETTERHEAD.topShare) break;
    for (const s of l.segments) {
      // Beside the heading, only a block of its own: a name with its address under it.
      if (besideAnchor(l) && (s.x1 > anchor!.x0 - LETTERHEAD.besideHeadingGap || !hasAddressBelow(layout, s)))
        continue;
      if (!/[A-Za-z]{3}/.test(s.text) || s.text.length < LETTERHEAD.minChars) continue;
      if (
        isTitleText(s.text) ||
        // OCR may glue a title's words ("TAXINVOICE"), which no word-bounded title pattern sees.
        GLUED_TITLE.test(s.text.replace(/[\s.]/g, '')) ||
        /original|duplicate|triplicate|copy|page \d/i.test(s.text)
      )
        continue;
      if (isLabelText(s.text, type) || findGstins(s.text).length) continue;
      // A letter's salutation is not a name, nor a row's value after its colon ("State Name : …").
      if (SALUTATION.test(s.text) || s.text.startsWith(':')) continue;
      // Numbered section headings ("2. Transaction Details") and table words are not a company name.
      if (/^\d+\.\s|details$/i.test(s.text)) continue;
      if (/\b(?:amount|total|qty|quantity|rate|description|particulars|hsn|sac|gst|tax)\b/i.test(s.text))
        continue;
      // OCR noise: a name is mostly letters.
      if (countLetters(s.text) < LETTERHEAD.minLetterShare * withoutSpaces(s.text).length) continue;
      const h = s.y1 - s.y0;
      if (s.words[0]?.source === 'ocr') {
        // OCR box heights follow the glyphs (a line with descenders reads taller than a bold name
        // without), so on scans the name is the first name-like line, unless a confidently read
        // line is much larger (a big letterhead under a small tagline).
        if (ADDRESS_LIKE.test(s.text)) continue;
        const conf = s.words.reduce((a, w) => a + w.conf, 0) / s.words.length;
        if (conf < LETTERHEAD.minConf) continue;
        ocrCandidates.push(s);
        continue;
      }
      if (!best || h > best.y1 - best.y0 + LETTERHEAD.tallerBy) best = s;
    }
  }
  if (!best && ocrCandidates.length > 0) best = pickOcrLetterhead(layout, ocrCandidates);
  if (!best) return EMPTY;
  const line = layout.lines[best.line]!;
  const limit = columnLimit(line, line.segments.indexOf(best), type);
  return readBlock(layout, type, [best], best.x0, best.line, null, true, limit);
}

/**
 * Find the supplier and the buyer. Anchored blocks ("Bill To", "Buyer", "Supplier", "Vendor",
 * "To,") win; the letterhead at the top of page 1 is the issuer: the supplier of an invoice, the
 * buyer of a PO or GRN. A consignee / ship-to block is read only to be kept out of the buyer.
 */
export function extractParties(
  layout: Layout,
  type: DocumentType,
  skip: (s: Segment) => boolean,
): { vendor: Party; buyer: Party } {
  const anchors: Partial<Record<Role, Segment>> = {};
  for (const s of layout.segments) {
    if (skip(s) || s.page !== layout.pages[0]?.page) continue;
    const role = headingRole(s.text, type);
    if (role && !anchors[role]) anchors[role] = s;
  }
  const firstAnchor = Object.values(anchors).reduce<Segment | null>(
    (a, b) => (!a || b.y0 < a.y0 ? b : a),
    null,
  );
  const letterhead = letterheadBlock(layout, type, firstAnchor);
  // No letterhead read (a logo only): the issuer signs off "For, NAME" at the foot.
  const issuer = letterhead.name ? letterhead : { ...EMPTY, name: signedOffBy(layout) ?? closedBy(layout) };
  const read = (r: Role) => (anchors[r] ? blockFromAnchor(layout, type, anchors[r]) : null);
  const vendorBlock = read('vendor');
  const buyerBlock = read('buyer');
  const usable = (p: Party | null) => (p?.name ? p : null);
  if (profileOf(type).issuer === 'vendor') {
    return { vendor: usable(vendorBlock) ?? issuer, buyer: usable(buyerBlock) ?? EMPTY };
  }
  // On a PO or GRN the buyer is the issuer: a "Buyer | Projects" row naming only a purchasing
  // group (no address, no GSTIN) does not outweigh the letterhead.
  const bare = (p: Party | null) => !!p && !p.address && !p.gstin;
  const buyer = usable(buyerBlock) && !(bare(buyerBlock) && issuer.name) ? buyerBlock! : issuer;
  return { vendor: usable(vendorBlock) ?? EMPTY, buyer };
}
