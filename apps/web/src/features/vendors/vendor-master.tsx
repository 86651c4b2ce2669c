import type { Vendor } from '@bahi/contracts';
import { formatIndianDate, formatIndianNumber } from '@bahi/india';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LinkIcon, PencilIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { FormField } from '@/components/form-field.tsx';
import { Badge } from '@/components/ui/badge.tsx';
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
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Table } from '@/components/ui/table.tsx';
import { ApiError } from '@/lib/api.ts';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';
import { setServerFieldErrors, useContractForm } from '@/lib/form.ts';
import { usePermission } from '@/lib/permissions.ts';
import { CreateLinkDialog } from './create-link-dialog.tsx';
import {
  toVendorFormValues,
  type VendorFormOutput,
  VendorFormSchema,
  type VendorFormValues,
} from './vendor-form.ts';

const vendorKeys = { all: ['vendors'] as const };

/** The vendor master (`GET /api/vendors`). */
function useVendors() {
  return useQuery({
    queryKey: vendorKeys.all,
    queryFn: async ({ signal }) => (await callEndpoint(api.listVendors, { signal })).items,
  });
}

/** Edit a vendor: display name, agreed payment days, Udyam number, its own tolerances. */
function VendorDialog({ vendor, onClose }: { vendor: Vendor; onClose: () => void }) {
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
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" className="mt-0.5 size-4" {...form.register('noPoNeeded')} />
            <span>
              No purchase order needed (services, rent, travel, utilities)
              <span className="block text-muted-foreground text-xs">
                Its invoices without a PO read “No PO — needs approval” in Reconcile and are paid once
                approved.
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
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={form.handleSubmit(submit)} disabled={save.isPending}>
            Save
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The vendors the organisation's documents name, with their totals, and what a person set. */
export function VendorMaster() {
  const vendors = useVendors();
  const [editing, setEditing] = useState<Vendor | null>(null);
  const [linking, setLinking] = useState<Vendor | null>(null);
  const canEdit = usePermission('vendors.edit');
  return (
    <section aria-labelledby="vendor-master-title" className="flex flex-col gap-3">
      <div>
        <h2 id="vendor-master-title" className="font-semibold text-lg tracking-tight">
          Vendors from your documents
        </h2>
        <p className="text-muted-foreground text-sm">
          Suppliers learned from verified documents: read with every check passed, or approved by a person
          (with their corrections). Mark MSME suppliers to track their 45-day payment clock.
        </p>
      </div>
      {vendors.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : vendors.isError ? (
        <p role="alert" className="text-destructive text-sm">
          Couldn't load the vendors: {vendors.error.message}
        </p>
      ) : vendors.data.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-muted-foreground text-sm">
          No vendors yet. A supplier appears here once one of its documents is verified: read with every check
          passed, or approved in Review.
        </p>
      ) : (
        <div className="rounded-lg border bg-card">
          <Table className="min-w-[48rem]" aria-label="Vendors">
            <thead>
              <tr className="border-b bg-muted/50 text-left text-muted-foreground">
                <th scope="col" className="px-3 py-2 font-medium">
                  Vendor
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Invoiced (₹), verified
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  GSTIN
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Documents
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Last document
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Terms
                </th>
                <th scope="col" className="px-3 py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {vendors.data.map((v) => (
                <tr key={v.id} className="border-b last:border-0" data-testid="vendor-row">
                  <td className="px-3 py-2">
                    <span className="font-medium">{v.name}</span>
                    {v.onboarded && (
                      <Badge className="ml-2 border-transparent bg-emerald-100 text-emerald-900">
                        Onboarded
                      </Badge>
                    )}
                    {v.bankHold && (
                      <Badge variant="destructive" className="ml-2">
                        Bank change: invoices on hold
                      </Badge>
                    )}
                    {v.msmeUdyam && (
                      <Badge className="ml-2 border-transparent bg-primary/10 text-primary">MSME</Badge>
                    )}
                    {v.noPoNeeded && (
                      <Badge className="ml-2 border-transparent bg-muted text-foreground">No PO needed</Badge>
                    )}
                    {v.namesSeen.length > 1 && (
                      <div className="text-muted-foreground text-xs">
                        Also printed as {v.namesSeen.filter((n) => n !== v.name).join(', ')}
                      </div>
                    )}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums" data-testid="vendor-invoiced">
                    {formatIndianNumber(v.invoicedTotal)}
                    {v.awaitingReviewInvoices > 0 && (
                      <div className="text-muted-foreground text-xs">
                        + ₹{formatIndianNumber(v.awaitingReviewTotal)} awaiting review (
                        {v.awaitingReviewInvoices})
                      </div>
                    )}
                  </td>
                  <td className="px-3 py-2 font-mono text-xs">{v.gstin ?? '—'}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{v.documents}</td>
                  <td className="px-3 py-2 tabular-nums">
                    {v.lastDocumentDate ? (formatIndianDate(v.lastDocumentDate) ?? v.lastDocumentDate) : '—'}
                  </td>
                  <td className="px-3 py-2">
                    {v.paymentTermsDays === null ? 'Not agreed' : `${v.paymentTermsDays} days`}
                  </td>
                  <td className="whitespace-nowrap px-3 py-2 text-right">
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setLinking(v)}
                      disabled={!canEdit.allowed}
                      title={canEdit.reason ?? `A link for ${v.name} with its name, PAN and GSTIN locked`}
                      aria-label={`Send onboarding link to ${v.name}`}
                    >
                      <LinkIcon aria-hidden="true" />
                      Onboarding link
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setEditing(v)}
                      aria-label={`Edit ${v.name}`}
                    >
                      <PencilIcon aria-hidden="true" />
                      Edit
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
      {editing && <VendorDialog vendor={editing} onClose={() => setEditing(null)} />}
      {linking && <CreateLinkDialog vendor={linking} onClose={() => setLinking(null)} />}
    </section>
  );
}
