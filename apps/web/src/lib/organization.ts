import type { CreateOrganizationInput, Me, Organization, UpdateOrganizationInput } from '@bahi/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from './endpoint.ts';
import { api } from './endpoints.ts';

/** Puts the saved organisation into every cached `/api/me` answer so the shell updates at once. */
function storeOrganization(queryClient: ReturnType<typeof useQueryClient>, organization: Organization) {
  queryClient.setQueriesData<Me>({ queryKey: ['me'] }, (me) => (me ? { ...me, organization } : me));
}

/** `POST /api/organization` (onboarding). */
export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateOrganizationInput) => callEndpoint(api.createOrganization, { body: input }),
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
    mutationFn: (input: UpdateOrganizationInput) => callEndpoint(api.updateOrganization, { body: input }),
    onSuccess: (organization) => {
      storeOrganization(queryClient, organization);
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
