import { z } from 'zod';

// The extraction/v1 document model (shared/contracts/extraction.md), declared once: which fields each
// document type has, in contract order, what kind of value each holds, how a sheet labels it, which
// checks apply, and the zod schema of one result. The engine, the flow runner, the sheets and the
// review screen read the field lists from here instead of keeping their own copies.

/** The contract version string every result carries. */
export const EXTRACTION_CONTRACT = 'extraction/v1' as const;

/** Document types the engine extracts, spelled as in the contract. */
export const extractionDocumentTypes = ['invoice', 'po', 'grn'] as const;
/** A document type of the contract: `invoice`, `po` or `grn`. */
export const ExtractionDocumentTypeSchema = z.enum(extractionDocumentTypes);
/** A document type of the contract: `invoice`, `po` or `grn`. */
export type ExtractionDocumentType = z.infer<typeof ExtractionDocumentTypeSchema>;

/**
 * What kind of value a field holds, which fixes its format (contract "Value formats"):
 * - `date`: ISO `YYYY-MM-DD`;
 * - `money`: number in rupees (amounts, rates, discounts);
 * - `quantity`: number (quantities);
 * - `percent`: number, `18` for 18%;
 * - `gstin`: 15 upper-case characters;
 * - `stateCode`: two-digit GST state code (also the place of supply);
 * - `code`: an identifier compared exactly (document numbers, IRN, acknowledgement and e-way bill
 *   numbers, vehicle numbers, HSN/SAC);
 * - `text`: trimmed, inner whitespace collapsed (names, addresses, descriptions, units, terms);
 * - `currency`: ISO currency code, `INR` unless the document says otherwise.
 */
export const extractionValueKinds = [
  'date',
  'money',
  'quantity',
  'percent',
  'gstin',
  'stateCode',
  'code',
  'text',
  'currency',
] as const;
/** What kind of value a field holds. */
export const ExtractionValueKindSchema = z.enum(extractionValueKinds);
/** What kind of value a field holds. */
export type ExtractionValueKind = z.infer<typeof ExtractionValueKindSchema>;

/** Check codes of v1 (contract "Checks"). */
export const extractionCheckCodes = [
  'gstin_format',
  'gstin_checksum',
  'state_code_matches_gstin',
  'tax_type_matches_place_of_supply',
  'lines_sum_to_taxable_value',
  'taxes_sum_to_total',
  'amount_in_words_matches_total',
  'qr_matches_printed',
  'grn_quantities_balance',
] as const;
/** A check code of v1. */
export const ExtractionCheckCodeSchema = z.enum(extractionCheckCodes);
/** A check code of v1. */
export type ExtractionCheckCode = z.infer<typeof ExtractionCheckCodeSchema>;

/** Each check in plain words for a reviewer (inbox, sheet, workbook). */
export const checkWords: Record<ExtractionCheckCode, string> = {
  gstin_format: 'A GSTIN is not in the right format',
  gstin_checksum: "A GSTIN's check digit is wrong — likely a typo",
  state_code_matches_gstin: "The state code doesn't match the GSTIN",
  tax_type_matches_place_of_supply: "CGST+SGST vs IGST doesn't fit the place of supply",
  lines_sum_to_taxable_value: "Line amounts don't add up to the taxable value",
  taxes_sum_to_total: "Taxable value plus taxes doesn't equal the total",
  amount_in_words_matches_total: 'The amount in words differs from the total',
  qr_matches_printed: 'The e-invoice QR differs from the printed details',
  grn_quantities_balance: "Accepted plus rejected quantities don't equal the received quantity",
};

/**
 * A failed check in plain words. Accepts a bare code or `code:field`; unknown codes are shown with
 * spaces so nothing is hidden.
 */
export function describeCheck(check: string): string {
  const [code = '', field] = check.split(':');
  const words = (checkWords as Record<string, string>)[code] ?? code.replaceAll('_', ' ');
  return field ? `${words} (${field})` : words;
}

/** Error codes of a document that could not be read (contract `error.code`). */
export const extractionErrorCodes = [
  'unreadable_file',
  'encrypted_pdf',
  'unsupported_type',
  'empty_document',
  'too_large',
] as const;
/** An error code of a document that could not be read. */
export const ExtractionErrorCodeSchema = z.enum(extractionErrorCodes);
/** An error code of a document that could not be read. */
export type ExtractionErrorCode = z.infer<typeof ExtractionErrorCodeSchema>;

