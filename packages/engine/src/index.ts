/**
 * @bahi/engine — bytes of an Indian PO, GRN or GST invoice in, `extraction/v1` out.
 * A pure library: no HTTP, database or environment inside; OCR is passed in.
 */

export { readWordsAmount, recheckResult } from './checks.ts';
export { classifyDocument } from './classify.ts';
export {
  DEFAULT_LIMITS,
  type ExtractOptions,
  extractDocument,
  extractDocuments,
  loadDocumentPages,
} from './extract.ts';
export type { FieldProvider, FieldRequest } from './field-provider.ts';
export { forgetField, issuerRole, learnFromCorrection, partyKey } from './memory/learn.ts';
export type { IssuerMemory, MemoryStore } from './memory/types.ts';
export { createTesseractOcr } from './ocr/index.ts';
export { createPaddleOcr } from './ocr/paddle.ts';
export {
  assertOcrProviderAvailable,
  createOcr,
  DEFAULT_OCR_PROVIDER,
  OCR_PROVIDERS,
  type OcrProviderName,
} from './ocr/providers.ts';
export {
  listPageFrames,
  MAX_PAGE_DRAW_OPERATIONS,
  MAX_PREVIEW_WIDTH,
  type PageFrame,
  type PagePreview,
  PreviewError,
  type RenderPreviewOptions,
  readPageFrames,
  renderPagePlaceholder,
  renderPagePreview,
} from './preview.ts';
export {
  buildErrorResult,
  type CheckResult,
  EXTRACTION_CONTRACT,
  type ExtractionErrorCode,
  type ExtractionResult,
  type FieldValue,
  type LineItem,
  type Provenance,
} from './result.ts';
export { sniffType } from './sniff.ts';
export { type PageSpan, splitPages } from './split.ts';
export type { BBox, DocumentType, OcrProvider, PageContent, Source, Word } from './types.ts';
