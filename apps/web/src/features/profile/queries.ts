import type { CreateOrganizationInput, Me, Organization, UpdateOrganizationInput } from '@bahi/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postJson, putJson } from '@/lib/api.ts';

/** Puts the saved organisation into every cached `/api/me` answer so the shell updates at once. */
function storeOrganization(queryClient: ReturnType<typeof useQueryClient>, organization: Organization) {
  queryClient.setQueriesData<Me>({ queryKey: ['me'] }, (me) => (me ? { ...me, organization } : me));
}

/** `POST /api/organization` (onboarding). */
export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateOrganizationInput) => postJson<Organization>('/api/organization', input),
    onSuccess: (organization) => {
      storeOrganization(queryClient, organization);
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}

/** `PUT /api/organization` (profile "Save Changes"). */
export function useUpdateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateOrganizationInput) => putJson<Organization>('/api/organization', input),
    onSuccess: (organization) => {
      storeOrganization(queryClient, organization);
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
