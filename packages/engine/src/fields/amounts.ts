import { roundMoney, toPaise } from '@bahi/india';
import { boxOf, type Layout, type Line, type Segment } from '../layout.ts';
import { PAISE_END } from '../tables/fields.ts';
import { overlap } from '../tables/geometry.ts';
import type { Word } from '../types.ts';
import {
  AMOUNT_SCORE,
  AMOUNT_SCORE_FACTOR,
  percentOf,
  READING,
  rupeesOf,
  SCORE_EPSILON,
  SOLVER_BONUS,
  SOLVER_OPTIONS,
  PAISA_TOLERANCE as TOL,
} from './amount-weights.ts';
import { type Candidate, candidateFrom } from './header.ts';
import { matchStart } from './labels.ts';
import { normalizeOcrAmount, parseOcrAmount, SPACE_RUN } from './ocr-money.ts';
import { GST_RATE_SLABS } from './tax-rates.ts';
import { parseValue } from './values.ts';
import { AMOUNT_LABELS, normalizeLabelText } from './vocabulary.ts';

/** An amount printed to three decimals whose third is a zero ("1,250.500"): money to the paisa. */
const THIRD_DECIMAL_ZERO = /(\.\d{2})0$/;
/**
 * An OCR'd figure whose separators were lost: "028" (a lost decimal point), "38.16427" (three
 * decimals) or "3816427" (a lakh-size figure with neither grouping nor decimals).
 */
const LOST_SEPARATORS = /^0\d|\.\d{3,}$|^\d{6,}$/;
/** A figure with paise ("1,250.00", "36,50"), anywhere in a text. */
const FIGURE_WITH_PAISE = /\d[.,]\d{2}\b/;

/** A run of OCR words is cut into labels only from this many words (fewer are one label). */
const LABEL_RUN_WORDS = 4;
/** Column words ("Qty", "Rate", "HSN") on a line that make it an item table's heading row. */
const TABLE_HEADER_WORDS = 3;
/** How far under a row of labels, in line heights, the row of their figures may start. */
const FIGURES_ROW_GAP = 4;
/** How far (pt) the first and last label of a row reach past their own text for a figure below. */
const EDGE_COLUMN_REACH = 40;
/** Labels a row inside a table needs (the total among them) to be a whole summary row. */
const SUMMARY_ROW_LABELS = 4;
/** A two-digit word within this share of a line's height after a figure is the figure's paise. */
const SPLIT_PAISE_GAP = 0.6;
/** Heading lines a summary table's band may have. */
const BAND_LINES = 3;
/** A tax head centred over its "Rate | Amount" sub-columns reaches this many of its own widths. */
const HEAD_REACH = 1.5;
/** Readings of a head among which one may be the sum of the others (two slabs and their total). */
const SLAB_ROWS_WITH_SUM = 3;
/** Under this share of the lines' sum a total is a misread: no discount takes three quarters off. */
const MIN_TOTAL_SHARE_OF_LINES = 0.25;
/** A total rounded to the rupee is off the exact sum by less than half a rupee. */
const HALF_RUPEE = 0.5;
/** Taxes are a GST slab of a base within per-line rounding: 5 paise, or 0.02 % of a large tax. */
const SLAB_MATCH = { paise: 0.05, shareOfTax: 2e-4 };

/** The money fields of a totals block, solved together. */
export const AMOUNT_FIELDS = ['taxableValue', 'cgst', 'sgst', 'igst', 'cess', 'roundOff', 'total'] as const;
/** One of the totals-block fields. */
export type AmountField = (typeof AMOUNT_FIELDS)[number];

// Specific labels first: "Total Taxable Value" is taxable, "Round Off" is not a total.
const ORDER: AmountField[] = ['roundOff', 'cgst', 'sgst', 'igst', 'cess', 'taxableValue', 'total'];

/** The rupee sign or code printed before a figure ("₹", "Rs.", "INR"); patterns are case-blind. */
const CURRENCY = String.raw`(?:₹|rs\.?|inr)`;
/** A sign or brackets and a currency before a figure ("(-) Rs. ", "₹ -"). */
const SIGN_AND_CURRENCY = String.raw`\(?-?\)?\s*${CURRENCY}?\s*-?`;
/** A figure as printed: sign or brackets, rupee sign or code before it, "/-" or " INR" after it. */
const MONEY_TOKEN = new RegExp(
  String.raw`^${SIGN_AND_CURRENCY}\(?-?\)?[\d,]*\d(?:\.\d{1,2})?(?:\/?-?|\s?inr)$`,
  'i',
);
/** The currency printed before a figure, and the space after it. */
const LEADING_CURRENCY = new RegExp(String.raw`^${CURRENCY}\s*`, 'i');
/** A figure with paise inside a label's segment ("IGST 34,549.20"), a text layer's third place too. */
const FIGURE_IN_LABEL = new RegExp(String.raw`${SIGN_AND_CURRENCY}[\d,]*\d\.\d{2}0?\b`, 'gi');

/** Letters a receipt printer or OCR set apart with their dots ("S . G . S . T"): one abbreviation. */
const SPACED_DOTS = /\b([a-z]) ?\. ?(?=[a-z]\b)/gi;

/** Which amount field a label names, and where the label ends. */
export function amountLabel(text: string): { field: AmountField; end: number } | null {
  const plain = labelOf(text);
  if (plain) return plain;
  const joined = text.replace(SPACED_DOTS, '$1.');
  const l = joined === text ? null : labelOf(joined);
  if (!l) return null;
  // Only spaces were taken out: the label ends after as many other characters in the original.
  const kept = joined.slice(0, l.end).split('').filter(isNotSpace).length;
  let end = 0;
  for (let n = 0; end < text.length && n < kept; end++) if (isNotSpace(text[end]!)) n++;
  return { field: l.field, end };
}

/** A character other than white space (`trim` takes out exactly what `\s` matches). */
const isNotSpace = (ch: string) => ch.trim() !== '';

function labelOf(text: string): { field: AmountField; end: number } | null {
  for (const f of ORDER) {
    const end = matchStart(text, AMOUNT_LABELS[f]);
    if (end !== null) return { field: f, end };
  }
  return null;
}

