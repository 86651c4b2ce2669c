import type { InterestModule } from '@bahi/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

const interestKey = ['interest'] as const;

/** Modules the user asked to hear about (`GET /api/interest`). */
export function useInterest() {
  return useQuery({
    queryKey: interestKey,
    queryFn: ({ signal }) => callEndpoint(api.interest, { signal }),
  });
}

/** Records interest in a module (`POST /api/interest`, idempotent). */
export function useRegisterInterest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (module: InterestModule) => callEndpoint(api.registerInterest, { body: { module } }),
    onSuccess: (list) => {
      queryClient.setQueryData(interestKey, list);
      // The server logs an activity, so the dashboard's recent activity changed too.
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
