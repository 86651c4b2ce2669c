import { useQuery } from '@tanstack/react-query';
import { authClient } from './auth-client.ts';
import { callEndpoint } from './endpoint.ts';
import { api } from './endpoints.ts';

/** Query key of `/api/me` for one user; keyed by id so switching accounts never shows stale data. */
export function meQueryKey(userId: string | undefined) {
  return ['me', userId ?? 'anonymous'] as const;
}

/** The better-auth session (cookie-backed). */
export function useSession() {
  return authClient.useSession();
}

/** The signed-in user and organisation (`GET /api/me`); idle while signed out. */
export function useMe() {
  const session = authClient.useSession();
  const userId = session.data?.user.id;
  return useQuery({
    queryKey: meQueryKey(userId),
    queryFn: ({ signal }) => callEndpoint(api.me, { signal }),
    enabled: Boolean(userId),
    staleTime: 60_000,
  });
}
