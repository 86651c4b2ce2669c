import type { CreatePartyLedgersInput, LedgerMapping, TallyConnectionInput } from '@bahi/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

// Tally: the connection, the ledger mapping, posting and push records (server: modules/books).

/** The Tally connection's state. */
export function useTallyConnection() {
  return useQuery({
    queryKey: ['books', 'tally'],
    queryFn: ({ signal }) => callEndpoint(api.tallyConnection, { signal }),
  });
}

/** The ledger mapping screen (only once Tally is set up). */
export function useLedgerMapping(enabled: boolean) {
  return useQuery({
    queryKey: ['books', 'mapping'],
    queryFn: ({ signal }) => callEndpoint(api.ledgerMapping, { signal }),
    enabled,
  });
}

/** Push records of documents (the review queue's column, the document page). */
export function useBooksPushes(ids: readonly string[]) {
  return useQuery({
    queryKey: ['books', 'pushes', ids.join(',')],
    queryFn: ({ signal }) => callEndpoint(api.booksPushes, { query: { ids: ids.join(',') }, signal }),
    enabled: ids.length > 0,
    // Posting runs on the queue: look again while something is on its way.
    refetchInterval: (q) =>
      q.state.data?.items.some((p) => p.state === 'queued' || p.state === 'sending') ? 1500 : false,
  });
}

/** Every books mutation refreshes the books queries. */
function useBooksMutation<I, O>(fn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['books'] }),
  });
}

/** Save the connection. */
export const useSaveTally = () =>
  useBooksMutation((body: TallyConnectionInput) => callEndpoint(api.saveTallyConnection, { body }));
/** "Test connection": takes no input, so the mutation's variables stay TanStack's default (none). */
export function useTestTally() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(api.testTally, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['books'] }),
  });
}
/** Save the mapping. */
export const useSaveMapping = () =>
  useBooksMutation((body: LedgerMapping) => callEndpoint(api.saveLedgerMapping, { body }));
/** Create confirmed party ledgers. */
export const useCreatePartyLedgers = () =>
  useBooksMutation((body: CreatePartyLedgersInput) => callEndpoint(api.createPartyLedgers, { body }));
/** Post a batch. */
export const usePostToTally = () =>
  useBooksMutation((documentIds: string[]) => callEndpoint(api.postToTally, { body: { documentIds } }));
/** Cancel a voucher. */
export const useCancelInTally = () =>
  useBooksMutation((id: string) => callEndpoint(api.cancelInTally, { params: { id } }));
