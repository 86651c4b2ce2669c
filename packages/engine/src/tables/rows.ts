import type { Word } from '../types.ts';
import { type Chunk, chunkLine, type Line, overlap } from './geometry.ts';
import { type Column, isAnotherHeaderRow, type TableHeader } from './header.ts';
import { hasDigit, isLoneChar, isNumericToken, letterRun, withoutPercent } from './numbers.ts';
import type { ColumnKind } from './vocabulary.ts';
import {
  CENTRING_STEP,
  COLUMN_SLACK,
  DEFAULT_WORD_HEIGHT,
  DESCRIPTION_SLACK,
  END_WORDS_SPAN,
  MAX_BODY_LINES,
  NAME_LETTERS,
  SERIAL_SLACK,
  SPANNING_COLUMNS,
  TABLE_END_GAP,
  TABLE_END_GAP_HEIGHTS,
  TEXT_TO_FIGURE_PENALTY,
} from './weights.ts';

/** Words of one table line, distributed over the header's columns. */
export interface RowLine {
  line: Line;
  /** Column index → words of that cell on this line. */
  cells: Map<number, Word[]>;
  /** The line starts an item: it has a serial number or numbers in numeric columns. */
  anchor: boolean;
  /** Read past a wide gap at the foot of the item box: a charge row (freight, packing). */
  charge?: boolean;
}

/** One item row: its anchor line plus the description lines attached to it. */
export interface RawRow {
  page: number;
  lines: RowLine[];
  anchor: RowLine;
}

/** The rows read under one header on one page. */
export interface PageTable {
  rows: RawRow[];
  /** Bottom of the last line that belongs to the table. */
  y1: number;
  /** The table ended here (a total / amount-in-words / summary row was reached). */
  finished: boolean;
}

const NUMERIC_KINDS = new Set<ColumnKind>([
  'quantity',
  'rate',
  'amount',
  'discount',
  'gst',
  'taxAmount',
  'ordered',
  'received',
  'accepted',
  'rejected',
  'hsn',
]);

/** Rows after which the item list is over (the words must not be an item's description). */
const END_WORDS =
  /\b(?:sub ?-?total|grand total|total|amount (?:chargeable|in words)|in words|rupees|round(?:ing)? ?off|roundoff|taxable (?:value|amount|amt)|tax amount|cgst|sgst|igst|utgst|less|declaration|terms (?:and|&) conditions|e\.? ?& ?o\.? ?e|net payable|balance due|(?:received|prepared|checked|verified|approved|inspected|authori[sz]ed) by|authori[sz]ed signatory|signature|bank details)\b/i;
/** Page-break rows: the table goes on on the next page. */
const PAGE_WORDS =
  /\b(?:continued|contd|carried (?:forward|over)|c\/f|b\/f|brought forward|page \d+ ?(?:of|\/) ?\d+)\b/i;

/** A serial-number cell: "1", "12.", "3)". */
export const SERIAL = /^[0-9]{1,3}[.)]?$/;

function hasDigitNumber(words: Word[]): boolean {
  return words.some((w) => hasDigit(w.text) && isNumericToken(withoutPercent(w.text)));
}

/** Several words, no figures among them, one of them a word of a name ("Packing"). */
function isPhrase(chunk: Chunk): boolean {
  return (
    chunk.words.length > 1 &&
    !chunk.words.some((w) => hasDigit(w.text)) &&
    chunk.words.some((w) => letterRun(w.text) >= NAME_LETTERS)
  );
}

/**
 * Put each chunk of a line into a column: the column whose header it overlaps most, else the
 * nearest one. A chunk overlapping several headers is split word by word. The serial column only
 * takes serial numbers, so description text starting left of its (centred) header is not lost.
 */
