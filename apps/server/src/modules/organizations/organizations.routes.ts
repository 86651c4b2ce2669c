import { endpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership, requireUser } from '../../http/session.ts';
import {
  createOrganization,
  getMe,
  requireOrganization,
  updateOrganization,
} from './organizations.service.ts';

const getMeRoute = routeFor(endpoints.me, {
  tags: ['Account'],
  summary: 'The signed-in user and their organisation',
  errors: ['unauthenticated'],
});

const getOrganizationRoute = routeFor(endpoints.organization, {
  tags: ['Organization'],
  summary: "The caller's organisation profile",
  errors: ['unauthenticated', 'no_organization'],
});

const createOrganizationRoute = routeFor(endpoints.createOrganization, {
  tags: ['Organization'],
  summary: 'Onboarding: create the organisation (the caller becomes its owner)',
  body: { description: 'Onboarding form', required: true },
  status: 201,
  answer: 'Created',
  errors: ['unauthenticated', 'validation', 'conflict'],
});

const updateOrganizationRoute = routeFor(endpoints.updateOrganization, {
  tags: ['Organization'],
  summary: 'Save the whole profile; GSTINs are replaced as a set',
  body: { description: 'Profile form', required: true },
  errors: ['unauthenticated', 'forbidden', 'no_organization', 'validation', 'duplicate_gstin'],
});

/** `/api/me` and `/api/organization` (profile, onboarding, GSTINs). */
export function createOrganizationRoutes({ db, jobs }: AppDeps) {
  return createRouter()
    .openapi(getMeRoute, async (c) => {
      const user = requireUser(c);
      return c.json(await getMe(db, user, c.get('membership')), 200);
    })
    .openapi(getOrganizationRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await requireOrganization(db, membership.organizationId), 200);
    })
    .openapi(createOrganizationRoute, async (c) => {
      const user = requireUser(c);
      return c.json(await createOrganization(db, user, c.req.valid('json')), 201);
    })
    .openapi(updateOrganizationRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await updateOrganization(db, { user, membership, input: c.req.valid('json'), jobs }),
        200,
      );
    });
}
