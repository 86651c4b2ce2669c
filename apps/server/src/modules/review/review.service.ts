import type { ReviewQueue, ReviewQueueQuery } from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import type { Membership } from '../auth/identity.ts';
import { countReviewQueue, listReviewQueue, type ReviewQueueRow } from './review.repo.ts';

/** Documents per page of the review queue. */
export const REVIEW_PAGE_SIZE = 50;

function toItem(row: ReviewQueueRow): ReviewQueue['items'][number] {
  const processedAt = row.processed_at === null ? null : new Date(row.processed_at).toISOString();
  return {
    id: row.id,
    flowId: row.flow_id,
    flowName: row.flow_name,
    fileName: row.file_name,
    status: row.status,
    approved: row.approved,
    documentType: row.document_type,
    documentNumber: row.document_number,
    documentDate: row.document_date,
    vendorName: row.vendor_name,
    vendorGstin: row.vendor_gstin,
    total: row.total === null ? null : Number(row.total),
    reasons: row.failed_checks,
    error: row.status === 'failed' ? row.error_message : null,
    processedAt,
  };
}

/**
 * `GET /api/review`: the organisation's documents across its flows — those that need review, approved
 * ones, failed ones, or all — filtered by flow, vendor, document date and total, and searched by document
 * number, GSTIN, vendor name or file name; with the count of each view under the same filters.
 */
export async function getReviewQueue(
  db: Db,
  membership: Membership,
  query: ReviewQueueQuery,
): Promise<ReviewQueue> {
  const { page, ...filter } = query;
  const [rows, counts] = await Promise.all([
    listReviewQueue(db, {
      organizationId: membership.organizationId,
      filter,
      page: {
        limit: REVIEW_PAGE_SIZE,
        offset: (page - 1) * REVIEW_PAGE_SIZE,
      },
    }),
    countReviewQueue(db, membership.organizationId, filter),
  ]);
  return { items: rows.map(toItem), page, pageSize: REVIEW_PAGE_SIZE, total: counts[filter.view], counts };
}
