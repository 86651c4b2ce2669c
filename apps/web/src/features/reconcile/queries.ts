import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getReconciliation, overrideInvoice } from './reconcile-api.ts';

const key = ['reconcile'] as const;

/** The match of the organisation's documents (asked afresh each time the screen opens). */
export function useReconciliation() {
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) => getReconciliation(signal),
    refetchOnMount: 'always',
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