export function assignCells(line: Line, columns: Column[]): Map<number, Word[]> {
  const cells = new Map<number, Word[]>();
  const put = (i: number, ws: Word[]) => cells.set(i, [...(cells.get(i) ?? []), ...ws]);
  // Numbers placed under no header, by the nearest one (looked at again once the line is placed).
  const strays: Array<{ i: number; chunk: Chunk }> = [];
  const place = (chunk: Chunk, allowSplit: boolean) => {
    const numeric = chunk.words.every((w) => isNumericToken(w.text) || isLoneChar(w.text, '%₹+|'));
    const serialLike = chunk.words.length === 1 && SERIAL.test(chunk.text);
    // The serial column takes only serial numbers printed under its label, so a description
    // starting left of its (centred) header, or a number in a description, is not taken for one.
    const allowed = (c: Column) =>
      c.kind !== 'serial' ||
      (serialLike && overlap(chunk.x0, chunk.x1, c.x0 - SERIAL_SLACK, c.x1 + SERIAL_SLACK) > 0);
    const overlapping = columns
      .map((c, i) => ({ i, c, ov: overlap(chunk.x0, chunk.x1, c.x0, c.x1) }))
      .filter((o) => o.ov > 0 && allowed(o.c));
    const di = columns.findIndex((c) => c.kind === 'description');
    const d = columns[di];
    // A phrase of words only that starts in the space before the figure columns and runs over two
    // or more of them (a charge row's name centred in the item box: "Packing and Forwarding
    // charges") is the row's description: figure columns hold no such phrase. A totals label
    // ("Goods Value") starts under a figure column instead.
    const runsOver =
      overlapping.length > 1 &&
      overlapping.every((o) => NUMERIC_KINDS.has(o.c.kind)) &&
      chunk.x0 < Math.min(...overlapping.map((o) => o.c.x0)) - COLUMN_SLACK;
    if (d && runsOver && isPhrase(chunk)) {
      put(di, chunk.words);
      return;
    }
    if (overlapping.length > 1 && allowSplit && chunk.words.length > 1) {
      for (const w of chunk.words) place({ words: [w], x0: w.x0, x1: w.x1, text: w.text }, false);
      return;
    }
    // Text between the columns either side of the description is description that ran past its
    // (centred) label, however close the neighbouring labels are.
    const after = columns[di + 1];
    const before = columns[di - 1];
    const from = before ? before.x1 + COLUMN_SLACK : (d?.x0 ?? 0) - DESCRIPTION_SLACK;
    if (
      overlapping.length === 0 &&
      !numeric &&
      d &&
      chunk.x0 >= from &&
      (!after || chunk.x1 <= after.x0 - COLUMN_SLACK)
    ) {
      put(di, chunk.words);
      return;
    }
    let best = -1;
    let bestScore = -Infinity;
    columns.forEach((c, i) => {
      if (!allowed(c)) return;
      const ov = overlap(chunk.x0, chunk.x1, c.x0, c.x1);
      // Overlap wins; otherwise the smallest gap. Text prefers text columns when no overlap.
      let score = ov;
      if (ov <= 0 && !numeric && NUMERIC_KINDS.has(c.kind) && c.kind !== 'quantity')
        score -= TEXT_TO_FIGURE_PENALTY;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    });
    if (best >= 0) {
      put(best, chunk.words);
      if (numeric && bestScore <= 0) strays.push({ i: best, chunk });
    }
  };
  for (const chunk of chunkLine(line)) place(chunk, true);
  // A number under no header went to the nearest one. When that column already holds its own
  // figure and the numeric column on the number's side is empty, the number is that column's: a
  // right-aligned quantity sits past its centred "Qty" label, nearer the rate's.
  for (const { i, chunk } of strays) {
    const own = cells.get(i) ?? [];
    const rest = own.filter((w) => !chunk.words.includes(w));
    if (!rest.some((w) => hasDigit(w.text) && isNumericToken(w.text))) continue;
    const col = columns[i] as Column;
    const side = chunk.x1 <= col.x0 ? i - 1 : chunk.x0 >= col.x1 ? i + 1 : -1;
    const other = columns[side];
    // Not into a code column: an HSN is never a stray of its neighbour's figure.
    if (!other || !NUMERIC_KINDS.has(other.kind) || other.kind === 'hsn' || cells.has(side)) continue;
    cells.set(i, rest);
    cells.set(side, chunk.words);
  }
  return cells;
}

