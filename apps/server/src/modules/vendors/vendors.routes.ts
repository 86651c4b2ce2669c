import { endpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { listVendors, updateVendor } from './vendors.service.ts';

const tags = ['Vendors'];

const listRoute = routeFor(endpoints.listVendors, {
  tags,
  summary: 'The vendor master, built from the documents read',
  errors: ['unauthenticated'],
});

const updateRoute = routeFor(endpoints.updateVendor, {
  tags,
  summary: 'Set a vendor’s display name, agreed payment days and MSME (Udyam) number',
  errors: ['unauthenticated', 'not_found', 'validation'],
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
