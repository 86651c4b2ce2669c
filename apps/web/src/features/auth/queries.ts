import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';
import { authClient } from './auth-client.ts';

/** Query key of `/api/me` for one user; keyed by id so switching accounts never shows stale data. */
export function meQueryKey(userId: string | undefined) {
  return ['me', userId ?? 'anonymous'] as const;
}

/** Which sign-in options the server offers (`GET /api/auth-config`). */
export function useAuthConfig() {
  return useQuery({
    queryKey: ['auth-config'],
    queryFn: ({ signal }) => callEndpoint(api.authConfig, { signal }),
    staleTime: 5 * 60_000,
  });
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