/**
 * Whether a table line starts an item: a serial number with a number beside it, or numbers in two
 * numeric columns. One stray number (an OCR speck, a size on a description line) is not enough.
 */
function isAnchor(cells: Map<number, Word[]>, columns: Column[]): boolean {
  let serial = false;
  let numeric = 0;
  let rates = 0;
  for (const [i, ws] of cells) {
    const c = columns[i] as Column;
    if (c.kind === 'serial' && ws.some((w) => SERIAL.test(w.text))) serial = true;
    if (NUMERIC_KINDS.has(c.kind) && hasDigitNumber(ws)) {
      numeric++;
      // A caption beside the rate ("Less 3%", "Tax @28%") still leaves a rate-only cell.
      const figures = ws.filter((w) => hasDigit(w.text));
      if (RATE_ONLY.test(figures.map((w) => w.text).join(' '))) rates++;
    }
  }
  // A line of rates only ("@9 00% | @9 00%" under an item's CGST and SGST) belongs to the item above.
  if (rates === numeric && !serial) return false;
  return numeric >= 2 || (serial && numeric >= 1);
}

/** A line of rates only ("@5%" under a charge's figures): a sub-line of the row above. */
function isRateLine(line: Line): boolean {
  const figures = line.words.filter((w) => hasDigit(w.text));
  return figures.length > 0 && figures.every((w) => RATE_ONLY.test(w.text));
}

/** A cell holding only a rate: "18%", "@9.00%", "@6 00%" (its point read as a space). */
const RATE_ONLY = /^@?\s?\d{1,2}(?:[.\s]\d{1,2})?\s?%$/;

function kindsWithDigits(cells: Map<number, Word[]>, columns: Column[]): ColumnKind[] {
  const out: ColumnKind[] = [];
  for (const [i, ws] of cells) if (hasDigitNumber(ws)) out.push((columns[i] as Column).kind);
  return out;
}

/**
 * Read the item rows under a header, from the line after the header to the first row that ends
 * the table (total, tax rows, amount in words, another table, a page footer, a wide gap).
 * Description lines without numbers are attached to an item: to the item above in ordinary
 * tables; in tables whose cells are vertically centred (description lines above and below the
 * numbers) to the item whose centre they balance.
 */
