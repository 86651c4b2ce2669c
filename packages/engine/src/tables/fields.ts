import { isValidGstRate, isValidHsnSac } from '@bahi/india';
import { profileOf } from '../profiles/index.ts';
import type { BBox, DocumentType, Word } from '../types.ts';
import { editDistance } from '../util.ts';
import { readingOrder } from './geometry.ts';
import type { Column } from './header.ts';
import {
  collapseSpaces,
  countOf,
  digitsOf,
  hasDigit,
  isDigits,
  isNumericToken,
  isPlainFigure,
  letterRun,
  PAISE_PER_RUPEE,
  parseGstRate,
  parseMoney,
  parseQuantity,
  percentOf,
  QUANTITY_SCALE,
  repairNumericToken,
  round2,
  round3,
  wordCount,
} from './numbers.ts';
import { type RawRow, SERIAL } from './rows.ts';
import { type ColumnKind, KNOWN_UNITS, UNIT_WORD } from './vocabulary.ts';
import {
  CLEAN_VALUE_EPSILON,
  DECIMAL_STYLE_SHARE,
  DIGIT_DISTANCE_CAP,
  GRN_ALTERNATIVE_COST,
  GRN_EPSILON,
  ITEM_CODE_HEIGHT,
  MIN_EDGE_ROWS,
  MIN_GARBLED_DIGITS,
  MONEY_POINT_SCALES,
  QUANTITY_POINT_SCALES,
  ROW_SUM_RELATIVE,
  ROW_SUM_TOLERANCE,
  SERIAL_SLACK,
  SHORT_UNIT_LENGTH,
  SPECK_CHARS,
  WHOLE_RUPEE_TOLERANCE,
} from './weights.ts';

/** Where one line value was read. */
export interface ValueProvenance {
  page: number;
  bbox: BBox;
  source: 'text' | 'ocr';
}

/** One line item with its provenance. */
export interface ReadLine {
  values: Record<string, string | number | null>;
  provenance: Record<string, ValueProvenance>;
  /**
   * Whether quantity × rate − discount = amount held on the figures as printed, or once a
   * dropped decimal point was put back; null when one of the three was not read (or for GRNs).
   */
  addsUp?: boolean | null;
}

/** Decimals a quantity is printed to at most (a derived one is rounded to them). */
const QUANTITY_DECIMALS = 3;
/** A grouping comma OCR read as a decimal point divides a quantity by a thousand. */
const THOUSAND = 1000;

/** Slack for quantity × rate − discount against an amount: a paisa plus a hair of the amount. */
function rowSumSlack(amount: number): number {
  return ROW_SUM_TOLERANCE + Math.abs(amount) * ROW_SUM_RELATIVE;
}

/** Whether a derived value is a whole number of `1 / scale` (paise, thousandths), float noise aside. */
function isClean(value: number, scale: number): boolean {
  return Math.abs(value * scale - Math.round(value * scale)) < CLEAN_VALUE_EPSILON * Math.max(1, value);
}

/** A text without its points and spaces ("8471.30" → "847130", "Sq. ft" → "Sqft"). */
function compact(text: string): string {
  return text.replace(/[.\s]/g, '');
}

/** A unit as compared with the known units: lower case, no points or spaces ("Sq.ft" → "sqft"). */
function unitKey(unit: string): string {
  return compact(unit.toLowerCase());
}

/** A figure, not its percentage: a word with digits and no "%" ("450.00" over "@9%"). */
function isFigureWord(w: Word): boolean {
  return hasDigit(w.text) && !w.text.includes('%');
}

function bboxOf(words: Word[]): BBox {
  return [
    Math.min(...words.map((w) => w.x0)),
    Math.min(...words.map((w) => w.y0)),
    Math.max(...words.map((w) => w.x1)),
    Math.max(...words.map((w) => w.y1)),
  ];
}

function provenanceOf(page: number, words: Word[]): ValueProvenance {
  return { page, bbox: bboxOf(words), source: words.some((w) => w.source === 'ocr') ? 'ocr' : 'text' };
}

/** Text of a cell in reading order, whitespace collapsed. */
function cellText(words: Word[]): string {
  return collapseSpaces(
    readingOrder(words)
      .map((l) => l.map((w) => w.text).join(' '))
      .join(' '),
  );
}

/** Pick the column of a kind with the highest priority (ties: the leftmost). */
function bestColumn(columns: Column[], kind: ColumnKind): number {
  let best = -1;
  columns.forEach((c, i) => {
    if (c.kind !== kind) return;
    if (best < 0 || c.priority > (columns[best] as Column).priority) best = i;
  });
  return best;
}

/** Columns that hold figures only: a word there is text that ran on from the description. */
const FIGURE_KINDS = new Set<ColumnKind>(['quantity', 'rate', 'discount', 'amount', 'gst', 'taxAmount']);

/** Item codes printed under a description in a smaller font ("EL-03979"): not part of it. */
const ITEM_CODE = /^[A-Z]{1,5}[-/]?[0-9]{3,}[A-Z]?$/;

/** A description column's own label: "Description", "Particulars", "Item Name", "Description of Goods". */
const COLUMN_LABEL_LINE =
  /^(?:item\s*(?:name|description)?|description(?:\s+of\s+(?:goods|services?))?|particulars|product(?:\s+name)?)\s*:?$/i;

