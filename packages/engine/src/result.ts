import {
  EXTRACTION_CONTRACT,
  type ExtractionCheckCode,
  type ExtractionErrorCode,
} from '@bahi/contracts/extraction';
import type { BBox, DocumentType, Source } from './types.ts';

// The contract's version, error codes and check codes are declared once, in @bahi/contracts.
export { EXTRACTION_CONTRACT, type ExtractionErrorCode };

/** Where one value was read. */
export interface Provenance {
  page: number;
  bbox: BBox;
  source: Source;
  /** For a value from memory: the document whose correction taught it (its number, when known). */
  learnedFrom?: string | null;
}

/** One check the engine ran (passed or failed). */
export interface CheckResult {
  code: ExtractionCheckCode;
  field: string | null;
  ok: boolean;
  message: string;
}

/** A header field value: text, number, or null when the document does not show it. */
export type FieldValue = string | number | null;

/** One line item; values keyed by contract field names, provenance optional. */
export type LineItem = Record<string, FieldValue | Record<string, Provenance>> & {
  provenance?: Record<string, Provenance>;
};

/** The `extraction/v1` result for one document, exactly as the contract's JSON. */
export interface ExtractionResult {
  contract: typeof EXTRACTION_CONTRACT;
  file: string | null;
  documentType: DocumentType | null;
  pages: number;
  source: 'text' | 'ocr' | 'mixed' | 'qr' | null;
  fields: Record<string, FieldValue>;
  lineItems: LineItem[];
  checks: CheckResult[];
  confidence: Record<string, number>;
  provenance: Record<string, Provenance>;
  error: { code: ExtractionErrorCode; message: string } | null;
  /** Non-fatal notes (e.g. image-only pages that could not be read without OCR). */
  warnings?: string[];
  /** For one document of a file that holds several: its first and last page (1-based). */
  pageRange?: [number, number];
}

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
