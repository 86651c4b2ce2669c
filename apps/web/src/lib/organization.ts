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
      // The creator is its owner. The cached `/api/me` still says role null (fetched before the
      // organisation existed, and fresh for a minute), which left every permission-gated button — and
      // Home's "Generate Vendor Form", which waits for `vendors.edit` — dead until a reload. Say owner at
      // once, then read the rest (approval limit, organisation list) from the server.
      queryClient.setQueriesData<Me>({ queryKey: ['me'] }, (me) =>
        me ? { ...me, organization, role: me.role ?? 'owner' } : me,
      );
      void queryClient.invalidateQueries({ queryKey: ['me'] });
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