/**
 * Description of a row: the description cell's sub-lines in reading order, without a trailing
 * item-code line (a lone code token printed below the name in the same cell).
 */
function readDescription(words: Word[]): { text: string; words: Word[] } {
  const sub = readingOrder(words);
  // The column's label repeated on a line of its own above the first item ("DESCRIPTION" under a
  // "Description of Service" header) is a heading, not the item's first line.
  if (sub.length > 1 && COLUMN_LABEL_LINE.test(sub[0]!.map((w) => w.text).join(' '))) sub.shift();
  if (sub.length > 1) {
    const last = sub[sub.length - 1] as Word[];
    const rest = sub.slice(0, -1).flat();
    const lastH = Math.max(...last.map((w) => w.y1 - w.y0));
    const restH = Math.max(...rest.map((w) => w.y1 - w.y0));
    if (
      last.length === 1 &&
      ITEM_CODE.test(last[0]?.text ?? '') &&
      (lastH < restH * ITEM_CODE_HEIGHT || last[0]?.source === 'ocr')
    ) {
      sub.pop();
    }
  }
  const kept = sub.flat();
  return {
    text: collapseSpaces(sub.map((l) => l.map((w) => w.text).join(' ')).join(' ')),
    words: kept,
  };
}

/**
 * Where the descriptions of a table start: the median left edge of each row's first word in the
 * description column (specks sit before a few rows only). Null for text-layer tables.
 */
export function descriptionLeftEdge(rows: RawRow[], columns: Column[]): number | null {
  const idx = bestColumn(columns, 'description');
  if (idx < 0) return null;
  const edges: number[] = [];
  for (const row of rows) {
    const words = row.lines.flatMap((l) => l.cells.get(idx) ?? []);
    if (!words.some((w) => w.source === 'ocr')) continue;
    const first = readingOrder(words)[0]?.[0];
    if (first) edges.push(first.x0);
  }
  if (edges.length < MIN_EDGE_ROWS) return null;
  edges.sort((a, b) => a - b);
  return edges[Math.floor(edges.length / 2)]!;
}

/** First number in a cell's words (quantity reading, all decimals kept). */
function firstQuantity(words: Word[]): { value: number; word: Word } | null {
  for (const w of words) {
    const v = parseQuantity(w.text);
    if (v !== null) return { value: v, word: w };
  }
  return null;
}

/** Money value of a cell: the whole cell, else its first money-like token. */
function readMoney(words: Word[]): number | null {
  const text = cellText(words);
  if (text === '') return null;
  const whole = parseMoney(text);
  if (whole !== null) return whole;
  for (const w of words) {
    const v = parseMoney(w.text);
    if (v !== null && hasDigit(w.text)) return v;
  }
  return null;
}

/** HSN/SAC: the 4–8 digit code in the cell (OCR letter-for-digit slips repaired). */
function readHsn(words: Word[]): string | null {
  for (const w of words) {
    const t = compact(repairNumericToken(w.text));
    // A line code such as "00010" is not an HSN code (there is no chapter 00).
    if (isValidHsnSac(t)) return t;
  }
  return null;
}

/**
 * Unit words of a quantity cell ("48 Nos", "1.00" over "Month"). Words above the row's first line
 * are not its unit: the end of a header label wrapped under the header row ("Qty" over "tity").
 */
function unitFromQuantityCell(words: Word[], top: number): { text: string; words: Word[] } | null {
  const ws = words.filter((w) => !isNumericToken(w.text) && letterRun(w.text) > 0 && w.y1 > top);
  if (ws.length === 0) return null;
  // A lone letter with no figure in the cell, and no unit, is the quantity OCR misread ("Z" for 2).
  const figure = words.some((w) => isNumericToken(w.text) && hasDigit(w.text));
  const lone = ws.length === 1 && ws[0]?.text.length === 1;
  if (!figure && lone && !UNIT_WORD.test(ws[0]?.text ?? '')) return null;
  return { text: ws.map((w) => w.text).join(' '), words: ws };
}

/** What reading one row's cells needs: the row, its cells by column and the output being built. */
interface RowReading {
  row: RawRow;
  columns: Column[];
  cellOf: (i: number) => Word[];
  values: Record<string, string | number | null>;
  provenance: Record<string, ValueProvenance>;
  set: (field: string, value: string | number | null, words: Word[]) => void;
}

/**
 * Turn one raw row into contract line fields. Invoice/PO: description, hsnSac, quantity, unit,
 * rate, discount (rupees; a percentage is converted with quantity × rate), amount (taxable value;
 * computed from quantity × rate − discount only when no amount is printed), gstRate (total GST %:
 * CGST + SGST rates summed). GRN: description, hsnSac, unit and the four quantities.
 */
