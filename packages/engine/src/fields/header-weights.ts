/**
 * The tuned weights of the header-field readers (labels.ts, header.ts) in one table: how sure a
 * reading is by where its value stood, and the distances on the page that say which cells belong
 * together. Distances are in page points; "heights" are multiples of the label's line height.
 * Changing one changes predictions: measure on the corpus folds first.
 */

import type { Word } from '../types.ts';

/** How an OCR word's own confidence scales a field read from it: `base + byConf × conf`. */
export interface OcrDoubt {
  base: number;
  byConf: number;
}

/** OCR doubt by kind of reading. */
export const OCR_DOUBT: Readonly<Record<'field' | 'party', OcrDoubt>> = {
  /** A labelled header field or a GSTIN: a misread glyph rarely survives its parser, so doubt is mild. */
  field: { base: 0.85, byConf: 0.15 },
  /** A party's name, address or state: free text that no parser checks, so the words' doubt weighs more. */
  party: { base: 0.8, byConf: 0.2 },
};

/** `score` scaled by the doubt of the least confident OCR word it was read from; text-layer words are sure. */
export function withOcrDoubt(score: number, words: Word[], doubt: OcrDoubt): number {
  const conf = words.reduce((m, w) => Math.min(m, w.conf), 1);
  return score * (words[0]?.source === 'ocr' ? doubt.base + doubt.byConf * conf : 1);
}

/** How sure a label is of its field, by its wording and place (a label hit's `weight`). */
export const LABEL_WEIGHT = {
  /** A field's own wording ("Invoice No."). */
  specific: 1,
  /** A title followed by a number ("TAX INVOICE | BC-42"): a label only when nothing else names the cell. */
  weak: 0.8,
  /** A label wrapped over two or three lines of its cell ("Place of" / "Supply"). */
  stacked: 0.95,
  /** A bare "Date" beside or under a number label: that number's date. */
  dateOfNumber: 0.95,
  /** A bare "Date" with no number label by it: the document's date, most often. */
  bareDate: 0.6,
} as const;

/** How sure a value is by where it stood from its label (multiplies the label's weight). */
export const VALUE_PLACE_SCORE = {
  /** In the label's own cell, after it. */
  inline: 1,
  /** In the next cell on the label's line. */
  rightCell: 0.92,
  /** In the cell below the label. */
  below: 0.85,
  /** A state named in the address block a "Place of Supply" heading heads. */
  stateInColumn: 0.8,
  /** A date run on after a number's value ("7700123 dt. 20/02/2025"). */
  pairedDate: 0.9,
  /** A PO's delivery date read from the first row of a table column. */
  deliveryColumn: 0.7,
} as const;

/** A document number left cut at a separator ("INV/2024-"): read, but not trusted. */
export const CUT_NUMBER_DOUBT = 0.7;

/** Distances that say which cells belong to a label. */
export const LABEL_GEOMETRY = {
  /** Lines under a label searched for its value. */
  belowLines: 5,
  /** An empty band taller than this many heights ends the label's column. */
  belowGapHeights: 3.5,
  /** A value lies no further below its label's line than this many heights, whatever lies between. */
  belowReachHeights: 6,
  /** A cell under a label starting within this of the label's left edge is aligned with it. */
  columnSlack: 15,
  /** A value cell starts no further right of its label than this. */
  rightCellReach: 220,
  /** A cell's wrapped line follows within this many heights. */
  wrapGapHeights: 1.2,
  /** Cells after a date's first piece that may hold the rest of it ("23 | Jan | 2025"). */
  datePieceCells: 2,
  /** A delivery column's label reaches this far either side of its words. */
  deliveryColumnSlack: 12,
  /** Rows under a delivery column's label searched for its first date. */
  deliveryRows: 4,
  /** Characters a label's first line holds at most when it wraps onto the next ("Delivery" / "Schedule"). */
  stackedMaxChars: 25,
  /** Lines under a label's first line that may hold its second, past lines of other columns. */
  stackedLines: 4,
  /** The second line of a stacked label follows within this many heights. */
  stackedGapHeights: 2.5,
  /** A stacked label's lines start, or are centred, within this of each other. */
  stackedSlack: 10,
  /** A number label may stand this many heights above the bare date label that it owns. */
  dateOwnerGapHeights: 3,
  /** A number label above a bare date starts within this of the date label's left edge. */
  dateOwnerSlack: 12,
} as const;
