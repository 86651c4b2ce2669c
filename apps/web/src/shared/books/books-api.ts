import type {
  BooksPush,
  CreatePartyLedgersInput,
  LedgerMapping,
  TallyConnectionInput,
  ZohoConnectionInput,
  ZohoMapping,
} from '@bahi/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

// Tally and Zoho Books: the connections, their mappings, posting and push records (server: modules/books).

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
/** Post a batch (to Tally, or to Zoho Books). */
export const usePostToTally = (kind: BooksPush['kind'] = 'tally') =>
  useBooksMutation((documentIds: string[]) =>
    callEndpoint(kind === 'zoho' ? api.postToZoho : api.postToTally, { body: { documentIds } }),
  );
/** Cancel a voucher (void a Zoho bill). */
export const useCancelInTally = (kind: BooksPush['kind'] = 'tally') =>
  useBooksMutation((id: string) =>
    callEndpoint(kind === 'zoho' ? api.voidInZoho : api.cancelInTally, { params: { id } }),
  );

/** The Zoho Books connection's state. */
export function useZohoConnection() {
  return useQuery({
    queryKey: ['books', 'zoho'],
    queryFn: ({ signal }) => callEndpoint(api.zohoConnection, { signal }),
  });
}
/** The connection of either package (the review queue and the document page show both alike). */
export function useBooksConnection(kind: BooksPush['kind']) {
  const tally = useTallyConnection();
  const zoho = useZohoConnection();
  return kind === 'zoho' ? zoho : tally;
}
/** The Zoho Books mapping screen (only once it is set up). */
export function useZohoMapping(enabled: boolean) {
  return useQuery({
    queryKey: ['books', 'zoho-mapping'],
    queryFn: ({ signal }) => callEndpoint(api.zohoMapping, { signal }),
    enabled,
  });
}
/** Save the Zoho Books connection. */
export const useSaveZoho = () =>
  useBooksMutation((body: ZohoConnectionInput) => callEndpoint(api.saveZohoConnection, { body }));
/** Zoho's "Test connection". */
export function useTestZoho() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(api.testZoho, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['books'] }),
  });
}
/** Save the Zoho Books mapping. */
export const useSaveZohoMapping = () =>
  useBooksMutation((body: ZohoMapping) => callEndpoint(api.saveZohoMapping, { body }));
