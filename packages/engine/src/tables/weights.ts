/**
 * The table stage's tuned thresholds and weights, in one table. Lengths are in points (PDF units;
 * OCR pages are scaled to them); "height" is the typical word height of a line; shares are
 * fractions of the rows or cells looked at. Each value was tuned on the development corpus: the
 * comment says what it stands for and why it has that size.
 */

import { PAISA_TOLERANCE } from '../util.ts';

// ── Lines and cells (geometry) ───────────────────────────────────────────────────────────────

/** Word height assumed when a page or line gives none (an empty or degenerate box). */
export const DEFAULT_WORD_HEIGHT = 10;
/** Words of a text-layer line may sit this share of a word height apart vertically. */
export const TEXT_LINE_TOLERANCE = 0.3;
/** OCR boxes hug the glyphs, so caps and descenders scatter more: a looser line tolerance. */
export const OCR_LINE_TOLERANCE = 0.5;
/** Sub-lines of one cell (a wrapped description) are told apart at this share of a word height. */
export const CELL_LINE_TOLERANCE = 0.35;
/** A gap between words narrower than this share of a word height is an ordinary space. */
export const SPACE_GAP_MAX = 0.8;
/** A gap wider than this share of a word height separates two cells of a data line. */
export const CELL_GAP = 0.42;
/** Header labels sit closer together than data cells: a tighter gap cuts them apart. */
export const HEADER_CELL_GAP = 0.38;
/** Never cut a line at a gap narrower than this (points), however small the font. */
export const MIN_CELL_GAP = 2.2;
/** Nor at a gap under this many of the page's typical spaces. */
export const CELL_GAP_SPACES = 1.6;

// ── Header ───────────────────────────────────────────────────────────────────────────────────

/** Distinct strong column words that make a line a table header (two when read only in part). */
export const MIN_STRONG_HEADER_WORDS = 3;
/** A header line is at least this share of known column words. */
export const HEADER_WORD_SHARE = 0.5;
/** Header lines wrapped over 2–3 lines sit less than this share of a word height apart. */
export const HEADER_LINE_GAP = 0.9;
/** A row of sub-labels in cells of its own ("Rate" | "Value") may sit this share of a word height down. */
export const HEADER_SUBROW_GAP = 2;
/** Labels of different lines overlapping by more than this (points) are one stacked label. */
export const LABEL_OVERLAP = 0.5;
/** A qualifier ("Code", "No.") this close (points) after a label belongs to it. */
export const QUALIFIER_GAP = 10;
/** A tax-head group label reaches over sub-labels within this many points of its ends… */
export const GROUP_LABEL_REACH = 25;
/** …or within this share of its own width, whichever is more. */
export const GROUP_LABEL_REACH_SHARE = 0.75;
/** Another table's header row (a GST summary's) has at least this many cells. */
export const OTHER_HEADER_MIN_CELLS = 3;

// ── Rows ─────────────────────────────────────────────────────────────────────────────────────

/** Points of slack left of the description label for text that starts before it. */
export const DESCRIPTION_SLACK = 5;
/** Points of slack between the description and the next column's label. */
export const COLUMN_SLACK = 2;
/** How much (points) a text chunk under no label prefers a text column over a figure column. */
export const TEXT_TO_FIGURE_PENALTY = 15;
/** How far (points) a serial number may stand outside its centred label and still be under it. */
export const SERIAL_SLACK = 6;
/** Totals and tax rows name themselves within their first three words (four with a serial). */
export const END_WORDS_SPAN = 3;
/** A vertical gap of this many word heights ends the table (footers, signatures, notes)… */
export const TABLE_END_GAP_HEIGHTS = 4;
/** …and never less than this many points. */
export const TABLE_END_GAP = 36;
/** Text over this many columns runs across the table: a note, not a cell. */
export const SPANNING_COLUMNS = 3;
/** Body lines column inference looks at, at most (a long table says enough in its first rows). */
export const MAX_BODY_LINES = 80;
/** Vertically centred rows: a split must improve the balance by this much (points) to win. */
export const CENTRING_STEP = 0.01;
/** The dummy header of a continued or header-less table ends this far (points) above its rows. */
export const STUB_HEADER_HEIGHT = 0.01;

// ── Columns inferred from the numbers ────────────────────────────────────────────────────────

