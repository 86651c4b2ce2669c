import { listFieldsOfKind, listLineFields } from '@bahi/contracts/extraction';
import { profileOf } from '../profiles/index.ts';
import type { BBox, DocumentType, PageContent, Word } from '../types.ts';
import { columnDecimalStyles, descriptionLeftEdge, readLine } from './fields.ts';
import { pageLines } from './geometry.ts';
import { type Column, findHeaders, isLineItemHeader, type TableHeader } from './header.ts';
import { completeColumns, synthesizeHeader } from './infer.ts';
import { takeLabelledHsn } from './labelled-codes.ts';
import { wordCount } from './numbers.ts';
import { cleanOcrWords } from './ocr-clean.ts';
import { bodyLines, findContinuation, type RawRow, readPageTable } from './rows.ts';
import { HEADER_SHIFT_SPREAD, INHERIT_OVERLAP, STUB_HEADER_HEIGHT, TAX_SUBROW_WORDS } from './weights.ts';

/** What the table stage returns for one document. */
export interface LineItemsResult {
  /** One object per line item, contract field names only, in document order. */
  lineItems: Array<Record<string, string | number | null>>;
  /** Where each line's values were read; same length as `lineItems`. */
  lineProvenance: Array<Record<string, { page: number; bbox: BBox; source: 'text' | 'ocr' }>>;
  /** The table area on each page (header row to last item row), so header fields can skip it. */
  regions: Array<{ page: number; y0: number; y1: number }>;
}

/**
 * Extract the line-item table of a document from its pages' words (text layer or OCR).
 * On each page the table header is found from column vocabulary, columns are located from the
 * header labels, and rows are read until the table ends (totals, tax rows, amount in words, HSN
 * summary, page footer). Tables that go on over several pages with the header repeated are joined
 * in page order. Lines that carry no quantity at all are dropped (section captions, notes).
 */
export function extractLineItems(pages: PageContent[], type: DocumentType): LineItemsResult {
  const result: LineItemsResult = { lineItems: [], lineProvenance: [], regions: [] };
  const fields = listLineFields(type);
  let finished = false;
  let lastHeader: TableHeader | null = null;
  for (const page of [...pages].sort((a, b) => a.page - b.page)) {
    if (finished) break;
    const lines = pageLines(cleanOcrWords(page.words), page.source);
    let headers = findHeaders(lines, type);
    // No full header on the first table page: accept a partly read one (OCR lost labels) and
    // let the numbers below name the missing columns.
    if (headers.length === 0 && result.lineItems.length === 0) headers = findHeaders(lines, type, true);
    // A table that ran off the previous page without its header repeated here: same columns.
    if (headers.length === 0 && lastHeader) {
      const before = findContinuation(lines, lastHeader.columns);
      const at = lines[before + 1];
      if (before >= -1 && at)
        headers = [
          {
            first: before,
            last: before,
            y0: at.y0,
            y1: at.y0 - STUB_HEADER_HEIGHT,
            columns: lastHeader.columns,
          },
        ];
    }
    for (const [hi, header] of headers.entries()) {
      const end = headers[hi + 1]?.first ?? lines.length;
      if (lastHeader && lastHeader !== header)
        header.columns = inheritColumns(header.columns, lastHeader.columns);
      header.columns = completeColumns(header.columns, bodyLines(lines, header, end), type);
      if (!isLineItemHeader(header.columns, type)) continue;
      const table = readPageTable(page.page, lines, header, end);
      lastHeader = header;
      const styles = columnDecimalStyles(
        table.rows.map((r) => rowCells(r)),
        header.columns,
      );
      const descLeft = descriptionLeftEdge(table.rows, header.columns);
      let read = table.rows.map((row) => readLine(row, header.columns, type, styles, descLeft));
      // A table none of whose rows adds up as printed (its amount column carries tax, or a
      // discount column is unread) gives no ground to repair one figure from the others.
      if (read.some((l) => l.addsUp === false) && !read.some((l) => l.addsUp === true))
        read = table.rows.map((row) => readLine(row, header.columns, type, styles, descLeft, false));
      for (const line of read) addItem(result, line, fields, type);
      result.regions.push({ page: page.page, y0: header.y0, y1: table.y1 });
      if (table.finished) {
        finished = true;
        break;
      }
    }
  }
  if (result.lineItems.length === 0) readHeaderless(pages, type, fields, result);
  normaliseDiscounts(result, type);
  takeLabelledHsn(result.lineItems);
  return result;
}

/**
 * A header repeated on a later page is the same table's: where OCR garbled a label there
 * ("re" for Discount, "Hesiod" for Taxable Amount), the column in the same place on the previous
 * page names it. The pages may sit a few points apart; the shift is measured on the columns both
 * headers name alike.
 */
export function inheritColumns(columns: Column[], previous: Column[]): Column[] {
  const shifts: number[] = [];
  for (const c of columns) {
    if (c.kind === 'other') continue;
    const same = previous.filter((p) => p.kind === c.kind);
    if (same.length === 1) shifts.push(c.x0 - same[0]!.x0);
  }
  if (shifts.length < 2) return columns;
  shifts.sort((a, b) => a - b);
  const shift = shifts[Math.floor(shifts.length / 2)]!;
  if (shifts.some((d) => Math.abs(d - shift) > HEADER_SHIFT_SPREAD)) return columns;
  return columns.map((c) => {
    if (c.kind !== 'other') return c;
    const match = previous.find(
      (p) =>
        p.kind !== 'other' &&
        Math.min(p.x1 + shift, c.x1) - Math.max(p.x0 + shift, c.x0) >
          INHERIT_OVERLAP * Math.min(c.x1 - c.x0, p.x1 - p.x0) &&
        !columns.some((x) => x.kind === p.kind && x.priority >= p.priority),
    );
    return match
      ? { ...c, kind: match.kind, priority: match.priority, gstPart: match.gstPart, percent: match.percent }
      : c;
  });
}

