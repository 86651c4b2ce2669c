import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';

/** Filters of the review queue, as the repository applies them. */
export interface ReviewQueueFilter {
  view: 'needs_review' | 'approved' | 'failed' | 'all';
  flowId?: string | undefined;
  vendor?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  min?: number | undefined;
  max?: number | undefined;
  q?: string | undefined;
}

/** One queue row as read. */
export interface ReviewQueueRow {
  id: string;
  flow_id: string;
  flow_name: string;
  file_name: string;
  status: string;
  approved: boolean;
  document_type: string | null;
  document_number: string | null;
  document_date: string | null;
  vendor_name: string | null;
  vendor_gstin: string | null;
  total: string | number | null;
  failed_checks: string[];
  error_message: string | null;
  processed_at: Date | string | null;
}

const field = (name: string) => sql`d.extraction->'fields'->>${name}`;
const total = sql`case when jsonb_typeof(d.extraction->'fields'->'total') = 'number'
  then (d.extraction->'fields'->>'total')::numeric end`;

/** A text as a LIKE pattern that matches it anywhere, its own % and _ taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const VIEWS: Record<ReviewQueueFilter['view'], SQL> = {
  needs_review: sql`d.status = 'needs_review'`,
  approved: sql`d.approved_at is not null`,
  failed: sql`d.status = 'failed'`,
  all: sql`true`,
};

/** The filters other than the view, for one organisation's reviewable documents. */
function filterSql(organizationId: string, f: ReviewQueueFilter): SQL {
  const parts: SQL[] = [
    sql`d.organization_id = ${organizationId}`,
    sql`d.status in ('done', 'needs_review', 'failed')`,
  ];
  if (f.flowId) parts.push(sql`d.flow_id = ${f.flowId}`);
  if (f.vendor) {
    const like = containsPattern(f.vendor);
    parts.push(sql`(${field('vendorName')} ilike ${like} or ${field('vendorGstin')} ilike ${like})`);
  }
  const date = field('documentDate');
  if (f.from) parts.push(sql`${date} >= ${f.from}`);
  if (f.to) parts.push(sql`${date} <= ${f.to}`);
  if (f.min !== undefined) parts.push(sql`${total} >= ${f.min}`);
  if (f.max !== undefined) parts.push(sql`${total} <= ${f.max}`);
  if (f.q) {
    const like = containsPattern(f.q);
    parts.push(
      sql`(${field('documentNumber')} ilike ${like} or ${field('vendorGstin')} ilike ${like}
        or ${field('vendorName')} ilike ${like} or d.file_name ilike ${like})`,
    );
  }
  return sql.join(parts, sql` and `);
}

/** A page of the organisation's documents in a view of the queue, newest first. */
export async function listReviewQueue(
  db: Db,
  {
    organizationId,
    filter,
    page,
  }: { organizationId: string; filter: ReviewQueueFilter; page: { limit: number; offset: number } },
): Promise<ReviewQueueRow[]> {
  return queryRows<ReviewQueueRow>(
    db,
    sql`select d.id, d.flow_id, f.name as flow_name, d.file_name, d.status, d.approved_at is not null as approved,
          d.extraction->>'documentType' as document_type, ${field('documentNumber')} as document_number,
          ${field('documentDate')} as document_date, ${field('vendorName')} as vendor_name,
          ${field('vendorGstin')} as vendor_gstin, ${total} as total, d.failed_checks, d.error_message,
          d.processed_at
        from documents d join flows f on f.id = d.flow_id
        where ${filterSql(organizationId, filter)} and ${VIEWS[filter.view]}
        order by coalesce(d.processed_at, d.updated_at) desc, d.id
        limit ${page.limit} offset ${page.offset}`,
  );
}

/** How many documents each view holds under the same filters. */
export async function countReviewQueue(
  db: Db,
  organizationId: string,
  filter: ReviewQueueFilter,
): Promise<Record<ReviewQueueFilter['view'], number>> {
  const [row] = await queryRows<Record<ReviewQueueFilter['view'], string | number>>(
    db,
    sql`select count(*) filter (where ${VIEWS.needs_review}) as needs_review,
          count(*) filter (where ${VIEWS.approved}) as approved,
          count(*) filter (where ${VIEWS.failed}) as failed,
          count(*) as all
        from documents d where ${filterSql(organizationId, filter)}`,
  );
  return {
    needs_review: Number(row?.needs_review ?? 0),
    approved: Number(row?.approved ?? 0),
    failed: Number(row?.failed ?? 0),
    all: Number(row?.all ?? 0),
  };
}
