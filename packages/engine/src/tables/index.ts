import type { BBox, DocumentType, PageContent, Word } from '../types.ts';
import { columnDecimalStyles, readLine } from './fields.ts';
import { groupLines } from './geometry.ts';
import { findHeaders, isLineItemHeader, type TableHeader } from './header.ts';
import { completeColumns, synthesizeHeader } from './infer.ts';
import { cleanOcrWords } from './ocr-clean.ts';
import { bodyLines, findContinuation, type RawRow, readPageTable } from './rows.ts';

/** What the table stage returns for one document. */
export interface LineItemsResult {
  /** One object per line item, contract field names only, in document order. */
  lineItems: Array<Record<string, string | number | null>>;
  /** Where each line's values were read; same length as `lineItems`. */
  lineProvenance: Array<Record<string, { page: number; bbox: BBox; source: 'text' | 'ocr' }>>;
  /** The table area on each page (header row to last item row), so header fields can skip it. */
  regions: Array<{ page: number; y0: number; y1: number }>;
}

const INVOICE_FIELDS = ['description', 'hsnSac', 'quantity', 'unit', 'rate', 'discount', 'amount', 'gstRate'];
const GRN_FIELDS = [
  'description',
  'hsnSac',
  'unit',
  'orderedQuantity',
  'receivedQuantity',
  'acceptedQuantity',
  'rejectedQuantity',
];

/**
 * Extract the line-item table of a document from its pages' words (text layer or OCR).
 * On each page the table header is found from column vocabulary, columns are located from the
 * header labels, and rows are read until the table ends (totals, tax rows, amount in words, HSN
 * summary, page footer). Tables that go on over several pages with the header repeated are joined
 * in page order. Lines that carry no quantity at all are dropped (section captions, notes).
 */
export function extractLineItems(pages: PageContent[], type: DocumentType): LineItemsResult {
  const result: LineItemsResult = { lineItems: [], lineProvenance: [], regions: [] };
  const fields = type === 'grn' ? GRN_FIELDS : INVOICE_FIELDS;
  let finished = false;
  let lastHeader: TableHeader | null = null;
  for (const page of [...pages].sort((a, b) => a.page - b.page)) {
    if (finished) break;
    // OCR boxes hug the glyphs (no line spacing), so caps and descenders scatter their centres
    // more than text-layer boxes do: a looser line tolerance.
    const lines = groupLines(cleanOcrWords(page.words), page.source === 'ocr' ? 0.5 : 0.3);
    let headers = findHeaders(lines, type);
    // No full header on the first table page: accept a partly read one (OCR lost labels) and
    // let the numbers below name the missing columns.
    if (headers.length === 0 && result.lineItems.length === 0) headers = findHeaders(lines, type, true);
    // A table that ran off the previous page without its header repeated here: same columns.
    if (headers.length === 0 && lastHeader) {
      const before = findContinuation(lines, lastHeader.columns);
      const at = lines[before + 1];
      if (before >= -1 && at)
        headers = [{ first: before, last: before, y0: at.y0, y1: at.y0 - 0.01, columns: lastHeader.columns }];
    }
    for (const [hi, header] of headers.entries()) {
      const end = headers[hi + 1]?.first ?? lines.length;
      header.columns = completeColumns(header.columns, bodyLines(lines, header, end), type);
      if (!isLineItemHeader(header.columns, type)) continue;
      const table = readPageTable(page.page, lines, header, end);
      lastHeader = header;
      const styles = columnDecimalStyles(
        table.rows.map((r) => rowCells(r)),
        header.columns,
      );
      for (const row of table.rows) {
        const line = readLine(row, header.columns, type, styles);
        const ordered: Record<string, string | number | null> = {};
        for (const f of fields) ordered[f] = line.values[f] ?? null;
        if (!hasQuantity(ordered, type)) continue;
        result.lineItems.push(ordered);
        result.lineProvenance.push(line.provenance);
      }
      result.regions.push({ page: page.page, y0: header.y0, y1: table.y1 });
      if (table.finished) {
        finished = true;
        break;
      }
    }
  }
  if (result.lineItems.length === 0) readHeaderless(pages, type, fields, result);
  normaliseDiscounts(result.lineItems, type);
  return result;
}

/** Last resort when no page has a readable header: columns from how the rows line up. */
function readHeaderless(
  pages: PageContent[],
  type: DocumentType,
  fields: string[],
  result: LineItemsResult,
): void {
  for (const page of [...pages].sort((a, b) => a.page - b.page)) {
    const lines = groupLines(cleanOcrWords(page.words), page.source === 'ocr' ? 0.5 : 0.3);
    const synth = synthesizeHeader(lines, type);
    if (!synth || !isLineItemHeader(synth.columns, type)) continue;
    const at = lines[synth.before + 1];
    const header: TableHeader = {
      first: synth.before,
      last: synth.before,
      y0: at?.y0 ?? 0,
      y1: at ? at.y0 - 0.01 : 0,
      columns: synth.columns,
    };
    const table = readPageTable(page.page, lines, header, lines.length);
    for (const row of table.rows) {
      const line = readLine(row, header.columns, type);
      const ordered: Record<string, string | number | null> = {};
      for (const f of fields) ordered[f] = line.values[f] ?? null;
      if (!hasQuantity(ordered, type)) continue;
      result.lineItems.push(ordered);
      result.lineProvenance.push(line.provenance);
    }
    result.regions.push({ page: page.page, y0: header.y0, y1: table.y1 });
    if (table.finished) return;
  }
}

/**
 * Whether a row is an item: it has a quantity or amount, or (OCR lost its numbers) a description
 * and an HSN code. Keeping such a row keeps later rows in step.
 */
function hasQuantity(line: Record<string, string | number | null>, type: DocumentType): boolean {
  if (typeof line.description === 'string' && typeof line.hsnSac === 'string') return true;
  if (type === 'grn') {
    return ['orderedQuantity', 'receivedQuantity', 'acceptedQuantity'].some(
      (k) => typeof line[k] === 'number',
    );
  }
  return typeof line.quantity === 'number' || typeof line.amount === 'number';
}

/**
 * A discount column that is zero on every line means the document gives no discount: the lines
 * say null (not printed), as when the column is absent. One real discount keeps the zeros.
 */
function normaliseDiscounts(lines: Array<Record<string, string | number | null>>, type: DocumentType): void {
  if (type === 'grn') return;
  if (lines.length > 0 && lines.every((l) => l.discount === 0 || l.discount === null)) {
    for (const l of lines) l.discount = null;
  }
}

/** A row's words per column, all its lines together. */
function rowCells(row: RawRow): Map<number, Word[]> {
  const cells = new Map<number, Word[]>();
  for (const l of row.lines) for (const [i, ws] of l.cells) cells.set(i, [...(cells.get(i) ?? []), ...ws]);
  return cells;
}
