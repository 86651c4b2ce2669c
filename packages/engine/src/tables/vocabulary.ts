import { editDistance } from '../util.ts';

/**
 * Column vocabulary of Indian line-item tables: what a header label means. Labels are matched on
 * normalised text (lower case, punctuation dropped) after fuzzy-correcting OCR misspellings of
 * known header words, so "Descriptlon" and "Qtv" still classify.
 */

/** What a table column holds. */
export type ColumnKind =
  | 'serial'
  | 'code'
  | 'description'
  | 'hsn'
  | 'quantity'
  | 'unit'
  | 'rate'
  | 'discount'
  | 'amount'
  | 'gst'
  | 'taxAmount'
  | 'ordered'
  | 'received'
  | 'accepted'
  | 'rejected'
  | 'other';

/**
 * Units as Indian invoices commonly print them (the GST UQC codes' everyday spellings): a unit
 * cell OCR slipped on is corrected toward these, and a cell holding one of them is a unit.
 */
export const KNOWN_UNITS: readonly string[] = [
  'Nos',
  'No',
  'Kg',
  'MT',
  'Mtr',
  'Ltr',
  'Pcs',
  'PC',
  'EA',
  'Set',
  'Box',
  'Roll',
  'Coil',
  'Pair',
  'Bag',
  'Jar',
  'Tin',
  'Qtl',
  'Crate',
  'Bucket',
  'Sq.ft',
  'Month',
  'Job',
  'Hrs',
  'Day',
  'Trip',
  'Each',
  'Lot',
  'Dozen',
  'Pkt',
  'Unit',
  'Gm',
  'KL',
  'Cft',
  'Rmt',
  'Sqm',
  'Batch',
  'Ream',
  'Drum',
  'Can',
  'Bottle',
  'Packet',
  'Carton',
  'Bundle',
  'Sheet',
  'Visit',
];

/** A unit word on its own in any printed form: case, dots, plural ("Nos", "KGS", "Sq.ft", "Boxes"). */
export const UNIT_WORD = new RegExp(
  `^(?:${KNOWN_UNITS.map((u) => u.toLowerCase().replaceAll('.', '\\.?')).join('|')})(?:e?s)?$`,
  'i',
);

/** A classified header label. */
export interface LabelClass {
  kind: ColumnKind;
  /** Among several columns of one kind, the higher wins (e.g. "Taxable Value" over "Total"). */
  priority: number;
  /** For `gst`: which head the rate belongs to; CGST + SGST are summed. */
  gstPart?: 'total' | 'cgst' | 'sgst' | 'igst';
  /** For `discount`: the column holds a percentage, not rupees. */
  percent?: boolean;
  /** For `other`: the column names the tax head of each figure beside it ("Tax Type": IGST, CGST). */
  taxType?: boolean;
  /** For `description`: the cell holds the item's HSN/SAC too ("Item name" over "HSN code"). */
  hsnInCell?: boolean;
}

/** Words that occur in table headers. Used for fuzzy correction and to tell header lines from data. */
export const HEADER_WORDS = new Set([
  'sl',
  'slno',
  's',
  'no',
  'sno',
  'sr',
  'srno',
  '#',
  'item',
  'items',
  'code',
  'description',
  'desc',
  'of',
  'goods',
  'particulars',
  'product',
  'products',
  'material',
  'materials',
  'name',
  'services',
  'service',
  'hsn',
  'sac',
  'hsnsac',
  'qty',
  'quantity',
  'qnty',
  'nos',
  'unit',
  'units',
  'uom',
  'per',
  'rate',
  'price',
  'mrp',
  'cost',
  'disc',
  'discount',
  '%',
  'amount',
  'amt',
  'value',
  'taxable',
  'taxble',
  'tax',
  'total',
  'net',
  'gst',
  'igst',
  'cgst',
  'sgst',
  'utgst',
  'cess',
  'ordered',
  'order',
  'po',
  'received',
  'recd',
  'rcvd',
  'accepted',
  'acc',
  'rejected',
  'rej',
  'remarks',
  'bin',
  'location',
  'delivery',
  'schedule',
  'date',
  'rs',
  'inr',
  '₹',
  'batch',
  'other',
  'charges',
  'state',
  'non',
  'advol',
  'nonadvol',
  'line',
  'details',
  'basic',
  'gross',
  'integrated',
  'central',
  'ut',
  'pcs',
  'sub',
  'in',
  'short',
  'excess',
  'accept',
  'reject',
  'qty.',
  'pkgs',
  'packages',
  'mode',
  'make',
  'brand',
  'remark',
  'lot',
  'x',
  'ordqty',
  'pos',
  'uqc',
  'free',
  'billed',
  'mfg',
  'exp',
  'expiry',
]);

/** Header words that are strong evidence of a line-item table header. */
export const STRONG_HEADER_WORDS = new Set([
  'description',
  'particulars',
  'qty',
  'quantity',
  'rate',
  'price',
  'amount',
  'hsn',
  'sac',
  'hsnsac',
  'uom',
  'unit',
  'per',
  'discount',
  'disc',
  'taxable',
  'gst',
  'igst',
  'cgst',
  'sgst',
  'ordered',
  'received',
  'recd',
  'accepted',
  'rejected',
  'value',
  'total',
  'item',
  'goods',
  'product',
  'material',
  'amt',
]);

