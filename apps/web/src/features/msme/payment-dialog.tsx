import type { MsmeInvoice, MsmeView } from '@bahi/contracts';
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
import { errorsOf, Field, selectClass } from './msme-forms.tsx';
import { useRecordPayment } from './queries.ts';

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