export function readLine(
  row: RawRow,
  columns: Column[],
  type: DocumentType,
  styles: Map<number, boolean> = new Map(),
  descLeft: number | null = null,
  repair = true,
): ReadLine {
  const cells = gatherCells(row, columns);
  const cellOf = (i: number) => (i >= 0 ? (cells.get(i) ?? []) : []);
  const values: Record<string, string | number | null> = {};
  const provenance: Record<string, ValueProvenance> = {};
  const set = (field: string, value: string | number | null, words: Word[]) => {
    values[field] = value;
    if (value !== null && words.length > 0) provenance[field] = provenanceOf(row.page, words);
  };
  const r: RowReading = { row, columns, cellOf, values, provenance, set };
  readDescriptionAndHsn(r, descLeft);

  const unitWords = cellOf(bestColumn(columns, 'unit')).filter((w) => letterRun(w.text) > 0);
  const lines = profileOf(type).lines;
  const qtyIdx = bestColumn(columns, lines.quantityColumn);
  const qtyUnit = unitFromQuantityCell(cellOf(qtyIdx), row.anchor.line.y0);
  let unitText = unitWords.length > 0 ? cellText(unitWords) : (qtyUnit?.text ?? null);
  if (unitText !== null && [...unitWords, ...(qtyUnit?.words ?? [])].some((w) => w.source === 'ocr'))
    unitText = correctUnit(unitText);
  const unitFrom = unitWords.length > 0 ? unitWords : (qtyUnit?.words ?? []);

  if (lines.kind === 'receipt') {
    set('unit', unitText, unitFrom);
    readReceiptQuantities(r);
    return { values, provenance };
  }
  const qty = firstQuantity(cellOf(qtyIdx));
  set('unit', unitText, unitFrom);
  const addsUp = readPricedFigures(r, { qtyIdx, qty, styles, repair });
  set('gstRate', readGst(columns, cellOf), []);
  const gstWords = columns.flatMap((c, i) => (c.kind === 'gst' ? cellOf(i) : []));
  if (values.gstRate !== null && gstWords.length > 0) provenance.gstRate = provenanceOf(row.page, gstWords);
  return { values, provenance, addsUp };
}

/** A row's words by column, its lines merged. */
function gatherCells(row: RawRow, columns: Column[]): Map<number, Word[]> {
  const cells = new Map<number, Word[]>();
  const descCol = bestColumn(columns, 'description');
  for (const l of row.lines) {
    // A line of words only that starts in the description column and runs on into columns of
    // figures is description, all of it: an item name printed across the figure columns on a
    // line of its own (receipts). Words under a unit, code or remarks column stay there.
    const allText = [...l.cells.values()].flat().every((w) => !hasDigit(w.text));
    const runsOn =
      allText &&
      !l.anchor &&
      descCol >= 0 &&
      (l.cells.get(descCol)?.length ?? 0) > 0 &&
      [...l.cells.keys()].some((i) => i !== descCol) &&
      [...l.cells].every(
        ([i, ws]) =>
          i === descCol ||
          (FIGURE_KINDS.has(columns[i]?.kind ?? 'other') && !ws.some((w) => UNIT_WORD.test(w.text))),
      );
    const entries = runsOn
      ? ([[descCol, [...l.cells.values()].flat().sort((a, b) => a.x0 - b.x0)]] as Array<[number, Word[]]>)
      : [...l.cells];
    for (const [i, ws] of entries) cells.set(i, [...(cells.get(i) ?? []), ...ws]);
  }
  for (const [i, ws] of cells) {
    if (columns[i]?.kind !== 'description' && ws.some((w) => w.source === 'ocr'))
      cells.set(i, joinNumberFragments(ws));
  }
  return cells;
}

/** A figure that ends in paise ("1,250.00", "99,50"). */
export const PAISE_END = /[.,][0-9]{2}$/;

/**
 * A serial number printed so close to the description that the two were read as one cell ("1 MOTORS"
 * under "Sl | Description"): a small whole number standing under the serial column's label, left
 * of the description. A description that starts with a number ("2 Core Cable") starts under its
 * own label, not the serial's.
 */
function isRunInSerial(w: Word, serial: Column): boolean {
  const mid = (w.x0 + w.x1) / 2;
  return SERIAL.test(w.text) && mid >= serial.x0 - SERIAL_SLACK && mid <= serial.x1 + SERIAL_SLACK;
}

