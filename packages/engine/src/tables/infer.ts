import { isValidHsnSac } from '@bahi/india';
import { profileOf } from '../profiles/index.ts';
import type { DocumentType, Word } from '../types.ts';
import { chunkLine, type Line, overlap } from './geometry.ts';
import type { Column } from './header.ts';
import {
  hasDigit,
  isCurrencyWord,
  isDigits,
  isLoneChar,
  isNumericToken,
  letterRun,
  parseGstRate,
  parseMoney,
  parseQuantity,
} from './numbers.ts';
import { SERIAL } from './rows.ts';
import { type ColumnKind, normaliseLabel, UNIT_WORD } from './vocabulary.ts';
import {
  COLUMN_ROW_SHARE,
  GRN_BALANCE_EPSILON,
  GUESS_COST,
  IN_ORDER_BONUS,
  ITEM_RUN_GAP,
  ITEM_RUN_GAP_HEIGHTS,
  LEFT_EDGE_ALIGN,
  LEFTNESS_COST,
  MAX_FREE_ORDER_COLUMNS,
  MAX_UNKNOWN_COLUMNS,
  MIN_ITEM_NUMBERS,
  MIN_ROLE_SCORE,
  NAME_LETTERS,
  NAMED_COLUMN_REACH,
  ORDERED_COVERS_CREDIT,
  PERCENT_SHARE,
  RIGHT_EDGE_ALIGN,
  ROW_SUM_RELATIVE,
  ROW_SUM_TOLERANCE,
  SERIAL_DIGITS,
  SERIAL_SHARE,
  UNIT_PERCENT_REACH,
  UNIT_PRODUCT_CREDIT,
  UNNAMED_NUMERIC_SHARE,
} from './weights.ts';

/** Labels of a header column that says "rate" but names no tax ("%", "Rate", "Rate %"). */
const BARE_RATE_LABELS = new Set(['%', 'rate', 'rate %']);

/** GST + cess printed together ("18+0", "9%+9%"). */
const RATE_SUM = /^[0-9.]+%?(?:\+[0-9.]+%?)+$/;

/**
 * Columns the header does not name. OCR often loses part of a header row (white text on a dark
 * band, faint print) while the numbers below it read fine. Numbers that line up (same right edge)
 * under no header label are columns too: percentages are GST rates, and the others get the missing
 * roles (quantity, rate, discount, amount; the GRN quantities) that make each row's arithmetic hold
 * (quantity × rate − discount = amount; accepted + rejected = received).
 */
export function completeColumns(columns: Column[], dataLines: Line[], type: DocumentType): Column[] {
  percentUnitIsGst(columns, dataLines);
  const survey = surveyNumbers(columns, dataLines);
  nameUnreadColumns(columns, survey);
  const { chunks, otherHits, rowsWithNumbers } = survey;
  // Unnamed header columns holding plain numbers take part in the role search below.
  const unnamedNumeric = [...otherHits]
    .filter(
      ([c, hits]) =>
        c.kind === 'other' && hits.length >= Math.max(1, rowsWithNumbers * UNNAMED_NUMERIC_SHARE),
    )
    .map(([c]) => c);
  if (chunks.length === 0 && unnamedNumeric.length === 0) return columns;
  const added = columnsFromAlignedNumbers(columns, chunks, rowsWithNumbers);
  if (added.length === 0 && unnamedNumeric.length === 0) return columns;
  const all = [...columns, ...added].sort((a, b) => a.x0 - b.x0);
  pairPercentColumns(columns, added, [...chunks, ...survey.pctSeen]);
  if (taxColumnsPrintRates(columns, survey.pctSeen, rowsWithNumbers))
    for (const c of added) if (c.kind === 'gst') c.kind = 'other';
  const unknown = [...added.filter((c) => c.kind === 'other'), ...unnamedNumeric].sort((a, b) => a.x0 - b.x0);
  if (unknown.length > 0) assignRoles(all, unknown, dataLines, type);
  return all;
}

/** A number chunk of a data line. */
type NumberChunk = { x0: number; x1: number; pct: boolean; y: number; value: number | null };