const isOcr = (s: Segment) => s.words[0]?.source === 'ocr';
/** A figure OCR read in digit groups ("3.21,694" is 3,21,694): a printed amount, no stray mark. */
const isGroupedFigure = (text: string) => normalizeOcrAmount(text)?.includes(',') ?? false;
/** Digits with at most one dot ("3816427", "38.16427"), nothing else. */
const onlyDigitsAndDot = (text: string) =>
  text.split('.').length <= 2 && [...text].every((ch) => ch === '.' || (ch >= '0' && ch <= '9'));
/** A figure without the rupee sign or code printed before it ("Rs.540" → "540"). */
const withoutCurrency = (text: string) => text.trim().replace(LEADING_CURRENCY, '');

/**
 * The amount a whole segment holds, or null. Text-layer figures must look like money; OCR ones
 * may carry the usual misreads (rupee sign as `X`, grouping commas as dots, see `ocr-money.ts`).
 */
export function moneyOf(s: Segment): number | null {
  // The label's separator left before the figure (": Rs 5,85,000.00/").
  const text = s.text.replace(SPACE_RUN, ' ').replace(/^\s*[:=]-?\s*(?=\S)/, '');
  // The checks below look at the figure alone: the dot of "Rs.540" is no decimal point.
  const figure = withoutCurrency(text);
  // "028", "000", "38.16427", "3816427": OCR lost the figure's separators; no reading is better
  // than a wrong one.
  if (isOcr(s) && LOST_SEPARATORS.test(figure)) return null;
  // An ERP's text layer may print paise to three places ("4,18,250.450"): the third is a zero.
  const paise = isOcr(s) ? text : text.replace(THIRD_DECIMAL_ZERO, '$1');
  if (MONEY_TOKEN.test(paise)) {
    const p = parseValue('money', paise);
    if (p && typeof p.value === 'number') return p.value;
  }
  return isOcr(s) ? parseOcrAmount(text) : null;
}

/** A candidate for `field` read from a whole segment holding `value`. */
function segmentCandidate(field: AmountField, s: Segment, value: number, score: number): Candidate {
  return {
    ...candidateFrom(field, s, { value, start: 0, end: s.text.length }, 0, score),
    value,
  };
}

/** A rate printed beside an amount ("18%", "@ 9"), never the amount itself. */
export const isPercent = (s: string) => s.trimEnd().endsWith('%') || s.trim().startsWith('@');
/** A segment that holds a figure (an amount or a rate), as an item row's cells do. */
const printsFigure = (s: Segment) => /\d\s*%\s*$/.test(s.text) || FIGURE_WITH_PAISE.test(s.text);
const COLUMN_WORDS =
  /\b(?:qty|quantity|rate|hsn|sac|description|particulars|uom|unit|s\.? ?no|sl|sr|item|per|price|disc)\b/gi;

function looksLikeTableHeader(line: Line): boolean {
  return (line.text.match(COLUMN_WORDS) ?? []).length >= TABLE_HEADER_WORDS;
}

function signFor(field: AmountField, labelText: string, valueText: string, value: number): number {
  if (field !== 'roundOff') return value;
  // "Less : Round Off 0.40" is negative; "(-)0.40" already parsed negative.
  if ((/^\s*less\b/i.test(labelText) || labelText.includes('(-)')) && value > 0 && !valueText.includes('+'))
    return -value;
  return value;
}

/**
 * OCR runs a row of column labels into one segment ("Taxble Amt CGSTAmt SGSTAmt ... Total Inv.
 * Amt"): cut it where each amount label starts, so every label keeps its own column.
 */
export function splitLabelRun(seg: Segment): Segment[] {
  if (!isOcr(seg) || seg.words.length < LABEL_RUN_WORDS) return [seg];
  const starts: number[] = [];
  let covered = -1;
  seg.words.forEach((_, k) => {
    if (k <= covered) return;
    const rest = seg.words
      .slice(k)
      .map((w) => w.text)
      .join(' ');
    const l = amountLabel(rest);
    if (!l) return;
    starts.push(k);
    covered = k + rest.slice(0, l.end).trim().split(SPACE_RUN).length - 1;
  });
  if (starts.length < 2 || starts[0] !== 0) return [seg];
  return starts.map((k, i) => {
    const words = seg.words.slice(k, starts[i + 1] ?? seg.words.length);
    const [x0, y0, x1, y1] = boxOf(words);
    return { ...seg, words, text: words.map((w) => w.text).join(' '), x0, y0, x1, y1 };
  });
}

/**
 * Collect candidates for the totals-block amounts: a label with the right-most amount on its
 * line ("CGST @ 9%  ...  24,688.90"), and rows of labels with their amounts on the line below
 * (the e-invoice summary "Tax'ble Amt | CGST Amt | ... | Total Inv. Amt"). Unlabelled lone amounts
 * become weak taxable-value candidates (Tally prints the sub-total without a label): the solver
 * keeps them only when they make the document add up.
 */
export function collectAmountCandidates(
  layout: Layout,
  skip: (s: Segment) => boolean,
): Map<AmountField, Candidate[]> {
  const out = new Map<AmountField, Candidate[]>();
  const add = (c: Candidate) => {
    const f = c.field as AmountField;
    const list = out.get(f) ?? [];
    if (!list.some((x) => x.value === c.value)) list.push(c);
    else {
      const same = list.find((x) => x.value === c.value)!;
      same.score = Math.max(same.score, c.score);
    }
    out.set(f, list);
  };
  for (let li = 0; li < layout.lines.length; li++) readAmountLine(layout, li, skip, add);
  readSummaryTotalRows(layout, add);
  // A round-off printed without its sign ("Round Off (-)  0.20", "Rounding 0.40"): both signs
  // are readings; the one that makes the document add up wins.
  for (const c of [...(out.get('roundOff') ?? [])])
    if (Number(c.value) > 0)
      add({ ...c, value: -Number(c.value), score: c.score * AMOUNT_SCORE_FACTOR.unsignedRoundOff });
  // Tax printed per slab ("CGST @ 2.5%", "CGST @ 9%") without a total row: their sum is a reading too.
  for (const f of ['cgst', 'sgst', 'igst'] as const) {
    const list = out.get(f) ?? [];
    if (list.length < 2) continue;
    const sum = roundMoney(list.reduce((a, c) => a + Number(c.value), 0));
    // A reading that is the sum of the others is the total row ("Total UTGST"): it is the sum.
    if (!list.some((c) => Math.abs(Number(c.value) - sum) < TOL) && !sumOfOthers(list))
      list.push({ ...list[0]!, value: sum, score: AMOUNT_SCORE.slabSum });
  }
  return out;
}

