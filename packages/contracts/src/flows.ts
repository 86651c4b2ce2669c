import { z } from 'zod';
import { errorCodes } from './errors.ts';
import {
  describeCheck,
  type ExtractionDocumentType,
  type ExtractionFieldSpec,
  type ExtractionValueKind,
  extractionErrorCodes,
  extractionProfiles,
} from './extraction.ts';
import { FlowTriggerSchema, MailSourceSchema } from './intake.ts';
import { safeText } from './text.ts';

// Processing flows, runs, documents, uploads and the in-app sheet view. The legacy `/api/workflows` family
// keeps the original product's JSON (times in epoch milliseconds); the newer routes use ISO strings.

/** Document types a flow processes, as the original product spells them. */
export const flowDocumentTypes = ['PO', 'GRN', 'INVOICE'] as const;
/** A flow's document type. */
export const FlowDocumentTypeSchema = z.enum(flowDocumentTypes);
/** A flow's document type. */
export type FlowDocumentType = z.infer<typeof FlowDocumentTypeSchema>;

/** Messages shown to users, shared so the web and the server say the same thing. */
export const flowMessages = {
  nameRequired: 'Flow name is required',
  typeRequired: 'Choose one document type',
  invalidDriveUrl: 'Invalid Google Drive URL. Provide a folder or file link.',
  googleAuthRequired: 'Google authorization required. Please authorize access to your Google account.',
  folderRootsMissing:
    'No local folders are open to your organisation on this server. Ask your administrator to grant one in BAHI_FOLDER_ROOTS.',
  googleNotConfigured:
    'Google is not set up on this server, so Google Drive and Google Sheets cannot be used yet. Ask your administrator to set it up; uploads, local folders and workbooks work without it.',
  folderNotFound: 'This folder does not exist, or your organisation may not read it.',
  folderIsFile: 'This path is a file, not a folder. Give the folder that holds the documents.',
  fileIsFolder: 'This path is a folder, not a file. Give the path of one document.',
  emptyFolder: 'No documents found in this folder',
  runInProgress: 'This flow is already running. Wait for the current run to finish.',
} as const;

/** Where a flow reads documents: files uploaded to it, a local folder on the server, or a Google Drive link. */
export const FlowInputSchema = z.object({
  kind: z.enum(['upload', 'local', 'drive', 'email']),
  /** Drive folder/file link, or the local folder path; empty for uploads. */
  url: safeText().default(''),
  /** Display name of the folder. */
  folderName: safeText().default(''),
  /**
   * Google Drive folders: read the files of sub-folders too (absent = false, as flows saved before it).
   * Local folders are always read with their sub-folders.
   */
  includeSubfolders: z.boolean().optional(),
  /** The mailbox of an `email` source (its password write-only: never sent back). */
  mail: MailSourceSchema.optional(),
});
/** A flow's input. */
export type FlowInput = z.infer<typeof FlowInputSchema>;

/** Where a flow writes rows: an .xlsx workbook kept by Bahi, or a Google Sheet (later). */
export const FlowOutputSchema = z.object({
  kind: z.enum(['xlsx', 'sheets']),
  sheetId: safeText().default(''),
  sheetName: safeText().default(''),
});
/** A flow's output. */
export type FlowOutput = z.infer<typeof FlowOutputSchema>;

/** Input and output of a flow. */
export const FlowIoSchema = z.object({ input: FlowInputSchema, output: FlowOutputSchema });
/** Input and output of a flow. */
export type FlowIo = z.infer<typeof FlowIoSchema>;

/** A flow's status: inactive until a run succeeds. */
export const FlowStatusSchema = z.enum(['inactive', 'success']);

