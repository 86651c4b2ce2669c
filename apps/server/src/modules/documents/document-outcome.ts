import {
  CRITICAL_FIELDS,
  listDocumentFormats,
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

/**
 * The one definition of "needs review", used by the inbox, the sheet, the workbook, the dashboard and
 * the notification alike: a failed check, a missing critical field (number, date, vendor, and the total
 * of an invoice), a value read with low confidence, or a possible duplicate. Returns the reason codes,
 * in that order (`describeReviewReason` words them); none means the document is OK.
 */
export function listReviewReasons(
  result: ExtractionResult,
  options: { possibleDuplicate?: boolean } = {},
): string[] {
  const reasons = [...new Set(result.checks.filter((c) => !c.ok).map((c) => c.code as string))];
  const type = result.documentType ? toFlowDocumentType(result.documentType) : null;
  for (const field of type ? CRITICAL_FIELDS[type] : []) {
    const value = (result.fields as Record<string, unknown>)[field];
    if (value === null || value === undefined || value === '') reasons.push(`missing:${field}`);
  }
  for (const [field, confidence] of Object.entries(result.confidence)) {
    if (confidence < REVIEW_CONFIDENCE) reasons.push(`low_confidence:${field}`);
  }
  if (options.possibleDuplicate) reasons.push(POSSIBLE_DUPLICATE);
  return reasons;
}

/**
 * Turns an `extraction/v1` result into what is stored: failed when the engine could not read the file,
 * needs_review when `listReviewReasons` gives any reason (stored with it), done otherwise. `duplicateOf`
 * names the earlier document this one looks like a copy of (it then needs review and stays out of the sheets).
 */
export function buildDocumentOutcome(
  result: ExtractionResult,
  options: { duplicateOf?: string | null } = {},
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
  const reasons = listReviewReasons(result, { possibleDuplicate: duplicateOf !== null });
  const lines = result.lineItems.map((line) => {
    const { provenance: _provenance, ...values } = line;
    return values as Record<string, unknown>;
  });
  return {
    status: reasons.length > 0 ? 'needs_review' : 'done',
    extraction: result,
    errorCode: null,
    errorMessage: null,
    // The review reasons (failed checks and the rest), worded by `describeReviewReason` wherever shown.
    failedChecks: reasons,
    reviewFlag: reasons.length > 0 ? 'review' : 'ok',
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
