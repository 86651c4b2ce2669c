import type { Integrations } from '@bahi/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, postJson } from '@/lib/api.ts';

/** Real state of each integration (`GET /api/integrations`). */
export function useIntegrations() {
  return useQuery({
    queryKey: ['integrations'],
    queryFn: ({ signal }) => getJson<Integrations>('/api/integrations', signal),
  });
}

/** A Drive folder or spreadsheet the organisation set up. */
export interface LinkedItem {
  id: string;
  name: string;
  url: string;
}

/** `GET /api/google/status`. */
export interface GoogleStatus {
  configured: boolean;
  connected: boolean;
  email: string | null;
  scopes: string[];
  /** Scopes Bahi needs that the grant lacks; reconnecting asks for them. */
  missingScopes: string[];
  note: string;
  parentFolder: LinkedItem | null;
  vendorSheet: LinkedItem | null;
}

/** The Google card's state with the folder/sheet set-up. */
export function useGoogleStatus() {
  return useQuery({
    queryKey: ['google-status'],
    queryFn: ({ signal }) => getJson<GoogleStatus>('/api/google/status', signal),
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
    disconnect: useMutation({ mutationFn: () => postJson<GoogleStatus>('/api/google/disconnect'), ...after }),
    verify: useMutation({ mutationFn: () => postJson<GoogleStatus>('/api/google/refresh'), ...after }),
    folder: useMutation({
      mutationFn: (input: { url?: string }) =>
        postJson<LinkedItem & { created: boolean }>('/api/google/folder', input),
      ...after,
    }),
    vendorSheet: useMutation({
      mutationFn: (input: { url?: string }) =>
        postJson<LinkedItem & { created: boolean }>('/api/google/vendor-sheet', input),
      ...after,
    }),
  };
}
