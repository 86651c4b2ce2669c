import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

const notificationsKey = ['notifications'] as const;

/** The user's notifications; polled each minute so the bell stays current without a reload. */
export function useNotifications() {
  return useQuery({
    queryKey: notificationsKey,
    queryFn: ({ signal }) => callEndpoint(api.notifications, { signal }),
    refetchInterval: 60_000,
  });
}

/** Marks the given notifications read (all when `ids` is omitted). */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) => callEndpoint(api.markNotificationsRead, { body: ids ? { ids } : {} }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: notificationsKey });
    },
  });
}

/** Work in another of my organisations; everything cached belonged to the other one. */
export function useSwitchOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (organizationId: string) =>
      callEndpoint(api.switchOrganization, { body: { organizationId } }),
    onSuccess: () => queryClient.resetQueries(),
  });
}