/** Adds one candidate (the same value twice keeps the better score). */
type AddCandidate = (c: Candidate) => void;
/** A segment with the amount label it starts with, if any. */
type LabelledSeg = { s: Segment; l: ReturnType<typeof amountLabel> };

/** The amount candidates of one line of the layout. */
function readAmountLine(layout: Layout, li: number, skip: (s: Segment) => boolean, add: AddCandidate): void {
  const line = layout.lines[li]!;
  if (looksLikeTableHeader(line)) return;
  // Sub-total rows often sit inside the table's region (Tally prints the taxable value right
  // under the items): single-label rows and lone amounts are read there too.
  const allSegs = line.segments.flatMap(splitLabelRun);
  if (!allSegs.length) return;
  const inTable = line.segments.some(skip);
  const allLabelled = allSegs.map((s) => ({ s, l: amountLabel(s.text) })).filter((x) => x.l);
  // Several labels each with its figure on the same row ("Total: | Rupees … Only | Total
  // Before Tax | 4,50,000.00"): each label takes the figure after it, before the next label.
  // Labels left without one ("Rate | Taxable | CGST | … | Sub Total : | 2,15,400.00") head
  // columns whose figures sit underneath, read below.
  let segs = allSegs;
  let labelled = allLabelled;
  if (allLabelled.length >= 2 && allSegs.some((x) => !amountLabel(x.text) && moneyOf(x) !== null)) {
    if (inTable) return;
    const open = allLabelled.filter(({ s, l }, k) => {
      const until = allLabelled[k + 1]?.s.x0 ?? Number.POSITIVE_INFINITY;
      const figure = allSegs.find(
        (x) => x.x0 > s.x0 && x.x0 < until && !isPercent(x.text) && moneyOf(x) !== null,
      );
      if (!figure || !l) return true;
      const value = moneyOf(figure)!;
      add(
        segmentCandidate(
          l.field,
          figure,
          signFor(l.field, s.text, figure.text, value),
          AMOUNT_SCORE.labelInRow,
        ),
      );
      return false;
    });
    if (open.length < 2) return;
    segs = open.map((o) => o.s);
    labelled = open;
  }
  if (labelled.length >= 2) {
    // Inside a table region only a whole summary row counts (labels up to the invoice total):
    // a line-item header with tax columns has the same labels but its figures are one line's.
    if (inTable && !(labelled.length >= SUMMARY_ROW_LABELS && labelled.some((x) => x.l?.field === 'total')))
      return;
    readFiguresBelow(layout, li, segs, add);
    return;
  }
  if (readSingleLabel(segs, labelled[0], add)) return;
  // A lone amount on its own line: a possible unlabelled sub-total.
  const lone = segs.length === 1 ? moneyOf(segs[0]!) : null;
  if (lone !== null && lone > 0 && /\d\s*[.,\s]\s*\d{2}$/.test(segs[0]!.text.trim()))
    add(segmentCandidate('taxableValue', segs[0]!, lone, AMOUNT_SCORE.unlabelled));
}

/**
 * A row of several amount labels: values sit underneath, one per label column. OCR may run
 * neighbouring figures into one segment, so columns are matched word by word.
 */
function readFiguresBelow(layout: Layout, li: number, segs: Segment[], add: AddCandidate): void {
  const line = layout.lines[li]!;
  // The figures' row: the next line, unless OCR put a sliver of noise between ("000 000").
  const wordMoney = (w: Segment['words'][number]) =>
    moneyOf({ ...line.segments[0]!, words: [w], text: w.text }) !== null;
  const next = [layout.lines[li + 1], layout.lines[li + 2]]
    .filter((n): n is Line => !!n && n.page === line.page && n.y0 - line.y1 < FIGURES_ROW_GAP * line.height)
    .sort((a, b) => b.words.filter(wordMoney).length - a.words.filter(wordMoney).length)[0];
  if (!next) return;
  segs.forEach((s, k) => {
    const l = amountLabel(s.text);
    if (!l) return;
    const prev = segs[k - 1];
    const after = segs[k + 1];
    const left = prev ? (prev.x1 + s.x0) / 2 : s.x0 - EDGE_COLUMN_REACH;
    const right = after ? (s.x1 + after.x0) / 2 : s.x1 + EDGE_COLUMN_REACH;
    const cells = joinSplitPaise(next.words)
      .map((w) => ({
        w,
        seg: { ...s, words: [w], text: w.text, x0: w.x0, x1: w.x1, y0: w.y0, y1: w.y1 },
      }))
      .filter(({ w }) => (w.x0 + w.x1) / 2 >= left && (w.x0 + w.x1) / 2 <= right)
      .map((c) => ({ ...c, value: moneyOf(c.seg) }))
      .filter((c): c is typeof c & { value: number } => c.value !== null)
      .sort((a, b) => Math.abs(a.w.x1 - s.x1) - Math.abs(b.w.x1 - s.x1));
    const best = cells[0];
    if (best)
      add(
        segmentCandidate(
          l.field,
          best.seg,
          signFor(l.field, s.text, best.w.text, best.value),
          AMOUNT_SCORE.underLabel,
        ),
      );
  });
}

/**
 * A row with one amount label: the right-most figure after it, or the amount inside the label's own
 * segment. Returns whether the row was read as such.
 */
