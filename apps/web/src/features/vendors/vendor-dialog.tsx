import type { Vendor } from '@bahi/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { DialogSaveFooter } from '@/components/dialog-save-footer.tsx';
import { FormField } from '@/components/form-field.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { ApiError } from '@/lib/api.ts';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';
import { setServerFieldErrors, useContractForm } from '@/lib/form.ts';
import {
  toVendorFormValues,
  type VendorFormOutput,
  VendorFormSchema,
  type VendorFormValues,
} from './vendor-form.ts';

/** The query key of the vendor master, refreshed when a vendor is saved. */
export const vendorKeys = { all: ['vendors'] as const };

/** The no-PO tick and the three match tolerances agreed with the vendor, which share one message. */
function PurchaseAndTolerances({
  form,
  toleranceError,
}: {
  form: UseFormReturn<VendorFormValues, unknown, VendorFormOutput>;
  toleranceError: string | undefined;
}) {
  return (
    <>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-0.5 size-4" {...form.register('noPoNeeded')} />
        <span>
          No purchase order needed (services, rent, travel, utilities)
          <span className="block text-muted-foreground text-xs">
            Its invoices without a PO read “No PO — needs approval” in Reconcile and are paid once approved.
          </span>
        </span>
      </label>
      <fieldset className="flex flex-col gap-1.5">
        <legend className="mb-1.5 font-medium text-sm">Match tolerances agreed with this vendor</legend>
        <div className="grid grid-cols-3 gap-2">
          {(
            [
              ['qtyPct', 'Quantity %'],
              ['pricePct', 'Rate %'],
              ['amountRupees', '₹ a line'],
            ] as const
          ).map(([key, label]) => (
            <div key={key} className="flex flex-col gap-1">
              <Label htmlFor={`vendor-${key}`} className="font-normal text-muted-foreground text-xs">
                {label}
              </Label>
              <Input
                id={`vendor-${key}`}
                inputMode="decimal"
                placeholder="Organisation’s"
                aria-invalid={toleranceError ? true : undefined}
                {...form.register(`tolerances.${key}`)}
              />
            </div>
          ))}
        </div>
        {toleranceError && <p className="text-destructive text-xs">{toleranceError}</p>}
      </fieldset>
    </>
  );
}

/** Edit a vendor: display name, agreed payment days, Udyam number, its own tolerances. */
export function VendorDialog({ vendor, onClose }: { vendor: Vendor; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useContractForm<VendorFormValues, VendorFormOutput>(
    VendorFormSchema,
    toVendorFormValues(vendor),
  );
  const { errors } = form.formState;
  // One message under the three tolerance boxes, as they share one rule.
  const toleranceError =
    errors.tolerances?.qtyPct?.message ??
    errors.tolerances?.pricePct?.message ??
    errors.tolerances?.amountRupees?.message ??
    errors.tolerances?.message;
  const save = useMutation({
    mutationFn: (body: VendorFormOutput) =>
      callEndpoint(api.updateVendor, { params: { id: vendor.id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: vendorKeys.all }),
  });
  /** Runs with the contract's output, which is the request body. */
  const submit = async (body: VendorFormOutput) => {
    try {
      await save.mutateAsync(body);
      toast.success(`Saved ${body.displayName || vendor.name}`);
      onClose();
    } catch (error) {
      if (error instanceof ApiError && setServerFieldErrors(form.setError, error.fields)) return;
      toast.error(error instanceof Error ? error.message : 'Could not save the vendor');
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{vendor.name}</DialogTitle>
          <DialogDescription>
            {vendor.gstin ? `GSTIN ${vendor.gstin}` : 'No GSTIN'}. Payment terms and the Udyam number set the
            MSME payment clock on the Reconcile screen.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-4">
          <FormField
            id="vendor-display-name"
            label="Display name"
            error={errors.displayName?.message}
            className="gap-1.5"
          >
            {(ids) => (
              <Input
                {...ids}
                placeholder={vendor.namesSeen[0] ?? vendor.name}
                {...form.register('displayName')}
              />
            )}
          </FormField>
          <FormField
            id="vendor-days"
            label="Agreed days to pay after acceptance"
            error={errors.paymentTermsDays?.message}
            className="gap-1.5"
          >
            {(ids) => (
              <Input
                {...ids}
                inputMode="numeric"
                placeholder="Nothing agreed in writing (15 days for MSME)"
                {...form.register('paymentTermsDays')}
              />
            )}
          </FormField>
          <FormField
            id="vendor-udyam"
            label="Udyam registration (MSME)"
            error={errors.msmeUdyam?.message}
            className="gap-1.5"
          >
            {(ids) => <Input {...ids} placeholder="UDYAM-MH-26-0012345" {...form.register('msmeUdyam')} />}
          </FormField>
          <PurchaseAndTolerances form={form} toleranceError={toleranceError} />
        </div>
        <DialogSaveFooter onCancel={onClose} onSave={form.handleSubmit(submit)} saving={save.isPending} />
      </DialogContent>
    </Dialog>
  );
}