/** A unit column whose cells are percentages is the GST rate under a label OCR misread ("per"). */
function percentUnitIsGst(columns: Column[], dataLines: Line[]): void {
  const unitPct = new Map<Column, number>();
  for (const line of dataLines) {
    for (const c of columns) {
      if (c.kind !== 'unit') continue;
      const ch = chunkLine(line).find(
        (x) => overlap(x.x0, x.x1, c.x0, c.x1) > -UNIT_PERCENT_REACH && x.text.includes('%'),
      );
      if (ch && parseGstRate(ch.text.replace(/^.*?([0-9.]+\s*%).*$/, '$1')) !== null)
        unitPct.set(c, (unitPct.get(c) ?? 0) + 1);
    }
  }
  for (const [c, n] of unitPct)
    if (!columns.some((x) => x.kind === 'gst') && n >= Math.max(1, dataLines.length * COLUMN_ROW_SHARE)) {
      c.kind = 'gst';
      c.gstPart = 'total';
    }
}

/** The numbers of the data lines: under no column, under an unread label, and the percentages. */
interface NumberSurvey {
  /** Numbers under no named column. */
  chunks: NumberChunk[];
  /** Every percentage seen. */
  pctSeen: NumberChunk[];
  /** Values under header labels that were not understood (OCR-garbled "Tax Rate"): percentages? */
  otherHits: Map<Column, boolean[]>;
  /** … valid HSN/SAC codes? */
  codeHits: Map<Column, boolean[]>;
  /** … small serial numbers? */
  serialHits: Map<Column, boolean[]>;
  rowsWithNumbers: number;
}

function surveyNumbers(columns: Column[], dataLines: Line[]): NumberSurvey {
  const survey: NumberSurvey = {
    chunks: [],
    pctSeen: [],
    otherHits: new Map(),
    codeHits: new Map(),
    serialHits: new Map(),
    rowsWithNumbers: 0,
  };
  const { chunks, pctSeen, otherHits, codeHits, serialHits } = survey;
  for (const line of dataLines) {
    let n = 0;
    let figures = 0;
    for (const ch of chunkLine(line)) {
      if (
        !ch.words.every(
          (w) =>
            isNumericToken(w.text) ||
            isLoneChar(w.text, '%+|') ||
            RATE_SUM.test(w.text) ||
            isCurrencyWord(w.text),
        )
      )
        continue;
      if (!ch.words.some((w) => hasDigit(w.text))) continue;
      n++;
      const pct = /%|^[0-9.]+ ?\+ ?[0-9.]+/.test(ch.text);
      if (!pct) figures++;
      // Numbers next to a named column are its own (right-aligned under a narrow label).
      const covered = columns.some(
        (c) =>
          c.kind !== 'description' &&
          c.kind !== 'other' &&
          overlap(ch.x0, ch.x1, c.x0, c.x1) > -NAMED_COLUMN_REACH,
      );
      if (pct) pctSeen.push({ x0: ch.x0, x1: ch.x1, pct, y: line.yc, value: parseGstRate(ch.text) });
      const unnamed = columns.find((c) => c.kind === 'other' && overlap(ch.x0, ch.x1, c.x0, c.x1) > 0);
      if (unnamed) {
        otherHits.set(unnamed, [...(otherHits.get(unnamed) ?? []), pct]);
        codeHits.set(unnamed, [...(codeHits.get(unnamed) ?? []), isValidHsnSac(ch.text)]);
        serialHits.set(unnamed, [...(serialHits.get(unnamed) ?? []), SERIAL.test(ch.text)]);
      } else if (!covered)
        chunks.push({ x0: ch.x0, x1: ch.x1, pct, y: line.yc, value: parseGstRate(ch.text) });
    }
    // A line of percentages only is an item's rate sub-line ("Less 3% | @28%" under its
    // figures), not a row: counted, it would halve the share an unnamed column needs to fill.
    if (n >= 2 && figures > 0) survey.rowsWithNumbers++;
  }
  return survey;
}

/** Columns whose label OCR could not read, named by what their cells hold: serial, HSN, GST rate. */
function nameUnreadColumns(columns: Column[], survey: NumberSurvey): void {
  // Small whole numbers under an unreadable label left of the description: the serial column.
  const descX = columns.find((c) => c.kind === 'description')?.x0 ?? 0;
  for (const [c, hits] of survey.serialHits) {
    const serials = hits.filter(Boolean).length;
    if (
      !columns.some((x) => x.kind === 'serial') &&
      c.x1 <= descX &&
      hits.length > 0 &&
      serials >= hits.length * SERIAL_SHARE
    ) {
      c.kind = 'serial';
    }
  }
  for (const [c, hits] of survey.codeHits) {
    // 4–8 digit codes on every row under an unreadable label: the HSN column.
    if (!columns.some((x) => x.kind === 'hsn') && hits.length > 0 && hits.every(Boolean)) c.kind = 'hsn';
  }
  for (const [c, hits] of survey.otherHits) {
    if (
      c.kind === 'other' &&
      !columns.some((x) => x.kind === 'gst') &&
      hits.filter(Boolean).length >= Math.max(1, hits.length * PERCENT_SHARE)
    ) {
      c.kind = 'gst';
      c.gstPart = 'total';
    }
  }
}

