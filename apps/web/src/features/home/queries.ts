import type { Dashboard } from '@bahi/contracts';
import { useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';

/** Dashboard counters and recent activity (`GET /api/dashboard`). */
export function useDashboard() {
  return useQuery({
    queryKey: ['dashboard'],
    queryFn: ({ signal }) => getJson<Dashboard>('/api/dashboard', signal),
  });
}