/** The flow record (`/api/workflows`), in the original product's shape: times in epoch ms. */
export const WorkflowSchema = z.object({
  id: z.string(),
  /** Owner (the user who created it). */
  uid: z.string().nullable(),
  name: z.string(),
  types: z.array(FlowDocumentTypeSchema),
  io: FlowIoSchema,
  status: FlowStatusSchema,
  createdAt: z.number(),
  updatedAt: z.number(),
  lastRunAt: z.number().nullable(),
  /** When the flow runs by itself (absent: manual). */
  trigger: FlowTriggerSchema.optional(),
  /** When it next runs by itself (epoch ms), or null. */
  nextRunAt: z.number().nullable().optional(),
  /** Its source's last failure in plain words (wrong mailbox password, folder gone), or null. */
  sourceError: z.string().nullable().optional(),
});
/** The flow record. */
export type Workflow = z.infer<typeof WorkflowSchema>;

/** `GET /api/workflows`: the organisation's flows, newest first. */
export const WorkflowListSchema = z.array(WorkflowSchema);

/** Body of `POST /api/workflows`. */
export const CreateWorkflowInputSchema = z.object({
  name: safeText().trim().min(1, flowMessages.nameRequired).max(200),
  types: z.array(FlowDocumentTypeSchema).length(1, flowMessages.typeRequired),
  io: FlowIoSchema,
  trigger: FlowTriggerSchema.optional(),
});
/** Body of `POST /api/workflows`. */
export type CreateWorkflowInput = z.input<typeof CreateWorkflowInputSchema>;

/** Body of `PUT /api/workflows/:id`: any subset of the editable fields. */
export const UpdateWorkflowInputSchema = z.object({
  name: safeText().trim().min(1, flowMessages.nameRequired).max(200).optional(),
  types: z.array(FlowDocumentTypeSchema).length(1, flowMessages.typeRequired).optional(),
  io: FlowIoSchema.optional(),
  trigger: FlowTriggerSchema.optional(),
});
/** Body of `PUT /api/workflows/:id`. */
export type UpdateWorkflowInput = z.input<typeof UpdateWorkflowInputSchema>;

/** `{ ok: true }` answers. */
export const OkSchema = z.object({ ok: z.literal(true) });

/** Body of `POST /api/workflow/sheets/create`. */
export const CreateSheetInputSchema = z.object({
  workflowId: safeText().optional(),
  sheetName: safeText().trim().max(200).optional(),
});
/** Answer of `POST /api/workflow/sheets/create`: the workbook and the in-app link that opens it. */
export const CreatedSheetSchema = z.object({ sheetId: z.string(), sheetName: z.string(), url: z.string() });
/** Answer of `POST /api/workflow/sheets/create`. */
export type CreatedSheet = z.infer<typeof CreatedSheetSchema>;

/** Body of `POST /api/workflow/process-folder`: a saved flow, or an ad-hoc folder + type + sheet. */
export const ProcessFolderInputSchema = z.object({
  workflowId: safeText().optional(),
  folderUrl: safeText().optional(),
  folderPath: safeText().optional(),
  type: FlowDocumentTypeSchema.optional(),
  sheetId: safeText().optional(),
});
/** Body of `POST /api/workflow/process-folder`. */
export type ProcessFolderInput = z.infer<typeof ProcessFolderInputSchema>;

/** Body of `POST /api/process-url`: one file (Drive file link or local path) for a flow or a type. */
export const ProcessUrlInputSchema = z.object({
  url: safeText().min(1, 'A file link or path is required'),
  workflowId: safeText().optional(),
  type: FlowDocumentTypeSchema.optional(),
});
/** Body of `POST /api/process-url`. */
export type ProcessUrlInput = z.infer<typeof ProcessUrlInputSchema>;

/** Answer of the routes that start a run. */
export const StartedRunSchema = z.object({ runId: z.string() });

/** A run's status. */
export const RunStatusSchema = z.enum(['queued', 'running', 'succeeded', 'failed']);
/** A run's status. */
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** Counters of a run. `total` counts the documents the run took on (new ones plus resumed ones). */
export const RunCountsSchema = z.object({
  total: z.number().int(),
  done: z.number().int(),
  needsReview: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  /** Files already processed earlier (same source and content): not done again. */
  alreadyProcessed: z.number().int(),
});
/** Counters of a run. */
export type RunCounts = z.infer<typeof RunCountsSchema>;

