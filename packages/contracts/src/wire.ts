import { z } from 'zod';
import { VendorSchema } from './reconcile.ts';

/**
 * Answer envelopes that routes used to declare inline, kept here so every shape on the wire has one
 * exported schema that the server's route, the OpenAPI document and the web client all name.
 */

/** `GET /api/vendors`: the vendor master, built from the documents read. */
export const VendorListSchema = z.object({ items: z.array(VendorSchema) });
/** `GET /api/vendors`. */
export type VendorList = z.infer<typeof VendorListSchema>;

/** Query of `GET /api/activity`: which page of the activity log (`ACTIVITY_PAGE_SIZE` a page). */
export const ActivityQuerySchema = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });
/** Query of `GET /api/activity`. */
export type ActivityQuery = z.infer<typeof ActivityQuerySchema>;
