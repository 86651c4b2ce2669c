import type { DocumentCorrection, DocumentReview, ReviewQueue } from '@bahi/contracts';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

/** `GET /api/documents/:id/review`: the document, its pages, its trail and its neighbours. */
export function getDocumentReview(id: string, signal?: AbortSignal): Promise<DocumentReview> {
  return callEndpoint(api.documentReview, { params: { id }, signal });
}

/** `PATCH /api/documents/:id`: correct values as typed; answers with the document after the change. */
export function correctDocument(
  id: string,
  correction: Partial<DocumentCorrection>,
): Promise<DocumentReview> {
  return callEndpoint(api.correctDocument, {
    params: { id },
    body: {
      fields: correction.fields ?? {},
      lines: correction.lines ?? [],
      ...(correction.deleteLines ? { deleteLines: correction.deleteLines } : {}),
      ...(correction.addLines ? { addLines: correction.addLines } : {}),
    },
  });
}

/** `POST /api/documents/:id/approve`, with the note a failed check asks for. */
export function approveDocument(id: string, note?: string): Promise<DocumentReview> {
  return callEndpoint(api.approveDocument, { params: { id }, body: note ? { note } : {} });
}

/** `POST /api/documents/:id/forget`: forget what was learned about this document's issuer for a field. */
export function forgetLearnedField(id: string, field: string): Promise<DocumentReview> {
  return callEndpoint(api.forgetLearnedField, { params: { id }, body: { field } });
}

/** URL of a page's picture at about `width` pixels (the server rounds up to the sizes it keeps). */
export function getPageImageUrl(imageUrl: string, width: number): string {
  return `${imageUrl}?width=${Math.max(640, Math.min(2400, Math.round(width)))}`;
}

/** The review queue's filters, copied from the page's URL in this order. */
const reviewQueueKeys = ['view', 'flowId', 'vendor', 'from', 'to', 'min', 'max', 'q', 'page'] as const;

/** `GET /api/review`: a page of the organisation's review queue. */
export function getReviewQueue(params: URLSearchParams, signal?: AbortSignal): Promise<ReviewQueue> {
  const query: Partial<Record<(typeof reviewQueueKeys)[number], string>> = {};
  for (const key of reviewQueueKeys) {
    const value = params.get(key)?.trim();
    if (value) query[key] = value;
  }
  return callEndpoint(api.reviewQueue, { query, signal });
}