const FUZZY_TARGETS = [...HEADER_WORDS].filter((w) => w.length >= 4);

/** A token of letters only. */
const LETTERS_ONLY = /^[a-z]+$/;

const SHORT_TARGETS = [...HEADER_WORDS].filter((w) => w.length === 3 && LETTERS_ONLY.test(w));

/** Closest header word within `max` edits, or null. */
function closestHeaderWord(t: string, targets: string[], max: number): string | null {
  let best: string | null = null;
  let bestD = max + 1;
  for (const w of targets) {
    const d = editDistance(t, w, max);
    if (d < bestD) {
      bestD = d;
      best = w;
    }
  }
  return best;
}

/**
 * Normalise one header token: lower case, drop punctuation (keeping `%` and `#`), fix OCR slips
 * ("Descriptlon" → description, "aty" → qty, "LOM" → uom) and split labels OCR glued together
 * ("UnitPrice" → "unit price"). The result may hold two words.
 */
export function normaliseHeaderToken(token: string): string {
  const cached = TOKEN_CACHE.get(token);
  if (cached !== undefined) return cached;
  const out = normaliseUncached(token);
  // Bounded: the same header and data words recur on every page and document.
  if (TOKEN_CACHE.size > 50_000) TOKEN_CACHE.clear();
  TOKEN_CACHE.set(token, out);
  return out;
}

const TOKEN_CACHE = new Map<string, string>();

/** The capital letter OCR most often reads as each digit in header type. */
const LOOKALIKE_LETTER: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '5': 's',
  '6': 'g',
  '8': 'b',
  '9': 'g',
};

function normaliseUncached(token: string): string {
  const t = token
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9%#₹]/g, '');
  // OCR reads a lone "%" in a header as "9%" or "0%".
  if (/^[0-9]%$/.test(t)) return '%';
  if (t === '' || HEADER_WORDS.has(t) || t.length < 3) return t;
  if (/[a-z]/.test(t) && /[0-9]/.test(t)) {
    // Digits OCR read for look-alike capitals in a header word ("16ST" for IGST).
    const letters = t.replace(/[015689]/g, (d) => LOOKALIKE_LETTER[d] ?? d);
    if (HEADER_WORDS.has(letters)) return letters;
  }
  if (t.length === 3) {
    // Three letters: only a same-length substitution ("aty" → qty), never a different word.
    if (!LETTERS_ONLY.test(t)) return t;
    const c = SHORT_TARGETS.find(
      (w) => editDistance(t, w, 1) === 1 && [...w].filter((ch, i) => ch === t[i]).length === 2,
    );
    return c ?? t;
  }
  for (let k = 2; k <= t.length - 2; k++) {
    const a = t.slice(0, k);
    const b = t.slice(k);
    if (HEADER_WORDS.has(a) && HEADER_WORDS.has(b) && a.length >= 2 && b.length >= 2) return `${a} ${b}`;
  }
  // OCR misspellings: one edit for short words, two for long ones.
  const max = t.length >= 8 ? 2 : 1;
  return closestHeaderWord(t, FUZZY_TARGETS, max) ?? closestOfMergedGlyphs(t, max) ?? t;
}

/** Two glyphs OCR reads as one in small or blurred type: "ri" as "n", "rn" as "m". */
const MERGED_GLYPHS: Array<[string, string]> = [
  ['n', 'ri'],
  ['m', 'rn'],
];

/** The header word a token is, once one glyph OCR merged from two is split back ("descnpton"). */
function closestOfMergedGlyphs(t: string, max: number): string | null {
  for (const [merged, pair] of MERGED_GLYPHS)
    for (let i = t.indexOf(merged); i >= 0; i = t.indexOf(merged, i + 1)) {
      const found = closestHeaderWord(t.slice(0, i) + pair + t.slice(i + 1), FUZZY_TARGETS, max);
      if (found) return found;
    }
  return null;
}

/** Normalise a whole label into space-separated header tokens. */
export function normaliseLabel(text: string): string {
  return text
    .replace(/([a-z])\.([a-z])/gi, '$1 $2')
    .replace(/([a-z])%/gi, '$1 %')
    .split(/[\s/|()+:-]+/)
    .map(normaliseHeaderToken)
    .filter((t) => t !== '')
    .join(' ');
}

export const TAX_WORD = /\b(?:cgst|sgst|utgst|igst|gst|tax|vat|integrated|central|state ut|ut)\b/;

/** Whole labels that only name a tax head ("IGST", "Integrated Tax"), spanning its sub-columns. */
const TAX_GROUP_LABELS = new Set([
  'cgst',
  'sgst',
  'utgst',
  'igst',
  'gst',
  'integrated tax',
  'central tax',
  'state tax',
  'state ut tax',
  'ut tax',
  'sgst utgst',
  'tax',
]);

