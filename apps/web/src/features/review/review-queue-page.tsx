import { appPaths, type BooksPush, describeReviewReason, type ReviewQueueItem } from '@bahi/contracts';
import { formatIndianDate, formatIndianNumber } from '@bahi/india';
import { ClipboardCheckIcon } from 'lucide-react';
import { Link } from 'react-router';
import { type DataColumn, DataTable } from '@/components/data-table.tsx';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { Pager } from '@/components/pager.tsx';
import { useFilterParams } from '@/components/param-filters.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { ViewTabs } from '@/components/view-tabs.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { formatAgo } from '@/lib/format.ts';
import { BooksPushBadge } from '@/shared/books/books-push-badge.tsx';
import { PostToTallyButton, useQueueTally } from '@/shared/books/post-to-tally.tsx';
import { useReviewQueue } from './queries.ts';
import { FILTERS, ReviewQueueFilters } from './review-queue-filters.tsx';

const VIEWS = [
  { key: 'needs_review', label: 'Needs review' },
  { key: 'approved', label: 'Approved' },
  { key: 'failed', label: 'Failed' },
  { key: 'all', label: 'All' },
] as const;

type View = (typeof VIEWS)[number]['key'];

function StatusBadge({ item }: { item: ReviewQueueItem }) {
  if (item.approved) return <Badge className="border-transparent bg-success/12 text-success">Approved</Badge>;
  if (item.status === 'failed')
    return <Badge className="border-transparent bg-destructive/10 text-destructive">Failed</Badge>;
  if (item.status === 'needs_review')
    return <Badge className="border-transparent bg-warning/15 text-warning-foreground">Needs review</Badge>;
  return <Badge className="border-transparent bg-success/12 text-success">Done</Badge>;
}

/** Why a queue row is there, in words. */
function describeItem(item: ReviewQueueItem): string {
  if (item.status === 'failed') return item.error ?? 'Nothing could be read';
  return item.reasons.map(describeReviewReason).join('; ');
}

type BooksState = { enabled: boolean; pushes: Map<string, BooksPush> };

/** The queue's columns; a Tally or Zoho Books one only when the organisation posts there. */
function queueColumns(tally: BooksState, zoho: BooksState): DataColumn<ReviewQueueItem>[] {
  const columns: DataColumn<ReviewQueueItem>[] = [
    {
      key: 'document',
      header: 'Document',
      cell: (item) => (
        <>
          <Link
            to={appPaths.document(item.flowId, item.id)}
            className="font-medium text-primary hover:underline"
          >
            {item.documentNumber ?? item.fileName}
          </Link>
          <div className="text-muted-foreground text-xs">
            {item.documentNumber ? `${item.fileName} · ` : ''}
            {item.flowName}
            {item.processedAt ? ` · ${formatAgo(item.processedAt)}` : ''}
          </div>
        </>
      ),
    },
    {
      key: 'vendor',
      header: 'Vendor',
      cell: (item) => (
        <>
          <div>{item.vendorName ?? '—'}</div>
          {item.vendorGstin && (
            <div className="font-mono text-muted-foreground text-xs">{item.vendorGstin}</div>
          )}
        </>
      ),
    },
    {
      key: 'date',
      header: 'Date',
      cellClassName: 'whitespace-nowrap tabular-nums',
      cell: (item) => (item.documentDate ? (formatIndianDate(item.documentDate) ?? item.documentDate) : '—'),
    },
    {
      key: 'total',
      header: 'Total (₹)',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (item) => (item.total === null ? '—' : formatIndianNumber(item.total)),
    },
    { key: 'status', header: 'Status', cell: (item) => <StatusBadge item={item} /> },
    {
      key: 'why',
      header: 'Why',
      cellClassName: 'max-w-80 text-muted-foreground text-xs',
      cell: describeItem,
    },
  ];
  if (tally.enabled)
    columns.push({
      key: 'tally',
      header: 'Tally',
      cell: (item) => <BooksPushBadge push={tally.pushes.get(item.id)} />,
    });
  if (zoho.enabled)
    columns.push({
      key: 'zoho',
      header: 'Zoho Books',
      cell: (item) => <BooksPushBadge push={zoho.pushes.get(item.id)} />,
    });
  return columns;
}

/**
 * `/review`: every document of the organisation that needs a look, across flows, with filters (flow,
 * vendor, date, amount) and a search (document number, GSTIN, vendor); a row opens its review screen.
 */
export function ReviewQueuePage() {
  useDocumentTitle('Review');
  const { params, setParam } = useFilterParams();
  const view = (VIEWS.find((v) => v.key === params.get('view'))?.key ?? 'needs_review') as View;
  const queue = useReviewQueue(params);
  const page = Number(params.get('page') ?? '1') || 1;

  const filtered = FILTERS.some((k) => params.get(k));
  const data = queue.data;
  const tally = useQueueTally(data?.items.map((i) => i.id) ?? []);
  const zoho = useQueueTally(data?.items.map((i) => i.id) ?? [], 'zoho');

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Review"
        description="Every document that needs a look, across your flows. Open one to check it beside the page, correct it and approve it."
      />

      <div className="flex flex-col gap-3">
        <ViewTabs
          label="Views"
          tabs={VIEWS.map((v) => ({ key: v.key, label: v.label, count: data?.counts[v.key] }))}
          selected={view}
          onSelect={(key) => setParam('view', key === 'needs_review' ? '' : key)}
        />

        <ReviewQueueFilters setParam={setParam} />
      </div>

      {(tally.enabled || zoho.enabled) && data && data.items.length > 0 && (
        <div className="flex flex-wrap justify-end gap-2">
          {tally.enabled && <PostToTallyButton items={data.items} />}
          {zoho.enabled && <PostToTallyButton items={data.items} kind="zoho" />}
        </div>
      )}
      <DataTable
        label="Documents to review"
        columns={queueColumns(tally, zoho)}
        rows={data?.items ?? []}
        rowKey={(item) => item.id}
        rowProps={() => ({ 'data-testid': 'queue-row' })}
        tableClassName="min-w-[56rem]"
        loading={queue.isPending}
        error={queue.isError ? `Couldn't load the review queue: ${queue.error.message}` : null}
        empty={
          <EmptyState
            icon={ClipboardCheckIcon}
            title={
              filtered
                ? 'No document matches these filters'
                : view === 'needs_review'
                  ? 'Nothing needs a look'
                  : 'No documents here yet'
            }
            description={
              view === 'needs_review' && !filtered
                ? 'Every document read so far passed its checks or was approved.'
                : undefined
            }
          />
        }
      />
      {data && (
        <Pager
          page={page}
          pageSize={data.pageSize}
          total={data.total}
          onPage={(to) => setParam('page', String(to))}
        />
      )}
    </div>
  );
}
