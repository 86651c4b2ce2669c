/**
 * Shared internal model of the engine. Every stage speaks in these types:
 * text-layer words and OCR words both become `Word`s on a `PageContent`, so the
 * layout, field and table code never needs to know where the text came from.
 * Coordinates are PDF points from the page's top-left corner (OCR pixels are scaled by `POINTS_PER_INCH` / dpi).
 */

import type { ExtractionDocumentType } from '@bahi/contracts/extraction';
import type { PreprocessOptions } from './ocr/page.ts';

/** Where a value was read. */
export type Source = 'text' | 'ocr' | 'qr' | 'llm';

/** The document types the engine reads: the contract's (`extractionDocumentTypes` in `@bahi/contracts`). */
export type DocumentType = ExtractionDocumentType;

/** A bounding box `[x0, y0, x1, y1]` in PDF points from the page's top-left. */
export type BBox = [number, number, number, number];

/** One word (a run of non-space characters) on a page. */
export interface Word {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** 1-based page number. */
  page: number;
  source: 'text' | 'ocr';
  /** OCR confidence 0..1; text-layer words are 1. */
  conf: number;
}

/** Everything the engine knows about one page before interpretation. */
export interface PageContent {
  /** 1-based page number. */
  page: number;
  /** Page size in points. */
  width: number;
  height: number;
  words: Word[];
  source: 'text' | 'ocr';
}

/** Pluggable OCR: recognises words on a page image. Implementations live in `src/ocr`. */
export interface OcrProvider {
  /**
   * Recognise the words on an encoded image (PNG, JPEG, PGM, TIFF…; raw grey pixels go through
   * `ocrPageImage`'s `raw` option). `dpi` is the image's resolution, which the recogniser uses to size
   * its text model. Returned word boxes are in the image's pixel coordinates.
   */
  recognize(
    image: Uint8Array,
    options?: { signal?: AbortSignal; dpi?: number },
  ): Promise<Array<Omit<Word, 'page' | 'source'>>>;
  /** Free workers. */
  close(): Promise<void>;
  /**
   * How this recogniser wants pages prepared, over the defaults of `ocrPageImage` (a recogniser
   * trained on natural photos may want fewer of the steps that help Tesseract).
   */
  readonly preprocess?: Partial<PreprocessOptions>;
}
