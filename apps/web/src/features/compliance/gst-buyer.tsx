import { type GstReconciliation, type GstSettings, GstSettingsSchema } from '@bahi/contracts';
import { formatIndianNumber } from '@bahi/india';
import { TriangleAlertIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { z } from 'zod';
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
import { textField, useContractForm } from '@/lib/form.ts';
import { usePermission } from '@/lib/permissions.ts';
import { useSetGstSettings } from './queries.ts';

// What the GST screen says about whose GSTR-2B it shows (a file belongs to one buyer GSTIN, and each
// GSTIN is matched on its own) and the organisation's amount tolerance, which a permitted role changes.

type GstinOption = GstReconciliation['gstins'][number];

/** A GSTIN as the picker names it: whether it is the organisation's, in words. */
function gstinLabel(g: GstinOption): string {
  if (!g.gstin) return 'GSTIN not stated in the file';
  if (g.ownGstin === false) return `${g.gstin} (not yours)`;
  return g.gstin;
}

/** The buyer GSTIN whose 2B is shown; a choice when the period has files of several. */
export function GstinSelect({
  data,
  onChange,
}: {
  data: GstReconciliation;
  onChange: (gstin: string | undefined) => void;
}) {
  if (data.gstins.length === 0) return null;
  return (
    <label className="flex min-w-0 flex-col gap-1 text-sm">
      <span className="text-muted-foreground text-xs">Buyer GSTIN</span>
      <select
        className="h-9 min-w-0 rounded-md border bg-card px-2 font-mono text-sm"
        value={data.gstin ?? ''}
        onChange={(e) => onChange(e.target.value || undefined)}
        disabled={data.gstins.length === 1}
        data-testid="gstin-select"
      >
        {data.gstins.map((g) => (
          <option key={g.gstin ?? ''} value={g.gstin ?? ''}>
            {gstinLabel(g)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Said plainly when the 2B shown is for a GSTIN the organisation's profile does not hold. */
export function ForeignGstinNotice({ data }: { data: GstReconciliation }) {
  const shown = data.gstins.find((g) => g.gstin === data.gstin);
  if (!data.gstin || shown?.ownGstin !== false) return null;
  return (
    <div
      role="status"
      className="flex gap-2 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm"
      data-testid="gstin-not-ours"
    >
      <TriangleAlertIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning-foreground" />
      <p>
        This GSTR-2B is for GSTIN <span className="font-mono font-medium">{data.gstin}</span>, which is not
        one of your organisation's GSTINs. It is matched only with invoices billed to that GSTIN. If you
        downloaded another GSTIN's return by mistake, upload your own; if the GSTIN is yours, add it on the{' '}
        <Link to="/profile" className="text-primary underline">
          Profile
        </Link>{' '}
        page.
      </p>
    </div>
  );
}

/** The tolerance box as typed, checked by the contract's rule (an empty box is ₹0: nothing tolerated). */
const ToleranceFormSchema = z.object({
  toleranceRupees: textField(Number, GstSettingsSchema.shape.toleranceRupees),
});
type ToleranceFormValues = z.input<typeof ToleranceFormSchema>;

function ToleranceDialog({ current, onClose }: { current: number; onClose: () => void }) {
  const save = useSetGstSettings();
  const form = useContractForm<ToleranceFormValues, GstSettings>(ToleranceFormSchema, {
    toleranceRupees: String(current),
  });
  const error = form.formState.errors.toleranceRupees?.message;
  const submit = async (settings: GstSettings) => {
    try {
      const saved = await save.mutateAsync(settings);
      toast.success(`Tolerance set to ₹${formatIndianNumber(saved.toleranceRupees)}; GSTR-2B matched again`);
      onClose();
    } catch (e) {
      toast.error(e instanceof Error ? e.message : 'Could not save the tolerance');
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>GSTR-2B tolerance</DialogTitle>
          <DialogDescription>
            How far the supplier's figures may be from your invoice and still count as matched: applied to
            each of taxable value, IGST, CGST, SGST and cess. Dates and invoice numbers must still agree.
          </DialogDescription>
        </DialogHeader>
        <form
          className="flex flex-col gap-1.5"
          onSubmit={(e) => void form.handleSubmit(submit)(e)}
          id="gst-tolerance-form"
        >
          <Label htmlFor="gst-tolerance">Amount (₹)</Label>
          <Input
            id="gst-tolerance"
            inputMode="decimal"
            aria-invalid={error ? true : undefined}
            aria-describedby="gst-tolerance-hint"
            {...form.register('toleranceRupees')}
          />
          <p
            id="gst-tolerance-hint"
            role={error ? 'alert' : undefined}
            className={error ? 'text-destructive text-xs' : 'text-muted-foreground text-xs'}
          >
            {error ?? 'Rupees and paise, from 0 (exact) to ₹10,000. The GST portal default is ₹1.'}
          </p>
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="gst-tolerance-form" disabled={save.isPending}>
            Save
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** "Amounts within ₹1 count as equal", with a Change button for those allowed to change it. */
export function ToleranceSetting({ toleranceRupees }: { toleranceRupees: number }) {
  const [open, setOpen] = useState(false);
  const may = usePermission('settings.manage');
  return (
    <span className="inline-flex flex-wrap items-center gap-1" data-testid="gst-tolerance">
      Amounts within ₹{formatIndianNumber(toleranceRupees)} count as equal.
      {may.allowed ? (
        <Button variant="link" size="sm" className="h-auto p-0 text-xs" onClick={() => setOpen(true)}>
          Change
        </Button>
      ) : (
        may.reason && <span className="sr-only">{may.reason}</span>
      )}
      {open && <ToleranceDialog current={toleranceRupees} onClose={() => setOpen(false)} />}
    </span>
  );
}
