import { phraseRegex, phraseRegexes } from '../phrases.ts';
import type { DocumentType } from '../types.ts';

/**
 * Label vocabularies for header fields. Patterns run against a segment's text normalised by
 * `normalizeLabelText` (lower case, single spaces, curly quotes straightened) and must match at
 * its start. They describe how Indian documents word a label in general (Tally, SAP, e-invoice
 * prints, small-business templates), never one vendor's layout. Most are phrases in the notation
 * of `../phrases.ts` ("[tax]? invoice~{no}"); a regex is left where a label is an OCR misreading
 * or a mark no phrase spells.
 */

/** How a value is recognised and normalised. */
export type ValueKind =
  | 'docno'
  | 'date'
  | 'money'
  | 'gstin'
  | 'state'
  | 'text'
  | 'irn'
  | 'ack'
  | 'eway'
  | 'vehicle'
  | 'currency';

/** One header field and the labels that introduce it. */
export interface FieldSpec {
  field: string;
  kind: ValueKind;
  labels: RegExp[];
  /** For number fields: the field that a bare "Date"/"Dated" next to or under this label fills. */
  dateField?: string;
  /**
   * Wordings that name the field less surely (a title followed by its number: "INVOICE X-7",
   * "Purchase Order 4500012"): read like labels, at a lower weight than any of `labels`.
   */
  weakLabels?: RegExp[];
}

/** A document title directly followed by a number-like token (one code holding a digit: "X-7", "KT/PO/26-27/208"). */
const TITLE_THEN_NUMBER = String.raw`(?= ?[#:-]? ?[a-z0-9/_.-]*\d)`;

/**
 * Parts the label phrases share (notation: `../phrases.ts`): how a number label and a date label
 * end ("Invoice No.", "Bill #", "PO Ref", "Order Dt.").
 */
const PARTS = {
  no: '[no|nos|number|num|#|ref|reference|id].',
  date: '[date|dt].',
} as const;

/** The RegExps of label phrases, in order (the first that matches names the label). */
function say(...phrases: string[]): RegExp[] {
  return phraseRegexes(phrases, { parts: PARTS });
}