function readSingleLabel(segs: Segment[], first: LabelledSeg | undefined, add: AddCandidate): boolean {
  // An item row with per-line tax columns ("… ₹500.00 | 18% | IGST | ₹90.00 | ₹590.00"): figures
  // before the tax head make it a line of the table, not a row of the totals block.
  const itemRow =
    !!first?.l &&
    ['cgst', 'sgst', 'igst'].includes(first.l.field) &&
    segs.some((x) => x.x1 <= first.s.x0 && FIGURE_WITH_PAISE.test(x.text));
  if (!first?.l || itemRow) return false;
  const { s, l } = first;
  const afterLabel = segs.filter((x) => x.x0 > s.x0 && x !== s && !isPercent(x.text));
  // The right-most figure; on scans a figure with paise beats a stray mark read as a digit, but
  // not a figure printed in digit groups ("Rs. 3,21,694" after a tax column's "27,972.14"): no
  // stray mark is grouped.
  const figures = [...afterLabel].reverse().filter((x) => moneyOf(x) !== null);
  const withPaise = (x: Segment) => PAISE_END.test(withoutCurrency(x.text));
  const rightMost = figures[0];
  const valueSeg =
    (isOcr(s) && rightMost && !isGroupedFigure(rightMost.text) ? figures.find(withPaise) : undefined) ??
    rightMost;
  const score = segs[0] === s ? AMOUNT_SCORE.labelFirst : AMOUNT_SCORE.labelInRow;
  if (valueSeg) {
    const value = moneyOf(valueSeg)!;
    add(segmentCandidate(l.field, valueSeg, signFor(l.field, s.text, valueSeg.text, value), score));
  } else {
    // Label and amount in one segment ("IGST 34,549.20"): the last amount after the label.
    const rest = s.text.slice(l.end);
    // A text layer's third place of paise is a zero ("4,18,250.450"); OCR's is a misread figure.
    const m = [...rest.matchAll(FIGURE_IN_LABEL)]
      .filter((x) => !isOcr(s) || !THIRD_DECIMAL_ZERO.test(x[0]))
      .pop();
    if (m && m.index !== undefined) {
      const p = parseValue('money', m[0].replace(THIRD_DECIMAL_ZERO, '$1'));
      if (p && typeof p.value === 'number')
        add({
          ...candidateFrom(
            l.field,
            s,
            { ...p, start: m.index, end: m.index + m[0].length },
            l.end,
            score * AMOUNT_SCORE_FACTOR.inLabelSegment,
          ),
          value: signFor(l.field, s.text, m[0], p.value),
        });
    }
  }
  return true;
}

/**
 * A row's words with a figure OCR split at its decimal point ("38,415" "72", "0" "36") joined back
 * into one word: a two-digit word set tight after a figure without paise is its paise (a
 * neighbouring column's figure stands further off).
 */
export function joinSplitPaise(words: Word[]): Word[] {
  const out: Word[] = [];
  for (const w of words) {
    const prev = out.at(-1);
    const split =
      !!prev &&
      w.source === 'ocr' &&
      /^\d{2}$/.test(w.text) &&
      /^[\d,.]*\d$/.test(prev.text) &&
      !PAISE_END.test(prev.text) &&
      w.x0 >= prev.x1 &&
      w.x0 - prev.x1 <= SPLIT_PAISE_GAP * (prev.y1 - prev.y0);
    if (split) out[out.length - 1] = { ...prev, text: `${prev.text} ${w.text}`, x1: w.x1 };
    else out.push(w);
  }
  return out;
}

/** A horizontal extent. */
type Box = { x0: number; x1: number };
/** The middle of a horizontal extent. */
const mid = (b: Box) => (b.x0 + b.x1) / 2;

/** The first cell of a table's total row. */
const TOTAL_ROW = /^(?:grand )?total\b(?!\s+(?:tax|gst|amount\s+in\s+words))/i;

/** How many lines under a summary's headings its total row is looked for (an item table's rows). */
const SUMMARY_ROWS = 61;

/** A heading segment of a summary table's band and the line it is on. */
type Head = { s: Segment; line: Line };
/** A heading that names an amount field. */
type LabelledHead = Head & { l: NonNullable<ReturnType<typeof amountLabel>> };
/** A figure of a row, as a one-word segment. */
type Figure = { w: Segment['words'][number]; seg: Segment; value: number };

/**
 * Tax summary tables (Tally's "HSN/SAC | Taxable Value | Central Tax Rate Amount | State Tax Rate
 * Amount | Total Tax Amount", an item table with tax columns) end in a "Total" row that holds the
 * document's taxable value and tax heads. Under a band of up to three heading lines that names two
 * or more amounts, the first Total row below on the page (`SUMMARY_ROWS`) is read column by column: each
 * amount heading takes the right-most figure under it (a tax head spans a rate and an amount
 * column, the amount to the right). A table whose total row prints no "Total" (a rate-wise summary
 * ending in a row of sums) gives the first row whose every amount is the sum of the rows above it.
 */
function readSummaryTotalRows(layout: Layout, add: (c: Candidate) => void): void {
  const lines = layout.lines;
  for (let i = 0; i < lines.length; i++) {
    // The heading band ends before the first line that prints figures (an item row under a
    // one-line heading): a figure of the total row belongs to a heading, never to an item's cell.
    const band = lines.slice(i, i + BAND_LINES).filter((l) => l.page === lines[i]!.page);
    const firstFigures = band.findIndex((l, k) => k > 0 && l.segments.some(printsFigure));
    if (firstFigures > 0) band.length = firstFigures;
    const heads = band.flatMap((l) => l.segments.flatMap(splitLabelRun).map((s) => ({ s, line: l })));
    const labelled = heads
      .map((h) => ({ ...h, l: amountLabel(h.s.text) }))
      .filter((h): h is LabelledHead => h.l !== null);
    // The band starts at a labelled line; a band repeated one line lower is the same table.
    if (!labelled.some((h) => h.line === lines[i]) || new Set(labelled.map((h) => h.l.field)).size < 2)
      continue;
    if (labelled.some((h) => moneyOf(h.s) !== null)) continue;
    const bandEnd = band.at(-1)!;
    const below = lines
      .slice(i + 1, i + SUMMARY_ROWS)
      .filter((l) => l.page === lines[i]!.page && l.y0 > bandEnd.y0 - 1 && !band.includes(l));
    // The table ends where another one's headings start (an HSN summary under the items).
    const next = below.findIndex((l) => l.segments.filter((x) => amountLabel(x.text)).length >= 2);
    if (next >= 0) below.length = next;
    const total = below.find((l) => TOTAL_ROW.test(l.segments[0]?.text.trim() ?? ''));
    const found = total
      ? figuresUnderHeads(rowFigures(total), heads, labelled)
      : sumRow(below.map((l) => figuresUnderHeads(rowFigures(l), heads, labelled)));
    if (!found) continue;
    for (const [field, f] of found) add(segmentCandidate(field, f.seg, f.value, AMOUNT_SCORE.summaryRow));
    i += band.length - 1;
  }
}

