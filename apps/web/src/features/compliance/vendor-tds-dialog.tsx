import {
  TDS_SECTION_LABELS,
  TDS_SECTION_NAMES,
  type Vendor,
  type VendorTds,
  VendorTdsSchema,
} from '@bahi/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type * as React from 'react';
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
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';
import { type Draft, fromDraft, toDraft } from './vendor-tds-draft.ts';

export const SELECT = 'h-9 rounded-md border bg-card px-2 text-sm';

export function SectionSelect({
  id,
  value,
  onChange,
  withSac,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  withSac?: boolean;
}) {
  return (
    <select id={id} className={SELECT} value={value} onChange={(e) => onChange(e.target.value)}>
      {withSac && <option value="">By each line's SAC (or 194Q for goods)</option>}
      {TDS_SECTION_NAMES.map((s) => (
        <option key={s} value={s}>
          {s} — {TDS_SECTION_LABELS[s]}
        </option>
      ))}
    </select>
  );
}

/** Edit a vendor's TDS profile (`PATCH /api/vendors/:id` with `tds`). */
export function VendorTdsDialog({ vendor, onClose }: { vendor: Vendor; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [d, setD] = useState<Draft>(toDraft(vendor.tds));
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
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = VendorTdsSchema.safeParse(fromDraft(d));
    if (!parsed.success) {
      setError(
        parsed.error.issues
          .map((i) =>
            i.message.replace(
              /^Invalid input: expected number, received NaN$/,
              'Enter the certificate’s rate and limit as numbers',
            ),
          )
          .join('; '),
      );
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
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>TDS profile of {vendor.name}</DialogTitle>
          <DialogDescription>
            PAN {vendor.pan ?? 'unknown'}. Every invoice of this vendor is worked out again with it.
          </DialogDescription>
        </DialogHeader>
        <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="tds-section">Section</Label>
            <SectionSelect
              id="tds-section"
              value={d.section}
              onChange={(section) => set({ section })}
              withSac
            />
          </div>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4"
              checked={d.panOperative}
              onChange={(e) => set({ panOperative: e.target.checked })}
            />
            PAN is operative (linked with Aadhaar); otherwise TDS is at least 20 %
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4"
              checked={d.hasLdc}
              onChange={(e) => set({ hasLdc: e.target.checked })}
            />
            Lower-deduction certificate (section 197)
          </label>
          {d.hasLdc && (
            <fieldset className="grid grid-cols-2 gap-2 rounded-md border p-2">
              <legend className="px-1 text-muted-foreground text-xs">Certificate</legend>
              <div className="flex flex-col gap-1">
                <Label htmlFor="ldc-number">Number</Label>
                <Input
                  id="ldc-number"
                  value={d.ldcNumber}
                  onChange={(e) => set({ ldcNumber: e.target.value })}
                />
              </div>
              <div className="flex flex-col gap-1">
                <Label htmlFor="ldc-section">Section</Label>
                <SectionSelect
                  id="ldc-section"
                  value={d.ldcSection}
                  onChange={(ldcSection) => set({ ldcSection })}
                />
              </div>
              <div className="flex flex-col gap-1">
                <Label htmlFor="ldc-rate">Rate (%)</Label>
                <Input
                  id="ldc-rate"
                  inputMode="decimal"
                  value={d.ldcRate}
                  onChange={(e) => set({ ldcRate: e.target.value })}
                />
              </div>
              <div className="flex flex-col gap-1">
                <Label htmlFor="ldc-limit">Limit (₹ this year)</Label>
                <Input
                  id="ldc-limit"
                  inputMode="decimal"
                  value={d.ldcLimit}
                  onChange={(e) => set({ ldcLimit: e.target.value })}
                />
              </div>
              <div className="flex flex-col gap-1">
                <Label htmlFor="ldc-from">Valid from</Label>
                <Input
                  id="ldc-from"
                  type="date"
                  value={d.ldcFrom}
                  onChange={(e) => set({ ldcFrom: e.target.value })}
                />
              </div>
              <div className="flex flex-col gap-1">
                <Label htmlFor="ldc-to">Valid to</Label>
                <Input
                  id="ldc-to"
                  type="date"
                  value={d.ldcTo}
                  onChange={(e) => set({ ldcTo: e.target.value })}
                />
              </div>
            </fieldset>
          )}
          {error && (
            <p role="alert" className="text-destructive text-sm">
              {error}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              Save
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
