import type { BBox, DocumentType, Word } from '../types.ts';
import { readingOrder } from './geometry.ts';
import type { Column } from './header.ts';
import {
  isNumericToken,
  parseGstRate,
  parseMoney,
  parseQuantity,
  repairNumericToken,
  round2,
} from './numbers.ts';
import type { RawRow } from './rows.ts';
import type { ColumnKind } from './vocabulary.ts';

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
  return readingOrder(words)
    .map((l) => l.map((w) => w.text).join(' '))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
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

/** Item codes printed under a description in a smaller font ("EL-03979"): not part of it. */
const ITEM_CODE = /^[A-Z]{1,5}[-/]?[0-9]{3,}[A-Z]?$/;

/**
 * Description of a row: the description cell's sub-lines in reading order, without a trailing
 * item-code line (a lone code token printed below the name in the same cell).
 */
function readDescription(words: Word[]): { text: string; words: Word[] } {
  const sub = readingOrder(words);
  if (sub.length > 1) {
    const last = sub[sub.length - 1] as Word[];
    const rest = sub.slice(0, -1).flat();
    const lastH = Math.max(...last.map((w) => w.y1 - w.y0));
    const restH = Math.max(...rest.map((w) => w.y1 - w.y0));
    if (
      last.length === 1 &&
      ITEM_CODE.test(last[0]?.text ?? '') &&
      (lastH < restH * 0.95 || last[0]?.source === 'ocr')
    ) {
      sub.pop();
    }
  }
  const kept = sub.flat();
  return {
    text: sub
      .map((l) => l.map((w) => w.text).join(' '))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim(),
    words: kept,
  };
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
    if (v !== null && /[0-9]/.test(w.text)) return v;
  }
  return null;
}

/** HSN/SAC: the 4–8 digit code in the cell (OCR letter-for-digit slips repaired). */
function readHsn(words: Word[]): string | null {
  for (const w of words) {
    const t = repairNumericToken(w.text).replace(/[.\s]/g, '');
    if (/^[0-9]{4,8}$/.test(t)) return t;
  }
  return null;
}

/** Unit words of a quantity cell ("48 Nos", "1.00" over "Month"). */
function unitFromQuantityCell(words: Word[]): { text: string; words: Word[] } | null {
  const ws = words.filter((w) => !isNumericToken(w.text) && /[A-Za-z]/.test(w.text));
  if (ws.length === 0) return null;
  return { text: ws.map((w) => w.text).join(' '), words: ws };
}

/**
 * Turn one raw row into contract line fields. Invoice/PO: description, hsnSac, quantity, unit,
 * rate, discount (rupees; a percentage is converted with quantity × rate), amount (taxable value;
 * computed from quantity × rate − discount only when no amount is printed), gstRate (total GST %:
 * CGST + SGST rates summed). GRN: description, hsnSac, unit and the four quantities.
 */
export function readLine(row: RawRow, columns: Column[], type: DocumentType): ReadLine {
  const cells = new Map<number, Word[]>();
  for (const l of row.lines) for (const [i, ws] of l.cells) cells.set(i, [...(cells.get(i) ?? []), ...ws]);
  const cellOf = (i: number) => (i >= 0 ? (cells.get(i) ?? []) : []);
  const values: Record<string, string | number | null> = {};
  const provenance: Record<string, ValueProvenance> = {};
  const set = (field: string, value: string | number | null, words: Word[]) => {
    values[field] = value;
    if (value !== null && words.length > 0) provenance[field] = provenanceOf(row.page, words);
  };

  const descIdx = bestColumn(columns, 'description');
  const desc = readDescription(cellOf(descIdx));
  set('description', desc.text === '' ? null : desc.text, desc.words);

  const hsnWords = cellOf(bestColumn(columns, 'hsn'));
  set('hsnSac', readHsn(hsnWords), hsnWords);

  const unitWords = cellOf(bestColumn(columns, 'unit')).filter((w) => /[A-Za-z]/.test(w.text));
  const qtyIdx = bestColumn(columns, type === 'grn' ? 'received' : 'quantity');
  const qtyUnit = unitFromQuantityCell(cellOf(qtyIdx));
  const unitText = unitWords.length > 0 ? cellText(unitWords) : (qtyUnit?.text ?? null);

  if (type === 'grn') {
    set('unit', unitText, unitWords.length > 0 ? unitWords : (qtyUnit?.words ?? []));
    const q = (kind: ColumnKind) => {
      const ws = cellOf(bestColumn(columns, kind));
      const v = firstQuantity(ws);
      return { value: v?.value ?? null, words: v ? [v.word] : [] };
    };
    const ordered = q('ordered');
    const received = q('received');
    const accepted = q('accepted');
    const rejected = q('rejected');
    set('orderedQuantity', ordered.value, ordered.words);
    set('receivedQuantity', received.value, received.words);
    set('acceptedQuantity', accepted.value, accepted.words);
    set('rejectedQuantity', rejected.value, rejected.words);
    return { values, provenance };
  }

  const qty = firstQuantity(cellOf(qtyIdx));
  set('quantity', qty?.value ?? null, qty ? [qty.word] : []);
  set('unit', unitText, unitWords.length > 0 ? unitWords : (qtyUnit?.words ?? []));
  const rateWords = cellOf(bestColumn(columns, 'rate'));
  const rate = readMoney(rateWords.filter((w) => /[0-9]/.test(w.text)));
  set('rate', rate, rateWords);

  const discIdx = bestColumn(columns, 'discount');
  const discWords = cellOf(discIdx);
  let discount: number | null = null;
  if (discWords.length > 0) {
    const text = cellText(discWords);
    const pct = /%/.test(text) || (columns[discIdx]?.percent ?? false);
    const v = pct ? parseGstRate(text) : readMoney(discWords);
    if (v !== null && pct && qty && rate !== null) discount = round2((qty.value * rate * v) / 100);
    else if (v !== null && !pct) discount = v;
  }
  set('discount', discount, discWords);

  const amountWords = cellOf(bestColumn(columns, 'amount'));
  let amount = readMoney(amountWords);
  if (amount === null && qty && rate !== null) amount = round2(qty.value * rate - (discount ?? 0));
  set('amount', amount, amountWords);

  set('gstRate', readGst(columns, cellOf), []);
  const gstWords = columns.flatMap((c, i) => (c.kind === 'gst' ? cellOf(i) : []));
  if (values.gstRate !== null && gstWords.length > 0) provenance.gstRate = provenanceOf(row.page, gstWords);
  return { values, provenance };
}

/** Total GST % of a row from its rate columns: a total/IGST column, else CGST + SGST. */
function readGst(columns: Column[], cellOf: (i: number) => Word[]): number | null {
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
    const text = cellText(cellOf(i));
    if (!/%/.test(text)) return;
    const key = c.gstPart ?? 'total';
    if (parts[key] == null) parts[key] = parseGstRate(text);
  });
  if (parts.total != null) return parts.total;
  if (parts.igst != null && parts.igst > 0) return parts.igst;
  if (parts.cgst != null || parts.sgst != null) {
    const c = parts.cgst ?? parts.sgst ?? 0;
    const s = parts.sgst ?? parts.cgst ?? 0;
    const sum = c + s;
    if (sum > 0 || parts.igst == null) return Math.round(sum * 1000) / 1000;
  }
  return parts.igst ?? null;
}