/** A file the source had that was not taken as a document, and why. */
export const SkippedFileSchema = z.object({ name: z.string(), reason: z.string() });
/** A file the source had that was not taken as a document, and why. */
export type SkippedFile = z.infer<typeof SkippedFileSchema>;

/**
 * Why a run failed: an API error it met on the way (Google authorisation, a folder outside the granted
 * roots, …), the source was empty or could not be listed, or the Google sheet could not be written.
 */
export const RunErrorCodeSchema = z.enum([
  ...errorCodes,
  'empty_folder',
  'source_unreadable',
  'sheet_write_failed',
]);
/** Why a run failed. */
export type RunErrorCode = z.infer<typeof RunErrorCodeSchema>;

/**
 * Why a document could not be read: the engine's contract codes, its file gone from the source
 * (`source_unavailable`), its reading overrunning EXTRACT_TIMEOUT_MS (`timeout`: the document's problem,
 * the run goes on with the others), or a failure of Bahi itself (`internal`).
 */
export const DocumentErrorCodeSchema = z.enum([
  ...extractionErrorCodes,
  'source_unavailable',
  'timeout',
  'internal',
]);
/** Why a document could not be read. */
export type DocumentErrorCode = z.infer<typeof DocumentErrorCodeSchema>;

/** One run of a flow. */
export const RunSchema = z.object({
  id: z.string(),
  flowId: z.string(),
  status: RunStatusSchema,
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  counts: RunCountsSchema,
  currentFile: z.string().nullable(),
  /** Documents in flight, counted by the share of their pages read (1.5 = one and a half documents). */
  partialDone: z.number().min(0).default(0),
  skipped: z.array(SkippedFileSchema),
  error: z.object({ code: RunErrorCodeSchema, message: z.string() }).nullable(),
});
/** One run of a flow. */
export type Run = z.infer<typeof RunSchema>;

/** `GET /api/flows/:id/runs`: run history, newest first. */
export const RunListSchema = z.object({ items: z.array(RunSchema) });

/** SSE `progress` event data of `GET /api/runs/:id/events`; an `end` event carries the final `Run`. */
export const RunProgressSchema = z.object({
  runId: z.string(),
  status: RunStatusSchema,
  done: z.number().int(),
  total: z.number().int(),
  failed: z.number().int(),
  needsReview: z.number().int(),
  currentFile: z.string().nullable(),
  /** Documents in flight, counted by the share of their pages read: the bar moves within a document. */
  partialDone: z.number().min(0).default(0),
});
/** SSE `progress` event data. */
export type RunProgress = z.infer<typeof RunProgressSchema>;

/** A document's processing status. */
/** `removed`: taken out of the flow by a person (a duplicate, a wrong file): no rows, never read again. */
export const DocumentStatusSchema = z.enum([
  'pending',
  'processing',
  'done',
  'failed',
  'needs_review',
  'removed',
]);
/** A document's processing status. */
export type DocumentStatus = z.infer<typeof DocumentStatusSchema>;

/** One document a flow has seen. */
export const FlowDocumentSchema = z.object({
  id: z.string(),
  flowId: z.string(),
  runId: z.string().nullable(),
  fileName: z.string(),
  sourceKind: z.string(),
  size: z.number().nullable(),
  status: DocumentStatusSchema,
  /** Plain-words reason for a failed document. */
  error: z.object({ code: DocumentErrorCodeSchema, message: z.string() }).nullable(),
  failedChecks: z.array(z.string()),
  reviewFlag: z.string().nullable(),
  processedAt: z.string().nullable(),
  /** In-app URL serving the stored file. */
  fileUrl: z.string(),
  /**
   * The file's pages (first, last; 1-based) this document is on when the file holds several documents
   * scanned in one go ("Pages 3–4 of scan.pdf"); null when the file is this one document.
   */
  pageRange: z.tuple([z.number().int(), z.number().int()]).nullable(),
});
/** One document a flow has seen. */
export type FlowDocument = z.infer<typeof FlowDocumentSchema>;

