import type { CreateVendorLinkInput, SendVendorLinkMailInput } from '@bahi/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

/** Query keys of vendor onboarding. */
export const onboardingKeys = {
  links: ['vendor-links'] as const,
  submissions: ['vendor-submissions'] as const,
  bankChanges: ['vendor-bank-changes'] as const,
};

/** The organisation's onboarding links. */
export function useVendorLinks() {
  return useQuery({
    queryKey: onboardingKeys.links,
    queryFn: async ({ signal }) => (await callEndpoint(api.vendorLinks, { signal })).items,
  });
}

/** Vendor forms sent, pending first. */
export function useVendorSubmissions() {
  return useQuery({
    queryKey: onboardingKeys.submissions,
    queryFn: async ({ signal }) => (await callEndpoint(api.vendorSubmissions, { signal })).items,
  });
}

/** New bank accounts waiting for a second person. */
export function useVendorBankChanges() {
  return useQuery({
    queryKey: onboardingKeys.bankChanges,
    queryFn: async ({ signal }) => (await callEndpoint(api.vendorBankChanges, { signal })).items,
  });
}

/** After any onboarding decision: links, queue, bank changes, the vendor master and the dashboard. */
function useChanged() {
  const queryClient = useQueryClient();
  return () => {
    for (const key of [
      ['vendor-links'],
      ['vendor-submissions'],
      ['vendor-bank-changes'],
      ['vendors'],
      ['dashboard'],
    ])
      void queryClient.invalidateQueries({ queryKey: key });
  };
}

/** Make a link; the answer holds its address, shown once. */
export function useCreateVendorLink() {
  const changed = useChanged();
  return useMutation({
    mutationFn: (body: CreateVendorLinkInput) => callEndpoint(api.createVendorLink, { body }),
    onSuccess: changed,
  });
}

/** Send a link just made to the vendor by e-mail (queued; the links list says when it left). */
export function useSendVendorLinkMail() {
  const changed = useChanged();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: SendVendorLinkMailInput }) =>
      callEndpoint(api.sendVendorLinkMail, { params: { id }, body }),
    onSuccess: changed,
  });
}

/** Revoke a link. */
export function useRevokeVendorLink() {
  const changed = useChanged();
  return useMutation({
    mutationFn: (id: string) => callEndpoint(api.revokeVendorLink, { params: { id } }),
    onSuccess: changed,
  });
}

/** Approve, send back or reject a submission. */
export function useDecideSubmission() {
  const changed = useChanged();
  return useMutation({
    mutationFn: async ({
      id,
      decision,
      note,
    }: {
      id: string;
      decision: 'approve' | 'changes' | 'reject';
      note?: string;
    }): Promise<{ bankChangeId: string | null }> => {
      if (decision === 'approve') return callEndpoint(api.approveVendorSubmission, { params: { id } });
      await callEndpoint(decision === 'changes' ? api.requestVendorChanges : api.rejectVendorSubmission, {
        params: { id },
        body: { note: note ?? '' },
      });
      return { bankChangeId: null };
    },
    onSuccess: changed,
  });
}

/** The second person's decision on a new bank account. */
export function useDecideBankChange() {
  const changed = useChanged();
  return useMutation({
    mutationFn: ({ id, approve }: { id: string; approve: boolean }) =>
      callEndpoint(approve ? api.approveVendorBankChange : api.rejectVendorBankChange, { params: { id } }),
    onSuccess: changed,
  });
}
