import { AUDIT_KIND_LABELS, type AuditPage as AuditPageData } from '@bahi/contracts';
import { DownloadIcon } from 'lucide-react';
import { PageHeader } from '@/components/page-header.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { buildApiPath } from '@/lib/endpoint.ts';
import { AuditFilters, useAuditFilters } from './audit-filters.tsx';
import { useAudit } from './queries.ts';

/** When an entry happened, in India's time. */
function formatWhen(iso: string): string {
  return new Date(iso).toLocaleString('en-IN', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Asia/Kolkata',
  });
}

/** `/audit`: the append-only trail of who did what, filtered and exported as CSV. */
export function AuditPage() {
  useDocumentTitle('Audit trail');
  const filters = useAuditFilters();
  const { query, page, setPage } = filters;
  const audit = useAudit({ ...query, page });
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Audit trail"
        description="Who did what, and when. Entries are never changed or deleted."
        actions={
          <Button asChild variant="outline">
            <a href={buildApiPath('/api/audit.csv', {}, query)} download>
              <DownloadIcon aria-hidden="true" />
              Export CSV
            </a>
          </Button>
        }
      />
      <AuditFilters filters={filters} people={audit.data?.people ?? []} />
      {audit.isPending ? (
        <Skeleton className="h-64" />
      ) : audit.isError ? (
        <p className="text-destructive text-sm">{audit.error.message}</p>
      ) : audit.data.events.length === 0 ? (
        <p className="text-muted-foreground text-sm">
          {Object.values(query).some((v) => v !== undefined && v !== '')
            ? 'Nothing matches these filters.'
            : 'Nothing has been recorded yet: sign-ins, corrections, approvals and changes will appear here.'}
        </p>
      ) : (
        <AuditEntries data={audit.data} page={page} setPage={setPage} />
      )}
    </div>
  );
}

/** One page of entries, newest first, with Newer / Older under them. */
function AuditEntries({
  data,
  page,
  setPage,
}: {
  data: AuditPageData;
  page: number;
  setPage: (update: (page: number) => number) => void;
}) {
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  return (
    <Card>
      <CardContent>
        <ol className="divide-y" aria-label="Audit entries">
          {data.events.map((e) => (
            <li key={e.id} className="flex flex-col gap-1 py-3 sm:flex-row sm:gap-4" data-kind={e.kind}>
              <time dateTime={e.at} className="shrink-0 text-muted-foreground text-xs sm:w-44 sm:text-sm">
                {formatWhen(e.at)}
              </time>
              <div className="min-w-0">
                <p className="text-sm">
                  <span className="font-medium">{e.actorName}</span>{' '}
                  <span className="text-muted-foreground">· {AUDIT_KIND_LABELS[e.kind]}</span>
                </p>
                <p className="break-words text-muted-foreground text-sm">{e.summary}</p>
              </div>
            </li>
          ))}
        </ol>
        <div className="mt-4 flex items-center justify-between gap-2 text-sm">
          <span className="text-muted-foreground">
            {data.total} {data.total === 1 ? 'entry' : 'entries'} · page {page} of {pages}
          </span>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              Newer
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={page >= pages}
              onClick={() => setPage((p) => p + 1)}
            >
              Older
            </Button>
          </div>
        </div>
      </CardContent>
    </Card>
  );
}
