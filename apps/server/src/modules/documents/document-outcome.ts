import {
  BUYER_NOT_CHECKED,
  billedToOtherReason,
  CRITICAL_FIELDS,
  listDocumentFormats,
  listHoldingReasons,
  NO_BUYER_GSTIN,
  POSSIBLE_DUPLICATE,
  toFlowDocumentType,
} from '@bahi/contracts';
import type { ExtractionResult } from '@bahi/engine';
import type { DocumentOutcome } from './documents.repo.ts';

/** Below this field confidence a row is flagged for review. */
export const REVIEW_CONFIDENCE = 0.8;

/** Engine error codes (and `internal`) in plain words for a finance person. */
const plainErrors: Record<string, string> = {
  encrypted_pdf: 'This PDF is password-protected. Remove the password and upload it again.',
  unreadable_file:
    'This file could not be read. It may be damaged or not a real PDF or image. Export or scan it again and upload the new copy.',
  unsupported_type: `This file type is not supported. Use ${listDocumentFormats()}.`,
  empty_document:
    'Nothing could be read from this file: it is empty or blank, or holds no invoice, purchase order or goods receipt details. Check that it is the right file, or scan it again.',
  too_large: 'This document is too large to read. Split it into smaller files and upload them again.',
  timeout:
    'This document took too long to read, so it was stopped. If it is a scan or a photo, scan it again at 300 dpi in black and white; if it is long, split it into smaller files; then upload it again.',
  internal:
    'Something went wrong on our side while reading this document. Retry it; if it fails again, contact support.',
};

/** True for an engine error that is its time limit (the engine words it "… time limit …"). */
export function isTimeLimitError(error: { code: string; message: string }): boolean {
  return error.code === 'too_large' && /time limit/i.test(error.message);
}

/** The plain-words message for an error code. */
export function describeDocumentError(code: string): string {
  return plainErrors[code] ?? plainErrors.internal!;
}

/**
 * The plain-words message for an engine error, with the page count when that is what was too large
 * (the engine says "1000 pages (limit 100)").
 */
export function describeExtractionError(error: { code: string; message: string }): string {
  if (isTimeLimitError(error)) return describeDocumentError('timeout');
  const pages = /^(\d+) pages \(limit (\d+)\)/.exec(error.message);
  if (error.code === 'too_large' && pages)
    return `This document has ${Number(pages[1]).toLocaleString('en-IN')} pages; at most ${pages[2]} are read from one file. Split it into smaller files and upload them again.`;
  return describeDocumentError(error.code);
}

/** A GSTIN as compared: upper case, without the spaces some bills print inside it. */
function normalizeGstin(gstin: string): string {
  return gstin.replace(/\s+/g, '').toUpperCase();
}

/**
 * Whether an invoice is billed to the organisation, as review reason codes: none when its buyer GSTIN is
 * one of the organisation's; `no_buyer_gstin` for a consumer bill; `billed_to_other:<GSTIN>:<name>` for
 * another company. Input tax credit can be claimed only on the first. An organisation whose profile has
 * no GSTIN yet gets the note `buyer_not_checked` instead: not knowing its own GSTINs, Bahi cannot call
 * every invoice foreign. Purchase orders and goods receipts are not checked (the organisation issues them).
 */
export function listBilledToReasons(
  result: ExtractionResult,
  organizationGstins: readonly string[],
): string[] {
  if (result.documentType !== 'invoice') return [];
  if (organizationGstins.length === 0) return [BUYER_NOT_CHECKED];
  const fields = result.fields as Record<string, unknown>;
  const buyer = typeof fields.buyerGstin === 'string' ? normalizeGstin(fields.buyerGstin) : '';
  if (!buyer) return [NO_BUYER_GSTIN];
  if (organizationGstins.some((g) => normalizeGstin(g) === buyer)) return [];
  // A buyer GSTIN that fails its own check is a misreading (the failed check already asks for a
  // look), not proof that the invoice is another company's.
  const misread = result.checks.some(
    (c) => !c.ok && c.field === 'buyerGstin' && (c.code === 'gstin_format' || c.code === 'gstin_checksum'),
  );
  if (misread) return [];
  const name =
    typeof fields.buyerName === 'string' && fields.buyerName.trim() ? fields.buyerName.trim() : null;
  return [billedToOtherReason(buyer, name)];
}

/** What a document's verdict depends on besides its own reading. */
export interface OutcomeContext {
  /** The organisation's GSTINs (its profile), to check an invoice is billed to it. */
  organizationGstins: readonly string[];
  /** It looks like a copy of a document already read. */
  possibleDuplicate?: boolean;
}

