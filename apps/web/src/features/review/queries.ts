import type { DocumentCorrection, DocumentReview } from '@bahi/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { flowKeys } from '@/shared/flows/queries.ts';
import {
  approveDocument,
  correctDocument,
  forgetLearnedField,
  getDocumentReview,
  getReviewQueue,
} from './review-api.ts';

/** Query keys of the review feature. */
export const reviewKeys = {
  document: (id: string) => ['documents', id, 'review'] as const,
};

/** The review screen's data of one document. */
export function useDocumentReview(id: string) {
  return useQuery({
    queryKey: reviewKeys.document(id),
    queryFn: ({ signal }) => getDocumentReview(id, signal),
    refetchOnMount: 'always',
  });
}

/** After a change: the answer is the new state; the flow's inbox and sheet are stale. */
function useStore(id: string) {
  const queryClient = useQueryClient();
  return (review: DocumentReview) => {
    queryClient.setQueryData(reviewKeys.document(id), review);
    void queryClient.invalidateQueries({ queryKey: flowKeys.documents(review.document.flowId) });
    void queryClient.invalidateQueries({ queryKey: flowKeys.sheet(review.document.flowId) });
    void queryClient.invalidateQueries({ queryKey: flowKeys.outputs(review.document.flowId) });
    void queryClient.invalidateQueries({ queryKey: ['review', 'queue'] });
  };
}

/** Correct values of a document. */
export function useCorrectDocument(id: string) {
  const store = useStore(id);
  return useMutation({
    mutationFn: (correction: Partial<DocumentCorrection>) => correctDocument(id, correction),
    onSuccess: store,
  });
}

/** Approve a document. */
export function useApproveDocument(id: string) {
  const store = useStore(id);
  return useMutation({ mutationFn: (note?: string) => approveDocument(id, note), onSuccess: store });
}

/** Forget what Bahi learned about this document's issuer for one field. */
export function useForgetLearnedField(id: string) {
  const store = useStore(id);
  return useMutation({ mutationFn: (field: string) => forgetLearnedField(id, field), onSuccess: store });
}

/** A page of the review queue for the filters in `params` (the page's address). */
export function useReviewQueue(params: URLSearchParams) {
  const key = params.toString();
  return useQuery({
    queryKey: ['review', 'queue', key] as const,
    queryFn: ({ signal }) => getReviewQueue(params, signal),
    placeholderData: (previous) => previous,
    refetchOnMount: 'always',
  });
}
