import { type Vendor, type VendorTds, VendorTdsSchema } from '@bahi/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type * as React from 'react';
import { useState } from 'react';
import { toast } from 'sonner';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';
import { type Draft, fromDraft, toDraft } from './vendor-tds-draft.ts';

/** Zod's words for a field that is not a number, in the dialog's terms. */
function readableIssues(issues: ReadonlyArray<{ message: string }>): string {
  return issues
    .map((i) =>
      i.message.replace(
        /^Invalid input: expected number, received NaN$/,
        'Enter the certificate’s rate and limit as numbers',
      ),
    )
    .join('; ');
}

/**
 * The TDS dialog's draft, its check and its save (`PATCH /api/vendors/:id` with `tds`); a save
 * refreshes the TDS view and the vendor list, then closes the dialog.
 */
export function useVendorTdsForm(vendor: Vendor, onClose: () => void) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(toDraft(vendor.tds));
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (tds: VendorTds) =>
      callEndpoint(api.updateVendor, { params: { id: vendor.id }, body: { tds } }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['tds'] }),
        queryClient.invalidateQueries({ queryKey: ['vendors'] }),
      ]),
  });
  const set = (patch: Partial<Draft>) => setDraft((x) => ({ ...x, ...patch }));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = VendorTdsSchema.safeParse(fromDraft(draft));
    if (!parsed.success) {
      setError(readableIssues(parsed.error.issues));
      return;
    }
    try {
      await save.mutateAsync(parsed.data);
      toast.success(`TDS profile of ${vendor.name} saved; TDS worked out again`);
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not save the profile');
    }
  };
  return { draft, set, error, submit, pending: save.isPending };
}