/** Where a document's text came from as a whole (`source` of a result). */
export const extractionSources = ['text', 'ocr', 'mixed', 'qr'] as const;
/** Where a document's text came from as a whole. */
export const ExtractionSourceSchema = z.enum(extractionSources);
/** Where a document's text came from as a whole. */
export type ExtractionSource = z.infer<typeof ExtractionSourceSchema>;

/** Where one value was read (`provenance[field].source`). */
export const provenanceSources = ['text', 'ocr', 'qr', 'llm'] as const;
/** Where one value was read. */
export const ProvenanceSourceSchema = z.enum(provenanceSources);
/** Where one value was read. */
export type ProvenanceSource = z.infer<typeof ProvenanceSourceSchema>;

/** One field of the contract: its name, the kind of value it holds and its column label in a sheet. */
export interface ExtractionFieldSpec {
  /** Contract field name, e.g. `vendorGstin`. */
  readonly name: string;
  /** Kind of value, which fixes its format. */
  readonly kind: ExtractionValueKind;
  /** Human column label in a sheet, e.g. `Vendor GSTIN`. */
  readonly label: string;
}

/** What one document type holds: header fields and line fields in contract order, and the checks that apply. */
export interface ExtractionProfile {
  /** The document type. */
  readonly type: ExtractionDocumentType;
  /** Header fields in contract order: the common ones, then the type's own. */
  readonly headerFields: readonly ExtractionFieldSpec[];
  /** Line-item fields in contract order. */
  readonly lineFields: readonly ExtractionFieldSpec[];
  /** Check codes the engine may report for this type. */
  readonly checks: readonly ExtractionCheckCode[];
}

type Spec = Omit<ExtractionFieldSpec, 'name'>;

// Every header field once, with its kind and label.
const headerCatalogue = {
  documentNumber: { kind: 'code', label: 'Document No.' },
  documentDate: { kind: 'date', label: 'Document Date' },
  vendorName: { kind: 'text', label: 'Vendor Name' },
  vendorGstin: { kind: 'gstin', label: 'Vendor GSTIN' },
  vendorAddress: { kind: 'text', label: 'Vendor Address' },
  vendorStateCode: { kind: 'stateCode', label: 'Vendor State Code' },
  buyerName: { kind: 'text', label: 'Buyer Name' },
  buyerGstin: { kind: 'gstin', label: 'Buyer GSTIN' },
  buyerAddress: { kind: 'text', label: 'Buyer Address' },
  buyerStateCode: { kind: 'stateCode', label: 'Buyer State Code' },
  currency: { kind: 'currency', label: 'Currency' },
  poNumber: { kind: 'code', label: 'PO No.' },
  poDate: { kind: 'date', label: 'PO Date' },
  placeOfSupply: { kind: 'stateCode', label: 'Place of Supply' },
  taxableValue: { kind: 'money', label: 'Taxable Value' },
  cgst: { kind: 'money', label: 'CGST' },
  sgst: { kind: 'money', label: 'SGST/UTGST' },
  igst: { kind: 'money', label: 'IGST' },
  cess: { kind: 'money', label: 'Cess' },
  roundOff: { kind: 'money', label: 'Round Off' },
  total: { kind: 'money', label: 'Total' },
  dueDate: { kind: 'date', label: 'Due Date' },
  irn: { kind: 'code', label: 'IRN' },
  ackNumber: { kind: 'code', label: 'Ack No.' },
  ackDate: { kind: 'date', label: 'Ack Date' },
  ewayBillNumber: { kind: 'code', label: 'E-way Bill No.' },
  vehicleNumber: { kind: 'code', label: 'Vehicle No.' },
  deliveryDate: { kind: 'date', label: 'Delivery Date' },
  paymentTerms: { kind: 'text', label: 'Payment Terms' },
  invoiceNumber: { kind: 'code', label: 'Invoice/Challan No.' },
  invoiceDate: { kind: 'date', label: 'Invoice Date' },
} as const satisfies Record<string, Spec>;

// Every line field once, with its kind and label.
const lineCatalogue = {
  description: { kind: 'text', label: 'Description' },
  hsnSac: { kind: 'code', label: 'HSN/SAC' },
  quantity: { kind: 'quantity', label: 'Quantity' },
  unit: { kind: 'text', label: 'Unit' },
  rate: { kind: 'money', label: 'Rate' },
  discount: { kind: 'money', label: 'Discount' },
  amount: { kind: 'money', label: 'Amount' },
  gstRate: { kind: 'percent', label: 'GST %' },
  orderedQuantity: { kind: 'quantity', label: 'Ordered Qty' },
  receivedQuantity: { kind: 'quantity', label: 'Received Qty' },
  acceptedQuantity: { kind: 'quantity', label: 'Accepted Qty' },
  rejectedQuantity: { kind: 'quantity', label: 'Rejected Qty' },
} as const satisfies Record<string, Spec>;