/**
 * The figures of a row with paise or a rupee sign (rates left out; a bare whole number may be a
 * quantity), each as a one-word segment.
 */
function rowFigures(line: Line): Figure[] {
  if (!line.segments.length) return [];
  return joinSplitPaise(line.words)
    .map((w) => ({
      w,
      seg: { ...line.segments[0]!, words: [w], text: w.text, x0: w.x0, x1: w.x1, y0: w.y0, y1: w.y1 },
    }))
    .filter(({ w }) => !isPercent(w.text))
    .map((f) => ({ ...f, value: moneyOf(f.seg) }))
    .filter(
      (f): f is Figure =>
        f.value !== null && (/[.,\s]\d{2}$/.test(f.w.text) || LEADING_CURRENCY.test(f.w.text.trim())),
    );
}

/**
 * Each figure of a row under the heading right above it (the lowest band line with a heading over
 * it); a sub-heading "Amount" under a tax head ("Central Tax" over "Rate | Amount") belongs to that
 * head. Null when fewer than two figures.
 */
function figuresUnderHeads(
  figures: Figure[],
  heads: Head[],
  labelled: LabelledHead[],
): Map<AmountField, Figure> | null {
  if (figures.length < 2) return null;
  const overlaps = (a: Box, b: Box) => overlap(a.x0, a.x1, b.x0, b.x1) > 0;
  const found = new Map<AmountField, Figure>();
  for (const f of figures) {
    const over = heads.filter((h) => overlaps(h.s, f.w)).sort((a, b) => b.line.y0 - a.line.y0)[0];
    if (!over) continue;
    let label = amountLabel(over.s.text);
    if (!label) {
      const sub = over.s.words.find((w) => overlaps(w, f.w) && isSubHeading(w.text));
      if (!sub) continue;
      // A head is centred over its sub-columns, often narrower than them: the nearest head
      // above by centre, within about its own width.
      const above = labelled
        .filter(
          (h) =>
            h.line.y0 < over.line.y0 &&
            Math.abs(mid(h.s) - mid(sub)) <= HEAD_REACH * Math.max(h.s.x1 - h.s.x0, sub.x1 - sub.x0),
        )
        .sort((a, b) => Math.abs(mid(a.s) - mid(sub)) - Math.abs(mid(b.s) - mid(sub)))[0];
      label = above?.l ?? null;
    }
    if (!label) continue;
    const had = found.get(label.field);
    if (!had || f.w.x1 > had.w.x1) found.set(label.field, f);
  }
  return found;
}

/** A tax head's sub-column of amounts ("Central Tax" over "Rate | Amount"). */
const SUB_HEADINGS = ['amount', 'amt', 'value'];
/** A sub-heading word, abbreviated with or without its dot ("Amt."). */
const isSubHeading = (word: string) => {
  const t = word.toLowerCase();
  return SUB_HEADINGS.includes(t.endsWith('.') ? t.slice(0, -1) : t);
};

/**
 * The row of sums under a table's rows, read under its headings: the first row, after two or more
 * rows, whose every amount column (two at least, one not zero) is the sum of the rows above it.
 * Arithmetic stands in for the "Total" label it lacks.
 */
function sumRow(rows: Array<Map<AmountField, Figure> | null>): Map<AmountField, Figure> | null {
  for (let r = 2; r < rows.length; r++) {
    const row = rows[r];
    if (!row || row.size < 2 || ![...row.values()].some((f) => f.value > 0)) continue;
    const above = rows.slice(0, r).filter((x): x is Map<AmountField, Figure> => !!x);
    if (above.length < 2) continue;
    const sums = [...row].every(([field, f]) => {
      const sum = above.reduce((a, x) => a + (x.get(field)?.value ?? 0), 0);
      return Math.abs(sum - f.value) <= TOL * above.length;
    });
    if (sums) return row;
  }
  return null;
}

/**
 * Every amount printed anywhere on the document (whole segments and single words, two decimals),
 * by value in paise, with where it was read: a value derived from the others is only believed
 * when the document prints it somewhere (a tax summary's total row, an unlabelled sub-total).
 */
export function printedAmounts(layout: Layout): Map<number, Candidate> {
  const out = new Map<number, Candidate>();
  const put = (s: Segment) => {
    const text = s.text.trim();
    // A figure whose separators OCR lost ("3816427", "38.16427"): moneyOf reads no amount from it,
    // but its digits are the figure's in paise, a witness for a value derived to the paisa.
    if (isOcr(s) && LOST_SEPARATORS.test(text) && !text.startsWith('0') && onlyDigitsAndDot(text)) {
      const key = Number(text.replace('.', ''));
      if (!out.has(key))
        out.set(key, segmentCandidate('taxableValue', s, rupeesOf(key), AMOUNT_SCORE.printed));
      return;
    }
    if (!/\d[.,\s]\d{2}$/.test(text)) return;
    // A figure whose grouping OCR broke ("1,59,50518.49") still prints its digits: as a witness
    // for a derived value its digits and the two decimals are enough.
    const v =
      moneyOf(s) ?? (isOcr(s) && /^[\d.,\s]+$/.test(text) ? rupeesOf(Number(text.replace(/\D/g, ''))) : null);
    if (v === null || v <= 0) return;
    const key = toPaise(v);
    if (!out.has(key)) out.set(key, segmentCandidate('taxableValue', s, v, AMOUNT_SCORE.printed));
  };
  for (const seg of layout.segments) {
    put(seg);
    if (seg.words.length > 1)
      for (const w of seg.words)
        put({ ...seg, words: [w], text: w.text, x0: w.x0, x1: w.x1, y0: w.y0, y1: w.y1 });
  }
  return out;
}