export function readPageTable(page: number, lines: Line[], header: TableHeader, endLine: number): PageTable {
  const { columns } = header;
  const hasSerial = columns.some((c) => c.kind === 'serial');
  const descIndex = columns.findIndex((c) => c.kind === 'description');
  const tableLines: RowLine[] = [];
  let finished = false;
  let lastY1 = header.y1;
  let pastGap = false;
  const hMed = lines[header.last]?.h ?? DEFAULT_WORD_HEIGHT;
  for (let li = header.last + 1; li < endLine; li++) {
    const line = lines[li] as Line;
    const cells = assignCells(line, columns);
    const anchor = isAnchor(cells, columns);
    const text = line.words.map((w) => w.text).join(' ');
    const serialCell = columns.findIndex((c) => c.kind === 'serial');
    const hasSerialValue = serialCell >= 0 && (cells.get(serialCell) ?? []).some((w) => SERIAL.test(w.text));
    if (PAGE_WORDS.test(text) && !hasSerialValue) {
      // "Brought forward" under a repeated header opens the page; "Continued" closes it.
      if (!tableLines.some((l) => l.anchor)) continue;
      break;
    }
    // The heads under a "Tax Type" column (IGST, CGST) are cells of an item row, not the label
    // of a tax row.
    const taxTypeWords = new Set([...cells].filter(([i]) => columns[i]?.taxType).flatMap(([, ws]) => ws));
    const textWords = line.words
      .filter((w) => !isNumericToken(w.text) && !taxTypeWords.has(w))
      .map((w) => w.text);
    // Totals and tax rows name themselves first ("Sub Total", "CGST @ 9%", "Less: Round Off").
    const endMatch = textWords.slice(0, hasSerial ? END_WORDS_SPAN + 1 : END_WORDS_SPAN).join(' ');
    if (!hasSerialValue && END_WORDS.test(endMatch)) {
      finished = true;
      break;
    }
    // Another table's header row (a GST summary's): this table is over.
    if (tableLines.some((l) => l.anchor) && isAnotherHeaderRow(line)) {
      finished = true;
      break;
    }
    // A wide vertical gap: the table is over (footers, signatures, notes) — unless an item row
    // with its name follows: charges printed at the foot of the item box ("Freight" over the
    // totals row). Past the gap only such rows and their sub-lines are read.
    const gap = line.y0 - lastY1 > Math.max(TABLE_END_GAP_HEIGHTS * hMed, TABLE_END_GAP);
    const named = anchor && (cells.get(descIndex) ?? []).some((w) => letterRun(w.text) >= NAME_LETTERS);
    if ((gap || pastGap) && !named && (gap || anchor || !isRateLine(line))) break;
    if (gap) pastGap = true;
    if (anchor && !hasSerialValue) {
      // A lone amount under the amount column with nothing else is an unlabelled sub-total.
      const kinds = kindsWithDigits(cells, columns);
      const descWords = descIndex >= 0 ? (cells.get(descIndex) ?? []) : [];
      if (
        kinds.length === 1 &&
        kinds[0] === 'amount' &&
        descWords.length === 0 &&
        tableLines.some((l) => l.anchor)
      ) {
        finished = true;
        break;
      }
    }
    if (!anchor && descIndex > 0) {
      // A text line starting under the column left of the description (serial, code) is not a
      // description continuation: notes and signatures below the table start at its left edge.
      const left = columns[descIndex - 1] as Column;
      const first = line.words[0];
      if (first && first.x0 < left.x1 - 1 && !SERIAL.test(first.text) && !hasDigit(first.text)) break;
    }
    if (!anchor) {
      // Text running across the table (notes, remarks) is not a cell — unless it is an item's
      // name on a line of its own over its figures (the next line: an anchor with no words).
      const spans = chunkLine(line).some(
        (ch) => columns.filter((c) => overlap(ch.x0, ch.x1, c.x0, c.x1) > 0).length >= SPANNING_COLUMNS,
      );
      const below = lines[li + 1];
      const belowCells = below ? assignCells(below, columns) : null;
      const nameOverFigures =
        !!belowCells &&
        isAnchor(belowCells, columns) &&
        !(descIndex >= 0 ? (belowCells.get(descIndex) ?? []) : []).some((w) => letterRun(w.text) >= 2);
      if (spans && !nameOverFigures) break;
    }
    tableLines.push(pastGap ? { line, cells, anchor, charge: true } : { line, cells, anchor });
    lastY1 = line.y1;
  }
  const rows = groupRows(page, tableLines, descIndex);
  const y1 = rows.length > 0 ? Math.max(...rows.flatMap((r) => r.lines.map((l) => l.line.y1))) : header.y1;
  return { rows, y1, finished };
}

/**
 * The lines below a header up to the first line that plainly ends the table (a total, tax or
 * amount-in-words row, a page footer): the data rows column inference may look at.
 */
export function bodyLines(lines: Line[], header: TableHeader, endLine: number): Line[] {
  const out: Line[] = [];
  for (let li = header.last + 1; li < endLine && out.length < MAX_BODY_LINES; li++) {
    const line = lines[li] as Line;
    const text = line.words.map((w) => w.text).join(' ');
    const words = line.words.filter((w) => !isNumericToken(w.text)).map((w) => w.text);
    if (PAGE_WORDS.test(text) || END_WORDS.test(words.slice(0, END_WORDS_SPAN).join(' '))) break;
    out.push(line);
  }
  return out;
}

/**
 * Where a table that ran off the previous page goes on when this page repeats no header: the
 * line before its first item row, provided no total or footer comes first. -2 when the page does
 * not continue the table.
 */