/** Whether a label is only a tax-head name ("IGST", "CGST", "Integrated Tax") spanning sub-columns. */
export function isTaxGroupLabel(norm: string): boolean {
  return TAX_GROUP_LABELS.has(norm);
}

function gstPartOf(norm: string): 'total' | 'cgst' | 'sgst' | 'igst' {
  if (/\b(?:igst|integrated)\b/.test(norm)) return 'igst';
  if (/\b(?:cgst|central)\b/.test(norm)) return 'cgst';
  if (/\b(?:sgst|utgst)\b/.test(norm) || /\b(?:state|ut) tax\b/.test(norm)) return 'sgst';
  return 'total';
}

/** Whole labels, by what they name: a label equal to one of these is that column and no other. */
const WHOLE_LABELS = {
  item: new Set(['item', 'items', 'material', 'materials', 'item details']),
  count: new Set(['nos', ...['units', 'pcs', 'items', 'packages', 'pkgs'].map((w) => `no of ${w}`)]),
  unit: new Set(['uom', 'uqc', 'um', 'unit', 'units', 'per', 'unit of measure', 'unit of measurement']),
  serial: new Set([
    's no',
    'sno',
    'slno',
    'sl no',
    'sl',
    'sr',
    'sr no',
    'srno',
    's',
    '#',
    'no',
    'item no',
    'item #',
    'line',
    'line no',
    's n',
    'pos',
  ]),
};

/** A price with the tax in it ("Rate (Incl. of Tax)"; "Ind." and "INR" are OCR's readings of "Incl."). */
const TAX_INCLUSIVE = / (?:incl|inclusive|including|inc|ind|inr) (?:\S+ )?(?:tax|taxes|gst) /;

/** Classify a normalised header label (see {@link normaliseLabel}). */
export function classifyLabel(norm: string): LabelClass {
  const words = new Set(norm.split(' '));
  /** Whether the label holds one of these (space-separated) words. */
  const has = (list: string) => list.split(' ').some((w) => words.has(w));
  const qtyish = has('qty quantity qnty ordqty');
  // "Description"/"Particulars" name the item column whatever OCR made of the words around them.
  if (has('description particulars') && !qtyish) return { kind: 'description', priority: 2 };
  if (has('ordered ordqty') || (has('order po ord') && qtyish)) return { kind: 'ordered', priority: 1 };
  if (has('received recd rcvd recvd receipt')) return { kind: 'received', priority: 1 };
  if (has('accepted accept acc approved')) return { kind: 'accepted', priority: 1 };
  if (has('rejected reject rej rejection')) return { kind: 'rejected', priority: 1 };
  // "Item name" stacked over "HSN code" in one cell (receipts): the item, with its code under it.
  if (has('hsn sac hsnsac') && has('item name product goods description particulars') && !qtyish)
    return { kind: 'description', priority: 2, hsnInCell: true };
  if (has('hsn sac hsnsac')) return { kind: 'hsn', priority: 1 };
  if (has('disc discount'))
    return { kind: 'discount', priority: 1, percent: has('%') && !has('amt amount rs') };
  if (has('taxable taxble')) return { kind: 'amount', priority: 5 };
  // "Tax Type" holds the head's name (IGST / CGST / SGST) beside each figure: no figure of its own.
  if (has('type')) return { kind: 'other', priority: 0, taxType: TAX_WORD.test(norm) };
  if (TAX_WORD.test(norm) && !has('description particulars goods')) {
    if (has('cess') && !has('gst cgst sgst igst utgst')) return { kind: 'other', priority: 0 };
    // A tax-inclusive price is no column of the contract's.
    if (has('rate price mrp') && TAX_INCLUSIVE.test(` ${norm} `)) return { kind: 'other', priority: 0 };
    if (has('% rate')) return { kind: 'gst', priority: 1, gstPart: gstPartOf(norm) };
    return { kind: 'taxAmount', priority: 0, gstPart: gstPartOf(norm) };
  }
  if (has('description desc particulars product products goods services service name')) {
    return { kind: 'description', priority: has('description particulars') ? 2 : 1 };
  }
  if (has('code part')) return { kind: 'code', priority: 1 };
  if (WHOLE_LABELS.item.has(norm)) return { kind: 'description', priority: 1 };
  if (has('short excess free balance pending')) return { kind: 'other', priority: 0 };
  if (qtyish || WHOLE_LABELS.count.has(norm)) return { kind: 'quantity', priority: 1 };
  if (has('rate price mrp cost')) return { kind: 'rate', priority: 1 };
  if (WHOLE_LABELS.unit.has(norm)) return { kind: 'unit', priority: 1 };
  if (has('amount amt value total net')) {
    const priority = has('net') ? 4 : has('amount amt') ? 3 : has('value') ? 2 : 1;
    return { kind: 'amount', priority };
  }
  if (WHOLE_LABELS.serial.has(norm)) return { kind: 'serial', priority: 1 };
  return { kind: 'other', priority: 0 };
}
