import {
  AUDIT_KIND_LABELS,
  AUDIT_KINDS,
  type AuditKind,
  type AuditPage,
  type AuditQuery,
} from '@bahi/contracts';
import { useId, useState } from 'react';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';

const ANY = 'any';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The audit trail's filters and page. Changing any filter goes back to page 1; the query holds only
 * the filters that are set (a document id only once it is a whole UUID).
 */
export function useAuditFilters() {
  const [actorId, setActorId] = useState(ANY);
  const [kind, setKind] = useState(ANY);
  const [documentId, setDocumentId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const doc = documentId.trim();
  const query: Partial<AuditQuery> = {
    ...(actorId !== ANY ? { actorId } : {}),
    ...(kind !== ANY ? { kind: kind as AuditKind } : {}),
    ...(UUID.test(doc) ? { documentId: doc } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  const filter =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  return {
    query,
    page,
    setPage,
    values: { actorId, kind, documentId, from, to, docInvalid: doc !== '' && !UUID.test(doc) },
    set: {
      actorId: filter(setActorId),
      kind: filter(setKind),
      documentId: filter(setDocumentId),
      from: filter(setFrom),
      to: filter(setTo),
    },
  };
}

type Filters = ReturnType<typeof useAuditFilters>;

/** Person, what happened, document id and date range, in one card above the entries. */
export function AuditFilters({ filters, people }: { filters: Filters; people: AuditPage['people'] }) {
  const ids = { doc: useId(), from: useId(), to: useId() };
  const { values, set } = filters;
  return (
    <Card>
      <CardContent className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <div className="flex flex-col gap-1.5">
          <span className="font-medium text-sm">Person</span>
          <Select value={values.actorId} onValueChange={set.actorId}>
            <SelectTrigger aria-label="Person" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>Everyone</SelectItem>
              {people.map((p) => (
                <SelectItem key={p.id} value={p.id}>
                  {p.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="flex flex-col gap-1.5">
          <span className="font-medium text-sm">What</span>
          <Select value={values.kind} onValueChange={set.kind}>
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
            value={values.documentId}
            onChange={(e) => set.documentId(e.target.value)}
            placeholder="Paste a document's id"
            aria-invalid={values.docInvalid}
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={ids.from}>From</Label>
          <Input id={ids.from} type="date" value={values.from} onChange={(e) => set.from(e.target.value)} />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={ids.to}>To</Label>
          <Input id={ids.to} type="date" value={values.to} onChange={(e) => set.to(e.target.value)} />
        </div>
      </CardContent>
    </Card>
  );
}
