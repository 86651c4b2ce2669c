import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getReconciliation, overrideInvoice, setFlowNoPo } from './reconcile-api.ts';

const key = ['reconcile'] as const;

/** A page of the match for the filters in `params` (asked afresh each time the screen opens). */
export function useReconciliation(params: URLSearchParams) {
  return useQuery({
    queryKey: [...key, params.toString()] as const,
    queryFn: ({ signal }) => getReconciliation(params, signal),
    refetchOnMount: 'always',
    // The list stays while the next filter's page loads, so typing a search does not blank the screen.
    placeholderData: keepPreviousData,
  });
}

/** Override an invoice's exceptions. */
export function useOverrideInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ invoiceId, reason }: { invoiceId: string; reason: string }) =>
      overrideInvoice(invoiceId, reason),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/** Mark a flow's invoices as needing no purchase order (or needing one again). */
export function useSetFlowNoPo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ flowId, noPoNeeded }: { flowId: string; noPoNeeded: boolean }) =>
      setFlowNoPo(flowId, noPoNeeded),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
