import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

/** Which sign-in options the server offers (`GET /api/auth-config`). */
export function useAuthConfig() {
  return useQuery({
    queryKey: ['auth-config'],
    queryFn: ({ signal }) => callEndpoint(api.authConfig, { signal }),
    staleTime: 5 * 60_000,
  });
}