/** The chosen amounts and whether they add up. */
export interface SolvedAmounts {
  values: Partial<Record<AmountField, Candidate>>;
  consistent: boolean;
}

/** The fields of a set the solver tries, in the order of its picks: the total last. */
const FIELD_ORDER: readonly AmountField[] = AMOUNT_FIELDS;

/**
 * Choose one reading per amount field so that taxable + CGST + SGST + IGST + cess + round-off =
 * total, preferring higher-scored readings; a set that adds up beats any set that does not.
 * `lineSum` (the line items' amounts) backs a taxable value that equals it. When no set adds up
 * because one figure was misread or not read at all, the figure is completed from the others
 * (`completeAmounts`), but only to a value the document itself prints (`printed`) or the line sum.
 */
export function solveAmounts(
  cands: Map<AmountField, Candidate[]>,
  lineSum: number | null,
  printed: Map<number, Candidate> = new Map(),
  taxPrinted = false,
  charges = 0,
): SolvedAmounts {
  // Tax the document plainly prints (a labelled head, a "Total Tax" figure): a set that adds up
  // without any tax contradicts it (a sub-total with tax read as the taxable value, plus round-off).
  const taxShown =
    taxPrinted ||
    (['cgst', 'sgst', 'igst'] as const).some((f) =>
      (cands.get(f) ?? []).some((c) => c.score >= READING.plainTax && Number(c.value) > 0),
    );
  const opts = (f: AmountField, n: number): Array<Candidate | null> => [
    ...(cands.get(f) ?? []).slice(0, n),
    null,
  ];
  const totals = opts('total', SOLVER_OPTIONS.total);
  // A row labelled "Total" above the taxes ("A TOTAL 18,40,000.00 | B IGST ... | Total Payable")
  // is the taxable value: total readings may serve as the taxable value, weaker, when a tax is
  // charged on top of them and the document then adds up.
  const asTaxable = (cands.get('total') ?? []).slice(0, SOLVER_OPTIONS.totalAsTaxable).map((c) => ({
    ...c,
    field: 'taxableValue',
    score: c.score * AMOUNT_SCORE_FACTOR.totalAsTaxable,
    fromTotal: true,
  }));
  const taxables = [...opts('taxableValue', SOLVER_OPTIONS.taxableValue), ...asTaxable];
  // A head printed per slab in more rows than are tried keeps the reading that sums them.
  const [cgsts = [], sgsts = [], igsts = [], cesses = []] = (['cgst', 'sgst', 'igst', 'cess'] as const).map(
    (f) => withSlabSum(opts(f, SOLVER_OPTIONS.head), cands.get(f)),
  );
  const rounds = opts('roundOff', SOLVER_OPTIONS.roundOff);
  let best: { score: number; pick: Array<Candidate | null>; ok: boolean } | null = null;
  const unsettled: Array<{ score: number; pick: Array<Candidate | null> }> = [];
  const largestTotal = Math.max(...totals.map((t) => (t ? Number(t.value) : Number.NEGATIVE_INFINITY)));
  for (const t of totals)
    for (const tv of taxables)
      for (const c of cgsts)
        for (const s of sgsts)
          for (const i of igsts)
            for (const cs of cesses)
              for (const r of rounds) {
                const pick = [tv, c, s, i, cs, r, t];
                let score = pick.reduce((a, x) => a + (x ? x.score : 0), 0);
                let ok = false;
                if (tv && 'fromTotal' in tv) {
                  // Only as the base a tax was charged on, and never the same figure as the total.
                  const taxed = [c, s, i].some((x) => x && Number(x.value) > 0);
                  if (!taxed || !t || t.value === tv.value) continue;
                }
                if (t && tv) {
                  const sum = [tv, c, s, i, cs, r].reduce((a, x) => a + (x ? Number(x.value) : 0), 0);
                  ok = Math.abs(roundMoney(sum) - Number(t.value)) <= TOL;
                  const taxed = [c, s, i, cs].some((x) => x && Number(x.value) !== 0);
                  // Taxable value equal to the total with no tax "adds up" trivially: it counts,
                  // but less than a set where the taxes printed make the sum.
                  // Without tax, a total equal to an unlabelled figure is the same figure printed
                  // twice, not a sum that adds up.
                  if (ok && !taxed && (taxShown || tv.score <= READING.weak)) ok = false;
                  else if (ok) score += taxed ? SOLVER_BONUS.addsUpTaxed : SOLVER_BONUS.addsUpUntaxed;
                  else if (charges > 0 && addsWithCharges(sum + charges, t, r, [c, s, i])) {
                    // Charges printed after the taxes (shipping, freight, an adjustment) make the
                    // grand total add up: it explains more of the block than a sub-total does.
                    ok = true;
                    score += taxed ? SOLVER_BONUS.addsUpTaxed : SOLVER_BONUS.addsUpUntaxed;
                  } else if (silentlyRounded(sum, t, r, [c, s, i])) {
                    ok = true;
                    // The exact sum printed as a total too ("Total 8,250.36" / "Grand Total
                    // 8,250"): the rounded figure is the one payable.
                    const exactPrinted = totals.some((x) => x && Math.abs(Number(x.value) - sum) <= TOL);
                    score += exactPrinted ? SOLVER_BONUS.roundedBesideExact : SOLVER_BONUS.silentlyRounded;
                  }
                }
                // A total read as the taxable value stands only when the document then adds up.
                if (tv && 'fromTotal' in tv && !ok) continue;
                if (tv && lineSum !== null && Math.abs(Number(tv.value) - lineSum) <= TOL)
                  score += SOLVER_BONUS.taxableIsLineSum;
                // Nothing adds up: the grand total is the largest of the figures labelled a total
                // (a tax summary's "Total" row is smaller than the invoice's).
                if (t && Number(t.value) === largestTotal) score += SOLVER_BONUS.largestTotal;
                if (c && s && c.value === s.value) score += SOLVER_BONUS.equalHalves;
                if (!ok) unsettled.push({ score, pick });
                if (!best || score > best.score + SCORE_EPSILON) best = { score, pick, ok };
              }
  const values: Partial<Record<AmountField, Candidate>> = {};
  if (!best) return { values, consistent: false };
  const completed = best.ok ? null : completeBestSet(unsettled, lineSum, printed);
  const ok = best.ok || completed !== null;
  const pick = completed ?? best.pick;
  pick.forEach((c, k) => {
    // A weak unlabelled amount is kept only when it makes the document add up.
    if (c && (c.score > READING.weak || ok)) values[FIELD_ORDER[k]!] = c;
  });
  if (!ok) dropImpossibleAmounts(values, lineSum);
  return { values, consistent: ok };
}

