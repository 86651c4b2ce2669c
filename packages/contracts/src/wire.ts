import { z } from 'zod';
import { DocumentStatusSchema } from './flows.ts';
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

/** Path parameters of every route on one resource (`/api/flows/{id}`, `/api/documents/{id}`, …). */
export const IdParamsSchema = z.object({ id: z.string() });
/** Path parameters of a route on one resource. */
export type IdParams = z.infer<typeof IdParamsSchema>;

/** Query of `GET /api/flows/{id}/documents`: an optional status, then which page (50 a page). */
export const DocumentListQuerySchema = z.object({
  status: DocumentStatusSchema.optional(),
  page: z.coerce.number().int().min(1).default(1),
});
/** Query of `GET /api/flows/{id}/documents`. */
export type DocumentListQuery = z.infer<typeof DocumentListQuerySchema>;

/** Path parameters of `GET /api/documents/{id}/pages/{page}` (pages count from 1). */
export const DocumentPageParamsSchema = z.object({
  id: z.string(),
  page: z.coerce.number().int().min(1).max(10_000),
});
/** Path parameters of `GET /api/documents/{id}/pages/{page}`. */
export type DocumentPageParams = z.infer<typeof DocumentPageParamsSchema>;

/** Query of `GET /api/documents/{id}/pages/{page}`: the picture's width in pixels. */
export const DocumentPageQuerySchema = z.object({
  width: z.coerce.number().int().min(100).max(4000).default(1280),
});
/** Query of `GET /api/documents/{id}/pages/{page}`. */
export type DocumentPageQuery = z.infer<typeof DocumentPageQuerySchema>;

/** Query of `GET /api/flows/{id}/sheet.csv`: which tab of the workbook. */
export const SheetCsvQuerySchema = z.object({ tab: z.enum(['documents', 'lines']).default('documents') });
/** Query of `GET /api/flows/{id}/sheet.csv`. */
export type SheetCsvQuery = z.infer<typeof SheetCsvQuerySchema>;