/**
 * Whether a tax column of the header (IGST, CGST) prints its rate in its own cells ("@5%" under
 * the tax amount) on half the rows: the rows' GST rate is read there, and a percentage column the
 * header does not name is something else (cess, a discount).
 */
function taxColumnsPrintRates(columns: Column[], pctSeen: NumberChunk[], rows: number): boolean {
  const taxes = columns.filter((c) => c.kind === 'taxAmount');
  const under = pctSeen.filter((p) =>
    taxes.some((c) => overlap(p.x0, p.x1, c.x0, c.x1) > -NAMED_COLUMN_REACH),
  ).length;
  return taxes.length > 0 && under >= Math.max(1, Math.ceil(rows * COLUMN_ROW_SHARE));
}

/** Right-aligned numbers under no header share a right edge: each cluster on half the rows is a column. */
function columnsFromAlignedNumbers(
  columns: Column[],
  chunks: NumberChunk[],
  rowsWithNumbers: number,
): Column[] {
  chunks.sort((a, b) => a.x1 - b.x1);
  const clusters: Array<NumberChunk[]> = [];
  for (const ch of chunks) {
    const last = clusters[clusters.length - 1];
    const mean = last ? last.reduce((s, c) => s + c.x1, 0) / last.length : 0;
    if (last && ch.x1 - mean <= RIGHT_EDGE_ALIGN) last.push(ch);
    else clusters.push([ch]);
  }
  const minCount = Math.max(1, Math.ceil(rowsWithNumbers * COLUMN_ROW_SHARE));
  const added: Column[] = [];
  for (const cl of clusters) {
    if (cl.length < minCount) continue;
    const x0 = Math.min(...cl.map((c) => c.x0));
    const x1 = Math.max(...cl.map((c) => c.x1));
    // Two clusters must not overlap an existing column or each other.
    if ([...columns, ...added].some((c) => overlap(x0, x1, c.x0, c.x1) > 0)) continue;
    const pct = cl.filter((c) => c.pct).length >= cl.length * PERCENT_SHARE;
    added.push({ kind: pct ? 'gst' : 'other', priority: 0, gstPart: 'total', x0, x1, label: '' });
  }
  return added;
}

/**
 * Two inferred percentage columns with equal rates on each row are CGST + SGST (summed);
 * otherwise the first is the GST rate and the rest are cess.
 */
function pairPercentColumns(columns: Column[], added: Column[], numbers: NumberChunk[]): void {
  const pctCols = added.filter((c) => c.kind === 'gst');
  const headerGst = columns.filter((c) => c.kind === 'gst');
  // A header "%" that names no tax, beside one more unlabelled percentage column: the pair may be
  // CGST + SGST whose names OCR lost (decided below by equal values).
  const bare =
    headerGst.length === 1 &&
    headerGst[0]?.gstPart === 'total' &&
    BARE_RATE_LABELS.has(normaliseLabel(headerGst[0]?.label ?? ''));
  if (bare && pctCols.length === 1) pctCols.unshift(headerGst[0] as Column);
  else if (headerGst.length > 0) {
    for (const c of pctCols) c.kind = 'other';
    pctCols.length = 0;
  }
  if (pctCols.length < 2) return;
  const [a, b] = pctCols as [Column, Column];
  const valuesOf = (c: Column) =>
    new Map(
      numbers.filter((ch) => overlap(ch.x0, ch.x1, c.x0, c.x1) > 0).map((ch) => [Math.round(ch.y), ch.value]),
    );
  const va = valuesOf(a);
  const vb = valuesOf(b);
  let same = 0;
  let both = 0;
  for (const [y, v] of va) {
    const w = vb.get(y);
    if (w === undefined) continue;
    both++;
    if (v !== null && v === w && v > 0) same++;
  }
  if (both > 0 && same >= both * PERCENT_SHARE) {
    a.gstPart = 'cgst';
    b.gstPart = 'sgst';
    b.kind = 'gst';
    for (const c of pctCols.slice(2)) c.kind = 'other';
  } else {
    for (const c of pctCols.slice(1)) c.kind = 'other';
  }
}

