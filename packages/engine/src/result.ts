import {
  type Provenance as ContractProvenance,
  type ExtractionResult as ContractResult,
  EXTRACTION_CONTRACT,
  type ExtractionCheck,
  type ExtractionErrorCode,
  type ExtractionFieldValue,
  type ExtractionLineItem,
} from '@bahi/contracts/extraction';
import type { DocumentType } from './types.ts';

// The contract's version, error codes and check codes are declared once, in @bahi/contracts.
export { EXTRACTION_CONTRACT, type ExtractionErrorCode };

// One value's place, one check and one value are the contract's own types, as the result is.
/** Where one value was read. */
export type Provenance = ContractProvenance;
/** One check the engine ran (passed or failed). */
export type CheckResult = ExtractionCheck;
/** A header field value: text, number, or null when the document does not show it. */
export type FieldValue = ExtractionFieldValue;

/** One line item; values keyed by contract field names, provenance optional (the contract's type). */
export type LineItem = ExtractionLineItem;

/**
 * The `extraction/v1` result for one document: the contract's own type (`@bahi/contracts/extraction`),
 * plus, for one document of a file that holds several, its first and last page (1-based).
 */
export type ExtractionResult = ContractResult & { pageRange?: [number, number] };

/** Build the result for a document that could not be read: `error` set and nothing else guessed. */
export function buildErrorResult(
  file: string | null,
  code: ExtractionErrorCode,
  message: string,
  documentType: DocumentType | null = null,
): ExtractionResult {
  return {
    contract: EXTRACTION_CONTRACT,
    file,
    documentType,
    pages: 0,
    source: null,
    fields: {},
    lineItems: [],
    checks: [],
    confidence: {},
    provenance: {},
    error: { code, message },
  };
}

/** An error the pipeline raises to end a document with a contract error code. */
export class ExtractionError extends Error {
  /** The contract error code. */
  readonly code: ExtractionErrorCode;
  constructor(code: ExtractionErrorCode, message: string) {
    super(message);
    this.code = code;
    this.name = 'ExtractionError';
  }
}
