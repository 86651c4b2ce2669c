import type { ActivityPage, Dashboard } from '@bahi/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';

/** Dashboard counters and recent activity (`GET /api/dashboard`). */
export function useDashboard() {
  return useQuery({
    queryKey: ['dashboard'],
    queryFn: ({ signal }) => getJson<Dashboard>('/api/dashboard', signal),
  });
}

/** One page of the whole activity log (`GET /api/activity?page=N`), kept while the next one loads. */
export function useActivityHistory(page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['activity', page],
    queryFn: ({ signal }) => getJson<ActivityPage>(`/api/activity?page=${page}`, signal),
    enabled,
    placeholderData: keepPreviousData,
  });
}
