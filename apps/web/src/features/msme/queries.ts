import type {
  MsmeBankRateInput,
  MsmeObjectionInput,
  MsmePaymentInput,
  MsmeRegistrationInput,
} from '@bahi/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

/** The MSME screen (asked afresh each time it opens: invoices and payments change elsewhere). */
export function useMsme() {
  return useQuery({
    queryKey: ['msme'],
    queryFn: ({ signal }) => callEndpoint(api.msme, { signal }),
    refetchOnMount: 'always',
  });
}

/** A change on the MSME screen, after which the screen is asked again. */
function useMsmeMutation<T, R>(fn: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['msme'] }),
  });
}

/** Set a vendor's category for a year. */
export const useSaveRegistration = () =>
  useMsmeMutation((body: MsmeRegistrationInput) => callEndpoint(api.saveMsmeRegistration, { body }));
/** Record a payment. */
export const useRecordPayment = () =>
  useMsmeMutation((body: MsmePaymentInput) => callEndpoint(api.recordMsmePayment, { body }));
/** Remove a payment recorded by mistake. */
export const useRemovePayment = () =>
  useMsmeMutation((id: string) => callEndpoint(api.removeMsmePayment, { params: { id } }));
/** Import a bank statement CSV. */
export const useImportPayments = () =>
  useMsmeMutation((csv: string) => callEndpoint(api.importMsmePayments, { body: { csv } }));
/** Record a written objection. */
export const useAddObjection = () =>
  useMsmeMutation((body: MsmeObjectionInput) => callEndpoint(api.addMsmeObjection, { body }));
/** Mark an objection resolved. */
export const useResolveObjection = () =>
  useMsmeMutation(({ id, resolvedOn }: { id: string; resolvedOn: string }) =>
    callEndpoint(api.resolveMsmeObjection, { params: { id }, body: { resolvedOn } }),
  );
/** Record a bank rate from the day it took effect. */
export const useAddBankRate = () =>
  useMsmeMutation((body: MsmeBankRateInput) => callEndpoint(api.addMsmeBankRate, { body }));
/** Remove a mistaken bank rate. */
export const useRemoveBankRate = () =>
  useMsmeMutation((id: string) => callEndpoint(api.removeMsmeBankRate, { params: { id } }));
