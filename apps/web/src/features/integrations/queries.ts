import type { Integrations } from '@bahi/contracts';
import { useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';

/** Real state of each integration (`GET /api/integrations`). */
export function useIntegrations() {
  return useQuery({
    queryKey: ['integrations'],
    queryFn: ({ signal }) => getJson<Integrations>('/api/integrations', signal),
  });
}
