import { IdParamsSchema, VendorListSchema, VendorSchema, VendorUpdateSchema } from '@bahi/contracts';
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { listVendors, updateVendor } from './vendors.service.ts';

const tags = ['Vendors'];

const listRoute = createRoute({
  method: 'get',
  path: '/vendors',
  tags,
  summary: 'The vendor master, built from the documents read',
  responses: {
    200: jsonContent(VendorListSchema),
    ...describeErrors('unauthenticated'),
  },
});

const updateRoute = createRoute({
  method: 'patch',
  path: '/vendors/{id}',
  tags,
  summary: 'Set a vendor’s display name, agreed payment days and MSME (Udyam) number',
  request: { params: IdParamsSchema, body: jsonContent(VendorUpdateSchema) },
  responses: {
    200: jsonContent(VendorSchema),
    ...describeErrors('unauthenticated', 'not_found', 'validation'),
  },
});

/** The vendor master. */
export function createVendorRoutes({ db, jobs }: AppDeps) {
  return createRouter()
    .openapi(listRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json({ items: await listVendors(db, membership) }, 200);
    })
    .openapi(updateRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await updateVendor(db, {
          user,
          membership,
          id: c.req.valid('param').id,
          input: c.req.valid('json'),
          jobs,
        }),
        200,
      );
    });
}
