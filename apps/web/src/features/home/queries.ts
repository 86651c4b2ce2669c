import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

/** Dashboard counters and recent activity (`GET /api/dashboard`). */
export function useDashboard() {
  return useQuery({
    queryKey: ['dashboard'],
    queryFn: ({ signal }) => callEndpoint(api.dashboard, { signal }),
  });
}

/** One page of the whole activity log (`GET /api/activity?page=N`), kept while the next one loads. */
export function useActivityHistory(page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['activity', page],
    queryFn: ({ signal }) => callEndpoint(api.activity, { query: { page }, signal }),
    enabled,
    placeholderData: keepPreviousData,
  });
}
