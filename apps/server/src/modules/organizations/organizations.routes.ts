import {
  CreateOrganizationInputSchema,
  MeSchema,
  OrganizationSchema,
  UpdateOrganizationInputSchema,
} from '@bahi/contracts';
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership, requireUser } from '../../http/session.ts';
import {
  createOrganization,
  getMe,
  requireOrganization,
  updateOrganization,
} from './organizations.service.ts';

const getMeRoute = createRoute({
  method: 'get',
  path: '/me',
  tags: ['Account'],
  summary: 'The signed-in user and their organisation',
  responses: { 200: jsonContent(MeSchema), ...describeErrors('unauthenticated') },
});

const getOrganizationRoute = createRoute({
  method: 'get',
  path: '/organization',
  tags: ['Organization'],
  summary: "The caller's organisation profile",
  responses: {
    200: jsonContent(OrganizationSchema),
    ...describeErrors('unauthenticated', 'no_organization'),
  },
});

const createOrganizationRoute = createRoute({
  method: 'post',
  path: '/organization',
  tags: ['Organization'],
  summary: 'Onboarding: create the organisation (the caller becomes its owner)',
  request: { body: { ...jsonContent(CreateOrganizationInputSchema, 'Onboarding form'), required: true } },
  responses: {
    201: jsonContent(OrganizationSchema, 'Created'),
    ...describeErrors('unauthenticated', 'validation', 'conflict'),
  },
});

const updateOrganizationRoute = createRoute({
  method: 'put',
  path: '/organization',
  tags: ['Organization'],
  summary: 'Save the whole profile; GSTINs are replaced as a set',
  request: { body: { ...jsonContent(UpdateOrganizationInputSchema, 'Profile form'), required: true } },
  responses: {
    200: jsonContent(OrganizationSchema),
    ...describeErrors('unauthenticated', 'forbidden', 'no_organization', 'validation', 'duplicate_gstin'),
  },
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
