import type { Vendor, VendorLinkCreated } from '@bahi/contracts';
import { useState } from 'react';
import { toast } from 'sonner';
import { ApiError } from '@/lib/api.ts';
import { useCreateVendorLink } from './onboarding-queries.ts';

/** The link being made: its fields, the server's field errors, and the link once made. */
export function useCreateLink(vendor: Pick<Vendor, 'id' | 'name'> | undefined) {
  const create = useCreateVendorLink();
  const [vendorName, setVendorName] = useState(vendor?.name ?? '');
  const [pan, setPan] = useState('');
  const [gstin, setGstin] = useState('');
  const [flowId, setFlowId] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<VendorLinkCreated | null>(null);

  // A known vendor's name, PAN and GSTIN come from the master on the server; only a new one sends its own.
  const submit = async () => {
    try {
      const made = await create.mutateAsync({
        vendorName,
        ...(vendor ? { vendorId: vendor.id } : {}),
        prefill: vendor ? {} : { ...(pan ? { pan } : {}), ...(gstin ? { gstins: [gstin] } : {}) },
        lockPrefilled: true,
        invoiceFlowId: flowId || null,
      });
      setCreated(made);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) setErrors(error.fields);
      else toast.error(error instanceof Error ? error.message : 'Could not make the link');
    }
  };

  return {
    values: { vendorName, pan, gstin, flowId },
    set: { vendorName: setVendorName, pan: setPan, gstin: setGstin, flowId: setFlowId },
    errors,
    created,
    submit,
    pending: create.isPending,
  };
}

/** The form's state, as the dialog's parts take it. */
export type CreateLinkForm = ReturnType<typeof useCreateLink>;