/**
 * The one definition of "needs review", used by the inbox, the sheet, the workbook, the dashboard and
 * the notification alike: a failed check, a missing critical field (number, date, vendor, and the total
 * of an invoice), a value read with low confidence, a possible duplicate, or an invoice not billed to the
 * organisation (`listBilledToReasons`). Returns the reason codes, in that order (`describeReviewReason`
 * words them), with the notes that do not hold a document (`isReviewNote`); no holding reason means OK.
 */
export function listReviewReasons(result: ExtractionResult, context: OutcomeContext): string[] {
  const reasons = [...new Set(result.checks.filter((c) => !c.ok).map((c) => c.code as string))];
  const type = result.documentType ? toFlowDocumentType(result.documentType) : null;
  for (const field of type ? CRITICAL_FIELDS[type] : []) {
    const value = (result.fields as Record<string, unknown>)[field];
    if (value === null || value === undefined || value === '') reasons.push(`missing:${field}`);
  }
  for (const [field, confidence] of Object.entries(result.confidence)) {
    if (confidence < REVIEW_CONFIDENCE) reasons.push(`low_confidence:${field}`);
  }
  if (context.possibleDuplicate) reasons.push(POSSIBLE_DUPLICATE);
  reasons.push(...listBilledToReasons(result, context.organizationGstins));
  return reasons;
}

/**
 * Turns an `extraction/v1` result into what is stored: failed when the engine could not read the file,
 * needs_review when `listReviewReasons` gives any holding reason, done otherwise (the reasons and notes
 * are stored either way). `duplicateOf` names the earlier document this one looks like a copy of (it then
 * needs review and stays out of the sheets); `organizationGstins` are the organisation's, so that every
 * path that decides a verdict (a run, a person's correction) checks whom an invoice is billed to.
 */
export function buildDocumentOutcome(
  result: ExtractionResult,
  options: {
    organizationGstins: readonly string[];
    duplicateOf?: string | null;
    /** A person's decision on the copy: "not a duplicate" no longer holds it. */
    duplicateDecision?: 'duplicate' | 'not_duplicate' | null;
  },
): DocumentOutcome {
  if (result.error) {
    return {
      status: 'failed',
      extraction: result,
      // The engine's time limit is told apart from a file too large: the cure differs.
      errorCode: isTimeLimitError(result.error) ? 'timeout' : result.error.code,
      errorMessage: describeExtractionError(result.error),
      failedChecks: [],
      reviewFlag: null,
      lines: [],
      duplicateOf: null,
    };
  }
  const duplicateOf = options.duplicateOf ?? null;
  const reasons = listReviewReasons(result, {
    organizationGstins: options.organizationGstins,
    possibleDuplicate: duplicateOf !== null && options.duplicateDecision !== 'not_duplicate',
  });
  const holding = listHoldingReasons(reasons).length > 0;
  const lines = result.lineItems.map((line) => {
    const { provenance: _provenance, ...values } = line;
    return values as Record<string, unknown>;
  });
  return {
    status: holding ? 'needs_review' : 'done',
    extraction: result,
    errorCode: null,
    errorMessage: null,
    // The review reasons (failed checks and the rest) and notes, worded by `describeReviewReason` wherever shown.
    failedChecks: reasons,
    reviewFlag: holding ? 'review' : 'ok',
    lines,
    duplicateOf,
  };
}

/**
 * The outcome for a document whose worker thread was stopped for overrunning the time limit (the engine's
 * own, softer limit did not get a chance: a page drawn in one long step). The document's problem, like a
 * damaged file: the run finishes with the others.
 */
export function buildTimeoutFailure(detail: string): DocumentOutcome {
  return {
    status: 'failed',
    extraction: { error: { code: 'timeout', message: detail } },
    errorCode: 'timeout',
    errorMessage: describeDocumentError('timeout'),
    failedChecks: [],
    reviewFlag: null,
    lines: [],
    duplicateOf: null,
  };
}

/** The outcome for a document whose extraction crashed outside the engine (worker died, out of memory). */
export function buildSystemFailure(detail: string): DocumentOutcome {
  return {
    status: 'failed',
    extraction: { error: { code: 'internal', message: detail } },
    errorCode: 'internal',
    errorMessage: describeDocumentError('internal'),
    failedChecks: [],
    reviewFlag: null,
    lines: [],
    duplicateOf: null,
  };
}

/**
 * The outcome for a document whose file its source no longer gives (deleted or changed since it was read):
 * failed because of the file, like a corrupt one — the run still succeeds — with the source's own words.
 */
export function buildSourceFailure(message: string): DocumentOutcome {
  return {
    status: 'failed',
    extraction: { error: { code: 'source_unavailable', message } },
    errorCode: 'source_unavailable',
    errorMessage: message,
    failedChecks: [],
    reviewFlag: null,
    lines: [],
    duplicateOf: null,
  };
}
