import { appPaths, describeReviewReason, type ReviewQueueItem } from '@bahi/contracts';
import { formatIndianDate, formatIndianNumber } from '@bahi/india';
import { ClipboardCheckIcon, SearchIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Table } from '@/components/ui/table.tsx';
import { ViewTabs } from '@/components/view-tabs.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { formatAgo } from '@/lib/format.ts';
import { BooksPushBadge } from '@/shared/books/books-push-badge.tsx';
import { PostToTallyButton, useQueueTally } from '@/shared/books/post-to-tally.tsx';
import { useFlows } from '@/shared/flows/queries.ts';
import { useReviewQueue } from './queries.ts';

const VIEWS = [
  { key: 'needs_review', label: 'Needs review' },
  { key: 'approved', label: 'Approved' },
  { key: 'failed', label: 'Failed' },
  { key: 'all', label: 'All' },
] as const;

type View = (typeof VIEWS)[number]['key'];

/** The filter fields kept in the address, so a filtered queue can be bookmarked and shared. */
const FILTERS = ['q', 'vendor', 'flowId', 'from', 'to', 'min', 'max'] as const;

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

/**
 * `/review`: every document of the organisation that needs a look, across flows, with filters (flow,
 * vendor, date, amount) and a search (document number, GSTIN, vendor); a row opens its review screen.
 */
export function ReviewQueuePage() {
  useDocumentTitle('Review');
  const [params, setParams] = useSearchParams();
  // Clearing the filters starts their inputs afresh (the text ones keep what was typed otherwise).
  const [generation, setGeneration] = useState(0);
  const view = (VIEWS.find((v) => v.key === params.get('view'))?.key ?? 'needs_review') as View;
  const queue = useReviewQueue(params);
  const flows = useFlows();
  const page = Number(params.get('page') ?? '1') || 1;

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    // A new filter starts from the first page.
    if (key !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };
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

        <fieldset
          key={generation}
          className="grid gap-2 sm:grid-cols-2 lg:grid-cols-[2fr_1.2fr_1.2fr_9.5rem_9.5rem_6.5rem_6.5rem_auto]"
        >
          <legend className="sr-only">Filters</legend>
          <div className="relative">
            <SearchIcon
              className="-translate-y-1/2 absolute top-1/2 left-2.5 size-4 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              aria-label="Search by document number, GSTIN or vendor"
              placeholder="Document no., GSTIN or vendor"
              className="pl-8"
              defaultValue={params.get('q') ?? ''}
              onChange={(e) => setParam('q', e.target.value)}
            />
          </div>
          <Input
            aria-label="Vendor"
            placeholder="Vendor"
            defaultValue={params.get('vendor') ?? ''}
            onChange={(e) => setParam('vendor', e.target.value)}
          />
          <select
            aria-label="Flow"
            value={params.get('flowId') ?? ''}
            onChange={(e) => setParam('flowId', e.target.value)}
            className="h-9 rounded-md border border-input bg-card px-2 text-sm shadow-xs"
          >
            <option value="">All flows</option>
            {(flows.data ?? []).map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
          <Input
            type="date"
            aria-label="Dated from"
            title="Dated from"
            value={params.get('from') ?? ''}
            onChange={(e) => setParam('from', e.target.value)}
          />
          <Input
            type="date"
            aria-label="Dated to"
            title="Dated to"
            value={params.get('to') ?? ''}
            onChange={(e) => setParam('to', e.target.value)}
          />
          <Input
            inputMode="decimal"
            aria-label="Total from (₹)"
            placeholder="₹ from"
            defaultValue={params.get('min') ?? ''}
            onChange={(e) => setParam('min', e.target.value.replace(/[^0-9.]/g, ''))}
          />
          <Input
            inputMode="decimal"
            aria-label="Total up to (₹)"
            placeholder="₹ up to"
            defaultValue={params.get('max') ?? ''}
            onChange={(e) => setParam('max', e.target.value.replace(/[^0-9.]/g, ''))}
          />
          {filtered && (
            <Button
              variant="ghost"
              onClick={() => {
                const next = new URLSearchParams();
                if (params.get('view')) next.set('view', params.get('view')!);
                setParams(next, { replace: true });
                setGeneration((g) => g + 1);
              }}
            >
              <XIcon aria-hidden="true" />
              Clear
            </Button>
          )}
        </fieldset>
      </div>

      {queue.isPending ? (
        <div className="flex flex-col gap-2">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-12 w-full" />
          ))}
        </div>
      ) : queue.isError ? (
        <p role="alert" className="text-destructive">
          Couldn't load the review queue: {queue.error.message}
        </p>
      ) : data && data.items.length === 0 ? (
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
      ) : (
        data && (
          <>
            {(tally.enabled || zoho.enabled) && (
              <div className="flex flex-wrap justify-end gap-2">
                {tally.enabled && <PostToTallyButton items={data.items} />}
                {zoho.enabled && <PostToTallyButton items={data.items} kind="zoho" />}
              </div>
            )}
            <div className="rounded-lg border bg-card">
              <Table className="min-w-[56rem]" aria-label="Documents to review">
                <thead>
                  <tr className="border-b bg-muted/50 text-left text-muted-foreground">
                    <th scope="col" className="px-3 py-2 font-medium">
                      Document
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Vendor
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Date
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">
                      Total (₹)
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Status
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Why
                    </th>
                    {tally.enabled && (
                      <th scope="col" className="px-3 py-2 font-medium">
                        Tally
                      </th>
                    )}
                    {zoho.enabled && (
                      <th scope="col" className="px-3 py-2 font-medium">
                        Zoho Books
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((item) => (
                    <tr
                      key={item.id}
                      className="border-b last:border-0 hover:bg-muted/40"
                      data-testid="queue-row"
                    >
                      <td className="px-3 py-2 align-top">
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
                      </td>
                      <td className="px-3 py-2 align-top">
                        <div>{item.vendorName ?? '—'}</div>
                        {item.vendorGstin && (
                          <div className="font-mono text-muted-foreground text-xs">{item.vendorGstin}</div>
                        )}
                      </td>
                      <td className="whitespace-nowrap px-3 py-2 align-top tabular-nums">
                        {item.documentDate ? (formatIndianDate(item.documentDate) ?? item.documentDate) : '—'}
                      </td>
                      <td className="whitespace-nowrap px-3 py-2 text-right align-top tabular-nums">
                        {item.total === null ? '—' : formatIndianNumber(item.total)}
                      </td>
                      <td className="px-3 py-2 align-top">
                        <StatusBadge item={item} />
                      </td>
                      <td className="max-w-80 px-3 py-2 align-top text-muted-foreground text-xs">
                        {describeItem(item)}
                      </td>
                      {tally.enabled && (
                        <td className="px-3 py-2 align-top">
                          <BooksPushBadge push={tally.pushes.get(item.id)} />
                        </td>
                      )}
                      {zoho.enabled && (
                        <td className="px-3 py-2 align-top">
                          <BooksPushBadge push={zoho.pushes.get(item.id)} />
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </Table>
            </div>
            {data.total > data.pageSize && (
              <div className="flex items-center justify-end gap-2 text-sm">
                <span className="text-muted-foreground tabular-nums">
                  {(page - 1) * data.pageSize + 1}–{Math.min(page * data.pageSize, data.total)} of{' '}
                  {data.total}
                </span>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={page <= 1}
                  onClick={() => setParam('page', String(page - 1))}
                >
                  Previous
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={page * data.pageSize >= data.total}
                  onClick={() => setParam('page', String(page + 1))}
                >
                  Next
                </Button>
              </div>
            )}
          </>
        )
      )}
    </div>
  );
}