/** How many of the best sets that do not add up are tried for completion. */
const COMPLETION_TRIES = 40;

/**
 * No set adds up: complete the best set that can be completed to one that does (`completeAmounts`).
 * Not only the best: a row of sums read under a summary's headings may be scored below an item
 * row's figures under the same head names, and only the sums leave a remainder the page prints.
 */
function completeBestSet(
  unsettled: Array<{ score: number; pick: Array<Candidate | null> }>,
  lineSum: number | null,
  printed: Map<number, Candidate>,
): Array<Candidate | null> | null {
  unsettled.sort((a, b) => b.score - a.score);
  const bestTotal = unsettled[0]?.pick.at(-1) ?? null;
  // Past the best set, only a remainder the page prints completes one, and only with the best
  // set's total: the lines, a GST slab or another total (an item row's) would too often fit some
  // lesser combination by chance.
  const tries = unsettled.slice(0, COMPLETION_TRIES).filter((u, k) => k === 0 || u.pick.at(-1) === bestTotal);
  for (const [k, { pick }] of tries.entries()) {
    const completed = completeAmounts(pick, lineSum, printed, k > 0);
    if (completed) return completed;
  }
  return null;
}

/** The options tried for a tax head, with the reading that sums all the others ("IGST at 3%" + …). */
function withSlabSum(
  options: Array<Candidate | null>,
  all: Candidate[] | undefined,
): Array<Candidate | null> {
  const sum = sumOfOthers(all ?? []);
  return sum && !options.includes(sum) ? [sum, ...options] : options;
}

/** The reading, among three or more, that is the sum of all the others (a head's total row). */
function sumOfOthers(list: Candidate[]): Candidate | undefined {
  if (list.length < SLAB_ROWS_WITH_SUM) return undefined;
  const total = list.reduce((a, c) => a + Number(c.value), 0);
  return list.find((c) => Math.abs(2 * Number(c.value) - total) <= TOL);
}

/**
 * A set that does not add up may still hold a reading that cannot be right: a taxable value
 * above the total (one of them misread; the total is the better-labelled figure), or a total
 * under a quarter of what the line items sum to (a quantity or one tax column read from a
 * "Total" row: no document-level discount takes three quarters off). It goes; the others stay
 * as read. (A tax above its total was tried too: on the real set it dropped right heads as
 * often as wrong totals.)
 */
function dropImpossibleAmounts(
  values: Partial<Record<AmountField, Candidate>>,
  lineSum: number | null,
): void {
  const v = (f: AmountField) => (values[f] ? Number(values[f]!.value) : null);
  const total = v('total');
  if (total === null) return;
  const taxable = v('taxableValue');
  if (taxable !== null && taxable > total + TOL) delete values.taxableValue;
  if (lineSum !== null && lineSum > 0 && total < MIN_TOTAL_SHARE_OF_LINES * lineSum) delete values.total;
}

/** Whether a sum with the charges added is the total, exactly or rounded to the rupee. */
function addsWithCharges(
  sum: number,
  total: Candidate,
  roundOff: Candidate | null,
  taxes: Array<Candidate | null>,
): boolean {
  return (
    Math.abs(roundMoney(sum) - Number(total.value)) <= TOL || silentlyRounded(sum, total, roundOff, taxes)
  );
}

/**
 * A payable total rounded to the rupee with no round-off row printed ("Total ₹1,00,005.00" over
 * taxes that sum to 1,00,005.04): it adds up when a tax was charged, no round-off was read, the
 * total is whole rupees and the difference is under half a rupee.
 */
function silentlyRounded(
  sum: number,
  total: Candidate,
  roundOff: Candidate | null,
  taxes: Array<Candidate | null>,
): boolean {
  const t = Number(total.value);
  return (
    !roundOff &&
    Number.isInteger(t) &&
    taxes.some((x) => x && Number(x.value) > 0) &&
    Math.abs(roundMoney(sum) - t) < HALF_RUPEE
  );
}

/**
 * Complete a totals block that does not add up because one figure is missing or misread:
 * the taxable value as total − taxes − round-off, the total as taxable + taxes + round-off, or an
 * SGST equal to its CGST (they are always equal halves) where the document then adds up. A derived
 * value must be printed somewhere on the document or equal the line sum: never an invented figure.
 * `onlyPrinted`: only a value the document prints (within a paisa) completes the set.
 */