/** Numbers of one line per column (first number of each cell). */
function lineValues(line: Line, columns: Column[]): Map<Column, number> {
  const out = new Map<Column, number>();
  for (const ch of chunkLine(line)) {
    let best: Column | null = null;
    let bestOv = 0;
    for (const c of columns) {
      const ov = overlap(ch.x0, ch.x1, c.x0, c.x1);
      if (ov > bestOv) {
        bestOv = ov;
        best = c;
      }
    }
    if (!best) continue;
    const w = ch.words.find((x: Word) => hasDigit(x.text));
    if (!w) continue;
    const v = best.kind === 'gst' ? parseGstRate(w.text) : (parseQuantity(w.text) ?? parseMoney(w.text));
    if (v !== null && !out.has(best)) out.set(best, v);
  }
  return out;
}

/**
 * Give unlabelled numeric columns the missing roles that make the most rows' arithmetic hold.
 * Tries every assignment of the (few) unknown columns to the missing roles.
 */
function assignRoles(all: Column[], unknown: Column[], dataLines: Line[], type: DocumentType): void {
  const lineKind = profileOf(type).lines;
  const roles = lineKind.numericRoles;
  const present = new Set(all.filter((c) => !unknown.includes(c)).map((c) => c.kind));
  const missing = roles.filter((r) => !present.has(r));
  if (missing.length === 0 || unknown.length > MAX_UNKNOWN_COLUMNS) return;
  // Many unlabelled columns (a header band OCR lost whole): only assignments in the printed
  // order of the roles (quantity before rate before amount) are tried, which keeps it small.
  const inOrderOnly = unknown.length > MAX_FREE_ORDER_COLUMNS;
  const rows = dataLines.map((l) => lineValues(l, all)).filter((m) => m.size >= 2);
  const known = (kind: ColumnKind) => all.find((c) => c.kind === kind && !unknown.includes(c));
  let best: { score: number; map: Map<Column, ColumnKind> } = { score: 0, map: new Map() };
  const map = new Map<Column, ColumnKind>();
  const evaluate = () => {
    const colOf = (kind: ColumnKind): Column | undefined => {
      for (const [c, k] of map) if (k === kind) return c;
      return known(kind);
    };
    let score = 0;
    for (const row of rows) {
      const v = (kind: ColumnKind) => {
        const c = colOf(kind);
        return c ? row.get(c) : undefined;
      };
      if (lineKind.kind === 'receipt') {
        const rec = v('received');
        const acc = v('accepted');
        const rej = v('rejected');
        const ord = v('ordered');
        if (
          rec !== undefined &&
          acc !== undefined &&
          rej !== undefined &&
          Math.abs(acc + rej - rec) < GRN_BALANCE_EPSILON
        )
          score += 1;
        if (ord !== undefined && rec !== undefined && ord >= rec) score += ORDERED_COVERS_CREDIT;
      } else {
        const q = v('quantity');
        const r = v('rate');
        const a = v('amount');
        const d = v('discount') ?? 0;
        if (
          q !== undefined &&
          r !== undefined &&
          a !== undefined &&
          Math.abs(q * r - d - a) <= ROW_SUM_TOLERANCE + a * ROW_SUM_RELATIVE
        )
          // One of a thing at no discount only says two columns hold the same figure (CGST and
          // SGST do too): weaker evidence than a product that works out.
          score += (q === 1 || r === 1) && d === 0 ? UNIT_PRODUCT_CREDIT : 1;
      }
    }
    // Prefer fewer guesses, then the reading order of the roles (left to right).
    const ordered = [...map].sort((x, y) => x[0].x0 - y[0].x0).map(([, k]) => roles.indexOf(k));
    const inOrder = ordered.every((k, i) => i === 0 || k > (ordered[i - 1] ?? -1));
    // Last tie-break: roles sit as far left as they can (a GRN's ordered quantity comes first).
    const leftness = [...map.keys()].reduce((sum, c) => sum + unknown.indexOf(c), 0);
    const total = score + (inOrder ? IN_ORDER_BONUS : 0) - map.size * GUESS_COST - leftness * LEFTNESS_COST;
    if (total > best.score) best = { score: total, map: new Map(map) };
  };
  const walk = (i: number, used: Set<ColumnKind>) => {
    if (i === unknown.length) {
      evaluate();
      return;
    }
    const c = unknown[i] as Column;
    walk(i + 1, used);
    const lastRole = Math.max(-1, ...[...used].map((r) => roles.indexOf(r)));
    for (const role of missing) {
      if (used.has(role)) continue;
      if (inOrderOnly && roles.indexOf(role) < lastRole) continue;
      map.set(c, role);
      used.add(role);
      walk(i + 1, used);
      used.delete(role);
      map.delete(c);
    }
  };
  walk(0, new Set());
  if (best.score < MIN_ROLE_SCORE) {
    if (lineKind.kind !== 'receipt') nameQuantityByPlace(all, unknown, missing);
    return;
  }
  for (const [c, k] of best.map) {
    c.kind = k;
    c.priority = 1;
  }
}