/** Last resort when no page has a readable header: columns from how the rows line up. */
function readHeaderless(
  pages: PageContent[],
  type: DocumentType,
  fields: string[],
  result: LineItemsResult,
): void {
  for (const page of [...pages].sort((a, b) => a.page - b.page)) {
    const lines = pageLines(cleanOcrWords(page.words), page.source);
    const synth = synthesizeHeader(lines, type);
    if (!synth || !isLineItemHeader(synth.columns, type)) continue;
    const at = lines[synth.before + 1];
    const header: TableHeader = {
      first: synth.before,
      last: synth.before,
      y0: at?.y0 ?? 0,
      y1: at ? at.y0 - STUB_HEADER_HEIGHT : 0,
      columns: synth.columns,
    };
    const table = readPageTable(page.page, lines, header, lines.length);
    for (const row of table.rows) addItem(result, readLine(row, header.columns, type), fields, type);
    result.regions.push({ page: page.page, y0: header.y0, y1: table.y1 });
    if (table.finished) return;
  }
}

/** Keep a read row as a line item, its values in contract order, unless it is no item. */
function addItem(
  result: LineItemsResult,
  line: ReturnType<typeof readLine>,
  fields: string[],
  type: DocumentType,
): void {
  const ordered: Record<string, string | number | null> = {};
  for (const f of fields) ordered[f] = line.values[f] ?? null;
  if (!hasQuantity(ordered, type) || isTaxSubRow(ordered) || isNotAnItem(ordered)) return;
  result.lineItems.push(ordered);
  result.lineProvenance.push(line.provenance);
}

/**
 * Rows a table prints that are not goods or services: a banner between asterisks or rules
 * ("***** OPENING STOCK *****", "--- Opening Balance ---"), bank details, a carried-forward total.
 * They have a figure in the amount column but booking them as a line would be wrong.
 */
const NOT_AN_ITEM = [
  /^[*=#~_+-]{2,}[^a-z0-9]*[A-Za-z].*[*=#~_+-]{2,}$/,
  /\b(?:a\/c|account) (?:no|number)\b|\bifsc\b|\bbank (?:name|details|a\/c)\b/i,
  /^(?:total|sub ?-?total|grand total|balance|opening balance|closing balance|carried forward|brought forward|b\/f|c\/f)\b\s*[:.-]?\s*$/i,
];

function isNotAnItem(line: Record<string, string | number | null>): boolean {
  const desc = typeof line.description === 'string' ? line.description.trim() : '';
  return desc !== '' && typeof line.hsnSac !== 'string' && NOT_AN_ITEM.some((p) => p.test(desc));
}

/** A tax head standing where a unit or a description should be. */
const TAX_HEAD = /^(?:add\s*:?\s*)?(?:c|s|i|ut)\.?g\.?s\.?t\b/i;

/**
 * A row that prints an item's taxes under it ("9.00 % | CGST | SGST | 9.00 % | 7,650.00"): its
 * unit or description is a tax head and it names no HSN. It belongs to the item above, not a line.
 */
function isTaxSubRow(line: Record<string, string | number | null>): boolean {
  if (typeof line.hsnSac === 'string') return false;
  const unit = typeof line.unit === 'string' ? line.unit.trim() : '';
  const desc = typeof line.description === 'string' ? line.description.trim() : '';
  return TAX_HEAD.test(unit) || (TAX_HEAD.test(desc) && wordCount(desc) <= TAX_SUBROW_WORDS);
}

/**
 * Whether a row is an item: it has a quantity or amount, or (OCR lost its numbers) a description
 * and an HSN code. Keeping such a row keeps later rows in step.
 */
function hasQuantity(line: Record<string, string | number | null>, type: DocumentType): boolean {
  if (typeof line.description === 'string' && typeof line.hsnSac === 'string') return true;
  if (profileOf(type).lines.kind === 'receipt') {
    return listFieldsOfKind('quantity', type).some((k) => typeof line[k] === 'number');
  }
  return typeof line.quantity === 'number' || typeof line.amount === 'number';
}

/**
 * Zero discounts no cell printed (the row's arithmetic gave them) mean the document gives no
 * discount: the lines say null, as when the column is absent. A "0.00" or "-" printed in a discount
 * column is the document saying zero, and one real discount keeps the zeros.
 */
function normaliseDiscounts(result: LineItemsResult, type: DocumentType): void {
  const lines = result.lineItems;
  if (profileOf(type).lines.kind === 'receipt') return;
  const printed = result.lineProvenance.some((p) => p?.discount);
  if (!printed && lines.length > 0 && lines.every((l) => l.discount === 0 || l.discount === null)) {
    for (const l of lines) l.discount = null;
  }
}

/** A row's words per column, all its lines together. */
function rowCells(row: RawRow): Map<number, Word[]> {
  const cells = new Map<number, Word[]>();
  for (const l of row.lines) for (const [i, ws] of l.cells) cells.set(i, [...(cells.get(i) ?? []), ...ws]);
  return cells;
}
