import { z } from 'zod';

/** One entry of the organisation's activity log. */
export const ActivitySchema = z.object({
  id: z.string(),
  kind: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
/** One entry of the organisation's activity log. */
export type Activity = z.infer<typeof ActivitySchema>;

/** Activities on one page of `GET /api/activity`. */
export const ACTIVITY_PAGE_SIZE = 25;

/** `GET /api/activity?page=N`: the organisation's whole activity log, newest first, a page at a time. */
export const ActivityPageSchema = z.object({
  items: z.array(ActivitySchema),
  page: z.number().int().min(1),
  pageSize: z.number().int(),
  total: z.number().int(),
});
/** A page of the activity log. */
export type ActivityPage = z.infer<typeof ActivityPageSchema>;

/** Dashboard counters, all computed from the database. */
export const DashboardStatsSchema = z.object({
  activeFlows: z.number().int(),
  /** Vendors the master learned from verified documents (never the organisation's own GSTINs). */
  vendorsOnboarded: z.number().int(),
  /** Documents read, copies held as duplicates left out: verified + awaiting review. */
  documentsProcessed: z.number().int(),
  /** Read with every check passed, or approved by a person. */
  documentsVerified: z.number().int(),
  /** Still awaiting a person's review: not counted as saved work. */
  documentsAwaitingReview: z.number().int(),
  /** documentsVerified × costPerDocumentInr, in whole rupees. */
  costSavingsInr: z.number(),
  costPerDocumentInr: z.number(),
});
/** Dashboard counters. */
export type DashboardStats = z.infer<typeof DashboardStatsSchema>;

/** `GET /api/dashboard`. Recent activity is newest first, at most 10. */
export const DashboardSchema = z.object({
  stats: DashboardStatsSchema,
  recentActivity: z.array(ActivitySchema),
});
/** `GET /api/dashboard`. */
export type Dashboard = z.infer<typeof DashboardSchema>;
