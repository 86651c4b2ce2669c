import type { MsmeInvoice, MsmeVendor, MsmeView } from '@bahi/contracts';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { Input } from '@/components/ui/input.tsx';
import { ApiError } from '@/lib/api.ts';
import { usePermission } from '@/lib/permissions.ts';
import { useAddObjection, useImportPayments, useRecordPayment, useSaveRegistration } from './queries.ts';

/** Field messages of a refused request, and its message. */
export function errorsOf(error: unknown): { message: string; fields: Record<string, string> } {
  if (error instanceof ApiError) return { message: error.message, fields: error.fields };
  return { message: error instanceof Error ? error.message : 'Something went wrong; try again', fields: {} };
}

const selectClass = 'h-9 rounded-md border bg-card px-2 text-sm';

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

/** Record a payment: to one invoice, or to the vendor's oldest due invoices. */
export function PaymentDialog({
  data,
  invoice,
  onClose,
}: {
  data: MsmeView;
  invoice: MsmeInvoice | null;
  onClose: () => void;
}) {
  const record = useRecordPayment();
  const [vendorId, setVendorId] = useState(invoice?.vendorId ?? data.vendors[0]?.id ?? '');
  const [invoiceId, setInvoiceId] = useState(invoice?.invoice.id ?? '');
  const [date, setDate] = useState(data.today);
  const [amount, setAmount] = useState(invoice ? String(invoice.outstanding) : '');
  const [reference, setReference] = useState('');
  const [delayReason, setDelayReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const choices = data.invoices.filter((i) => i.vendorId === vendorId && i.outstanding > 0);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    try {
      await record.mutateAsync({
        vendorId,
        invoiceId: invoiceId || null,
        date,
        amount: Number(amount.replace(/,/g, '')),
        reference,
        delayReason: delayReason.trim() || null,
      });
      toast.success('Payment recorded');
      onClose();
    } catch (err) {
      const { message, fields } = errorsOf(err);
      setErrors(Object.keys(fields).length > 0 ? fields : { form: message });
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Record a payment</DialogTitle>
          <DialogDescription>
            As it left the bank. Without an invoice it pays the vendor's oldest due invoices first.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" aria-label="Payment">
          <Field label="Vendor" error={errors.vendorId}>
            <select className={selectClass} value={vendorId} onChange={(e) => setVendorId(e.target.value)}>
              {data.vendors.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Invoice" error={errors.invoiceId}>
            <select className={selectClass} value={invoiceId} onChange={(e) => setInvoiceId(e.target.value)}>
              <option value="">Oldest due first</option>
              {choices.map((i) => (
                <option key={i.invoice.id} value={i.invoice.id}>
                  {i.invoice.documentNumber ?? i.invoice.fileName} · ₹{i.outstanding.toLocaleString('en-IN')}{' '}
                  due
                </option>
              ))}
            </select>
          </Field>
          <Field label="Paid on" error={errors.date}>
            <Input type="date" value={date} onChange={(e) => setDate(e.target.value)} />
          </Field>
          <Field label="Amount (₹)" error={errors.amount}>
            <Input inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
          </Field>
          <Field label="Bank reference (UTR or cheque no.)" error={errors.reference}>
            <Input value={reference} onChange={(e) => setReference(e.target.value)} />
          </Field>
          <Field label="Reason for delay (for Form-1)" error={errors.delayReason}>
            <Input value={delayReason} onChange={(e) => setDelayReason(e.target.value)} />
          </Field>
          {errors.form && (
            <p role="alert" className="text-destructive text-sm sm:col-span-2">
              {errors.form}
            </p>
          )}
          <DialogFooter className="sm:col-span-2">
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={record.isPending}>
              Record payment
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

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

/** A vendor's Udyam category, activity and written agreement for a financial year. */
export function CategoryEditor({ vendor, today }: { vendor: MsmeVendor; today: string }) {
  const save = useSaveRegistration();
  const may = usePermission('vendors.edit');
  const [year, setYear] = useState(financialYearOf(today));
  const current = vendor.registrations.find((r) => r.financialYear === year);
  const [draft, setDraft] = useState(() => draftOf(current));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const pickYear = (y: number) => {
    setYear(y);
    setDraft(draftOf(vendor.registrations.find((r) => r.financialYear === y)));
    setErrors({});
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    try {
      await save.mutateAsync({
        vendorId: vendor.id,
        financialYear: year,
        udyam: draft.udyam.trim() || null,
        category: draft.category,
        activity: draft.activity,
        writtenAgreement: draft.writtenAgreement,
        agreedDays:
          draft.writtenAgreement && draft.agreedDays.trim() !== '' ? Number(draft.agreedDays) : null,
      });
      toast.success(`${vendor.name}: ${fyLabel(year)} saved`);
    } catch (err) {
      const { message, fields } = errorsOf(err);
      setErrors(Object.keys(fields).length > 0 ? fields : { form: message });
    }
  };
  const now = financialYearOf(today);
  // The last few years (a year's invoices are paid and filed long after it ends) and any already set.
  const years = [now - 3, now - 2, now - 1, now, ...vendor.registrations.map((r) => r.financialYear)];
  return (
    <form
      onSubmit={submit}
      className="grid grid-cols-2 gap-2 sm:grid-cols-4 2xl:grid-cols-7"
      aria-label={`MSME category of ${vendor.name}`}
    >
      <Field label="Year">
        <select className={selectClass} value={year} onChange={(e) => pickYear(Number(e.target.value))}>
          {[...new Set(years)].sort().map((y) => (
            <option key={y} value={y}>
              {fyLabel(y)}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Category" error={errors.category}>
        <select
          className={selectClass}
          value={draft.category}
          onChange={(e) => setDraft({ ...draft, category: e.target.value as Draft['category'] })}
          data-testid="category"
        >
          <option value="micro">Micro</option>
          <option value="small">Small</option>
          <option value="medium">Medium</option>
        </select>
      </Field>
      <Field label="Activity" error={errors.activity}>
        <select
          className={selectClass}
          value={draft.activity}
          onChange={(e) => setDraft({ ...draft, activity: e.target.value as Draft['activity'] })}
        >
          <option value="manufacturing">Manufacturing</option>
          <option value="services">Services</option>
          <option value="trading">Trading</option>
        </select>
      </Field>
      <Field label="Udyam number" error={errors.udyam}>
        <Input
          value={draft.udyam}
          placeholder="UDYAM-MH-26-0012345"
          onChange={(e) => setDraft({ ...draft, udyam: e.target.value })}
        />
      </Field>
      <label className="flex items-center gap-2 self-end pb-2 text-sm">
        <input
          type="checkbox"
          className="size-4"
          checked={draft.writtenAgreement}
          onChange={(e) => setDraft({ ...draft, writtenAgreement: e.target.checked })}
        />
        Written agreement
      </label>
      <Field label="Agreed days" error={errors.agreedDays}>
        <Input
          inputMode="numeric"
          value={draft.agreedDays}
          disabled={!draft.writtenAgreement}
          onChange={(e) => setDraft({ ...draft, agreedDays: e.target.value })}
        />
      </Field>
      <div className="flex items-end">
        <Button type="submit" size="sm" disabled={!may.allowed || save.isPending}>
          {current ? 'Save' : 'Set category'}
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

interface Draft {
  category: 'micro' | 'small' | 'medium';
  activity: 'manufacturing' | 'services' | 'trading';
  udyam: string;
  writtenAgreement: boolean;
  agreedDays: string;
}

function draftOf(r: MsmeVendor['registrations'][number] | undefined): Draft {
  return {
    category: r?.category ?? 'micro',
    activity: r?.activity ?? 'manufacturing',
    udyam: r?.udyam ?? '',
    writtenAgreement: r?.writtenAgreement ?? false,
    agreedDays: r?.agreedDays === null || r?.agreedDays === undefined ? '' : String(r.agreedDays),
  };
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
