import {
  endpoints,
  InvitationTokenParamsSchema,
  MemberParamsSchema,
  SessionParamsSchema,
} from '@bahi/contracts';
import type { Context } from 'hono';
import type { AppDeps, AppEnv } from '../../http/context.ts';
import { requirePermission } from '../../http/permissions.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
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
const memberErrors = ['unauthenticated', 'forbidden', 'no_organization', 'not_found', 'conflict'] as const;

const teamRoute = routeFor(endpoints.team, {
  tags,
  summary: 'Members, pending invitations and the approval limit',
  errors: ['unauthenticated', 'no_organization'],
});
const inviteRoute = routeFor(endpoints.invite, {
  tags,
  summary: 'Invite someone with a role: a one-use link valid 7 days (shown once)',
  body: { description: 'Whom and as what', required: true },
  status: 201,
  answer: 'Created',
  errors: memberErrors,
});
const revokeRoute = routeFor(endpoints.revokeInvitation, {
  tags,
  summary: 'Revoke a pending invitation (its link stops working)',
  errors: memberErrors,
});
const roleRoute = routeFor(endpoints.changeMemberRole, {
  tags,
  summary: "Change a member's role (the last owner stays an owner)",
  params: MemberParamsSchema,
  body: { description: 'The new role', required: true },
  errors: memberErrors,
});
const removeRoute = routeFor(endpoints.removeMember, {
  tags,
  summary: 'Remove a member: their sessions end at once',
  params: MemberParamsSchema,
  errors: memberErrors,
});
const leaveRoute = routeFor(endpoints.leaveOrganization, {
  tags,
  summary: 'Leave the organisation (not the last owner)',
  errors: memberErrors,
});
const limitRoute = routeFor(endpoints.setApprovalLimit, {
  tags,
  summary: 'Set the maker-checker limit: invoices above it (paise) need an approver or owner',
  body: { description: 'The limit', required: true },
  errors: ['unauthenticated', 'forbidden', 'validation'],
});
const previewRoute = routeFor(endpoints.invitation, {
  tags,
  summary: 'What an invitation link offers (public: the person may not have an account yet)',
  security: [],
  params: InvitationTokenParamsSchema,
  errors: ['not_found', 'conflict'],
});
const acceptRoute = routeFor(endpoints.acceptInvitation, {
  tags,
  summary: 'Join the organisation with the invitation (once); this session switches to it',
  params: InvitationTokenParamsSchema,
  errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict'],
});
const switchRoute = routeFor(endpoints.switchOrganization, {
  tags,
  summary: 'Work in another of your organisations (this session)',
  body: { description: 'Which', required: true },
  errors: ['unauthenticated', 'not_found', 'validation'],
});
const sessionsRoute = routeFor(endpoints.mySessions, {
  tags,
  summary: 'Where you are signed in',
  errors: ['unauthenticated'],
});
const endSessionRoute = routeFor(endpoints.endSession, {
  tags,
  summary: 'Sign one of your sessions out',
  params: SessionParamsSchema,
  errors: ['unauthenticated', 'not_found'],
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
