import {
  normalizeGstinInput,
  parseIndianAmount,
  parseIndianDate,
  roundMoney,
  stateCodeFromText,
  validateGstin,
} from '@bahi/india';
import { z } from 'zod';
import type { ExtractionValueKind } from './extraction.ts';
import { FlowDocumentDetailSchema } from './flows.ts';
import { safeText } from './text.ts';

/**
 * Reviewing a document: a person's corrections, approvals and the trail they leave. The value
 * rules are the extraction contract's kinds; the web checks a value as it is typed and the server
 * checks it again with the same function before storing it.
 */

/** A typed value read as its kind: the stored value (null clears the field), or what is wrong in words. */
export type FieldInputReading = { ok: true; value: string | number | null } | { ok: false; message: string };

/**
 * Read what a person typed for a field of `kind` the way the extraction contract stores it: dates
 * to ISO (14/08/2025 → 2025-08-14), amounts in Indian or western grouping to rupees with two
 * decimals at most, GSTINs upper-cased and checked to their check character, states by code or
 * name. An empty input clears the field (the document does not show it).
 */
export function readFieldInput(kind: ExtractionValueKind, input: string): FieldInputReading {
  const text = input.replace(/\s+/g, ' ').trim();
  if (text === '') return { ok: true, value: null };
  switch (kind) {
    case 'date': {
      const iso = parseIndianDate(text);
      return iso ? { ok: true, value: iso } : { ok: false, message: 'Enter a date like 14/08/2025.' };
    }
    case 'money': {
      const amount = parseIndianAmount(text);
      return amount === null
        ? { ok: false, message: 'Enter an amount like 1,23,456.78.' }
        : { ok: true, value: roundMoney(amount) };
    }
    case 'quantity': {
      const n = parseIndianAmount(text);
      if (n === null || n < 0) return { ok: false, message: 'Enter a quantity like 12 or 2.5.' };
      return { ok: true, value: n };
    }
    case 'percent': {
      const n = parseIndianAmount(text.replace(/%$/, ''));
      if (n === null || n < 0 || n > 100)
        return { ok: false, message: 'Enter a rate between 0 and 100, like 18.' };
      return { ok: true, value: n };
    }
    case 'gstin': {
      const gstin = normalizeGstinInput(text);
      const v = validateGstin(gstin);
      return v.ok ? { ok: true, value: gstin } : { ok: false, message: v.message };
    }
    case 'stateCode': {
      const code = stateCodeFromText(text);
      return code
        ? { ok: true, value: code }
        : { ok: false, message: 'Enter a GST state code like 29, or the state’s name.' };
    }
    case 'currency':
      return /^[a-z]{3}$/i.test(text)
        ? { ok: true, value: text.toUpperCase() }
        : { ok: false, message: 'Enter a three-letter currency code like INR.' };
    case 'code':
    case 'text':
      return { ok: true, value: text };
  }
}

/** `PATCH /api/documents/:id`: values as typed, by header field and by line cell (1-based lines). */
export const DocumentCorrectionSchema = z
  .object({
    fields: z.record(safeText().max(200), safeText().max(2000)).default({}),
    lines: z
      .array(
        z.object({
          line: z.number().int().min(1),
          field: safeText().max(200),
          value: safeText().max(2000),
        }),
      )
      .max(2000)
      .default([]),
    /** Line rows to delete (1-based, as numbered before this correction; cells above are set first). */
    deleteLines: z.array(z.number().int().min(1)).max(2000).optional(),
    /** Empty line rows to add at the end (after the deletions), to type an item the engine missed. */
    addLines: z.number().int().min(0).max(50).optional(),
  })
  .refine(
    (c) =>
      Object.keys(c.fields).length + c.lines.length + (c.deleteLines?.length ?? 0) + (c.addLines ?? 0) > 0,
    {
      message: 'Nothing to correct',
    },
  );
/** A correction request. */
export type DocumentCorrection = z.infer<typeof DocumentCorrectionSchema>;

/**
 * `POST /api/documents/:id/forget`: forget what Bahi learned from corrections about this document's
 * issuer for one header field (the value's provenance says `learnedFrom`); it is not learned again
 * until a person corrects that field anew.
 */
export const ForgetLearnedFieldSchema = z.object({
  field: z.string().min(1).max(64),
});
/** A forget request. */
export type ForgetLearnedField = z.infer<typeof ForgetLearnedFieldSchema>;

/**
 * `POST /api/documents/:id/approve`: a person vouches for the values. Over a failed check (a reason that
 * is not a possible duplicate or a low confidence) the note saying why is required; it stays in the trail.
 */
export const ApproveDocumentSchema = z.object({
  note: safeText().trim().max(1000, 'At most 1,000 characters').optional(),
});
/** An approval request. */
export type ApproveDocument = z.infer<typeof ApproveDocumentSchema>;

/** The field message when an approval over a failed check has no note. */
export const approvalNoteMessage = 'Say why you approve it although a check failed (at least 10 characters)';

/**
 * The reasons a person must explain when approving over them: failed checks and missing fields. A
 * possible duplicate (approving says it is not one), a value read with low confidence (a person looked at
 * it) and whom an invoice is billed to (approving is the decision asked for) need no note.
 */
