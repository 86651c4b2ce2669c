import { VENDOR_CONSTITUTIONS, VENDOR_DOCUMENT_LABELS, type VendorSubmission } from '@bahi/contracts';
import { formatIndianDate } from '@bahi/india';
import { useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { usePermission } from '@/lib/permissions.ts';
import { useDecideSubmission } from './onboarding-queries.ts';

/** What the vendor sent, one labelled line per part. */
function submissionRows(f: VendorSubmission['fields']): Array<[string, string]> {
  return [
    ['Legal name', f.legalName],
    ['Trade name', f.tradeName || '—'],
    ['Constitution', VENDOR_CONSTITUTIONS[f.constitution].label],
    ['PAN', f.pan],
    ['GSTINs', f.gstins.join(', ') || 'None'],
    ['Bank', `${f.bank.accountNumber} · ${f.bank.ifsc} · ${f.bank.bankName} · ${f.bank.holderName}`],
    [
      'Udyam',
      f.udyam
        ? `${f.udyam.number} · ${f.udyam.category} · ${f.udyam.activity} · ${f.udyam.financialYear} · ${
            f.udyam.writtenAgreement ? `${f.udyam.agreedDays} days agreed in writing` : 'no written agreement'
          }`
        : 'Not registered',
    ],
    ['TDS', f.tdsSection ?? 'By each line'],
    ['Contacts', f.contacts.map((c) => [c.name, c.phone, c.email].filter(Boolean).join(' · ')).join('; ')],
  ];
}

/** Approve, send back with a note, or reject a pending submission. */
function SubmissionDecision({ item }: { item: VendorSubmission }) {
  const decide = useDecideSubmission();
  const canEdit = usePermission('vendors.edit');
  const [note, setNote] = useState('');
  const f = item.fields;
  const act = async (decision: 'approve' | 'changes' | 'reject') => {
    try {
      const result = await decide.mutateAsync({ id: item.id, decision, note });
      if (decision === 'approve')
        toast.success(
          result.bankChangeId
            ? `Approved ${f.legalName}; the new bank account waits for a second person`
            : `${f.legalName} is now an active vendor`,
        );
      else toast.success(decision === 'changes' ? 'Sent back: the same link opens again' : 'Rejected');
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not save the decision');
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={`note-${item.id}`} className="text-sm">
        Note to the vendor (for sending back)
      </label>
      <Textarea id={`note-${item.id}`} value={note} onChange={(e) => setNote(e.target.value)} rows={2} />
      <div className="flex flex-wrap gap-2">
        <Button
          onClick={() => void act('approve')}
          disabled={!canEdit.allowed || decide.isPending}
          title={canEdit.reason ?? undefined}
        >
          Approve
        </Button>
        <Button
          variant="outline"
          onClick={() => void act('changes')}
          disabled={!canEdit.allowed || decide.isPending}
        >
          Request changes
        </Button>
        <Button
          variant="ghost"
          onClick={() => void act('reject')}
          disabled={!canEdit.allowed || decide.isPending}
        >
          Reject
        </Button>
      </div>
    </div>
  );
}

/** One submission: what the vendor sent, the differences from the master, and the three decisions. */
export function SubmissionCard({ item }: { item: VendorSubmission }) {
  const f = item.fields;
  const rows = submissionRows(f);
  return (
    <li className="flex flex-col gap-3 rounded-lg border bg-card p-4" data-testid="vendor-submission">
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="font-medium">{f.legalName}</h4>
        <Badge variant="outline">{item.existingVendorId ? 'Known vendor' : 'New vendor'}</Badge>
        {item.bankChange && <Badge variant="destructive">Bank account changes</Badge>}
        <span className="text-muted-foreground text-xs">
          Sent {formatIndianDate(item.submittedAt.slice(0, 10))}
        </span>
      </div>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
      </dl>
      {item.documents.length > 0 && (
        <p className="text-sm">
          {item.documents.map((d) => (
            <a key={d.id} className="mr-3 underline" href={`/api/vendor-documents/${d.id}`}>
              {VENDOR_DOCUMENT_LABELS[d.kind]}
            </a>
          ))}
        </p>
      )}
      {item.differences.length > 0 && (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:bg-amber-950/30">
          <p className="font-medium">Differs from the vendor master</p>
          <ul className="mt-1 list-disc pl-5" aria-label="Differences">
            {item.differences.map((d) => (
              <li key={d.field}>
                {d.label}: <del>{d.before ?? 'none'}</del> →{' '}
                <ins className="no-underline font-medium">{d.after ?? 'none'}</ins>
              </li>
            ))}
          </ul>
        </div>
      )}
      {item.bankUsedBy && (
        <p role="alert" className="text-destructive text-sm">
          This bank account already belongs to {item.bankUsedBy}: approval will be refused.
        </p>
      )}
      {item.status === 'pending' ? (
        <SubmissionDecision item={item} />
      ) : (
        <p className="text-muted-foreground text-sm">
          {item.status === 'approved'
            ? 'Approved'
            : item.status === 'rejected'
              ? 'Rejected'
              : 'Sent back for changes'}
          {item.note ? `: ${item.note}` : ''}
        </p>
      )}
    </li>
  );
}