/**
 * No arithmetic names the columns (amounts printed after tax or discount): an unlabelled numeric
 * column standing just before the rate (a unit column may sit between) is the quantity, the order
 * every Indian item table prints them in.
 */
function nameQuantityByPlace(all: Column[], unknown: Column[], missing: ColumnKind[]): void {
  if (!missing.includes('quantity')) return;
  const rateAt = all.findIndex((c) => c.kind === 'rate' && !unknown.includes(c));
  if (rateAt < 1) return;
  let k = rateAt - 1;
  if (all[k]?.kind === 'unit') k--;
  const before = all[k];
  if (before && unknown.includes(before)) {
    before.kind = 'quantity';
    before.priority = 1;
  }
}

const CODE_LIKE = /^[A-Z]{1,5}-?[0-9]{3,}[A-Z]?$/i;

/**
 * A table whose header OCR lost entirely (white text on a dark band): find its rows as lines with
 * three or more numbers beside a description, and make columns from how their cells line up —
 * text on the left is the description, known unit words the unit, 4–8 digit codes the HSN, a
 * 1, 2, 3… column the serial, percentages the GST rate; the other numbers get their roles from
 * the row arithmetic ({@link completeColumns}). Returns the index of the line above the first row
 * and the columns, or null when no such rows exist.
 */
export function synthesizeHeader(
  lines: Line[],
  type: DocumentType,
): { before: number; columns: Column[] } | null {
  const run = firstItemRun(lines);
  if (!run) return null;
  const columns = columnsOfCells(run.map((i) => lines[i] as Line));
  if (!columns) return null;
  columns.sort((a, b) => a.x0 - b.x0);
  pairGstColumns(
    columns,
    run.map((i) => lines[i] as Line),
  );
  const completed = completeColumns(
    columns,
    run.map((i) => lines[i] as Line),
    type,
  );
  return { before: (run[0] as number) - 1, columns: completed };
}

const isNum = (t: string) => (isNumericToken(t) || RATE_SUM.test(t)) && hasDigit(t);
/** A cell of figures may print the rupee before each ("Rs. 2,450.00"). */
const isFigureWord = (t: string) => isNum(t) || isLoneChar(t, '%+') || isCurrencyWord(t);

/** Indexes of the first run of item-like rows (three numbers beside a description), or null. */
function firstItemRun(lines: Line[]): number[] | null {
  const rowIdx: number[] = [];
  for (const [i, line] of lines.entries()) {
    const chunks = chunkLine(line);
    const numeric = chunks.filter(
      (c) => c.words.every((w) => isFigureWord(w.text)) && c.words.some((w) => isNum(w.text)),
    );
    // A description of two words or more (OCR may split it into chunks: "ALUMINUM | FOILS").
    const textWords = chunks
      .filter((c) => !numeric.includes(c))
      .flatMap((c) => c.words)
      .filter((w) => letterRun(w.text) >= 2);
    // A line of rates only ("6% | 6% | 0%" under an item) belongs to the item above.
    const figures = numeric.filter((c) => !c.text.includes('%'));
    if (
      numeric.length >= MIN_ITEM_NUMBERS &&
      figures.length >= 2 &&
      textWords.length >= 2 &&
      textWords.some((w) => letterRun(w.text) >= NAME_LETTERS)
    )
      rowIdx.push(i);
  }
  if (rowIdx.length === 0) return null;
  // The first run of such rows (continuation lines may sit between them).
  const run = [rowIdx[0] as number];
  for (const i of rowIdx.slice(1)) {
    const prev = lines[run[run.length - 1] as number] as Line;
    const cur = lines[i] as Line;
    if (cur.y0 - prev.y1 > Math.max(ITEM_RUN_GAP, prev.h * ITEM_RUN_GAP_HEIGHTS)) break;
    run.push(i);
  }
  return run;
}