export function listReasonsNeedingNote(reasons: readonly string[]): string[] {
  const decisions = new Set([
    'possible_duplicate',
    'low_confidence',
    'buyer_not_checked',
    'billed_to_other',
    'no_buyer_gstin',
  ]);
  return reasons.filter((r) => !decisions.has(r.split(':')[0] ?? ''));
}

/** Where a correction or approval came from in the trail; `approved` carries the approver's note, if any. */
export const documentEventKinds = ['corrected', 'approved'] as const;

/** One entry of a document's review trail. */
export const DocumentEventSchema = z.object({
  id: z.string(),
  kind: z.enum(documentEventKinds),
  /** `total`, or `lineItems.2.amount` for a line cell (1-based line); null for an approval. */
  field: z.string().nullable(),
  oldValue: z.union([z.string(), z.number(), z.null()]),
  newValue: z.union([z.string(), z.number(), z.null()]),
  userName: z.string(),
  at: z.string(),
});
/** One entry of a document's review trail. */
export type DocumentEvent = z.infer<typeof DocumentEventSchema>;

/** One page of a document: its picture and its size in the frame the boxes are given in (PDF points). */
export const DocumentPageSchema = z.object({
  number: z.number().int(),
  width: z.number(),
  height: z.number(),
  /** In-app URL of the page's picture; `?width=` asks for another size. */
  imageUrl: z.string(),
});
/** One page of a document. */
export type DocumentPage = z.infer<typeof DocumentPageSchema>;

/** `GET /api/documents/:id/review`: what the review screen shows. */
export const DocumentReviewSchema = z.object({
  document: FlowDocumentDetailSchema,
  flowName: z.string(),
  /**
   * Pages (at most the 100 the engine reads); empty when the file is gone, cannot be drawn or was not read
   * (failed, pending, removed). `pagesError` says why, or that only the first pages of a longer file are listed.
   */
  pages: z.array(DocumentPageSchema),
  pagesError: z.string().nullable(),
  /** Fields a person changed (header names and `lineItems.N.field` cells): their source is "corrected". */
  corrected: z.array(z.string()),
  approvedAt: z.string().nullable(),
  approvedBy: z.string().nullable(),
  events: z.array(DocumentEventSchema),
  /**
   * The earlier document this one looks like a copy of; while unapproved it stays out of the sheets
   * (approving it says it is not a duplicate; removing it drops the copy).
   */
  duplicateOf: z
    .object({ id: z.string(), flowId: z.string(), fileName: z.string(), flowName: z.string() })
    .nullable(),
  /** The neighbours in the flow's review order (newest first), for next / previous. */
  previousId: z.string().nullable(),
  nextId: z.string().nullable(),
  /** The next document of the flow that needs review (where approving moves on to). */
  nextToReviewId: z.string().nullable(),
});
/** The review screen's data. */
export type DocumentReview = z.infer<typeof DocumentReviewSchema>;

/** The trail's name for a line cell. */
export function toLineCellKey(line: number, field: string): string {
  return `lineItems.${line}.${field}`;
}

/** The review queue's views. */
export const reviewQueueViews = ['needs_review', 'approved', 'failed', 'all'] as const;

/** `GET /api/review`: the organisation's documents across flows, filtered and searched. */
export const ReviewQueueQuerySchema = z.object({
  view: z.enum(reviewQueueViews).default('needs_review'),
  flowId: z.string().uuid().optional(),
  /** Vendor name or GSTIN, any part of it. */
  vendor: safeText().trim().max(200).optional(),
  /** Document date from / to, ISO. */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  /** Total at least / at most, in rupees. */
  min: z.coerce.number().optional(),
  max: z.coerce.number().optional(),
  /** Document number, GSTIN or vendor name, any part of it. */
  q: safeText().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
});
/** A review queue query. */
export type ReviewQueueQuery = z.infer<typeof ReviewQueueQuerySchema>;

/** One document in the review queue. */
export const ReviewQueueItemSchema = z.object({
  id: z.string(),
  flowId: z.string(),
  flowName: z.string(),
  fileName: z.string(),
  status: z.string(),
  approved: z.boolean(),
  documentType: z.string().nullable(),
  documentNumber: z.string().nullable(),
  documentDate: z.string().nullable(),
  vendorName: z.string().nullable(),
  vendorGstin: z.string().nullable(),
  total: z.number().nullable(),
  /** Why it needs review (codes, worded by `describeReviewReason`), or the error in words for a failed one. */
  reasons: z.array(z.string()),
  error: z.string().nullable(),
  processedAt: z.string().nullable(),
});
/** One document in the review queue. */
export type ReviewQueueItem = z.infer<typeof ReviewQueueItemSchema>;

/** A page of the review queue, with how many documents each view holds (for its tabs). */
export const ReviewQueueSchema = z.object({
  items: z.array(ReviewQueueItemSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  counts: z.object({
    needs_review: z.number().int(),
    approved: z.number().int(),
    failed: z.number().int(),
    all: z.number().int(),
  }),
});
/** A page of the review queue. */
export type ReviewQueue = z.infer<typeof ReviewQueueSchema>;