/** The description (OCR specks and a run-in serial number cleaned) and the HSN/SAC code. */
function readDescriptionAndHsn(r: RowReading, descLeft: number | null): void {
  const { columns, cellOf, set } = r;
  const descCol = bestColumn(columns, 'description');
  let descCell = cellOf(descCol);
  if (descLeft !== null && descCell.some((w) => w.source === 'ocr')) {
    // Specks and a lost serial column's numbers read left of where every description starts
    // ("©", "WN", "12"): short tokens wholly left of that edge are not the description.
    descCell = descCell.filter((w) => !(w.x1 <= descLeft + 1 && w.text.length <= SPECK_CHARS));
  }
  const serialIdx = bestColumn(columns, 'serial');
  const serialCol = serialIdx >= 0 && cellOf(serialIdx).length === 0 ? columns[serialIdx] : undefined;
  const first = readingOrder(descCell)[0]?.[0];
  if (serialCol && first && isRunInSerial(first, serialCol)) descCell = descCell.filter((w) => w !== first);
  const desc = readDescription(descCell);
  if (desc.words.some((w) => w.source === 'ocr')) {
    // The serial number OCR ran into the description ("16 ‘MS Angle"), its own cell left empty.
    if (serialCol) desc.text = desc.text.replace(/^\d{1,3}[.)]?\s+(?=[^\d\s])/, '');
    // OCR reads specks and border ends before a name as quotes or bars ("\"HR Coil", "|Methanol").
    desc.text = desc.text.replace(/^[\s"'‘’“”|!.,:;_~-]+/, '');
    // A lower-case l among capitals is a capital I ("Gl Sheet" for GI Sheet).
    desc.text = desc.text.replace(
      /(?<![A-Za-z])(?=[A-Z0-9]*l)(?=[A-Z0-9l]*[A-Z])[A-Z0-9l]{2,6}(?![A-Za-z])/g,
      (t) => t.replaceAll('l', 'I'),
    );
    // And the other way: "AII-in-One" in mixed-case text is "All" with its l's read as capitals.
    if (/[a-z]/.test(desc.text)) desc.text = desc.text.replace(/\bAII\b/g, 'All');
  }
  let hsnWords = cellOf(bestColumn(columns, 'hsn'));
  if (columns[descCol]?.hsnInCell && readHsn(hsnWords) === null) {
    // The description cell carries the HSN code as a token of its own: it is the HSN, not text.
    const code = desc.words.find((w) => readHsn([w]) !== null && isDigits(w.text));
    if (code) {
      hsnWords = [code];
      desc.words = desc.words.filter((w) => w !== code);
      desc.text = collapseSpaces(desc.text.replace(code.text, ''));
    }
  }
  set('description', desc.text === '' ? null : desc.text, desc.words);
  set('hsnSac', readHsn(hsnWords), hsnWords);
}

/** A goods receipt's four quantities, reconciled with one another. */
function readReceiptQuantities(r: RowReading): void {
  const { columns, cellOf, set } = r;
  const q = (kind: ColumnKind) => {
    const ws = cellOf(bestColumn(columns, kind));
    const v = firstQuantity(ws);
    return { value: v?.value ?? null, words: v ? [v.word] : [], text: v?.word.text ?? '' };
  };
  const ordered = q('ordered');
  const received = q('received');
  const accepted = q('accepted');
  const rejected = q('rejected');
  const g = reconcileGrn(ordered, received, accepted, rejected);
  set('orderedQuantity', g.ordered, ordered.words);
  set('receivedQuantity', g.received, received.words);
  set('acceptedQuantity', g.accepted, accepted.words);
  set('rejectedQuantity', g.rejected, rejected.words);
}

type Quantity = ReturnType<typeof firstQuantity>;

/**
 * Quantity, rate, discount and amount of a priced row, repaired by the row's arithmetic where OCR
 * lost a digit or a decimal point. Returns whether the row adds up as read (null: a figure is missing).
 */
function readPricedFigures(
  r: RowReading,
  opts: { qtyIdx: number; qty: Quantity; styles: Map<number, boolean>; repair: boolean },
): boolean | null {
  const { row, columns, cellOf, set } = r;
  const { qtyIdx, qty, styles, repair } = opts;
  const rateWords = cellOf(bestColumn(columns, 'rate')).filter((w) => hasDigit(w.text));
  const rate = withStyle(readMoney(rateWords), rateWords, styles.get(bestColumn(columns, 'rate')));
  const discIdx = bestColumn(columns, 'discount');
  const discWords = cellOf(discIdx);
  let discount = readDiscount(discWords, columns[discIdx]?.percent ?? false, qty, rate, styles.get(discIdx));

  const amountCol = chooseAmountColumn(columns, cellOf, qty?.value ?? null, rate, discount ?? 0);
  const amountWords = cellOf(amountCol).filter((w) => hasDigit(w.text));
  const amount = netOfRowTax(
    withStyle(readMoney(amountWords), amountWords, styles.get(amountCol)),
    { qty: qty?.value ?? null, rate, discount: discount ?? 0 },
    rowTaxSum(columns, cellOf),
  );
  const asRead: Reconciled = { quantity: qty?.value ?? null, rate, amount, how: 'read' };
  const reconcileWith = (d: number) =>
    reconcile(
      { value: qty?.value ?? null, text: qty?.word.text ?? '' },
      { value: rate, text: cellText(rateWords) },
      d,
      { value: amount, text: cellText(amountWords) },
    );
  // A rupee discount whose decimal point OCR dropped reads 100× too large: when the arithmetic
  // only holds with it scaled, scale it.
  const discOptions =
    discount !== null && discount > 0 && !PAISE_END.test(cellText(discWords))
      ? [discount, discount / PAISE_PER_RUPEE]
      : [discount ?? 0];
  let fixed = repair ? reconcileWith(discOptions[0] ?? 0) : asRead;
  for (const d of repair ? discOptions.slice(1) : []) {
    if (addsUpTo(fixed, discount ?? 0, ROW_SUM_TOLERANCE)) break;
    const alt = reconcileWith(d);
    if (alt.amount !== null && addsUpTo(alt, d, ROW_SUM_TOLERANCE + alt.amount * ROW_SUM_RELATIVE)) {
      fixed = alt;
      discount = round2(d);
    }
  }
  const ocrRow = row.lines.some((l) => l.line.words.some((w) => w.source === 'ocr'));
  // An empty quantity cell in a text layer, or in a charge row at the foot of the item box, is a
  // row that prints none (a shipping charge): the arithmetic may repair a value OCR lost, never
  // invent one the document does not show.
  if (cellOf(qtyIdx).length === 0 && (!ocrRow || row.anchor.charge)) fixed = { ...fixed, quantity: null };
  // OCR lost a discount cell of a table that has a discount column: the row's arithmetic gives it.
  if (
    repair &&
    ocrRow &&
    discIdx >= 0 &&
    discount === null &&
    fixed.quantity !== null &&
    fixed.rate !== null &&
    fixed.amount !== null
  ) {
    const d = round2(fixed.quantity * fixed.rate - fixed.amount);
    // Nothing to derive when the row adds up without one: the cell is blank, not a lost zero.
    if (d > 0 && d < fixed.quantity * fixed.rate) discount = d;
  }
  set('quantity', fixed.quantity, qty ? [qty.word] : []);
  set('rate', fixed.rate, rateWords);
  set('discount', discount, discWords);
  set('amount', fixed.amount, amountWords);
  if (!(qty && rate !== null && amount !== null)) return null;
  const repairedBy = fixed.how ?? 'read';
  return (
    (repairedBy === 'read' || repairedBy === 'scaled') &&
    fixed.quantity !== null &&
    fixed.rate !== null &&
    fixed.amount !== null &&
    consistent(fixed.quantity, fixed.rate, discount ?? 0, fixed.amount)
  );
}

/** The row's printed tax amounts (CGST, SGST, IGST columns) summed; 0 when it prints none. */
function rowTaxSum(columns: Column[], cellOf: (i: number) => Word[]): number {
  let sum = 0;
  columns.forEach((c, i) => {
    if (c.kind !== 'taxAmount') return;
    // "450.00" over "@9%" in one cell: the figure, not the rate.
    const v = readMoney(cellOf(i).filter(isFigureWord));
    if (v !== null && v > 0) sum += v;
  });
  return sum;
}

/**
 * A line's amount is its taxable value: an amount column after the row's tax columns that is
 * quantity × rate − discount plus those taxes ("Total" = 278.61 + 40.39) carries the tax, and the
 * taxable value is what is left. Without a quantity, what is left must be a whole number of rates.
 */
function netOfRowTax(
  amount: number | null,
  row: { qty: number | null; rate: number | null; discount: number },
  tax: number,
): number | null {
  const { qty, rate, discount } = row;
  if (amount === null || rate === null || rate <= 0 || tax <= 0 || tax >= amount) return amount;
  const net = round2(amount - tax);
  if (qty !== null) return consistent(qty, rate, discount, net) ? net : amount;
  const units = (net + discount) / rate;
  return Number.isInteger(units) && units >= 1 ? net : amount;
}

/** Quantity × rate − discount = amount within `tolerance`, all three known. */
function addsUpTo(f: Reconciled, discount: number, tolerance: number): boolean {
  return (
    f.quantity !== null &&
    f.rate !== null &&
    f.amount !== null &&
    Math.abs(f.quantity * f.rate - discount - f.amount) <= tolerance
  );
}

/** A discount cell in rupees ("-₹40.00" is 40); a percentage becomes rupees of quantity × rate. */
function readDiscount(
  words: Word[],
  percentColumn: boolean,
  qty: Quantity,
  rate: number | null,
  style: boolean | undefined,
): number | null {
  if (words.length === 0) return null;
  // "7,216.65" over "6.52%": the cell prints the rupees with the percentage they are; the rupees.
  const figures = words.filter(isFigureWord);
  if (!percentColumn && figures.length > 0 && figures.length < words.length) words = figures;
  const text = cellText(words);
  const pct = text.includes('%') || percentColumn;
  const v = pct ? parseGstRate(text) : withStyle(readMoney(words), words, style);
  if (v !== null && pct && qty && rate !== null) return round2(percentOf(qty.value * rate, v));
  if (v !== null && !pct) return Math.abs(v);
  return null;
}

/** Total GST % of a row from its rate columns: a total/IGST column, else CGST + SGST. */
function readGst(columns: Column[], cellOf: (i: number) => Word[]): number | null {
  const rate = readGstParts(columns, cellOf);
  // A GST rate is a slab, or the CGST half of one (doubled later); "1.6 %" is some other percentage.
  if (rate === null || isValidGstRate(rate) || isValidGstRate(rate * 2)) return rate;
  return null;
}

function readGstParts(columns: Column[], cellOf: (i: number) => Word[]): number | null {
  const parts: Record<string, number | null> = {};
  columns.forEach((c, i) => {
    if (c.kind !== 'gst') return;
    const v = parseGstRate(cellText(cellOf(i)));
    const key = c.gstPart ?? 'total';
    if (v !== null && parts[key] == null) parts[key] = v;
  });
  // A tax column holding "18%" is a rate even if its header only names the tax.
  columns.forEach((c, i) => {
    if (c.kind !== 'taxAmount') return;
    // "@9 00%": OCR read the rate's decimal point as a space.
    const text = cellText(cellOf(i)).replace(/(^|@)(\d{1,2}) (\d{2}) ?%/, '$1$2.$3%');
    if (!text.includes('%')) return;
    const key = c.gstPart ?? 'total';
    // The amount and its rate may share the cell ("450.00" over "@9%"): the rate is the percentage.
    const pct = /\d+(?:\.\d+)?\s*%/.exec(text);
    if (parts[key] == null) parts[key] = parseGstRate(pct ? pct[0] : text);
  });
  if (parts.total != null) return parts.total;
  if (parts.igst != null && parts.igst > 0) return parts.igst;
  if (parts.cgst != null || parts.sgst != null) {
    const c = parts.cgst ?? parts.sgst ?? 0;
    const s = parts.sgst ?? parts.cgst ?? 0;
    const sum = c + s;
    if (sum > 0 || parts.igst == null) return round3(sum);
  }
  return parts.igst ?? null;
}

interface Reading {
  value: number | null;
  /** The printed text (decimal points tell a dropped point from a real integer). */
  text: string;
}

/**
 * Readings a number may have had: as read; with the decimal point OCR dropped (`1260` for 12.60);
 * and, when OCR garbled the separators (`3.09200`, `6,0603200`), its digits read as paise.
 */
function alternatives(r: Reading, scales: number[]): number[] {
  const out: number[] = r.value === null ? [] : [r.value];
  const text = r.text.trim();
  const digits = digitsOf(text);
  const garbled =
    isPlainFigure(text) && (r.value === null || /\.[0-9]{4,}$/.test(text) || countOf(text, '.') > 1);
  if (garbled && digits.length >= MIN_GARBLED_DIGITS)
    out.push(Number(digits) / PAISE_PER_RUPEE, Number(digits) / QUANTITY_SCALE);
  if (r.value !== null && (!/[.,][0-9]{1,3}$/.test(text) || /,[0-9]{3}$/.test(text))) {
    for (const s of scales) out.push(r.value / s);
  }
  return out;
}

/** Quantity, rate and amount after {@link reconcile}, and how they came to agree (if they do). */
export interface Reconciled {
  quantity: number | null;
  rate: number | null;
  amount: number | null;
  /** As printed; a dropped decimal point put back; one figure derived or replaced from the others. */
  how?: 'read' | 'scaled' | 'derived' | 'replaced';
}

function consistent(q: number, r: number, d: number, a: number): boolean {
  const gap = Math.abs(q * r - d - a);
  // An amount printed to the whole rupee ("1,50,487" for 1 × 1,50,486.5695) rounds the product.
  return gap <= rowSumSlack(a) || (Number.isInteger(a) && gap <= WHOLE_RUPEE_TOLERANCE);
}

/**
 * Make quantity × rate − discount = amount hold, repairing OCR readings: a dropped decimal point
 * (`1260` for 12.60) is tried on each number, and a missing or unreadable one of the three is
 * derived from the other two when the result is a clean printed value (rate in paise, quantity
 * to 3 decimals). Readings that already agree are kept as read.
 */
export function reconcile(qty: Reading, rate: Reading, discount: number, amount: Reading): Reconciled {
  const asRead: Reconciled = { quantity: qty.value, rate: rate.value, amount: amount.value, how: 'read' };
  const q0 = qty.value;
  const r0 = rate.value;
  const a0 = amount.value;
  if (q0 !== null && r0 !== null && a0 !== null && consistent(q0, r0, discount, a0)) return asRead;
  const qa = alternatives(qty, QUANTITY_POINT_SCALES);
  const ra = alternatives(rate, MONEY_POINT_SCALES);
  const aa = alternatives(amount, MONEY_POINT_SCALES);
  if (qa.length > 0 && ra.length > 0 && aa.length > 0) {
    let best: { quantity: number; rate: number; amount: number; changes: number } | null = null;
    for (const [qi, q] of qa.entries()) {
      for (const [ri, r] of ra.entries()) {
        for (const [ai, a] of aa.entries()) {
          if (!consistent(q, r, discount, a)) continue;
          const changes =
            (qi > 0 || qty.value === null ? 1 : 0) +
            (ri > 0 || rate.value === null ? 1 : 0) +
            (ai > 0 || amount.value === null ? 1 : 0);
          if (!best || changes < best.changes) best = { quantity: q, rate: r, amount: round2(a), changes };
        }
      }
    }
    if (best) return { quantity: best.quantity, rate: best.rate, amount: best.amount, how: 'scaled' };
  }
  // One of the three missing or misread: derive it from the other two when that is clean.
  const derivedAmount = q0 !== null && r0 !== null ? round2(q0 * r0 - discount) : null;
  const derivedRate = q0 !== null && q0 !== 0 && a0 !== null ? (a0 + discount) / q0 : null;
  const derivedQty = r0 !== null && r0 !== 0 && a0 !== null ? (a0 + discount) / r0 : null;
  const cleanRate = derivedRate !== null && isClean(derivedRate, PAISE_PER_RUPEE);
  const cleanQty = derivedQty !== null && isClean(derivedQty, QUANTITY_SCALE);
  if (a0 === null && derivedAmount !== null) return { ...asRead, amount: derivedAmount, how: 'derived' };
  if (r0 === null && cleanRate && derivedRate !== null)
    return { ...asRead, rate: round2(derivedRate), how: 'derived' };
  if (q0 === null && cleanQty && derivedQty !== null)
    return { ...asRead, quantity: round3(derivedQty), how: 'derived' };
  // All three read but inconsistent: replace the one whose digits are one slip from its derived value.
  if (q0 !== null && r0 !== null && a0 !== null) {
    const options: SlipOption[] = [];
    if (cleanRate && derivedRate !== null)
      options.push({ field: 'rate', value: round2(derivedRate), read: rate.text });
    if (cleanQty && derivedQty !== null)
      options.push({ field: 'quantity', value: round3(derivedQty), read: qty.text });
    if (derivedAmount !== null) options.push({ field: 'amount', value: derivedAmount, read: amount.text });
    const pick = oneSlip(options);
    if (pick) return { ...asRead, [pick.field]: pick.value, how: 'replaced' };
  }
  return asRead;
}

interface SlipOption {
  field: 'quantity' | 'rate' | 'amount';
  value: number;
  read: string;
}

/**
 * The one figure of a row that is a single OCR digit slip from the value the other two give
 * ("7" for 1, "35" for 3.5). Two slips ("260" for 225) say the arithmetic is off for another
 * reason (tax in the amount, an unread discount), and two clean figures each one slip away leave
 * no way to tell which OCR misread: then nothing is replaced (a wrong value is worse than as read).
 */
function oneSlip(options: SlipOption[]): SlipOption | null {
  // Between figures equally near, OCR misreading or dropping a digit ("7" for 1) is likelier than
  // it printing one that is not there ("48" for 8), and the one OCR split into pieces
  // ("3.500 00") is the misread one.
  const pieces = (o: SlipOption) => wordCount(o.read);
  const ranked = options
    .filter((o) => Number.isInteger(o.value) || !printsWhole(o.read))
    .map((o) => ({ o, d: digitDistance(o.read, o.value), p: pieces(o), s: !gainsDigit(o.read, o.value) }))
    .filter((x) => x.d <= 1)
    .sort((x, y) => x.d - y.d || Number(y.s) - Number(x.s) || y.p - x.p);
  const [best, next] = ranked;
  if (!best || (next && next.d === best.d && next.s === best.s && next.p === best.p)) return null;
  return best.o;
}

/**
 * Whether a figure is printed whole with its decimals ("1.00"): a fraction (0.80) differs from it
 * in two digits, not one, though the cores "1" and "8" are one apart.
 */
function printsWhole(printed: string): boolean {
  const t = printed.trim();
  const decimals = t.slice(t.lastIndexOf('.') + 1);
  return t.includes('.') && decimals !== '' && [...decimals].every((c) => c === '0');
}

/** Whether a figure as printed has more significant digits than the value it may stand for. */
function gainsDigit(printed: string, value: number): boolean {
  return digitCore(printed).length > digitCore(figureText(value)).length;
}

/** Edit distance between the digits printed and the digits of a value (OCR digit slips). */
function digitDistance(printed: string, value: number): number {
  return editDistance(digitCore(printed), digitCore(figureText(value)), DIGIT_DISTANCE_CAP);
}

/** A value as it would be printed: whole, in paise, or to the quantity's decimals. */
function figureText(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return value.toFixed(
    value * PAISE_PER_RUPEE === Math.round(value * PAISE_PER_RUPEE) ? 2 : QUANTITY_DECIMALS,
  );
}

/**
 * The digits of a figure without leading zeros (they say nothing) or trailing ones ("1,540.00"
 * prints zeros the number does not carry).
 */
function digitCore(s: string): string {
  return digitsOf(s).replace(/^0+|0+$/g, '');
}

interface GrnReading {
  value: number | null;
  text: string;
}

/**
 * GRN quantities must balance: accepted + rejected = received, and no more is received than
 * ordered. OCR reads a grouping comma as a point (`1.148` for 1,148) and drops faint cells (a
 * lone `0`): the reading that balances is chosen, and one missing quantity is derived from the
 * other two.
 */
export function reconcileGrn(
  ordered: GrnReading,
  received: GrnReading,
  accepted: GrnReading,
  rejected: GrnReading,
): { ordered: number | null; received: number | null; accepted: number | null; rejected: number | null } {
  const alt = (r: GrnReading) => {
    if (r.value === null) return [null];
    // "1.148" may be 1,148: three decimals after a 1–3 digit whole part.
    return /^[0-9]{1,3}\.[0-9]{3}$/.test(r.text.trim())
      ? [r.value, Math.round(r.value * THOUSAND)]
      : [r.value];
  };
  let best: { o: number | null; r: number | null; a: number | null; j: number | null; score: number } | null =
    null;
  for (const [oi, o] of alt(ordered).entries()) {
    for (const [ri, r] of alt(received).entries()) {
      for (const [ai, a] of alt(accepted).entries()) {
        for (const [ji, j] of alt(rejected).entries()) {
          let score = -(oi + ri + ai + ji) * GRN_ALTERNATIVE_COST;
          if (r !== null && a !== null && j !== null) score += Math.abs(a + j - r) < GRN_EPSILON ? 2 : -2;
          if (o !== null && r !== null) score += o + GRN_EPSILON >= r ? 1 : -1;
          if (r !== null && a !== null) score += r + GRN_EPSILON >= a ? 1 : -1;
          if (!best || score > best.score) best = { o, r, a, j, score };
        }
      }
    }
  }
  const b = best ?? { o: ordered.value, r: received.value, a: accepted.value, j: rejected.value };
  let { o, r, a, j } = b;
  if (j === null && r !== null && a !== null && r >= a) j = round3(r - a);
  else if (r === null && a !== null && j !== null) r = round3(a + j);
  else if (a === null && r !== null && j !== null && r >= j) a = round3(r - j);
  return { ordered: o, received: r, accepted: a, rejected: j };
}

/**
 * Among several amount columns ("Amount", "Taxable Value", "Total" with tax), the line amount is
 * the one that equals quantity × rate − discount; without such agreement, the best-named one.
 * An amount column printed after the tax columns while another stands before them is the total
 * with tax: a rate that includes tax makes it equal quantity × rate, yet it is no taxable value.
 */
function chooseAmountColumn(
  columns: Column[],
  cellOf: (i: number) => Word[],
  qty: number | null,
  rate: number | null,
  discount: number,
): number {
  const best = bestColumn(columns, 'amount');
  if (qty === null || rate === null) return best;
  const expected = qty * rate - discount;
  const firstTax = columns.findIndex((c) => c.kind === 'taxAmount' || c.kind === 'gst');
  const afterTaxes = (i: number) => firstTax >= 0 && best >= 0 && best < firstTax && i > firstTax;
  const candidates = columns
    .map((c, i) => ({ c, i }))
    .filter(({ c, i }) => c.kind === 'amount' && !afterTaxes(i))
    .sort((a, b) => b.c.priority - a.c.priority);
  for (const { i } of candidates) {
    const v = readMoney(cellOf(i).filter((w) => hasDigit(w.text)));
    if (v !== null && Math.abs(v - expected) <= rowSumSlack(expected)) return i;
  }
  return best;
}

/**
 * OCR splits a number at its separators ("2, 570", "35, 696. 50", "151 00"): glue the pieces of a
 * numeric cell back together, on each sub-line of the cell.
 */
export function joinNumberFragments(words: Word[]): Word[] {
  const out: Word[] = [];
  for (const line of readingOrder(words)) {
    for (const w of line) {
      const prev = out[out.length - 1];
      const sameLine = prev && line.includes(prev);
      const openEnded =
        prev &&
        isPlainFigure(prev.text) &&
        (prev.text.endsWith(',') || prev.text.endsWith('.')) &&
        isPlainFigure(w.text);
      const paise =
        prev &&
        isPlainFigure(prev.text) &&
        !prev.text.includes('.') &&
        isDigits(w.text) &&
        w.text.length === 2 &&
        w.x0 - prev.x1 < w.y1 - w.y0;
      if (prev && sameLine && (openEnded || paise)) {
        out[out.length - 1] = {
          ...prev,
          text: paise ? `${prev.text}.${w.text}` : `${prev.text}${w.text}`,
          x1: Math.max(prev.x1, w.x1),
          y0: Math.min(prev.y0, w.y0),
          y1: Math.max(prev.y1, w.y1),
        };
      } else out.push(w);
    }
  }
  return out;
}

/**
 * Whether each money column prints two decimals ("1,350.00"): true when most of its OCR cells do.
 * A cell of such a column read without its point ("135000") lost it to OCR.
 */
export function columnDecimalStyles(
  cellsByRow: Array<Map<number, Word[]>>,
  columns: Column[],
): Map<number, boolean> {
  const styles = new Map<number, boolean>();
  columns.forEach((c, i) => {
    if (c.kind !== 'rate' && c.kind !== 'amount' && c.kind !== 'discount') return;
    let withPoint = 0;
    let total = 0;
    for (const cells of cellsByRow) {
      const ws = (cells.get(i) ?? []).filter((w) => hasDigit(w.text));
      if (ws.length === 0 || !ws.every((w) => w.source === 'ocr')) continue;
      total++;
      if (ws.some((w) => PAISE_END.test(w.text))) withPoint++;
    }
    if (total >= 2 && withPoint >= total * DECIMAL_STYLE_SHARE) styles.set(i, true);
  });
  return styles;
}

/** Apply a column's two-decimal style to a reading whose point OCR dropped. */
function withStyle(value: number | null, words: Word[], twoDecimals: boolean | undefined): number | null {
  if (value === null || !twoDecimals) return value;
  const text = words.map((w) => w.text).join('');
  if (PAISE_END.test(text) || !/^[0-9,]{3,}$/.test(text)) return value;
  return round2(value / PAISE_PER_RUPEE);
}

/** An OCR-read unit one slip away from a known unit ("Mir" → Mtr) becomes that unit. */
function correctUnit(text: string): string {
  const t = unitKey(text);
  // A known unit in any printed form, its plural too ("Dozens", "gms"): a plural is no OCR slip.
  if (UNIT_WORD.test(text.trim()) || KNOWN_UNITS.some((u) => unitKey(u) === t)) return text;
  if (t.length === 2) {
    // A two-letter reading is too short to correct by any slip; a letter OCR dropped from a
    // three-letter unit ("Mr" for Mtr, "Lr" for Ltr) is the one safe repair.
    const grown = KNOWN_UNITS.filter((u) => {
      const k = unitKey(u);
      return (
        k.length === SHORT_UNIT_LENGTH && (`${k[0]}${k[2]}` === t || k.slice(0, 2) === t || k.slice(1) === t)
      );
    });
    return grown.length === 1 ? (grown[0] as string) : text;
  }
  if (t.length < SHORT_UNIT_LENGTH) return text;
  const near = KNOWN_UNITS.filter((u) => editDistance(t, unitKey(u), 1) <= 1);
  return near.length === 1 ? (near[0] as string) : text;
}
