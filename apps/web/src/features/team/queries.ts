import type { AuditQuery, CreateInvitationInput, Role } from '@bahi/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

/** Query keys of the team feature. */
export const teamKeys = {
  team: ['team'] as const,
  sessions: ['me', 'sessions'] as const,
  audit: (query: Partial<AuditQuery>) => ['audit', query] as const,
  invitation: (token: string) => ['invitation', token] as const,
};

/** Members, pending invitations and the approval limit. */
export function useTeam() {
  return useQuery({ queryKey: teamKeys.team, queryFn: ({ signal }) => callEndpoint(api.team, { signal }) });
}

/** After a team change: the team, who I am (my role may have changed) and the trail are stale. */
function useTeamChanged() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: teamKeys.team });
    void queryClient.invalidateQueries({ queryKey: ['me'] });
    void queryClient.invalidateQueries({ queryKey: ['audit'] });
  };
}

/** Invite someone with a role; the answer holds the link, shown once. */
export function useInvite() {
  const changed = useTeamChanged();
  return useMutation({
    mutationFn: (body: CreateInvitationInput) => callEndpoint(api.invite, { body }),
    onSuccess: changed,
  });
}

/** Revoke a pending invitation. */
export function useRevokeInvitation() {
  const changed = useTeamChanged();
  return useMutation({
    mutationFn: (id: string) => callEndpoint(api.revokeInvitation, { params: { id } }),
    onSuccess: changed,
  });
}

/** Change a member's role. */
export function useChangeRole() {
  const changed = useTeamChanged();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      callEndpoint(api.changeMemberRole, { params: { userId }, body: { role } }),
    onSuccess: changed,
  });
}

/** Remove a member (their sessions end at once). */
export function useRemoveMember() {
  const changed = useTeamChanged();
  return useMutation({
    mutationFn: (userId: string) => callEndpoint(api.removeMember, { params: { userId } }),
    onSuccess: changed,
  });
}

/** Set the maker-checker limit (paise). */
export function useSetApprovalLimit() {
  const changed = useTeamChanged();
  return useMutation({
    mutationFn: (approvalLimitPaise: number) =>
      callEndpoint(api.setApprovalLimit, { body: { approvalLimitPaise } }),
    onSuccess: changed,
  });
}

/** Where I am signed in. */
export function useMySessions() {
  return useQuery({
    queryKey: teamKeys.sessions,
    queryFn: ({ signal }) => callEndpoint(api.mySessions, { signal }),
  });
}

/** Sign one of my sessions out. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callEndpoint(api.endSession, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.sessions }),
  });
}

/** One page of the audit trail, kept while the next loads. */
export function useAudit(query: Partial<AuditQuery>) {
  return useQuery({
    queryKey: teamKeys.audit(query),
    queryFn: ({ signal }) => callEndpoint(api.audit, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** What an invitation link offers. */
export function useInvitation(token: string) {
  return useQuery({
    queryKey: teamKeys.invitation(token),
    queryFn: ({ signal }) => callEndpoint(api.invitation, { params: { token }, signal }),
    retry: false,
  });
}

/** Join with an invitation; this session switches to the organisation. */
export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(api.acceptInvitation, { params: { token } }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** Leave the organisation in use (the last owner cannot). */
export function useLeaveOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(api.leaveOrganization),
    // Leaving signs this person out everywhere: whatever is cached is no longer theirs to see.
    onSuccess: () => queryClient.resetQueries(),
  });
}