/** A header field name of the contract (any document type). */
export type ExtractionHeaderFieldName = keyof typeof headerCatalogue;
/** A line-item field name of the contract (any document type). */
export type ExtractionLineFieldName = keyof typeof lineCatalogue;

const headers = (...names: ExtractionHeaderFieldName[]): readonly ExtractionFieldSpec[] =>
  Object.freeze(names.map((name) => Object.freeze({ name, ...headerCatalogue[name] })));
const lines = (...names: ExtractionLineFieldName[]): readonly ExtractionFieldSpec[] =>
  Object.freeze(names.map((name) => Object.freeze({ name, ...lineCatalogue[name] })));
const checks = (...codes: ExtractionCheckCode[]): readonly ExtractionCheckCode[] => Object.freeze(codes);

const common: ExtractionHeaderFieldName[] = [
  'documentNumber',
  'documentDate',
  'vendorName',
  'vendorGstin',
  'vendorAddress',
  'vendorStateCode',
  'buyerName',
  'buyerGstin',
  'buyerAddress',
  'buyerStateCode',
  'currency',
];
/** Tax heads, shared by invoices and purchase orders. */
const taxes: ExtractionHeaderFieldName[] = ['taxableValue', 'cgst', 'sgst', 'igst', 'cess'];
/** Invoice and purchase-order lines carry the same fields (contract: "Invoice and PO lines"). */
const priceLines = lines(
  'description',
  'hsnSac',
  'quantity',
  'unit',
  'rate',
  'discount',
  'amount',
  'gstRate',
);
/** Checks on the parties, run for every type. */
const partyChecks: ExtractionCheckCode[] = ['gstin_format', 'gstin_checksum', 'state_code_matches_gstin'];
/** Checks on the tax and totals block of invoices and purchase orders. */
const amountChecks: ExtractionCheckCode[] = [
  'tax_type_matches_place_of_supply',
  'lines_sum_to_taxable_value',
  'taxes_sum_to_total',
  'amount_in_words_matches_total',
];

/** The profile of each document type: its header fields, line fields and checks, in contract order. */
export const extractionProfiles: Readonly<Record<ExtractionDocumentType, ExtractionProfile>> = Object.freeze({
  invoice: {
    type: 'invoice',
    headerFields: headers(
      ...common,
      'poNumber',
      'poDate',
      'placeOfSupply',
      ...taxes,
      'roundOff',
      'total',
      'dueDate',
      'irn',
      'ackNumber',
      'ackDate',
      'ewayBillNumber',
      'vehicleNumber',
    ),
    lineFields: priceLines,
    checks: checks(...partyChecks, ...amountChecks, 'qr_matches_printed'),
  },
  po: {
    type: 'po',
    headerFields: headers(...common, 'deliveryDate', 'paymentTerms', 'placeOfSupply', ...taxes, 'total'),
    lineFields: priceLines,
    checks: checks(...partyChecks, ...amountChecks),
  },
  grn: {
    type: 'grn',
    headerFields: headers(...common, 'poNumber', 'poDate', 'invoiceNumber', 'invoiceDate', 'vehicleNumber'),
    lineFields: lines(
      'description',
      'hsnSac',
      'unit',
      'orderedQuantity',
      'receivedQuantity',
      'acceptedQuantity',
      'rejectedQuantity',
    ),
    checks: checks(...partyChecks, 'grn_quantities_balance'),
  },
});

/** The profile of a document type. */
export function getExtractionProfile(type: ExtractionDocumentType): ExtractionProfile {
  return extractionProfiles[type];
}

/** Names of a type's header fields, in contract order (a fresh array each call). */
export function listHeaderFields(type: ExtractionDocumentType): string[] {
  return extractionProfiles[type].headerFields.map((f) => f.name);
}

/** Names of a type's line-item fields, in contract order (a fresh array each call). */
export function listLineFields(type: ExtractionDocumentType): string[] {
  return extractionProfiles[type].lineFields.map((f) => f.name);
}

/** The check codes that apply to a type (a fresh array each call). */
export function listChecks(type: ExtractionDocumentType): ExtractionCheckCode[] {
  return [...extractionProfiles[type].checks];
}

