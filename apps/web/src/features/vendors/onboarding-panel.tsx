import {
  VENDOR_CONSTITUTIONS,
  VENDOR_DOCUMENT_LABELS,
  type VendorLink,
  type VendorSubmission,
} from '@bahi/contracts';
import { formatIndianDate } from '@bahi/india';
import { LinkIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { usePermission, useRole } from '@/lib/permissions.ts';
import { CreateLinkDialog } from './create-link-dialog.tsx';
import {
  useDecideBankChange,
  useDecideSubmission,
  useRevokeVendorLink,
  useVendorBankChanges,
  useVendorLinks,
  useVendorSubmissions,
} from './onboarding-queries.ts';

const STATE_WORDS: Record<VendorLink['state'], string> = {
  open: 'Waiting for the vendor',
  submitted: 'Sent: to review',
  changes_requested: 'Sent back for changes',
  approved: 'Approved',
  rejected: 'Rejected',
  revoked: 'Revoked',
  expired: 'Expired',
};

const MAIL_WORDS: Record<NonNullable<VendorLink['mail']>['state'], string> = {
  queued: 'E-mail waiting to go to',
  sending: 'E-mail going to',
  sent: 'E-mailed to',
  failed: 'E-mail not sent yet to',
};

/** One submission: what the vendor sent, the differences from the master, and the three decisions. */
function SubmissionCard({ item }: { item: VendorSubmission }) {
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
  const rows: Array<[string, string]> = [
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

/** New bank accounts of active vendors, waiting for someone other than who asked. */
function BankChanges() {
  const changes = useVendorBankChanges();
  const decide = useDecideBankChange();
  const may = usePermission('vendors.approve_bank_change');
  if (!changes.data || changes.data.length === 0) return null;
  const act = async (id: string, approve: boolean) => {
    try {
      await decide.mutateAsync({ id, approve });
      toast.success(
        approve ? 'New bank account approved; its invoices are released' : 'New bank account refused',
      );
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not save the decision');
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <h3 className="font-medium">Bank account changes waiting for a second person</h3>
      <ul className="flex flex-col gap-2">
        {changes.data.map((c) => (
          <li
            key={c.id}
            className="rounded-lg border border-destructive/40 bg-card p-4 text-sm"
            data-testid="bank-change"
          >
            <p className="font-medium">
              {c.vendorName} <span className="font-normal text-muted-foreground">PAN {c.pan}</span>
            </p>
            <p>
              From {c.before} to <strong>{c.after}</strong>
            </p>
            <p className="text-muted-foreground">
              Asked by {c.requestedBy}. Its invoices are on hold until someone else approves.
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button
                size="sm"
                onClick={() => void act(c.id, true)}
                disabled={!may.allowed || decide.isPending}
                title={may.reason ?? undefined}
              >
                Approve new account
              </Button>
              <Button
                size="sm"
                variant="outline"
                onClick={() => void act(c.id, false)}
                disabled={!may.allowed || decide.isPending}
              >
                Refuse
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Vendor onboarding on the Vendor Management page: links, submissions to review, bank changes. */
export function OnboardingPanel() {
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const canEdit = usePermission('vendors.edit');
  const links = useVendorLinks();
  const submissions = useVendorSubmissions();
  const revoke = useRevokeVendorLink();
  const role = useRole();
  // Home's "Generate Vendor Form" opens the page with ?link=1: once the role is known, open the dialog (or
  // say why not) and drop the parameter, so a reload or Back does not open it again.
  useEffect(() => {
    if (params.get('link') !== '1' || !role) return;
    if (canEdit.allowed) setCreating(true);
    else if (canEdit.reason) toast.error(canEdit.reason);
    setParams({}, { replace: true });
  }, [params, setParams, role, canEdit.allowed, canEdit.reason]);
  const pending = (submissions.data ?? []).filter((s) => s.status === 'pending');
  const openLinks = (links.data ?? []).filter((l) => l.state === 'open' || l.state === 'changes_requested');
  return (
    <section aria-labelledby="onboarding-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="onboarding-title" className="font-semibold text-lg tracking-tight">
            Vendor onboarding
          </h2>
          <p className="text-muted-foreground text-sm">
            Send a vendor a link; they fill in their own PAN, GSTINs, bank account and Udyam details, and you
            approve what they send.
          </p>
        </div>
        <Button
          onClick={() => setCreating(true)}
          disabled={!canEdit.allowed}
          title={canEdit.reason ?? undefined}
        >
          <LinkIcon aria-hidden="true" />
          Create onboarding link
        </Button>
      </div>
      <BankChanges />
      <div className="flex flex-col gap-2">
        <h3 className="font-medium">To review ({pending.length})</h3>
        {pending.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-muted-foreground text-sm">
            Nothing to review. A vendor's form appears here once they send it.
          </p>
        ) : (
          <ul className="flex flex-col gap-3">
            {pending.map((s) => (
              <SubmissionCard key={s.id} item={s} />
            ))}
          </ul>
        )}
      </div>
      {openLinks.length > 0 && (
        <div className="flex flex-col gap-2">
          <h3 className="font-medium">Links waiting for vendors</h3>
          <ul className="divide-y rounded-lg border bg-card text-sm">
            {openLinks.map((l) => (
              <li
                key={l.id}
                className="flex flex-wrap items-center justify-between gap-2 px-4 py-2"
                data-testid="vendor-link"
              >
                <span>
                  <span className="font-medium">{l.vendorName}</span>{' '}
                  <span className="text-muted-foreground">
                    {STATE_WORDS[l.state]} · until {formatIndianDate(l.expiresAt.slice(0, 10))}
                  </span>
                  {l.mail && (
                    <span
                      className={`block text-xs ${l.mail.state === 'failed' ? 'text-destructive' : 'text-muted-foreground'}`}
                    >
                      {MAIL_WORDS[l.mail.state]} {l.mail.to}
                      {l.mail.state === 'failed' && l.mail.error ? `: ${l.mail.error}` : ''}
                    </span>
                  )}
                </span>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={!canEdit.allowed || revoke.isPending}
                  onClick={() =>
                    revoke.mutate(l.id, {
                      onSuccess: () => toast.success(`The link for ${l.vendorName} no longer works`),
                      onError: (e) => toast.error(e.message),
                    })
                  }
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {creating && <CreateLinkDialog onClose={() => setCreating(false)} />}
    </section>
  );
}