export function findContinuation(lines: Line[], columns: Column[]): number {
  for (const [i, line] of lines.entries()) {
    const text = line.words.map((w) => w.text).join(' ');
    const words = line.words.filter((w) => !isNumericToken(w.text)).map((w) => w.text);
    if (END_WORDS.test(words.slice(0, END_WORDS_SPAN).join(' '))) return -2;
    if (PAGE_WORDS.test(text)) continue;
    if (isAnchor(assignCells(line, columns), columns)) return i - 1;
  }
  return -2;
}

/** Attach non-anchor lines to anchors (see {@link readPageTable}). */
function groupRows(page: number, tableLines: RowLine[], descIndex: number): RawRow[] {
  const anchors = tableLines.map((l, i) => (l.anchor ? i : -1)).filter((i) => i >= 0);
  if (anchors.length === 0) return [];
  const descOf = (l: RowLine) => (descIndex >= 0 ? (l.cells.get(descIndex) ?? []) : []);
  const firstAnchor = anchors[0] as number;
  const leading = tableLines.slice(0, firstAnchor).filter((l) => descOf(l).length > 0);
  const emptyAnchor = anchors.some((i) => descOf(tableLines[i] as RowLine).length === 0);
  const textLines = tableLines.some((l) => !l.anchor && descOf(l).length > 0);
  const centred = leading.length > 0 || (emptyAnchor && textLines);

  const owner = new Array<number>(tableLines.length).fill(-1);
  anchors.forEach((a, k) => {
    owner[a] = k;
  });
  // Receipts print each item's name on a line of its own above its figures (code, qty, price):
  // when every anchor's description cell holds no words and sits right under a line of text,
  // each anchor owns the text lines above it.
  const hasLetters = (l: RowLine) => descOf(l).some((w) => letterRun(w.text) >= 2);
  const named = (a: number) => {
    const prev = tableLines[a - 1];
    return !hasLetters(tableLines[a] as RowLine) && !!prev && !prev.anchor && hasLetters(prev);
  };
  // A trailing row of figures alone (a receipt's sub-total) takes no part in the pattern.
  const items = named(anchors[anchors.length - 1] as number) ? anchors : anchors.slice(0, -1);
  // One name line between one anchor and the next: rows centred on their figures (a name above,
  // a code or a wrapped line below) put two or more there.
  const oneLineApart = items.every((a, k) => k === 0 || a - (items[k - 1] as number) === 2);
  if (items.length >= 2 && items.every(named) && oneLineApart) {
    // Each item owns the name line above it; what follows the last item (a sub-total, a summary)
    // is no item's.
    return items.map((a) => ({
      page,
      anchor: tableLines[a] as RowLine,
      lines: [tableLines[a - 1] as RowLine, tableLines[a] as RowLine],
    }));
  }
  for (let i = 0; i < firstAnchor; i++) owner[i] = 0;
  for (let k = 0; k < anchors.length; k++) {
    const a = anchors[k] as number;
    const next = k + 1 < anchors.length ? (anchors[k + 1] as number) : tableLines.length;
    const between = next - a - 1;
    if (between <= 0) continue;
    let split = between; // all lines to row k (ordinary, top-aligned rows)
    if (centred && k + 1 < anchors.length) {
      const anchorLine = tableLines[a] as RowLine;
      let top = anchorLine.line.y0;
      for (let i = 0; i < a; i++) if (owner[i] === k) top = Math.min(top, (tableLines[i] as RowLine).line.y0);
      let bestCost = Infinity;
      for (let s = 0; s <= between; s++) {
        const bottom =
          s === 0 ? anchorLine.line.y1 : Math.max(anchorLine.line.y1, (tableLines[a + s] as RowLine).line.y1);
        const cost = Math.abs((top + bottom) / 2 - anchorLine.line.yc);
        if (cost < bestCost - CENTRING_STEP) {
          bestCost = cost;
          split = s;
        }
      }
    }
    for (let s = 1; s <= between; s++) owner[a + s] = s <= split ? k : k + 1;
  }
  return anchors.map((a, k) => ({
    page,
    anchor: tableLines[a] as RowLine,
    lines: tableLines.filter((_, i) => owner[i] === k),
  }));
}