/** A field of a type, header or line, by name; `null` when the type has no such field. */
export function findFieldSpec(type: ExtractionDocumentType, name: string): ExtractionFieldSpec | null {
  const profile = extractionProfiles[type];
  return (
    profile.headerFields.find((f) => f.name === name) ??
    profile.lineFields.find((f) => f.name === name) ??
    null
  );
}

/** The value kind of a type's header or line field; `null` when the type has no such field. */
export function getFieldKind(type: ExtractionDocumentType, name: string): ExtractionValueKind | null {
  return findFieldSpec(type, name)?.kind ?? null;
}

/** The sheet label of a type's header or line field; `null` when the type has no such field. */
export function getFieldLabel(type: ExtractionDocumentType, name: string): string | null {
  return findFieldSpec(type, name)?.label ?? null;
}

/**
 * Names of the header and line fields holding a kind of value, of one type or (without `type`) of
 * every type, each once: e.g. every money field, to format amounts.
 */
export function listFieldsOfKind(kind: ExtractionValueKind, type?: ExtractionDocumentType): string[] {
  const types = type ? [type] : extractionDocumentTypes;
  const names = types.flatMap((t) =>
    [...extractionProfiles[t].headerFields, ...extractionProfiles[t].lineFields]
      .filter((f) => f.kind === kind)
      .map((f) => f.name),
  );
  return [...new Set(names)];
}

/** A bounding box `[x0, y0, x1, y1]` in PDF points from the page's top-left. */
export const BBoxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);

/** Where one value was read: 1-based page, bounding box and source. */
export const ProvenanceSchema = z.object({
  page: z.number().int().min(1),
  bbox: BBoxSchema,
  source: ProvenanceSourceSchema,
  /** For a value read from memory: the document whose correction taught it (its number, when known). */
  learnedFrom: z.string().nullable().optional(),
});
/** Where one value was read. */
export type Provenance = z.infer<typeof ProvenanceSchema>;

/** A field value: text, number, or `null` when the document does not show it. */
export const ExtractionFieldValueSchema = z.union([z.string(), z.number(), z.null()]);
/** A field value: text, number, or `null`. */
export type ExtractionFieldValue = z.infer<typeof ExtractionFieldValueSchema>;

/** One line item: values keyed by contract field name, with where each was read when known. */
export const ExtractionLineItemSchema = z
  .object({ provenance: z.record(z.string(), ProvenanceSchema).optional() })
  .catchall(ExtractionFieldValueSchema);
/** One line item. */
export type ExtractionLineItem = z.infer<typeof ExtractionLineItemSchema>;

/** One check the engine ran, passed or failed; `field` is the field it is about, if any. */
export const ExtractionCheckSchema = z.object({
  code: ExtractionCheckCodeSchema,
  field: z.string().nullable(),
  ok: z.boolean(),
  message: z.string(),
});
/** One check the engine ran. */
export type ExtractionCheck = z.infer<typeof ExtractionCheckSchema>;

/** Why a document could not be read. */
export const ExtractionErrorSchema = z.object({ code: ExtractionErrorCodeSchema, message: z.string() });
/** Why a document could not be read. */
export type ExtractionError = z.infer<typeof ExtractionErrorSchema>;

/**
 * One `extraction/v1` result (one NDJSON line of `bahi extract`). Permissive where the contract is:
 * field names are not restricted to the type's profile, and values are text, number or null. A
 * document that could not be read carries `error` and nothing guessed, so its `file`, `documentType`
 * and `source` may be null.
 */
export const ExtractionResultSchema = z.object({
  contract: z.literal(EXTRACTION_CONTRACT),
  file: z.string().nullable(),
  documentType: ExtractionDocumentTypeSchema.nullable(),
  pages: z.number().int().min(0),
  source: ExtractionSourceSchema.nullable(),
  fields: z.record(z.string(), ExtractionFieldValueSchema),
  lineItems: z.array(ExtractionLineItemSchema),
  checks: z.array(ExtractionCheckSchema),
  /** How sure the engine is of each field, by field name. */
  confidence: z.record(z.string(), z.number()),
  provenance: z.record(z.string(), ProvenanceSchema),
  error: ExtractionErrorSchema.nullable(),
  /** Non-fatal notes, e.g. image-only pages that could not be read without OCR. */
  warnings: z.array(z.string()).optional(),
});
/** One `extraction/v1` result. */
export type ExtractionResult = z.infer<typeof ExtractionResultSchema>;
