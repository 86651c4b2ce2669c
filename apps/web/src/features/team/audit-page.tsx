import { AUDIT_KIND_LABELS, AUDIT_KINDS, type AuditKind, type AuditQuery } from '@bahi/contracts';
import { DownloadIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { PageHeader } from '@/components/page-header.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { buildApiPath } from '@/lib/endpoint.ts';
import { useAudit } from './queries.ts';

const ANY = 'any';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  const [actorId, setActorId] = useState(ANY);
  const [kind, setKind] = useState(ANY);
  const [documentId, setDocumentId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const ids = { doc: useId(), from: useId(), to: useId() };
  const doc = documentId.trim();
  const query: Partial<AuditQuery> = {
    ...(actorId !== ANY ? { actorId } : {}),
    ...(kind !== ANY ? { kind: kind as AuditKind } : {}),
    ...(UUID.test(doc) ? { documentId: doc } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  const audit = useAudit({ ...query, page });
  const filter =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  const pages = audit.data ? Math.max(1, Math.ceil(audit.data.total / audit.data.pageSize)) : 1;
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
      <Card>
        <CardContent className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          <div className="flex flex-col gap-1.5">
            <span className="font-medium text-sm">Person</span>
            <Select value={actorId} onValueChange={filter(setActorId)}>
              <SelectTrigger aria-label="Person" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ANY}>Everyone</SelectItem>
                {(audit.data?.people ?? []).map((p) => (
                  <SelectItem key={p.id} value={p.id}>
                    {p.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="flex flex-col gap-1.5">
            <span className="font-medium text-sm">What</span>
            <Select value={kind} onValueChange={filter(setKind)}>
              <SelectTrigger aria-label="What happened" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ANY}>Everything</SelectItem>
                {AUDIT_KINDS.map((k) => (
                  <SelectItem key={k} value={k}>
                    {AUDIT_KIND_LABELS[k]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={ids.doc}>Document id</Label>
            <Input
              id={ids.doc}
              value={documentId}
              onChange={(e) => filter(setDocumentId)(e.target.value)}
              placeholder="Paste a document's id"
              aria-invalid={doc !== '' && !UUID.test(doc)}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={ids.from}>From</Label>
            <Input id={ids.from} type="date" value={from} onChange={(e) => filter(setFrom)(e.target.value)} />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={ids.to}>To</Label>
            <Input id={ids.to} type="date" value={to} onChange={(e) => filter(setTo)(e.target.value)} />
          </div>
        </CardContent>
      </Card>
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
        <Card>
          <CardContent>
            <ol className="divide-y" aria-label="Audit entries">
              {audit.data.events.map((e) => (
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
                {audit.data.total} {audit.data.total === 1 ? 'entry' : 'entries'} · page {page} of {pages}
              </span>
              <div className="flex gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  disabled={page <= 1}
                  onClick={() => setPage((p) => p - 1)}
                >
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
      )}
    </div>
  );
}
