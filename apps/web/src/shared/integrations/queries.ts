import type { GoogleSetupInput } from '@bahi/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

export type { GoogleLinkedItem as LinkedItem, GoogleStatus } from '@bahi/contracts';

/** Real state of each integration (`GET /api/integrations`). */
export function useIntegrations() {
  return useQuery({
    queryKey: ['integrations'],
    queryFn: ({ signal }) => callEndpoint(api.integrations, { signal }),
  });
}

/** The Google card's state with the folder/sheet set-up. */
export function useGoogleStatus() {
  return useQuery({
    queryKey: ['google-status'],
    queryFn: ({ signal }) => callEndpoint(api.googleStatus, { signal }),
  });
}

/** Refetches everything that shows the Google state. */
export function useRefreshGoogleState() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ['google-status'] }),
      client.invalidateQueries({ queryKey: ['integrations'] }),
    ]);
}

/** Disconnect (revoke + clear set-up), refresh (real check), folder and sheet set-up. */
export function useGoogleActions() {
  const refresh = useRefreshGoogleState();
  const after = { onSettled: () => refresh() };
  return {
    disconnect: useMutation({ mutationFn: () => callEndpoint(api.googleDisconnect), ...after }),
    verify: useMutation({ mutationFn: () => callEndpoint(api.googleVerify), ...after }),
    folder: useMutation({
      mutationFn: (input: GoogleSetupInput) => callEndpoint(api.googleFolder, { body: input }),
      ...after,
    }),
    vendorSheet: useMutation({
      mutationFn: (input: GoogleSetupInput) => callEndpoint(api.googleVendorSheet, { body: input }),
      ...after,
    }),
  };
}
