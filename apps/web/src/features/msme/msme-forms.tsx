import type { MsmeInvoice } from '@bahi/contracts';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { ApiError } from '@/lib/api.ts';
import { usePermission } from '@/lib/permissions.ts';
import { useAddObjection, useImportPayments } from './queries.ts';

/** Field messages of a refused request, and its message. */
export function errorsOf(error: unknown): { message: string; fields: Record<string, string> } {
  if (error instanceof ApiError) return { message: error.message, fields: error.fields };
  return { message: error instanceof Error ? error.message : 'Something went wrong; try again', fields: {} };
}

/** The look of the MSME screen's drop-downs. */
export const selectClass = 'h-9 rounded-md border bg-card px-2 text-sm';

/** A labelled control with its field message under it. */
export function Field({
  label,
  error,
  children,
}: {
  label: string;
  error?: string | undefined;
  children: React.ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the children, wrapped by the label
    <label className="flex flex-col gap-1 text-sm">
      <span className="text-muted-foreground text-xs">{label}</span>
      {children}
      {error && (
        <span role="alert" className="text-destructive text-xs">
          {error}
        </span>
      )}
    </label>
  );
}

/** The current financial year (April to March) of a date. */
export function financialYearOf(iso: string): number {
  const y = Number(iso.slice(0, 4));
  return Number(iso.slice(5, 7)) >= 4 ? y : y - 1;
}

/** "2025-26". */
export const fyLabel = (y: number) => `${y}-${String((y + 1) % 100).padStart(2, '0')}`;

/** Import payments from a bank statement CSV; every bad row is named and nothing is imported. */
export function ImportCsv() {
  const run = useImportPayments();
  const may = usePermission('vendors.edit');
  const [problems, setProblems] = useState<string[]>([]);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setProblems([]);
    try {
      const result = await run.mutateAsync(await file.text());
      toast.success(
        `${result.imported} payment${result.imported === 1 ? '' : 's'} imported${result.alreadyRecorded ? `; ${result.alreadyRecorded} already recorded` : ''}`,
      );
    } catch (err) {
      const { message, fields } = errorsOf(err);
      const rows = Object.values(fields);
      setProblems(
        rows.length > 0
          ? [`Nothing was imported. Fix these rows and import the file again:`, ...rows]
          : [message],
      );
    }
  };
  return (
    <div className="flex flex-col gap-1">
      <label className="inline-flex">
        <span className="sr-only">Import a bank statement CSV</span>
        <input
          type="file"
          accept=".csv,text/csv"
          className="text-sm file:mr-2 file:rounded-md file:border file:bg-card file:px-3 file:py-1.5"
          disabled={!may.allowed || run.isPending}
          onChange={(e) => {
            void onFile(e.target.files?.[0]);
            e.target.value = '';
          }}
          data-testid="import-csv"
        />
      </label>
      <span className="text-muted-foreground text-xs">
        Columns: Date, Amount, Reference, GSTIN (or PAN), and optionally Invoice No. and Reason for delay.
      </span>
      {problems.length > 0 && (
        // The alert role sits on a wrapper: on the <ul> itself it would replace the list role and leave
        // the <li>s outside any list for assistive technology.
        <div role="alert" data-testid="import-errors">
          <ul className="list-disc pl-5 text-destructive text-sm">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** Record a written rejection of an invoice's goods or services. */
export function ObjectionForm({
  invoice,
  today,
  onDone,
}: {
  invoice: MsmeInvoice;
  today: string;
  onDone: () => void;
}) {
  const add = useAddObjection();
  const [raisedOn, setRaisedOn] = useState(today);
  const [resolvedOn, setResolvedOn] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    try {
      await add.mutateAsync({
        invoiceId: invoice.invoice.id,
        raisedOn,
        resolvedOn: resolvedOn || null,
        note,
      });
      toast.success('Objection recorded');
      onDone();
    } catch (err) {
      const { message, fields } = errorsOf(err);
      setErrors(Object.keys(fields).length > 0 ? fields : { form: message });
    }
  };
  return (
    <form onSubmit={submit} className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label="Written objection">
      <Field label="Raised on" error={errors.raisedOn}>
        <Input type="date" value={raisedOn} onChange={(e) => setRaisedOn(e.target.value)} />
      </Field>
      <Field label="Resolved on (if it was)" error={errors.resolvedOn}>
        <Input type="date" value={resolvedOn} onChange={(e) => setResolvedOn(e.target.value)} />
      </Field>
      <Field label="What was objected to" error={errors.note}>
        <Input value={note} onChange={(e) => setNote(e.target.value)} />
      </Field>
      <div className="flex items-end gap-2">
        <Button type="submit" size="sm" disabled={add.isPending}>
          Save objection
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
      {errors.form && (
        <p role="alert" className="col-span-full text-destructive text-sm">
          {errors.form}
        </p>
      )}
    </form>
  );
}