/** A number this close (points) to a named column is its own (right-aligned under a narrow label). */
export const NAMED_COLUMN_REACH = 10;
/** A percentage this close (points) to a unit column sits in it. */
export const UNIT_PERCENT_REACH = 6;
/** Right edges of numbers within this many points line up as one column. */
export const RIGHT_EDGE_ALIGN = 6;
/** Left edges of text cells within this many points line up as one column. */
export const LEFT_EDGE_ALIGN = 10;
/** Share of the rows a column of numbers must fill to count (unlabelled or clustered). */
export const COLUMN_ROW_SHARE = 0.5;
/** Share of an unread column's cells that must be numbers to join the role search. */
export const UNNAMED_NUMERIC_SHARE = 0.3;
/** Share of cells that must be percentages (or equal CGST/SGST pairs) to decide a GST column. */
export const PERCENT_SHARE = 0.6;
/** Share of an unread column's cells that must be small whole numbers to make it the serial. */
export const SERIAL_SHARE = 0.8;
/** Beyond this many unlabelled columns the role search is not tried at all. */
export const MAX_UNKNOWN_COLUMNS = 10;
/** Beyond this many, only assignments in the printed order of the roles are tried. */
export const MAX_FREE_ORDER_COLUMNS = 6;
/** GRN quantities balance within this (rounding of three-decimal quantities). */
export const GRN_BALANCE_EPSILON = 0.001;
/** Credit for ordered ≥ received in the role search: a hint, far weaker than a balance. */
export const ORDERED_COVERS_CREDIT = 0.25;
/** Credit for "1 × figure = figure" at no discount: two columns merely holding the same figure. */
export const UNIT_PRODUCT_CREDIT = 0.5;
/** Bonus for roles in their printed order (quantity, rate, amount) among equal scores. */
export const IN_ORDER_BONUS = 0.1;
/** Cost of each role guessed, so fewer guesses win among equal scores. */
export const GUESS_COST = 0.01;
/** Cost of each step a role sits right of its leftmost place: the last tie-break. */
export const LEFTNESS_COST = 1e-4;
/** The role search must explain at least this much (half a row) before it names a column. */
export const MIN_ROLE_SCORE = 0.5;
/** A header-less table's item rows are at most this many points apart… */
export const ITEM_RUN_GAP = 40;
/** …or this many line heights, whichever is more. */
export const ITEM_RUN_GAP_HEIGHTS = 5;
/** An item row of a header-less table has at least this many numbers. */
export const MIN_ITEM_NUMBERS = 3;
/** Letters in a row of a word that makes a description (not a unit or a speck). */
export const NAME_LETTERS = 3;
/** A serial number has at most this many digits. */
export const SERIAL_DIGITS = 3;

// ── Reading the figures of a row ─────────────────────────────────────────────────────────────

/** Quantity × rate − discount equals the amount to a paisa (and float noise)… */
export const ROW_SUM_TOLERANCE = PAISA_TOLERANCE;
/** …plus this share of the amount (rates printed to more decimals than the rupee amount). */
export const ROW_SUM_RELATIVE = 1e-6;
/** An amount printed to the whole rupee may be up to half a rupee off the exact product. */
export const WHOLE_RUPEE_TOLERANCE = 0.5;
/** An item code under a description is printed smaller: under this share of the name's height. */
export const ITEM_CODE_HEIGHT = 0.95;
/** Left-edge specks are at most this many characters ("©", "WN", "12"). */
export const SPECK_CHARS = 3;
/** The descriptions' left edge is measured on at least this many OCR rows. */
export const MIN_EDGE_ROWS = 3;
/** A money column prints two decimals when this share of its OCR cells do. */
export const DECIMAL_STYLE_SHARE = 0.6;
/** A figure of at least this many digits whose separators OCR garbled may be read as paise. */
export const MIN_GARBLED_DIGITS = 3;
/** Scales a quantity may have lost to a dropped decimal point (three, two or one decimals). */
export const QUANTITY_POINT_SCALES = [1000, 100, 10];
/** Scales a rate or amount may have lost to a dropped decimal point (paise, tenths). */
export const MONEY_POINT_SCALES = [100, 10];
/** Edit distances between digit strings are counted up to this (only one slip matters). */
export const DIGIT_DISTANCE_CAP = 3;
/** A figure that reads as a whole number of paise or thousandths does so within this share. */
export const CLEAN_VALUE_EPSILON = 1e-6;
/** GRN quantities compare equal within this (three-decimal quantities). */
export const GRN_EPSILON = 0.0005;
/** Cost of each GRN quantity read another way (a point taken for a grouping comma). */
export const GRN_ALTERNATIVE_COST = 0.5;
/** Units this long are the ones a dropped letter is put back in ("Mr" → Mtr). */
export const SHORT_UNIT_LENGTH = 3;

// ── OCR clean-up and items ───────────────────────────────────────────────────────────────────

/** A number closed by a bracket longer than this is an amount with a border, not "(Roll of 1000)". */
export const BRACKETED_AMOUNT_CHARS = 6;
/** A 2-decimal amount with a stroke glued on is longer than this ("0.00f" and up). */
export const STROKED_AMOUNT_CHARS = 4;
/** The gap left between a number and its unit when a glued word is cut, in character widths. */
export const UNIT_CUT_GAP = 0.3;
/** Repeated header columns may shift by at most this many points from page to page. */
export const HEADER_SHIFT_SPREAD = 8;
/** A label in a repeated header takes the name of the column it overlaps by this share. */
export const INHERIT_OVERLAP = 0.5;
/** A description naming a tax head in at most this many words is a tax sub-row. */
export const TAX_SUBROW_WORDS = 4;