/** A document with its full `extraction/v1` result. */
export const FlowDocumentDetailSchema = FlowDocumentSchema.extend({
  extraction: z.record(z.string(), z.unknown()).nullable(),
});

/**
 * `GET /api/flows/:id/outputs`: whether the flow's workbook and Google sheet hold its latest rows. A change
 * (a correction, an approval, an override) saves at once and the outputs are rewritten a moment later by a
 * background job: until then `upToDate` is false.
 */
export const FlowOutputsStatusSchema = z.object({
  upToDate: z.boolean(),
  /** When the outputs were last written completely (ISO), null when never. */
  writtenAt: z.string().nullable(),
  /** Why the last write failed, in words (it is retried); null when it did not. */
  error: z.string().nullable(),
});
/** Whether a flow's outputs are up to date. */
export type FlowOutputsStatus = z.infer<typeof FlowOutputsStatusSchema>;

/** `GET /api/flows/:id/documents`. */
export const DocumentListSchema = z.object({
  items: z.array(FlowDocumentSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});

/** One stored upload in a flow's inbox. */
export const UploadedFileSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  sha256: z.string(),
  size: z.number(),
  createdAt: z.string(),
});

/** Answer of `POST /api/flows/:id/uploads` (multipart `files`). */
export const UploadResultSchema = z.object({
  stored: z.array(UploadedFileSchema),
  skipped: z.array(SkippedFileSchema),
  /** Stored files whose name was changed (invisible characters, a folder path), each with why. */
  renamed: z.array(z.object({ name: z.string(), reason: z.string() })),
});
/** Answer of `POST /api/flows/:id/uploads`. */
export type UploadResult = z.infer<typeof UploadResultSchema>;

/** `GET /api/flows/:id/uploads`. */
export const UploadListSchema = z.object({ items: z.array(UploadedFileSchema) });

/** How a sheet column's values are shown. */
export const SheetColumnKindSchema = z.enum(['text', 'date', 'datetime', 'money', 'number', 'link']);

/** One column of a sheet tab. */
export const SheetColumnSchema = z.object({
  key: z.string(),
  label: z.string(),
  kind: SheetColumnKindSchema,
});
/** One column of a sheet tab. */
export type SheetColumn = z.infer<typeof SheetColumnSchema>;

/** Query of `GET /api/flows/:id/sheet`. */
export const SheetQuerySchema = z.object({
  tab: z.enum(['documents', 'lines']).default('documents'),
  sort: safeText().max(100).optional(),
  dir: z.enum(['asc', 'desc']).default('asc'),
  page: z.coerce.number().int().min(1).default(1),
});

