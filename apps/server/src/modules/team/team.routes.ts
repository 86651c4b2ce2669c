import {
  AcceptedInvitationSchema,
  ApprovalLimitInputSchema,
  CreateInvitationInputSchema,
  IdParamsSchema,
  InvitationCreatedSchema,
  InvitationPreviewSchema,
  InvitationTokenParamsSchema,
  MemberParamsSchema,
  OkSchema,
  SessionListSchema,
  SessionParamsSchema,
  SwitchOrganizationInputSchema,
  TeamSchema,
  UpdateMemberRoleInputSchema,
} from '@bahi/contracts';
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppDeps, AppEnv } from '../../http/context.ts';
import { requirePermission } from '../../http/permissions.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership, requireUser } from '../../http/session.ts';
import {
  acceptInvitation,
  changeMemberRole,
  createInvitation,
  endSession,
  getTeam,
  listSessions,
  previewInvitation,
  removeMember,
  revokeInvitation,
  setApprovalLimit,
  switchOrganization,
} from './team.service.ts';

const tags = ['Team'];
const memberErrors = describeErrors(
  'unauthenticated',
  'forbidden',
  'no_organization',
  'not_found',
  'conflict',
);

const teamRoute = createRoute({
  method: 'get',
  path: '/team',
  tags,
  summary: 'Members, pending invitations and the approval limit',
  responses: { 200: jsonContent(TeamSchema), ...describeErrors('unauthenticated', 'no_organization') },
});
const inviteRoute = createRoute({
  method: 'post',
  path: '/team/invitations',
  tags,
  summary: 'Invite someone with a role: a one-use link valid 7 days (shown once)',
  request: { body: { ...jsonContent(CreateInvitationInputSchema, 'Whom and as what'), required: true } },
  responses: { 201: jsonContent(InvitationCreatedSchema, 'Created'), ...memberErrors },
});
const revokeRoute = createRoute({
  method: 'delete',
  path: '/team/invitations/{id}',
  tags,
  summary: 'Revoke a pending invitation (its link stops working)',
  request: { params: IdParamsSchema },
  responses: { 200: jsonContent(OkSchema), ...memberErrors },
});
const roleRoute = createRoute({
  method: 'put',
  path: '/team/members/{userId}',
  tags,
  summary: "Change a member's role (the last owner stays an owner)",
  request: {
    params: MemberParamsSchema,
    body: { ...jsonContent(UpdateMemberRoleInputSchema, 'The new role'), required: true },
  },
  responses: { 200: jsonContent(OkSchema), ...memberErrors },
});
const removeRoute = createRoute({
  method: 'delete',
  path: '/team/members/{userId}',
  tags,
  summary: 'Remove a member: their sessions end at once',
  request: { params: MemberParamsSchema },
  responses: { 200: jsonContent(OkSchema), ...memberErrors },
});
const leaveRoute = createRoute({
  method: 'post',
  path: '/team/leave',
  tags,
  summary: 'Leave the organisation (not the last owner)',
  responses: { 200: jsonContent(OkSchema), ...memberErrors },
});
const limitRoute = createRoute({
  method: 'put',
  path: '/team/approval-limit',
  tags,
  summary: 'Set the maker-checker limit: invoices above it (paise) need an approver or owner',
  request: { body: { ...jsonContent(ApprovalLimitInputSchema, 'The limit'), required: true } },
  responses: { 200: jsonContent(OkSchema), ...describeErrors('unauthenticated', 'forbidden', 'validation') },
});
const previewRoute = createRoute({
  method: 'get',
  path: '/invitations/{token}',
  tags,
  summary: 'What an invitation link offers (public: the person may not have an account yet)',
  security: [],
  request: { params: InvitationTokenParamsSchema },
  responses: { 200: jsonContent(InvitationPreviewSchema), ...describeErrors('not_found', 'conflict') },
});
const acceptRoute = createRoute({
  method: 'post',
  path: '/invitations/{token}/accept',
  tags,
  summary: 'Join the organisation with the invitation (once); this session switches to it',
  request: { params: InvitationTokenParamsSchema },
  responses: {
    200: jsonContent(AcceptedInvitationSchema),
    ...describeErrors('unauthenticated', 'forbidden', 'not_found', 'conflict'),
  },
});
const switchRoute = createRoute({
  method: 'put',
  path: '/me/organization',
  tags,
  summary: 'Work in another of your organisations (this session)',
  request: { body: { ...jsonContent(SwitchOrganizationInputSchema, 'Which'), required: true } },
  responses: { 200: jsonContent(OkSchema), ...describeErrors('unauthenticated', 'not_found', 'validation') },
});
const sessionsRoute = createRoute({
  method: 'get',
  path: '/me/sessions',
  tags,
  summary: 'Where you are signed in',
  responses: { 200: jsonContent(SessionListSchema), ...describeErrors('unauthenticated') },
});
const endSessionRoute = createRoute({
  method: 'delete',
  path: '/me/sessions/{id}',
  tags,
  summary: 'Sign one of your sessions out',
  request: { params: SessionParamsSchema },
  responses: { 200: jsonContent(OkSchema), ...describeErrors('unauthenticated', 'not_found') },
});

