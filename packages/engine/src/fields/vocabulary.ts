import type { DocumentType } from '../types.ts';

/**
 * Label vocabularies for header fields. Patterns run against a segment's text normalised by
 * `normalizeLabelText` (lower case, single spaces, curly quotes straightened) and must match at
 * its start. They describe how Indian documents word a label in general (Tally, SAP, e-invoice
 * prints, small-business templates), never one vendor's layout.
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

const NO = String.raw`(?:no|nos|number|num|#|ref|reference|id)\b\.?`;

/** Lower-case, collapse whitespace, straighten quotes: the form label patterns are written for. */
export function normalizeLabelText(text: string): string {
  return (
    text
      .replace(/[\u2018\u2019\u2032`]/g, "'")
      // OCR spaces a possessive apart ("Buyer' s Order No"): the label still says "Buyer's".
      .replace(/(?<=[A-Za-z]) ?' (?=s\b)/g, "'")
      .replace(/[\u2013\u2014]/g, '-')
      // OCR's euro and cent signs for e and c ("€-Way Bill No.").
      .replace(/€/g, 'e')
      .replace(/¢/g, 'c')
      .replace(/\s+/g, ' ')
      .trim()
      .toLowerCase()
  );
}

const VEHICLE: FieldSpec = {
  field: 'vehicleNumber',
  kind: 'vehicle',
  labels: [
    /^(?:motor |transport )?vehicle (?:no|number|reg(?:istration)?(?: no)?)\b\.?/,
    /^(?:truck|lorry|vehicle) ?(?:no|#)\b\.?/,
    /^veh\.? no\b\.?/,
    // OCR's misreads of "Vehicle Number" on scans ("Vehlcle No", "Vehicte Humber").
    /^veh[a-z]{3,4} (?:no|[nh]umber)\b\.?/,
    /^(?:motor |transport )?vehicle\b(?! type)/,
  ],
};

const PLACE_OF_SUPPLY: FieldSpec = {
  field: 'placeOfSupply',
  kind: 'state',
  labels: [/^place of supply\b/, /^pos\b/, /^supply (?:place|state)\b/, /^state of supply\b/],
};

const CURRENCY: FieldSpec = { field: 'currency', kind: 'currency', labels: [/^currency\b/] };

/** A bare date label whose meaning depends on the number label beside or above it. */
// OCR reads the t of "Dated" as an l in small type ("Daled").
export const GENERIC_DATE = /^(?:da[tl]ed|date|dt)\b\.?/;

const INVOICE: FieldSpec[] = [
  {
    field: 'documentNumber',
    kind: 'docno',
    dateField: 'documentDate',
    labels: [
      new RegExp(`^(?:tax |gst |sales |commercial |retail )?invoice ?${NO}`),
      new RegExp(String.raw`^inv\.? ?${NO}`),
      new RegExp(String.raw`^(?:bill|document|doc\.?|voucher|vch\.?|serial) ?${NO}`),
      /^invoice ?#/,
      /^(?:tax )?invoice (?:no\.? )?(?:&|and) date\b/,
      // The GST invoice rules' own words: "Serial No. of Invoice".
      new RegExp(String.raw`^serial[ .]?${NO} ?of (?:the )?(?:tax )?invoice\b`),
    ],
    weakLabels: [new RegExp(`^(?:tax )?invoice${TITLE_THEN_NUMBER}`)],
  },
  {
    field: 'documentDate',
    kind: 'date',
    labels: [
      /^(?:tax )?(?:invoice|inv\.?|bill|document|doc\.?|voucher) ?(?:date|dt)\b\.?/,
      /^date of (?:invoice|issue|bill)\b/,
      /^issue date\b/,
    ],
  },
  {
    field: 'poNumber',
    kind: 'docno',
    dateField: 'poDate',
    labels: [
      new RegExp(`^(?:buyer'?s? |customer'?s? |your )?(?:purchase )?order ${NO}`),
      new RegExp(String.raw`^(?:buyer'?s? |customer'?s? )?p\.? ?o\.? ?${NO}`),
      /^buyer'?s? order\b/,
      /^(?:buyer'?s? )?p\.?o\.? (?:no\.? )?(?:&|and) date\b/,
    ],
  },
  {
    field: 'poDate',
    kind: 'date',
    labels: [/^(?:buyer'?s? |customer'?s? )?(?:p\.? ?o\.?|purchase order|order) ?(?:date|dt)\b\.?/],
  },
  {
    field: 'dueDate',
    kind: 'date',
    labels: [/^(?:payment )?due (?:date|on|by)\b/, /^due\b/, /^pay by\b/, /^payment due\b/],
  },
  PLACE_OF_SUPPLY,
  { field: 'irn', kind: 'irn', labels: [/^irn\b/, /^invoice reference number\b/] },
  {
    field: 'ackNumber',
    kind: 'ack',
    dateField: 'ackDate',
    labels: [/^ack(?:nowledge?ment)?\.? ?(?:no|number)\b\.?/],
  },
  { field: 'ackDate', kind: 'date', labels: [/^ack(?:nowledge?ment)?\.? ?(?:date|dt)\b\.?/] },
  {
    field: 'ewayBillNumber',
    kind: 'eway',
    // OCR drops or doubles the l of "Bill" ("E-Way Bil No").
    labels: [/^e[- ]?way ?bil{1,2} (?:no|number)\b\.?/, /^e[- ]?way ?bil{1,2}\b/, /^ewb (?:no|number)\b\.?/],
  },
  VEHICLE,
  CURRENCY,
];

const PO: FieldSpec[] = [
  {
    field: 'documentNumber',
    kind: 'docno',
    dateField: 'documentDate',
    labels: [
      // Tally prints a purchase order's number as its "Voucher No.".
      new RegExp(String.raw`^(?:purchase order|p\.? ?o\.?|order|document|doc\.?|voucher|vch\.?) ?${NO}`),
      /^(?:purchase order|p\.?o\.?) ?#/,
      /^(?:purchase order|p\.?o\.?) (?:no\.? )?(?:&|and) date\b/,
    ],
    weakLabels: [new RegExp(`^purchase order${TITLE_THEN_NUMBER}`)],
  },
  {
    field: 'documentDate',
    kind: 'date',
    labels: [
      /^(?:purchase order|p\.? ?o\.?|order|document|doc\.?) ?(?:date|dt)\b\.?/,
      /^date of (?:order|issue)\b/,
    ],
  },
  {
    field: 'deliveryDate',
    kind: 'date',
    labels: [
      /^(?:\d+\.\s*)?(?:delivery|dispatch|despatch|supply) (?:date|schedule|by|on|due|before)\b/,
      /^(?:\d+\.\s*)?(?:expected|required|requested) (?:delivery )?(?:date|by)\b/,
      /^(?:\d+\.\s*)?expected delivery\b/,
      /^(?:\d+\.\s*)?deliver(?:y)? by\b/,
      // SAP item text: "Scheduled Del Dt:14.07.2026".
      /^(?:\d+\.\s*)?sched(?:uled?)?\.? (?:del(?:ivery)?\.?|dely\.?) ?(?:dt|date)\b\.?/,
    ],
  },
  {
    field: 'paymentTerms',
    kind: 'text',
    labels: [
      /^(?:\d+\.\s*)?(?:payment|pay\.?) terms?\b/,
      // A numbered condition: "4. Payment :- 45 Days Credit".
      /^(?:\d+\.\s*)?payment\b(?=\s*:)/,
      /^(?:\d+\.\s*)?terms of payment\b/,
      /^(?:\d+\.\s*)?(?:mode\/)?terms of payment\b/,
      /^(?:\d+\.\s*)?credit terms\b/,
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
    labels: [
      new RegExp(
        String.raw`^(?:g\.? ?r\.? ?n\.?|m\.? ?r\.? ?n\.?|m\.? ?i\.? ?r\.?|g\.? ?i\.? ?n\.?|goods receipt(?: note)?|goods received note|material receipt(?: note)?|receipt|inward|grn\/mrn) ?${NO}`,
      ),
      new RegExp(String.raw`^(?:document|doc\.?) ?${NO}`),
    ],
  },
  {
    field: 'documentDate',
    kind: 'date',
    labels: [
      /^(?:g\.? ?r\.? ?n\.?|m\.? ?r\.? ?n\.?|receipt|inward|document|doc\.?) ?(?:date|dt)\b\.?/,
      /^date of receipt\b/,
      /^received (?:on|date)\b/,
    ],
  },
  {
    field: 'poNumber',
    kind: 'docno',
    dateField: 'poDate',
    labels: [
      new RegExp(String.raw`^(?:p\.? ?o\.?|purchase order|order) ?${NO}`),
      /^purchase order\b(?! date)/,
      /^(?:p\.?o\.?|purchase order) (?:no\.? )?(?:&|and) date\b/,
    ],
  },
  {
    field: 'poDate',
    kind: 'date',
    labels: [/^(?:p\.? ?o\.?|purchase order|order) ?(?:date|dt)\b\.?/],
  },
  {
    field: 'invoiceNumber',
    kind: 'docno',
    dateField: 'invoiceDate',
    labels: [
      new RegExp(
        String.raw`^(?:supplier'?s? |vendor'?s? |party'?s? )?(?:invoice|inv\.?|bill|(?:delivery )?challan|d\.? ?c\.?|dc) ?${NO}`,
      ),
      /^(?:supplier'?s? |vendor'?s? )?(?:invoice|challan|dc) ?#/,
      /^(?:supplier'?s? |vendor'?s? )?(?:delivery challan|challan|supplier'?s? invoice|vendor invoice)\b(?! ?(?:date|dt))/,
    ],
  },
  {
    field: 'invoiceDate',
    kind: 'date',
    labels: [
      /^(?:supplier'?s? |vendor'?s? |party'?s? )?(?:invoice|inv\.?|bill|(?:delivery )?challan|d\.? ?c\.?) ?(?:date|dt)\b\.?/,
    ],
  },
  VEHICLE,
  CURRENCY,
];

/** The header-field vocabulary of a document type (its profile holds it: `profileOf(type).fieldSpecs`). */
export function fieldSpecsOf(type: DocumentType): FieldSpec[] {
  return type === 'po' ? PO : type === 'grn' ? GRN : INVOICE;
}

/** Labels that introduce a party block, by role. Consignee / ship-to is recognised to be skipped. */
export const PARTY_LABELS = {
  buyer: [
    /^(?:details of (?:the )?)?(?:buyer|recipient|receiver|customer|client)(?: (?:details?|name|address|party|info(?:rmation)?))?\b(?!'s|s')(?! ?(?:order|po|ref|code|id|gstin)\b)/,
    /^bill(?:ed)?[- ]to\b/,
    // "Billing & Shipping Address" names one block: the buyer's, delivered to its own address.
    /^billing (?:(?:&|and) shipping )?(?:address|details)\b/,
    /^issued to\b/,
    /^name of (?:the )?(?:buyer|recipient|customer)\b/,
    /^invoice (?:to|address)\b/,
    /^sold to\b/,
  ],
  /** The other party, addressed by the issuer: the buyer of an invoice, the supplier of a PO or GRN. */
  counterparty: [
    /^party(?: name| details)?\b(?!'s|s')(?! ?(?:order|po|gstin|code)\b)/,
    /^m\/s\.?(?:\s|$)/,
    // OCR reads the comma of "To," as a dot or semicolon.
    /^to[,.;]?$/,
    /^to:/,
  ],
  vendor: [
    /^(?:details of (?:the )?)?(?:supplier|seller|vendor|from)(?: (?:details?|name|address|party|info(?:rmation)?))?\b(?!'s|s')(?! ?(?:code|id|no|ref|invoice|inv|gstin|pan)\b)/,
    /^received from\b/,
    // Marketplace and SaaS prints: "Sold By : <seller>", "Billed By".
    /^(?:sold|billed) by\b/,
    /^name of (?:the )?(?:supplier|seller|vendor)\b/,
  ],
  shipTo: [
    /^(?:details of (?:the )?)?(?:consignee|ship(?:ped)?[- ]to|deliver(?:y)? to|delivery address|ship to address|shipping address|shipping details|place of delivery|delivery at|dispatch to|despatch to)\b/,
    /^(?:dispatch|despatch) from\b/,
  ],
} as const;

/** Labels of the amount rows in a totals block. */
export const AMOUNT_LABELS: Record<
  'taxableValue' | 'cgst' | 'sgst' | 'igst' | 'cess' | 'roundOff' | 'total',
  RegExp[]
> = {
  taxableValue: [
    /^(?:total )?taxable (?:value|amount|amt)\b/,
    /^tax'?ble (?:value|amt|amount)\b/,
    /^sub[- ]?total\b/,
    /^total (?:before|excl(?:uding)?\.?) (?:tax|gst)\b/,
    /^(?:total )?(?:net )?(?:amount|value|amt) (?:before|excl(?:uding)?\.?|exclusive of|without) (?:taxe?s?|gst)\b/,
    /^assessable value\b/,
    /^total taxable\b/,
    /^taxable total\b/,
    /^net (?:value|amount)\b(?! payable)/,
    /^basic (?:value|amount)\b/,
  ],
  cgst: [
    /^(?:add\s*:?\s*)?(?:total |output ?|input ?)?(?:purchase ?|sales ?)?(?:cgst|c\.g\.s\.t\.?|central (?:tax|gst))(?: ?(?:amt|amount|value))?(?![a-z])/,
  ],
  sgst: [
    /^(?:add\s*:?\s*)?(?:total |output ?|input ?)?(?:purchase ?|sales ?)?(?:sgst|utgst|s\.g\.s\.t\.?|state (?:tax|gst)|ut (?:tax|gst)|sgst\/utgst)(?: ?(?:amt|amount|value))?(?![a-z])(?! cess)/,
  ],
  igst: [
    // OCR reads the I of IGST as 1 or l.
    /^(?:add\s*:?\s*)?(?:total |output ?|input ?)?(?:purchase ?|sales ?)?(?:igst|[1l]gst|i\.g\.s\.t\.?|integrated (?:tax|gst))(?: ?(?:amt|amount|value))?(?![a-z])/,
  ],
  cess: [/^(?:add\s*:?\s*)?(?:total )?(?:compensation )?cess(?: ?(?:amt|amount|value))?\b/, /^gst cess\b/],
  // "Rounded Off Invoice Amount 662.00" is the rounded total, not the round-off.
  roundOff: [
    /^(?:less\s*:?\s*|add\s*:?\s*)?round(?:ing|ed)?[- ]?off\b(?! (?:net |invoice |bill )?(?:amount|total|value)\b)/,
    // "Round Invoice Total", "Rounding Total" are the rounded total.
    /^round(?:ing)?\b(?! ?off)(?! (?:net |invoice |bill )?(?:amount|total|value)\b)/,
    // Tally's abbreviation: "R/OFF", "R. Off".
    /^r ?[/.] ?off\b/,
  ],
  total: [
    /^(?:grand|invoice|bill|net|final|order|po|challan) total\b/,
    /^total (?:invoice|inv\.?|bill|po|order|document)? ?(?:value|amount|amt)\b/,
    /^total (?:amount )?(?:payable|due)\b/,
    /^(?:net )?amount (?:payable|due)\b/,
    /^net payable\b/,
    /^(?:total |net )?payable (?:amount|amt|value)\b/,
    /^(?:net )?invoice (?:value|amount)\b/,
    /^round(?:ed|ing)?(?:[- ]?off)? (?:net |invoice |bill )?(?:amount|total|value)\b/,
    /^bill amount\b/,
    // "Total Qty & Value  12  4,56,789.50": the quantity and the order's value on one row.
    /^total (?:qty|quantity) (?:&|and) (?:value|amount|amt)\b/,
    /^balance due\b/,
    // Not a tax's, a charge's or a count's total ("Total Freight", "Total Packing Charges").
    /^total\b(?! (?:tax|gst|cgst|sgst|igst|cess|quantity|qty|discount|taxable|before|value of accepted|in words|freight|shipping|packing|charges|weight|items|pcs|nos)\b)/,
  ],
};

/**
 * Labels of one figure for all GST heads together ("Total Tax 1,800.00", "GST Amount 3,240.50"):
 * never a field itself, it lets the totals block add up where the heads are not printed apart.
 */
export const TAX_TOTAL_LABELS: RegExp[] = [
  /^total (?:tax|gst)(?: (?:amount|amt|value))?\b(?! (?:rate|%|\(?in words))/,
  /^(?:gst|tax) (?:amount|amt)\b(?! (?:\(?in words|rate|%))/,
];

/**
 * Labels of charges a totals block adds after the taxes ("Shipping Charges 150.00", "Freight",
 * "Adjustment"): never a field, they let a grand total that includes them add up.
 */
export const CHARGE_LABELS: RegExp[] = [
  /^(?:add\s*:?\s*)?(?:shipping|freight|packing|packaging|forwarding|p ?& ?f|courier|delivery|handling|transport(?:ation)?|loading|insurance|other)(?: (?:&|and) [a-z]+)?(?: charges?| chgs?\.?| amount| amt\.?)\b/,
  /^(?:add\s*:?\s*)?(?:freight|shipping)\b(?! (?:to|address|from|terms|mode|bill|method))/,
  /^adjustments?\b/,
];
