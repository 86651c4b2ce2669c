/**
 * The tuned weights of the party readers (parties.ts, party-gstins.ts) in one table: how sure a
 * party's name, address, state and GSTIN are by how they were read, and the distances on the page
 * that say which lines make one party block. Distances are in page points; "heights" are multiples
 * of a line's height. Changing one changes predictions: measure on the corpus folds first.
 */

/** How sure a party field is by how it was read, before OCR doubt. */
export const PARTY_SCORE = {
  /** The name at the head of a party block. */
  name: 0.9,
  /** The address lines of a party block. */
  address: 0.85,
  /** A state printed in a block's "State:" row or named in its address. */
  state: 0.85,
  /** A GSTIN that passes its check character as printed. */
  gstin: 1,
  /** A GSTIN that passes its check character after an OCR repair: evidence, not a printed fact. */
  repairedGstin: 0.75,
  /** A GSTIN-shaped code that fails its check character: kept so the checks can report it. */
  failingGstin: 0.5,
  /** The issuer's name under a "For," sign-off at the foot of the document. */
  signedOff: 0.8,
  /** The business named under a letter's closing ("Regards"). */
  closing: 0.7,
  /** A buyer's block under the letterhead with no heading: only its place says whose it is. */
  unheaded: 0.7,
} as const;

/** How sure a GSTIN found anywhere on the page is, by its reading, before its party is weighed. */
export const GSTIN_READING_SCORE = {
  valid: 0.95,
  repaired: 0.75,
  failing: 0.5,
  /** The delivery site's GSTIN taken as a PO's buyer's: a rule, not a label. */
  buyersSite: 0.8,
} as const;

/** Distances that say which lines and cells make one party block. */
export const BLOCK_GEOMETRY = {
  /** A line of the block starts within this of the block's left edge. */
  columnSlack: 14,
  /** A cell starting within this of a neighbouring column's left edge belongs to that column. */
  edgeSlack: 4,
  /** A line height is at least this, whatever OCR's box says. */
  minLineHeight: 4,
  /** A gap wider than this many heights on a line parts two cells (a neighbouring box). */
  cellGapHeights: 3,
  /** A gap taller than this many heights ends the block. */
  blockGapHeights: 2.2,
  /** Lines a block holds at most. */
  maxLines: 12,
  /** A row label's value cell starts no further right of it than this. */
  rowValueReach: 120,
  /** A wrapped value starts within this of its row's value. */
  valueAlignSlack: 4,
  /** A label at a "label | value" block's label column starts within this of it... */
  labelColumnSlack: 10,
  /** ...and that column stands at least this far from the values' column. */
  labelColumnApart: 20,
  /** A heading ending further than this right of its column's left edge may head a block set flush right. */
  flushRightMinWidth: 40,
  /** Lines of a flush-right block end within this of the heading's right edge... */
  flushRightSlack: 8,
  /** ...and start no further left of the column than this. */
  flushRightReach: 200,
  /** Letters or digits a flush-right line needs: fewer is a stray mark (an OCR'd colon or rule). */
  flushRightMinChars: 3,
  /** A letterhead's next line is centred within this of its first. */
  letterheadCentreSlack: 25,
  /** Marks this far left of the column (a box edge read as "3" or "|") belong to no cell of the block. */
  leftMarkMargin: 20,
  /** A heading's first line ends a block when shorter than this: a title, not a name. */
  titleMaxChars: 40,
  /** A value cell beside a party heading starts no further right than this. */
  headingValueReach: 160,
} as const;

/** What on a line says a table has started under a party block. */
export const TABLE_START = {
  /** Cells of the block's own column on one line: a table row. */
  ownCells: 4,
  /** Cells of a box beside the block, of which figures: a table row. */
  besideCells: 3,
  besideFigures: 2,
  /** Cells beside a serial number ("1", "2.") : a line item. */
  serialBesideCells: 2,
} as const;

/** How a block's lines are told apart: a name's, an address's. */
export const NAME_LINES = {
  /** Lines a party's name wraps onto at most. */
  max: 3,
  /** A letterhead name's next line is the same type size within this. */
  sameSizeSlack: 0.6,
  /** A letterhead name is set this many times larger than the block's body. */
  largerThanBody: 1.2,
} as const;

/** Where a block's first line may start under a heading centred over it, or under a short heading set one tab in. */
export const UNDER_HEADING = {
  /** A short heading's block may be indented up to this far past the heading's right edge... */
  indentPastEnd: 30,
  /** ...but never further than this past its left edge. */
  indentPastStart: 60,
  /** The block may start this far left of a centred heading. */
  leftReach: 80,
} as const;

/** What picks the issuer's letterhead at the top of page 1. */
export const LETTERHEAD = {
  /** The letterhead stands in this top share of the page. */
  topShare: 0.35,
  /** A cell beside a party heading ends at least this far left of it to be a block of its own. */
  besideHeadingGap: 10,
  /** Characters a letterhead line needs. */
  minChars: 4,
  /** Share of a name's characters that are letters: less is OCR noise. */
  minLetterShare: 0.6,
  /** Mean OCR confidence a scanned letterhead line needs. */
  minConf: 0.6,
  /** A text-layer line is the letterhead when taller than the best so far by this. */
  tallerBy: 0.5,
  /** A later scanned line wins only when this many times taller (a big name under a small tagline). */
  muchTaller: 1.4,
  /** Lines under a name searched for its address. */
  addressLines: 2,
  /** Those lines follow within this many heights of the line above. */
  addressGapHeights: 2.2,
  /** An address line starts within this many of the name's heights of its left edge. */
  addressIndentHeights: 4,
} as const;

/** What finds the issuer's name in a signature block or a letter's closing. */
export const SIGN_OFF = {
  /** Lines under "for NAME" that may hold signature wording. */
  signatoryLines: 6,
  /** The name under "For," starts within this of it. */
  alignSlack: 40,
  /** It follows within this many heights. */
  gapHeights: 2.5,
  /** Letters a signed-off name needs... */
  minLetters: 3,
  /** ...and the share of its characters they make. */
  minLetterShare: 0.7,
  /** Lines under a letter's closing searched for the business. */
  closingLines: 5,
} as const;

/** When two readings are one name. */
export const SAME_NAME = {
  /** Characters each needs to be compared at all. */
  minChars: 3,
  /** One OCR slip allowed per this many characters. */
  charsPerSlip: 8,
} as const;

/** When an address names a state. */
export const STATE_IN_ADDRESS = {
  /** The state is among the last this many comma-separated parts of an address line. */
  lastParts: 3,
  /** A state the party's GSTIN names may be misspelt by one slip per this many letters. */
  lettersPerSlip: 5,
} as const;

/** When a company form word in a scanned name was misread. */
export const MISREAD_FORM = {
  /** Slips from "Private" / "Limited" still read as that word misread (a third makes another word). */
  maxSlips: 2,
} as const;
