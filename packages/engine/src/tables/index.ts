import type { BBox, DocumentType, PageContent } from '../types.ts';

/** What the table stage returns for one document. */
export interface LineItemsResult {
  /** One object per line item, contract field names only, in document order. */
  lineItems: Array<Record<string, string | number | null>>;
  /** Where each line's values were read; same length as `lineItems`. */
  lineProvenance: Array<Record<string, { page: number; bbox: BBox; source: 'text' | 'ocr' }>>;
  /** The table area on each page (header row to last item row), so header fields can skip it. */
  regions: Array<{ page: number; y0: number; y1: number }>;
}

/**
 * Extract the line-item table of a document from its pages' words.
 * Placeholder until the table reader lands: returns no lines.
 */
export function extractLineItems(_pages: PageContent[], _type: DocumentType): LineItemsResult {
  return { lineItems: [], lineProvenance: [], regions: [] };
}
