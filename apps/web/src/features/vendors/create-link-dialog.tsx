import type { Vendor } from '@bahi/contracts';
import { useQuery } from '@tanstack/react-query';
import { LockIcon } from 'lucide-react';
import { FormField } from '@/components/form-field.tsx';
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
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';
import { LinkMade } from './link-made.tsx';
import { type CreateLinkForm, useCreateLink } from './use-create-link.ts';

const selectClass =
  'h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** A known vendor's fields the link fills in and locks: what the server will take from the master. */
function lockedFieldsOf(vendor: Pick<Vendor, 'name' | 'pan' | 'gstin'>): Array<[string, string]> {
  const rows: Array<[string, string]> = [['Legal name', vendor.name]];
  if (vendor.pan) rows.push(['PAN', vendor.pan]);
  if (vendor.gstin) rows.push(['GSTIN', vendor.gstin]);
  return rows;
}

/**
 * Make a link: who it is for, what is known ahead (locked), and the flow their invoices go into. For a
 * known vendor of the master its name, PAN and GSTIN are filled in and locked.
 */
export function CreateLinkDialog({
  vendor,
  onClose,
}: {
  vendor?: Pick<Vendor, 'id' | 'name' | 'pan' | 'gstin'>;
  onClose: () => void;
}) {
  const form = useCreateLink(vendor);
  const { created } = form;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Vendor onboarding link</DialogTitle>
          <DialogDescription>
            The vendor opens it without an account and fills in PAN, GSTINs, bank account, Udyam and contacts.
            It works for 7 days and takes one submission.
          </DialogDescription>
        </DialogHeader>
        {created ? (
          <LinkMade created={created} vendorName={form.values.vendorName} />
        ) : (
          <CreateLinkFields vendor={vendor} form={form} />
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {created ? 'Done' : 'Cancel'}
          </Button>
          {!created && (
            <Button onClick={() => void form.submit()} disabled={form.pending}>
              Create link
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Who the link is for, its PAN and GSTIN (or the known vendor's, locked), and the flow for invoices. */
function CreateLinkFields({
  vendor,
  form,
}: {
  vendor: Pick<Vendor, 'id' | 'name' | 'pan' | 'gstin'> | undefined;
  form: CreateLinkForm;
}) {
  const { values, set, errors } = form;
  return (
    <div className="flex flex-col gap-4">
      <FormField id="link-vendor-name" label="Who is it for?" error={errors.vendorName} required>
        {(ids) => (
          <Input
            {...ids}
            value={values.vendorName}
            onChange={(e) => set.vendorName(e.target.value)}
            placeholder="Vendor name"
          />
        )}
      </FormField>
      {vendor ? (
        <LockedFields vendor={vendor} />
      ) : (
        <>
          <FormField
            id="link-pan"
            label="PAN, if you know it"
            hint="Filled in and locked for the vendor"
            error={errors['prefill.pan']}
          >
            {(ids) => (
              <Input
                {...ids}
                value={values.pan}
                onChange={(e) => set.pan(e.target.value)}
                placeholder="ABCPE1234F"
              />
            )}
          </FormField>
          <FormField id="link-gstin" label="GSTIN, if you know it" error={errors['prefill.gstins.0']}>
            {(ids) => (
              <Input
                {...ids}
                value={values.gstin}
                onChange={(e) => set.gstin(e.target.value)}
                placeholder="27ABCPE1234F1Z5"
              />
            )}
          </FormField>
        </>
      )}
      <FlowField value={values.flowId} onChange={set.flowId} error={errors.invoiceFlowId} />
    </div>
  );
}

/** A known vendor's name, PAN and GSTIN as the link will lock them. */
function LockedFields({ vendor }: { vendor: Pick<Vendor, 'name' | 'pan' | 'gstin'> }) {
  return (
    <div className="rounded-md border bg-muted/40 p-3 text-sm" data-testid="link-locked-fields">
      <p className="mb-2 flex items-center gap-1 font-medium">
        <LockIcon className="size-3.5" aria-hidden="true" />
        Filled in and locked for the vendor
      </p>
      <dl className="grid grid-cols-[6rem_1fr] gap-x-3 gap-y-1">
        {lockedFieldsOf(vendor).map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="break-all font-mono text-xs leading-5">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The flow the vendor's uploaded invoices go into, or none. */
function FlowField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (flowId: string) => void;
  error: string | undefined;
}) {
  const flows = useQuery({
    queryKey: ['flows'],
    queryFn: ({ signal }) => callEndpoint(api.listFlows, { signal }),
  });
  return (
    <FormField
      id="link-flow"
      label="Their invoices go into"
      hint="The vendor can upload invoices through the same link; they follow the usual review"
      error={error}
    >
      {(ids) => (
        <select {...ids} className={selectClass} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">No invoices through this link</option>
          {(flows.data ?? []).map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