/** The signed-in caller and their session id. */
function requireSession(c: Context<AppEnv>) {
  const user = requireUser(c);
  return { user, sessionId: c.get('sessionId') ?? '' };
}

/** `/api/team` (members, invitations, approval limit), invitation links, switching and sessions. */
export function createTeamRoutes({ db, env }: AppDeps) {
  return createRouter()
    .openapi(teamRoute, async (c) => c.json(await getTeam(db, requirePermission(c, 'read')), 200))
    .openapi(inviteRoute, async (c) => {
      const caller = requirePermission(c, 'members.manage');
      const input = c.req.valid('json');
      return c.json(await createInvitation(db, { caller, publicUrl: env.publicUrl, input }), 201);
    })
    .openapi(revokeRoute, async (c) => {
      await revokeInvitation(db, {
        caller: requirePermission(c, 'members.manage'),
        id: c.req.valid('param').id,
      });
      return c.json({ ok: true as const }, 200);
    })
    .openapi(roleRoute, async (c) => {
      const caller = requirePermission(c, 'members.manage');
      const { userId } = c.req.valid('param');
      await changeMemberRole(db, { caller, userId, role: c.req.valid('json').role });
      return c.json({ ok: true as const }, 200);
    })
    .openapi(removeRoute, async (c) => {
      const caller = requirePermission(c, 'members.manage');
      await removeMember(db, { caller, userId: c.req.valid('param').userId });
      return c.json({ ok: true as const }, 200);
    })
    .openapi(leaveRoute, async (c) => {
      const caller = requireMembership(c);
      await removeMember(db, { caller, userId: caller.user.id });
      return c.json({ ok: true as const }, 200);
    })
    .openapi(limitRoute, async (c) => {
      const caller = requirePermission(c, 'settings.manage');
      await setApprovalLimit(db, { caller, approvalLimitPaise: c.req.valid('json').approvalLimitPaise });
      return c.json({ ok: true as const }, 200);
    })
    .openapi(previewRoute, async (c) => c.json(await previewInvitation(db, c.req.valid('param').token), 200))
    .openapi(acceptRoute, async (c) => {
      const { token } = c.req.valid('param');
      return c.json(await acceptInvitation(db, { ...requireSession(c), token }), 200);
    })
    .openapi(switchRoute, async (c) => {
      await switchOrganization(db, {
        ...requireSession(c),
        organizationId: c.req.valid('json').organizationId,
      });
      return c.json({ ok: true as const }, 200);
    })
    .openapi(sessionsRoute, async (c) => c.json(await listSessions(db, requireSession(c)), 200))
    .openapi(endSessionRoute, async (c) => {
      const user = requireUser(c);
      await endSession(db, { user, membership: c.get('membership'), id: c.req.valid('param').id });
      return c.json({ ok: true as const }, 200);
    });
}
