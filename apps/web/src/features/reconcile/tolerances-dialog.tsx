import { type Tolerances, TolerancesSchema } from '@bahi/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
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
import { Label } from '@/components/ui/label.tsx';
import { requestApi } from '@/lib/api.ts';

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
  const [values, setValues] = useState<Record<string, string>>({
    qtyPct: String(current.qtyPct),
    pricePct: String(current.pricePct),
    amountRupees: String(current.amountRupees),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (body: Tolerances) =>
      requestApi<Tolerances>('/api/reconcile/tolerances', { method: 'PUT', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['reconcile'] }),
  });
  const submit = async () => {
    const parsed = TolerancesSchema.safeParse({
      qtyPct: Number(values.qtyPct),
      pricePct: Number(values.pricePct),
      amountRupees: Number(values.amountRupees),
    });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync(parsed.data);
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
                value={values[f.key]}
                aria-invalid={errors[f.key] ? true : undefined}
                aria-describedby={`tolerance-${f.key}-hint`}
                onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
              />
              <p
                id={`tolerance-${f.key}-hint`}
                className={errors[f.key] ? 'text-destructive text-xs' : 'text-muted-foreground text-xs'}
              >
                {errors[f.key] ?? f.hint}
              </p>
            </div>
          ))}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} disabled={save.isPending}>
            Save
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