/** A cell of an item row. */
interface Cell {
  x0: number;
  x1: number;
  text: string;
}

/** Cells grouped where their edges (by `key`) lie within `tol` of the previous one. */
function clusterCells(cells: Cell[], key: (c: Cell) => number, tol: number): Cell[][] {
  const sorted = [...cells].sort((a, b) => key(a) - key(b));
  const out: Cell[][] = [];
  for (const c of sorted) {
    const last = out[out.length - 1];
    if (last && key(c) - key(last[last.length - 1] as Cell) <= tol) last.push(c);
    else out.push([c]);
  }
  return out;
}

/** Columns from how the rows' cells line up; null when no description column is found. */
function columnsOfCells(rows: Line[]): Column[] | null {
  const textCells: Cell[] = [];
  const numCells: Cell[] = [];
  for (const line of rows) {
    for (const ch of chunkLine(line)) {
      const cell = { x0: ch.x0, x1: ch.x1, text: ch.text };
      if (ch.words.every((w) => isFigureWord(w.text)) && ch.words.some((w) => isNum(w.text)))
        numCells.push(cell);
      else textCells.push(cell);
    }
  }
  const need = Math.max(1, Math.ceil(rows.length * COLUMN_ROW_SHARE));
  const span = (cs: Cell[]) => ({
    x0: Math.min(...cs.map((c) => c.x0)),
    x1: Math.max(...cs.map((c) => c.x1)),
  });
  const columns: Column[] = [];
  const add = (kind: ColumnKind, cs: Cell[]) =>
    columns.push({ kind, priority: 1, gstPart: 'total', ...span(cs), label: '' });
  // Text cells: units, item codes, and the description (the widest remaining left-aligned group).
  const textGroups = clusterCells(textCells, (c) => c.x0, LEFT_EDGE_ALIGN);
  let desc: Cell[] | null = null;
  for (const g of textGroups) {
    if (g.every((c) => UNIT_WORD.test(c.text))) {
      if (g.length >= need) add('unit', g);
    } else if (g.every((c) => CODE_LIKE.test(c.text))) {
      if (g.length >= need) add('code', g);
    } else if (!desc || g.length > desc.length) desc = g;
  }
  if (!desc) return null;
  add('description', desc);
  for (const g of clusterCells(numCells, (c) => c.x1, RIGHT_EDGE_ALIGN)) {
    if (g.length < need) continue;
    const s = span(g);
    if (columns.some((c) => overlap(s.x0, s.x1, c.x0, c.x1) > 0)) continue;
    if (g.every((c) => isValidHsnSac(c.text))) add('hsn', g);
    else if (g.every((c) => c.text.includes('%') || RATE_SUM.test(c.text))) add('gst', g);
    else if (
      s.x1 <= (columns.find((c) => c.kind === 'description')?.x0 ?? 0) &&
      g.every((c) => isDigits(c.text) && c.text.length <= SERIAL_DIGITS)
    ) {
      add('serial', g);
    } else add('other', g);
  }
  return columns;
}

/**
 * Two percentage columns found without a header (per-line CGST % and SGST % under a header OCR
 * could not read): equal rates on most rows make them the two halves of the GST rate, which the
 * line's rate sums; otherwise the first is the GST rate and the others are not.
 */
function pairGstColumns(columns: Column[], rows: Line[]): void {
  const gst = columns.filter((c) => c.kind === 'gst');
  if (gst.length < 2) return;
  const [a, b] = gst as [Column, Column];
  const rateIn = (line: Line, c: Column) => {
    const ch = chunkLine(line).find((x) => overlap(x.x0, x.x1, c.x0, c.x1) > 0);
    return ch ? parseGstRate(ch.text) : null;
  };
  let both = 0;
  let same = 0;
  for (const line of rows) {
    const va = rateIn(line, a);
    const vb = rateIn(line, b);
    if (va === null || vb === null) continue;
    both++;
    if (va === vb && va > 0) same++;
  }
  if (both > 0 && same >= both * PERCENT_SHARE) {
    a.gstPart = 'cgst';
    b.gstPart = 'sgst';
    for (const c of gst.slice(2)) c.kind = 'other';
  } else for (const c of gst.slice(1)) c.kind = 'other';
}
