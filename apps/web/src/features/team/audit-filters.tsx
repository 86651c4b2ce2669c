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
        <AnySelect
          title="Person"
          label="Person"
          value={values.actorId}
          onChange={set.actorId}
          anyLabel="Everyone"
          options={people.map((p) => ({ value: p.id, label: p.name }))}
        />
        <AnySelect
          title="What"
          label="What happened"
          value={values.kind}
          onChange={set.kind}
          anyLabel="Everything"
          options={AUDIT_KINDS.map((k) => ({ value: k, label: AUDIT_KIND_LABELS[k] }))}
        />
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

/** A filter of the trail: its title above, "any" (`anyLabel`) first, then the options. */
function AnySelect({
  title,
  label,
  value,
  onChange,
  anyLabel,
  options,
}: {
  title: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  anyLabel: string;
  options: ReadonlyArray<{ value: string; label: string }>;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <span className="font-medium text-sm">{title}</span>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger aria-label={label} className="w-full">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ANY}>{anyLabel}</SelectItem>
          {options.map((o) => (
            <SelectItem key={o.value} value={o.value}>
              {o.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
