import type { Tolerances } from '@bahi/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { DialogSaveFooter } from '@/components/dialog-save-footer.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';
import { useContractForm } from '@/lib/form.ts';
import {
  TolerancesFormSchema,
  type TolerancesFormValues,
  toTolerancesFormValues,
} from './tolerances-form.ts';

const FIELDS = [
  { key: 'qtyPct', label: 'Quantity (%)', hint: 'How much more than received may be billed' },
  { key: 'pricePct', label: 'Rate (%)', hint: 'How far a billed rate may stray from the PO rate' },
  {
    key: 'amountRupees',
    label: 'Amount (₹ a line)',
    hint: 'How far a line amount may be from quantity × rate',
  },
] as const;

/** Edit the organisation's match tolerances (`PUT /api/reconcile/tolerances`). */
export function TolerancesDialog({ current, onClose }: { current: Tolerances; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useContractForm<TolerancesFormValues, Tolerances>(
    TolerancesFormSchema,
    toTolerancesFormValues(current),
  );
  const { errors } = form.formState;
  const save = useMutation({
    mutationFn: (body: Tolerances) => callEndpoint(api.setTolerances, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['reconcile'] }),
  });
  /** Runs with the contract's output: the three numbers the server stores. */
  const submit = async (tolerances: Tolerances) => {
    try {
      await save.mutateAsync(tolerances);
      toast.success('Tolerances saved; invoices matched again');
      onClose();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not save the tolerances');
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Match tolerances</DialogTitle>
          <DialogDescription>
            For every vendor, unless one has its own (Vendor Management). Within them an invoice is matched
            within tolerance and paid.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-4">
          {FIELDS.map((f) => (
            <div key={f.key} className="flex flex-col gap-1.5">
              <Label htmlFor={`tolerance-${f.key}`}>{f.label}</Label>
              <Input
                id={`tolerance-${f.key}`}
                inputMode="decimal"
                aria-invalid={errors[f.key] ? true : undefined}
                aria-describedby={`tolerance-${f.key}-hint`}
                {...form.register(f.key)}
              />
              <p
                id={`tolerance-${f.key}-hint`}
                className={errors[f.key] ? 'text-destructive text-xs' : 'text-muted-foreground text-xs'}
              >
                {errors[f.key]?.message ?? f.hint}
              </p>
            </div>
          ))}
        </div>
        <DialogSaveFooter onCancel={onClose} onSave={form.handleSubmit(submit)} saving={save.isPending} />
      </DialogContent>
    </Dialog>
  );
}