/** Lower-case, collapse whitespace, straighten quotes: the form label patterns are written for. */
export function normalizeLabelText(text: string): string {
  return (
    text
      .replace(/[\u2018\u2019\u2032`]/g, "'")
      // OCR spaces a possessive apart ("Buyer' s Order No"): the label still says "Buyer's".
      .replace(/(?<=[A-Za-z]) ?' (?=s\b)/g, "'")
      .replace(/[\u2013\u2014]/g, '-')
      // OCR's euro and cent signs for e and c ("€-Way Bill No.").
      .replaceAll('€', 'e')
      .replaceAll('¢', 'c')
      .replace(/\s+/g, ' ')
      .trim()
      .split(' ')
      // A capital I read as a lower-case l: no word starts "ln" ("lnvoice To").
      .map((w) => (w.startsWith('ln') ? `I${w.slice(1)}` : w))
      .join(' ')
      .toLowerCase()
  );
}

const VEHICLE: FieldSpec = {
  field: 'vehicleNumber',
  kind: 'vehicle',
  labels: [
    ...say(
      '[motor|transport]? vehicle [no|number|[reg|registration] [no]?].',
      '[truck|lorry|vehicle|veh.]~[no|#].',
    ),
    // OCR's misreads of "Vehicle Number" on scans ("Vehlcle No", "Vehicte Humber").
    /^veh[a-z]{3,4} (?:no|[nh]umber)\b\.?/,
    ...say('[motor|transport]? vehicle !type*'),
  ],
};

const PLACE_OF_SUPPLY: FieldSpec = {
  field: 'placeOfSupply',
  kind: 'state',
  labels: say('[place|state] of supply', 'pos', 'supply [place|state]'),
};

const CURRENCY: FieldSpec = { field: 'currency', kind: 'currency', labels: say('currency') };

/** A bare date label whose meaning depends on the number label beside or above it. */
// OCR reads the t of "Dated" as an l in small type ("Daled").
export const GENERIC_DATE = phraseRegex('[dated|daled|date|dt].');

const INVOICE: FieldSpec[] = [
  {
    field: 'documentNumber',
    kind: 'docno',
    dateField: 'documentDate',
    labels: say(
      '[tax|gst|sales|commercial|retail]? invoice~{no}',
      '[inv.|bill|document|doc.|voucher|vch.|serial]~{no}',
      '[tax]? invoice [no.]? [&|and] date',
      // The GST invoice rules' own words: "Serial No. of Invoice".
      'serial.~{no}~of [the]? [tax]? invoice',
    ),
    weakLabels: [new RegExp(`^(?:tax )?invoice${TITLE_THEN_NUMBER}`)],
  },
  {
    field: 'documentDate',
    kind: 'date',
    labels: say(
      '[tax]? [invoice|inv.|bill|document|doc.|voucher]~{date}',
      'date of [invoice|issue|bill]',
      'issue date',
    ),
  },
  {
    field: 'poNumber',
    kind: 'docno',
    dateField: 'poDate',
    labels: say(
      "[buyer's|customer's|your]? [purchase]? order {no}",
      "[buyer's|customer's]? p.o.~{no}",
      "buyer's order",
      "[buyer's]? p.o. [no.]? [&|and] date",
    ),
  },
  {
    field: 'poDate',
    kind: 'date',
    labels: say("[buyer's|customer's]? [p.o.|purchase order|order]~{date}"),
  },
  { field: 'dueDate', kind: 'date', labels: say('[payment]? due [date|on|by]?', 'pay by') },
  PLACE_OF_SUPPLY,
  { field: 'irn', kind: 'irn', labels: say('irn', 'invoice reference number') },
  {
    field: 'ackNumber',
    kind: 'ack',
    dateField: 'ackDate',
    labels: say('[ack|acknowledgement|acknowledgment].~[no|number].'),
  },
  { field: 'ackDate', kind: 'date', labels: say('[ack|acknowledgement|acknowledgment].~{date}') },
  {
    field: 'ewayBillNumber',
    kind: 'eway',
    // OCR drops the second l of "Bill" ("E-Way Bil No").
    labels: say('[e-way~[bil|bill]|ewb] [no|number].', 'e-way~[bil|bill]'),
  },
  VEHICLE,
  CURRENCY,
];

const PO: FieldSpec[] = [
  {
    field: 'documentNumber',
    kind: 'docno',
    dateField: 'documentDate',
    labels: say(
      // Tally prints a purchase order's number as its "Voucher No.".
      '[purchase order|p.o.|order|document|doc.|voucher|vch.]~{no}',
      '[purchase order|p.o.] [no.]? [&|and] date',
    ),
    weakLabels: [new RegExp(`^purchase order${TITLE_THEN_NUMBER}`)],
  },
  {
    field: 'documentDate',
    kind: 'date',
    labels: say('[purchase order|p.o.|order|document|doc.]~{date}', 'date of [order|issue]'),
  },
  {
    field: 'deliveryDate',
    kind: 'date',
    labels: phraseRegexes(
      [
        '[delivery|dispatch|despatch|supply] [date|schedule|by|on|due|before]',
        '[expected|required|requested] [delivery]? [date|by]',
        'expected delivery',
        '[deliver|delivery] by',
        // SAP item text: "Scheduled Del Dt:14.07.2026".
        '[sched|schedule|scheduled]. [del|delivery|dely].~[dt|date].',
      ],
      { numbered: true },
    ),
  },
  {
    field: 'paymentTerms',
    kind: 'text',
    labels: [
      ...phraseRegexes(['[payment|pay.] [term|terms]'], { numbered: true }),
      // A numbered condition: "4. Payment :- 45 Days Credit".
      /^(?:\d+\.\s*)?payment\b(?=\s*:)/,
      ...phraseRegexes(['[mode/]?terms of payment', 'credit terms'], { numbered: true }),
    ],
  },
  PLACE_OF_SUPPLY,
  CURRENCY,
];

const GRN: FieldSpec[] = [
  {
    field: 'documentNumber',
    kind: 'docno',
    dateField: 'documentDate',
    labels: say(
      '[g.r.n.|m.r.n.|m.i.r.|g.i.n.|goods receipt [note]?|goods received note|material receipt [note]?|receipt|inward|grn/mrn|document|doc.]~{no}',
    ),
  },
  {
    field: 'documentDate',
    kind: 'date',
    labels: say(
      '[g.r.n.|m.r.n.|receipt|inward|document|doc.]~{date}',
      'date of receipt',
      'received [on|date]',
    ),
  },
  {
    field: 'poNumber',
    kind: 'docno',
    dateField: 'poDate',
    labels: say(
      '[p.o.|purchase order|order]~{no}',
      'purchase order !date*',
      '[p.o.|purchase order] [no.]? [&|and] date',
    ),
  },
  { field: 'poDate', kind: 'date', labels: say('[p.o.|purchase order|order]~{date}') },
  {
    field: 'invoiceNumber',
    kind: 'docno',
    dateField: 'invoiceDate',
    labels: say(
      "[supplier's|vendor's|party's]? [invoice|inv.|bill|[delivery]? challan|d.c.]~{no}",
      "[supplier's|vendor's]? [delivery challan|challan|supplier's invoice|vendor invoice]~![date|dt]*",
    ),
  },
  {
    field: 'invoiceDate',
    kind: 'date',
    labels: say("[supplier's|vendor's|party's]? [invoice|inv.|bill|[delivery]? challan|d.c.]~{date}"),
  },
  VEHICLE,
  CURRENCY,
];

/** The header-field vocabulary of a document type (its profile holds it: `profileOf(type).fieldSpecs`). */
export function fieldSpecsOf(type: DocumentType): FieldSpec[] {
  return type === 'po' ? PO : type === 'grn' ? GRN : INVOICE;
}

/** What a party heading may add after its role word ("Buyer Details", "Supplier Name"). */
const ROLE_SUFFIX = '[detail|details|name|address|party|info|information]?';

/** Labels that introduce a party block, by role. Consignee / ship-to is recognised to be skipped. */
export const PARTY_LABELS = {
  buyer: say(
    // Not a possessive or a reference of the buyer's ("Buyer's Order No", "Customer Code").
    `[details of [the]?]? [buyer|recipient|receiver|customer|client] ${ROLE_SUFFIX}!'s*~![order|po|ref|code|id|gstin]`,
    '[bill|billed]-to',
    // "Billing & Shipping Address" names one block: the buyer's, delivered to its own address.
    'billing [[&|and] shipping]? [address|details]',
    '[issued|sold] to',
    'name of [the]? [buyer|recipient|customer]',
    'invoice [to|address]',
  ),
  /** The other party, addressed by the issuer: the buyer of an invoice, the supplier of a PO or GRN. */
  counterparty: [
    ...say("party [name|details]?!'s*~![order|po|gstin|code]"),
    /^m\/s\.?(?:\s|$)/,
    // OCR reads the comma of "To," as a dot or semicolon.
    /^to[,.;]?$/,
    ...say('to:'),
  ],
  vendor: say(
    `[details of [the]?]? [supplier|seller|vendor|from] ${ROLE_SUFFIX}!'s*~![code|id|no|ref|invoice|inv|gstin|pan]`,
    'received from',
    // Marketplace and SaaS prints: "Sold By : <seller>", "Billed By".
    '[sold|billed] by',
    'name of [the]? [supplier|seller|vendor]',
  ),
  shipTo: say(
    '[details of [the]?]? [consignee|[ship|shipped]-to|[deliver|delivery] to|delivery [address|at]|shipping [address|details]|place of delivery|[dispatch|despatch] to]',
    '[dispatch|despatch] from',
  ),
} as const;

/** The word a totals row adding a figure may open with ("Add: CGST", "Add Freight Charges"). */
const ADD = { lead: ['add'] } as const;

/**
 * A GST head's row in a totals block ("CGST", "Output SGST Amt", "Add: Integrated Tax"): it ends
 * where no letter follows, so "CGST9%" still reads as the head.
 */
function taxHead(names: string, exclude = ''): RegExp[] {
  const phrase = `[total|output|input]?~[purchase|sales]?~[${names}]~[amt|amount|value]?${exclude}`;
  return phraseRegexes([phrase], { ...ADD, end: 'letter' });
}

/** Labels of the amount rows in a totals block. */
export const AMOUNT_LABELS: Record<
  'taxableValue' | 'cgst' | 'sgst' | 'igst' | 'cess' | 'roundOff' | 'total',
  RegExp[]
> = {
  taxableValue: say(
    "[total]? [taxable|taxble|tax'ble] [value|amount|amt]",
    'sub-total',
    'total [before|excl.|excluding.] [tax|gst]',
    '[total]? [net]? [amount|value|amt] [before|excl.|excluding.|exclusive of|without] [tax|taxe|taxes|taxs|gst]',
    'assessable value',
    'total taxable',
    'taxable total',
    'net [value|amount] !payable*',
    'basic [value|amount]',
  ),
  cgst: taxHead('cgst|c.g.s.t.|central [tax|gst]'),
  sgst: taxHead('sgst|utgst|s.g.s.t.|state [tax|gst]|ut [tax|gst]', ' !cess*'),
  // OCR reads the I of IGST as 1 or l.
  igst: taxHead('igst|1gst|lgst|i.g.s.t.|integrated [tax|gst]'),
  cess: phraseRegexes(['[total]? [compensation]? cess~[amt|amount|value]?'], ADD).concat(say('gst cess')),
  roundOff: [
    // "Rounded Off Invoice Amount 662.00" is the rounded total, not the round-off; "Round Invoice
    // Total", "Rounding Total" too.
    ...phraseRegexes(['round[ing|ed]?-off ![net|invoice|bill]? [amount|total|value]'], {
      lead: ['less', 'add'],
    }),
    ...say('round[ing]?~!off* ![net|invoice|bill]? [amount|total|value]'),
    // Tally's abbreviation: "R/OFF", "R. Off".
    /^r ?[/.] ?off\b/,
  ],
  total: say(
    '[grand|invoice|bill|net|final|order|po|challan] total',
    'total [invoice|inv.|bill|po|order|document]?~[value|amount|amt]',
    'total [amount]? [payable|due]',
    '[net]? amount [payable|due]',
    'net payable',
    '[total|net]? payable [amount|amt|value]',
    '[net]? invoice [value|amount]',
    'round[ed|ing]?[-off]? [net|invoice|bill]? [amount|total|value]',
    'bill amount',
    // "Total Qty & Value  12  4,56,789.50": the quantity and the order's value on one row.
    'total [qty|quantity] [&|and] [value|amount|amt]',
    'balance due',
    // Not a tax's, a charge's or a count's total ("Total Freight", "Total Packing Charges").
    'total ![tax|gst|cgst|sgst|igst|cess|quantity|qty|discount|taxable|before|value of accepted|in words|freight|shipping|packing|charges|weight|items|pcs|nos]',
  ),
};

/**
 * Labels of one figure for all GST heads together ("Total Tax 1,800.00", "GST Amount 3,240.50"):
 * never a field itself, it lets the totals block add up where the heads are not printed apart.
 */
export const TAX_TOTAL_LABELS: RegExp[] = say(
  'total [tax|gst] [amount|amt|value]? ![rate|%|in words|(in words]*',
  '[gst|tax] [amount|amt] ![in words|(in words|rate|%]*',
);

/**
 * Labels of charges a totals block adds after the taxes ("Shipping Charges 150.00", "Freight",
 * "Adjustment"): never a field, they let a grand total that includes them add up.
 */
export const CHARGE_LABELS: RegExp[] = [
  /^(?:add\s*:?\s*)?(?:shipping|freight|packing|packaging|forwarding|p ?& ?f|courier|delivery|handling|transport(?:ation)?|loading|insurance|other)(?: (?:&|and) [a-z]+)?(?: charges?| chgs?\.?| amount| amt\.?)\b/,
  ...phraseRegexes(['[freight|shipping] ![to|address|from|terms|mode|bill|method]*'], ADD),
  ...say('[adjustment|adjustments]'),
];