function completeAmounts(
  pick: Array<Candidate | null>,
  lineSum: number | null,
  printed: Map<number, Candidate>,
  onlyPrinted = false,
): Array<Candidate | null> | null {
  const val = (c: Candidate | null | undefined) => (c ? Number(c.value) : 0);
  const [tv = null, c = null, s = null, i = null, cs = null, r = null, t = null] = pick;
  // Everything between the taxable value and the total: the heads, cess and round-off.
  const taxes = (p: Array<Candidate | null>) => p.slice(1, -1).reduce((a, x) => a + val(x), 0);
  const backed = (v: number, field: AmountField, from: Candidate): Candidate | null => {
    if (v <= 0) return null;
    // Within the paisa a sum may be off by (taxes rounded per line), as the solver allows.
    const key = toPaise(v);
    const seen = printed.get(key) ?? printed.get(key + 1) ?? printed.get(key - 1);
    if (seen) return { ...seen, field, value: Number(seen.value), score: AMOUNT_SCORE.derivedPrinted };
    if (onlyPrinted) return null;
    if (field === 'taxableValue' && lineSum !== null && Math.abs(lineSum - v) <= TOL)
      return { ...from, field, value: roundMoney(v), score: AMOUNT_SCORE.derived };
    // Taxes that are exactly a GST slab of the remainder: the base they were charged on.
    if (field === 'taxableValue' && taxesAreSlabOf(v, c, s, i))
      return { ...from, field, value: roundMoney(v), score: AMOUNT_SCORE.derived };
    return null;
  };
  const adds = (p: Array<Candidate | null>) => {
    const [base, pc = null, ps = null, pi = null, , pr = null, pt] = p;
    if (!base || !pt) return false;
    const sum = val(base) + taxes(p);
    return Math.abs(roundMoney(sum) - val(pt)) <= TOL || silentlyRounded(sum, pt, pr, [pc, ps, pi]);
  };
  const mirror = (half: Candidate, field: 'cgst' | 'sgst'): Candidate => ({
    ...half,
    field,
    score: AMOUNT_SCORE.mirroredHalf,
  });
  const tries: Array<Array<Candidate | null>> = [];
  // No taxable value printed (Tally prints none on a PO): the lines' sum is one when it adds up.
  // A head read as 0.00 charges nothing: with no tax, total and taxable are the same figure, and
  // deriving one from the other proves nothing.
  const taxed = [c, s, i].some((x) => val(x) > 0);
  if (!tv && t && lineSum !== null && taxed) {
    const fromLines: Candidate = { ...t, field: 'taxableValue', value: lineSum, score: AMOUNT_SCORE.derived };
    tries.push([fromLines, c, s, i, cs, r, t]);
    if (c && !i && !s) tries.push([fromLines, c, mirror(c, 'sgst'), i, cs, r, t]);
    if (s && !i && !c) tries.push([fromLines, mirror(s, 'cgst'), s, i, cs, r, t]);
  }
  // The CGST/SGST pair: one half misread or missing.
  if (c && !i && (!s || s.value !== c.value)) tries.push([tv, c, mirror(c, 'sgst'), i, cs, r, t]);
  if (s && !i && (!c || c.value !== s.value)) tries.push([tv, mirror(s, 'cgst'), s, i, cs, r, t]);
  for (const p of onlyPrinted ? [] : tries) if (adds(p)) return p;
  if (t && taxed) {
    const d = backed(roundMoney(val(t) - taxes(pick)), 'taxableValue', t);
    if (d) return [d, c, s, i, cs, r, t];
  }
  if (tv && taxed) {
    const d = backed(roundMoney(val(tv) + taxes(pick)), 'total', tv);
    if (d) return [tv, c, s, i, cs, r, d];
  }
  return null;
}

/**
 * Whether the tax heads read are one GST slab of `base`: CGST with SGST (or IGST alone) within the
 * paise that per-line rounding moves them. A coincidence at this precision is
 * unlikely enough that the base may stand as the taxable value though it is printed nowhere.
 */
export function taxesAreSlabOf(
  base: number,
  cgst: Candidate | null,
  sgst: Candidate | null,
  igst: Candidate | null,
): boolean {
  const v = (c: Candidate | null) => (c ? Number(c.value) : 0);
  const [c, s, i] = [v(cgst), v(sgst), v(igst)];
  if (base <= 0) return false;
  // IGST alone, or both CGST and SGST (equal halves by law; a print that shows them unequal still
  // charged their sum, and the sum being exactly a slab of the base is the evidence).
  if (i > 0 ? c > 0 || s > 0 : !(c > 0 && s > 0)) return false;
  const tax = c + s + i;
  return GST_RATE_SLABS.some(
    (rate) =>
      Math.abs(percentOf(base, rate) - tax) <= Math.max(SLAB_MATCH.paise, tax * SLAB_MATCH.shareOfTax),
  );
}

/**
 * A marketplace invoice prints each line's net amount and taxes but no taxable value and no tax
 * rows, only a "TOTAL" row: the lines' sum is the taxable value when the total less it (and any
 * round-off) is a tax the document prints. The tax goes to the heads the supply calls
 * for: IGST between states, CGST and SGST in equal halves within one; an unknown supply leaves
 * the heads empty. Changes `values` in place; returns whether the set now adds up.
 */
export function completeFromLines(
  values: Partial<Record<AmountField, Candidate>>,
  lineSum: number | null,
  printed: Map<number, Candidate>,
  supply: 'intra' | 'inter' | null,
): boolean {
  const total = values.total;
  if (!total || lineSum === null || lineSum <= 0) return false;
  if (values.taxableValue || values.cgst || values.sgst || values.igst || values.cess) return false;
  const tax = roundMoney(Number(total.value) - lineSum - Number(values.roundOff?.value ?? 0));
  if (tax < -TOL) return false;
  const seen = printed.get(toPaise(tax));
  // Lines that sum to the total are as likely amounts with tax as a tax-free bill: no reading.
  if (tax <= TOL || !seen) return false;
  values.taxableValue = { ...total, field: 'taxableValue', value: lineSum, score: AMOUNT_SCORE.derived };
  const head = (field: AmountField, value: number): Candidate => ({
    ...seen,
    field,
    value,
    score: AMOUNT_SCORE.derived,
  });
  if (supply === 'inter') values.igst = head('igst', tax);
  else if (supply === 'intra' && toPaise(tax) % 2 === 0) {
    values.cgst = head('cgst', tax / 2);
    values.sgst = head('sgst', tax / 2);
  }
  return true;
}

/**
 * No taxable value read, no total to check against, but the tax heads read are exactly a GST slab
 * of what the line items sum to ("CGST 9% 1,800.00 | SGST 9% 1,800.00" under lines of 20,000):
 * the lines' sum is the base the taxes were charged on. Changes `values` in place; returns whether
 * it did.
 */
export function completeTaxableFromSlab(
  values: Partial<Record<AmountField, Candidate>>,
  lineSum: number | null,
): boolean {
  if (values.taxableValue || values.total || lineSum === null || lineSum <= 0) return false;
  const [c, s, i] = [values.cgst ?? null, values.sgst ?? null, values.igst ?? null];
  if (!taxesAreSlabOf(lineSum, c, s, i)) return false;
  const from = (c ?? i)!;
  values.taxableValue = { ...from, field: 'taxableValue', value: lineSum, score: AMOUNT_SCORE.slabBase };
  return true;
}

/** Normalised label text, exported for tests. */
export const normalizeAmountLabel = normalizeLabelText;
