import {
  appPaths,
  describeReconcileReason,
  type InvoiceMatch,
  OverrideExceptionSchema,
} from '@bahi/contracts';
import { formatIndianDate } from '@bahi/india';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { type DataColumn, DataTable } from '@/components/data-table.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { useContractForm } from '@/lib/form.ts';
import { formatAgo } from '@/lib/format.ts';
import { useOverrideInvoice } from './queries.ts';
import { DocLink, money, qty } from './reconcile-bits.tsx';

type EvidenceLine = InvoiceMatch['lines'][number];

/** The evidence table: each invoice line beside its PO line, what was received and billed before. */
const EVIDENCE_COLUMNS: DataColumn<EvidenceLine>[] = [
  { key: 'line', header: 'Invoice line', cell: (l) => `${l.line}. ${l.description ?? '—'}` },
  { key: 'billed', header: 'Billed', align: 'right', cell: (l) => qty(l.billed) },
  { key: 'rate', header: 'Rate', align: 'right', cell: (l) => money(l.rate) },
  {
    key: 'poLine',
    header: 'PO line',
    cell: (l) => (l.poLine ? `${l.poLine}. ${l.poDescription ?? ''}` : 'None'),
  },
  { key: 'ordered', header: 'Ordered', align: 'right', cell: (l) => qty(l.ordered) },
  { key: 'poRate', header: 'PO rate', align: 'right', cell: (l) => money(l.poRate) },
  { key: 'received', header: 'Received (GRN)', align: 'right', cell: (l) => qty(l.received) },
  { key: 'alreadyBilled', header: 'Billed before', align: 'right', cell: (l) => qty(l.alreadyBilled) },
];

/** The exception's evidence side by side, and the way to clear it with a written reason. */
export function InvoiceDetail({ match }: { match: InvoiceMatch }) {
  const flagged = new Set(match.reasons.map((r) => r.line).filter((l) => l !== null));
  return (
    <div className="flex flex-col gap-3 border-t bg-muted/20 p-3" data-testid="invoice-detail">
      <MatchReasons match={match} />
      {match.lines.length > 0 && (
        <DataTable
          label="Evidence by line"
          columns={EVIDENCE_COLUMNS}
          rows={match.lines}
          rowKey={(l) => String(l.line)}
          rowClassName={(l) => (flagged.has(l.line) ? '[&>td]:bg-warning/10' : undefined)}
          tableClassName="min-w-[44rem]"
          className="rounded-md"
        />
      )}
      <MatchDocuments match={match} />
      {match.msme && (
        <p className="text-sm" data-testid="msme-clock">
          MSME supplier ({match.msme.udyam}):{' '}
          {match.msme.payBy
            ? `goods accepted ${formatIndianDate(match.msme.acceptedOn ?? '')}, pay by ${formatIndianDate(match.msme.payBy)} (${match.msme.days} days)`
            : 'no goods receipt yet, so the payment clock has not started'}
        </p>
      )}
      {match.override && (
        <p className="text-sm">
          Cleared by <span className="font-medium">{match.override.userName}</span>{' '}
          {formatAgo(match.override.at)}: “{match.override.reason}”
        </p>
      )}
      {!match.copyOf &&
        (match.effectiveStatus === 'exception' || match.effectiveStatus === 'no_po_needs_approval') && (
          <OverrideForm match={match} />
        )}
    </div>
  );
}

/** Why the invoice is held: a possible copy (decided in Review), or its exceptions line by line. */
function MatchReasons({ match }: { match: InvoiceMatch }) {
  return (
    <>
      {match.copyOf && (
        <p className="text-sm" data-testid="held-copy">
          Held as a possible copy of <DocLink doc={match.copyOf} />: it is not paid and counts in no total
          until a person decides.{' '}
          <Link
            className="font-medium text-primary underline"
            to={appPaths.document(match.invoice.flowId, match.invoice.id)}
          >
            Decide in Review
          </Link>
        </p>
      )}
      {/* A held copy's one reason is said above, with where to decide. */}
      {match.reasons.length > 0 && !match.copyOf && (
        <ul className="list-disc pl-5 text-sm">
          {match.reasons.map((r) => (
            <li key={`${r.code}-${r.line}`}>
              <span className="font-medium">{describeReconcileReason(r.code)}</span>
              {r.line !== null && <span className="text-muted-foreground"> (line {r.line})</span>}:{' '}
              {r.message}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The invoice, its PO (or why there is none) and its goods receipts, each a link to the document. */
function MatchDocuments({ match }: { match: InvoiceMatch }) {
  return (
    <p className="text-muted-foreground text-xs">
      Invoice <DocLink doc={match.invoice} />
      {match.po ? (
        <>
          {' '}
          · PO <DocLink doc={match.po} />
        </>
      ) : match.poNumber ? (
        ` · PO ${match.poNumber} not found`
      ) : (
        ' · No PO named on it'
      )}
      {match.grns.map((g) => (
        <span key={g.id}>
          {' '}
          · GRN <DocLink doc={g} />
        </span>
      ))}
    </p>
  );
}

/** Clear the exceptions (or approve a no-PO invoice) with a written reason. */
function OverrideForm({ match }: { match: InvoiceMatch }) {
  const form = useContractForm<{ reason: string }, { reason: string }>(OverrideExceptionSchema, {
    reason: '',
  });
  const error = form.formState.errors.reason?.message;
  const override = useOverrideInvoice();
  /** Runs with the contract's output (the reason trimmed); a refusal shows where the reason is typed. */
  const submit = async ({ reason }: { reason: string }) => {
    try {
      await override.mutateAsync({ invoiceId: match.invoice.id, reason });
      toast.success(`Cleared the exceptions of ${match.invoice.documentNumber ?? match.invoice.fileName}`);
    } catch (e) {
      form.setError('reason', { message: e instanceof Error ? e.message : 'Could not save the override' });
    }
  };
  const fieldId = `override-${match.invoice.id}`;
  const approval = match.effectiveStatus === 'no_po_needs_approval';
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={fieldId} className="font-medium text-sm">
        {approval
          ? 'This vendor or flow needs no purchase order. Approve it for payment — why?'
          : 'Clear these exceptions (pay it anyway) — why?'}
      </label>
      <Textarea
        id={fieldId}
        {...form.register('reason')}
        placeholder={
          approval
            ? 'e.g. Office rent for August, as per the lease'
            : 'e.g. Rate revised by the vendor from July; PO amendment to follow'
        }
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        rows={2}
      />
      {error && (
        <p id={`${fieldId}-error`} className="text-destructive text-xs">
          {error}
        </p>
      )}
      <Button size="sm" className="w-fit" onClick={form.handleSubmit(submit)} disabled={override.isPending}>
        {approval ? 'Approve for payment' : 'Clear exceptions'}
      </Button>
    </div>
  );
}
