import type { DocumentCorrection, DocumentReview, ReviewQueue } from '@bahi/contracts';
import { getJson, postJson, requestApi } from '@/lib/api.ts';

const base = (id: string) => `/api/documents/${encodeURIComponent(id)}`;

/** `GET /api/documents/:id/review`: the document, its pages, its trail and its neighbours. */
export function getDocumentReview(id: string, signal?: AbortSignal): Promise<DocumentReview> {
  return getJson<DocumentReview>(`${base(id)}/review`, signal);
}

/** `PATCH /api/documents/:id`: correct values as typed; answers with the document after the change. */
export function correctDocument(
  id: string,
  correction: Partial<DocumentCorrection>,
): Promise<DocumentReview> {
  return requestApi<DocumentReview>(base(id), {
    method: 'PATCH',
    body: { fields: correction.fields ?? {}, lines: correction.lines ?? [] },
  });
}

/** `POST /api/documents/:id/approve`. */
export function approveDocument(id: string): Promise<DocumentReview> {
  return postJson<DocumentReview>(`${base(id)}/approve`);
}

/** URL of a page's picture at about `width` pixels (the server rounds up to the sizes it keeps). */
export function getPageImageUrl(imageUrl: string, width: number): string {
  return `${imageUrl}?width=${Math.max(640, Math.min(2400, Math.round(width)))}`;
}

/** `GET /api/review`: a page of the organisation's review queue. */
export function getReviewQueue(params: URLSearchParams, signal?: AbortSignal): Promise<ReviewQueue> {
  const query = new URLSearchParams();
  for (const key of ['view', 'flowId', 'vendor', 'from', 'to', 'min', 'max', 'q', 'page']) {
    const value = params.get(key)?.trim();
    if (value) query.set(key, value);
  }
  return getJson<ReviewQueue>(`/api/review?${query}`, signal);
}