/** `GET /api/flows/:id/sheet`: one page of a tab, rows keyed by column key. */
export const SheetViewSchema = z.object({
  tab: z.enum(['documents', 'lines']),
  columns: z.array(SheetColumnSchema),
  rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
/** One page of a sheet tab. */
export type SheetView = z.infer<typeof SheetViewSchema>;

const extractionTypeOf: Record<FlowDocumentType, ExtractionDocumentType> = {
  INVOICE: 'invoice',
  PO: 'po',
  GRN: 'grn',
};

/** The extraction/v1 document type behind a flow's document type (`INVOICE` → `invoice`). */
export function toExtractionDocumentType(type: FlowDocumentType): ExtractionDocumentType {
  return extractionTypeOf[type];
}

/** A flow's document type for an extraction/v1 type (`invoice` → `INVOICE`). */
export function toFlowDocumentType(type: ExtractionDocumentType): FlowDocumentType {
  return (Object.keys(extractionTypeOf) as FlowDocumentType[]).find((t) => extractionTypeOf[t] === type)!;
}

/** How a sheet shows each kind of contract value: numbers as money or plain numbers, codes as text. */
const sheetKindOf: Record<ExtractionValueKind, SheetColumn['kind']> = {
  date: 'date',
  money: 'money',
  quantity: 'number',
  percent: 'number',
  gstin: 'text',
  stateCode: 'text',
  code: 'text',
  text: 'text',
  currency: 'text',
};

const toColumns = (fields: readonly ExtractionFieldSpec[]): SheetColumn[] =>
  fields.map(({ name, label, kind }) => ({ key: name, label, kind: sheetKindOf[kind] }));

/** The extraction/v1 header fields of a type, in sheet order. */
export function listHeaderFieldColumns(type: FlowDocumentType): SheetColumn[] {
  return toColumns(extractionProfiles[extractionTypeOf[type]].headerFields);
}

/** The extraction/v1 line-item fields of a type, in sheet order. */
export function listLineFieldColumns(type: FlowDocumentType): SheetColumn[] {
  return toColumns(extractionProfiles[extractionTypeOf[type]].lineFields);
}

/**
 * The TDS columns of an invoice's row (contracts/compliance.md §2, worked out over the whole purchase
 * register): its sections and rates (several joined by "; " when the invoice has lines in more than
 * one), the TDS in rupees, the net payable (total − TDS) and the reason in words.
 */
export const TDS_SHEET_COLUMNS: readonly SheetColumn[] = [
  { key: 'tdsSection', label: 'TDS Section', kind: 'text' },
  { key: 'tdsRate', label: 'TDS Rate %', kind: 'number' },
  { key: 'tdsAmount', label: 'TDS', kind: 'money' },
  { key: 'netPayable', label: 'Net Payable', kind: 'money' },
  { key: 'tdsReason', label: 'TDS Reason', kind: 'text' },
];

/**
 * Columns of the "Documents" tab: file, link, every header field, (invoices) the TDS columns, check
 * results, review flag, time.
 */
export function listDocumentSheetColumns(type: FlowDocumentType): SheetColumn[] {
  return [
    { key: 'fileName', label: 'File Name', kind: 'text' },
    { key: 'link', label: 'Document Link', kind: 'link' },
    ...listHeaderFieldColumns(type),
    ...(type === 'INVOICE' ? TDS_SHEET_COLUMNS : []),
    { key: 'checksFailed', label: 'Checks Failed', kind: 'text' },
    { key: 'reviewFlag', label: 'Review', kind: 'text' },
    { key: 'processedAt', label: 'Processed At', kind: 'datetime' },
  ];
}

/** Columns of the "Line Items" tab: document number, file name, line number, every line field. */
export function listLineSheetColumns(type: FlowDocumentType): SheetColumn[] {
  return [
    { key: 'documentNumber', label: 'Document No.', kind: 'text' },
    { key: 'fileName', label: 'File Name', kind: 'text' },
    { key: 'lineNo', label: 'Line No.', kind: 'number' },
    ...listLineFieldColumns(type),
  ];
}

/**
 * In-app paths the server writes into answers and notifications, so that every link it sends is one the
 * web router serves (a flow's rows are its sheet view on the Parse page).
 */
export const appPaths = {
  /** The sheet view of a flow's extracted rows. */
  flowSheet: (flowId: string) => `/parse?sheet=${encodeURIComponent(flowId)}`,
  /** The review screen of one document. */
  document: (flowId: string, documentId: string) =>
    `/flows/${encodeURIComponent(flowId)}/documents/${encodeURIComponent(documentId)}`,
} as const;

/**
 * Header fields without which a document cannot be booked: a document missing one needs review,
 * whatever its checks say (an invoice with no number or date is never "OK").
 */
export const CRITICAL_FIELDS: Record<FlowDocumentType, readonly string[]> = {
  INVOICE: ['documentNumber', 'documentDate', 'vendorName', 'total'],
  PO: ['documentNumber', 'documentDate', 'vendorName'],
  GRN: ['documentNumber', 'documentDate', 'vendorName'],
};

/** The review reason of a document that looks like one already read (same vendor and number). */
export const POSSIBLE_DUPLICATE = 'possible_duplicate';

/**
 * The review reason of an invoice billed to a GSTIN that is not one of the organisation's:
 * `billed_to_other:<GSTIN>:<buyer name, URI-encoded>` (`billedToOtherReason` builds it). No input tax
 * credit can be claimed on it, so a person decides.
 */
export const BILLED_TO_OTHER = 'billed_to_other';

/** The review reason of an invoice with no buyer GSTIN printed: a consumer (B2C) bill, no input tax credit. */
export const NO_BUYER_GSTIN = 'no_buyer_gstin';

/**
 * A note, not a reason for review: whom an invoice is billed to was not checked because the organisation
 * profile held no GSTIN when it was read. Said beside the document; it never holds one back.
 */
export const BUYER_NOT_CHECKED = 'buyer_not_checked';

/** Codes said beside a document that do not hold it for review (its verdict stays "OK"). */
const REVIEW_NOTES: ReadonlySet<string> = new Set([BUYER_NOT_CHECKED]);

/**
 * The `billed_to_other` reason for a buyer GSTIN and the buyer's name as printed. The name is URI-encoded
 * so the reason stays one token: reasons are joined with commas in the sheet and split on colons.
 */
export function billedToOtherReason(gstin: string, buyerName: string | null): string {
  return `${BILLED_TO_OTHER}:${gstin}${buyerName ? `:${encodeURIComponent(buyerName)}` : ''}`;
}

/** True for a code said beside a document that does not hold it for review (`BUYER_NOT_CHECKED`). */
export function isReviewNote(reason: string): boolean {
  return REVIEW_NOTES.has(reason.split(':')[0] ?? '');
}

/** The reasons that hold a document for review (notes left out): none means its verdict is "OK". */
export function listHoldingReasons(reasons: readonly string[]): string[] {
  return reasons.filter((r) => !isReviewNote(r));
}

/** The buyer name a `billed_to_other` reason carries, decoded (a malformed one is shown as it is). */
function decodeBuyerName(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/** A field's label as the sheets show it ("Document No."), or its key when no type has it. */
function labelOfField(key: string): string {
  for (const type of ['INVOICE', 'PO', 'GRN'] as const) {
    const column = listHeaderFieldColumns(type).find((c) => c.key === key);
    if (column) return column.label;
  }
  return key;
}

/**
 * Why a document needs review, in words: a failed check (`describeCheck`), a missing critical field
 * (`missing:total`), a value read with low confidence (`low_confidence:vendorGstin`), a possible
 * duplicate, an invoice not billed to the organisation (`billed_to_other`, `no_buyer_gstin`), or the note
 * that this was not checked (`buyer_not_checked`). One wording for the inbox, the sheet, the workbook and the Google sheet.
 */
export function describeReviewReason(reason: string): string {
  const [code = '', field = ''] = reason.split(':');
  if (code === 'missing') return `No ${labelOfField(field)} was read`;
  if (code === 'low_confidence') return `${labelOfField(field)} was read with low confidence`;
  if (code === BILLED_TO_OTHER) {
    const name = reason.split(':').slice(2).join(':');
    const whom = name ? `${decodeBuyerName(name)} (GSTIN ${field})` : `GSTIN ${field}`;
    return `Billed to ${whom}, which is not one of your organisation's GSTINs: no input tax credit can be claimed on it`;
  }
  if (code === NO_BUYER_GSTIN)
    return 'No buyer GSTIN was read: if this is a consumer bill, no input tax credit can be claimed on it';
  if (code === BUYER_NOT_CHECKED)
    return 'Not checked that it is billed to you: your organisation profile has no GSTIN yet (add it under Profile)';
  if (code === POSSIBLE_DUPLICATE)
    return 'Looks like a document already read (the same file, or the same vendor and number this financial year)';
  return describeCheck(reason);
}
