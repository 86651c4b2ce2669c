import { UDYAM_PATTERN, type Vendor, type VendorUpdate } from '@bahi/contracts';
import { formatIndianDate, formatIndianNumber } from '@bahi/india';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PencilIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
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
import { ApiError, getJson, requestApi } from '@/lib/api.ts';

const vendorKeys = { all: ['vendors'] as const };

/** The vendor master (`GET /api/vendors`). */
function useVendors() {
  return useQuery({
    queryKey: vendorKeys.all,
    queryFn: async ({ signal }) => (await getJson<{ items: Vendor[] }>('/api/vendors', signal)).items,
  });
}

/** Edit a vendor: display name, agreed payment days, Udyam number. */
function VendorDialog({ vendor, onClose }: { vendor: Vendor; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [displayName, setDisplayName] = useState(vendor.displayName ?? '');
  const [days, setDays] = useState(vendor.paymentTermsDays === null ? '' : String(vendor.paymentTermsDays));
  const [udyam, setUdyam] = useState(vendor.msmeUdyam ?? '');
  const show = (v: number | null) => (v === null ? '' : String(v));
  const [tolerance, setTolerance] = useState({
    qtyPct: show(vendor.tolerances.qtyPct),
    pricePct: show(vendor.tolerances.pricePct),
    amountRupees: show(vendor.tolerances.amountRupees),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (body: VendorUpdate) =>
      requestApi<Vendor>(`/api/vendors/${encodeURIComponent(vendor.id)}`, { method: 'PATCH', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: vendorKeys.all }),
  });
  const submit = async () => {
    const found: Record<string, string> = {};
    const dayCount = days.trim() === '' ? null : Number(days);
    if (dayCount !== null && (!Number.isInteger(dayCount) || dayCount < 0 || dayCount > 365))
      found.paymentTermsDays =
        'Enter whole days between 0 and 365, or leave it empty when nothing was agreed';
    const udyamNumber = udyam.trim().toUpperCase() || null;
    if (udyamNumber && !UDYAM_PATTERN.test(udyamNumber))
      found.msmeUdyam = 'An Udyam number looks like UDYAM-MH-26-0012345';
    const own: Record<string, number | null> = {};
    for (const [key, text] of Object.entries(tolerance)) {
      const n = text.trim() === '' ? null : Number(text);
      if (n !== null && (!Number.isFinite(n) || n < 0 || (key !== 'amountRupees' && n > 100)))
        found.tolerances =
          'Tolerances are 0–100 % and rupees from 0; leave one empty to use the organisation’s';
      own[key] = n;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await save.mutateAsync({
        displayName: displayName.trim() || null,
        paymentTermsDays: dayCount,
        msmeUdyam: udyamNumber,
        tolerances: {
          qtyPct: own.qtyPct ?? null,
          pricePct: own.pricePct ?? null,
          amountRupees: own.amountRupees ?? null,
        },
      });
      toast.success(`Saved ${displayName.trim() || vendor.name}`);
      onClose();
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) setErrors(error.fields);
      else toast.error(error instanceof Error ? error.message : 'Could not save the vendor');
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
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="vendor-display-name">Display name</Label>
            <Input
              id="vendor-display-name"
              value={displayName}
              placeholder={vendor.namesSeen[0] ?? vendor.name}
              onChange={(e) => setDisplayName(e.target.value)}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="vendor-days">Agreed days to pay after acceptance</Label>
            <Input
              id="vendor-days"
              inputMode="numeric"
              value={days}
              placeholder="Nothing agreed in writing (15 days for MSME)"
              aria-invalid={errors.paymentTermsDays ? true : undefined}
              aria-describedby={errors.paymentTermsDays ? 'vendor-days-error' : undefined}
              onChange={(e) => setDays(e.target.value)}
            />
            {errors.paymentTermsDays && (
              <p id="vendor-days-error" className="text-destructive text-xs">
                {errors.paymentTermsDays}
              </p>
            )}
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="vendor-udyam">Udyam registration (MSME)</Label>
            <Input
              id="vendor-udyam"
              value={udyam}
              placeholder="UDYAM-MH-26-0012345"
              aria-invalid={errors.msmeUdyam ? true : undefined}
              aria-describedby={errors.msmeUdyam ? 'vendor-udyam-error' : undefined}
              onChange={(e) => setUdyam(e.target.value)}
            />
            {errors.msmeUdyam && (
              <p id="vendor-udyam-error" className="text-destructive text-xs">
                {errors.msmeUdyam}
              </p>
            )}
          </div>
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
                    value={tolerance[key]}
                    placeholder="Organisation’s"
                    aria-invalid={errors.tolerances ? true : undefined}
                    onChange={(e) => setTolerance((t) => ({ ...t, [key]: e.target.value }))}
                  />
                </div>
              ))}
            </div>
            {errors.tolerances && <p className="text-destructive text-xs">{errors.tolerances}</p>}
          </fieldset>
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

/** The vendors the organisation's documents name, with their totals, and what a person set. */
export function VendorMaster() {
  const vendors = useVendors();
  const [editing, setEditing] = useState<Vendor | null>(null);
  return (
    <section aria-labelledby="vendor-master-title" className="flex flex-col gap-3">
      <div>
        <h2 id="vendor-master-title" className="font-semibold text-lg tracking-tight">
          Vendors from your documents
        </h2>
        <p className="text-muted-foreground text-sm">
          Every supplier a read document names by GSTIN. Mark MSME suppliers to track their 45-day payment
          clock.
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
          No vendors yet. They appear here as your flows read invoices, purchase orders and goods receipts.
        </p>
      ) : (
        <div className="rounded-lg border bg-card">
          <Table className="min-w-[48rem]" aria-label="Vendors">
            <thead>
              <tr className="border-b bg-muted/50 text-left text-muted-foreground">
                <th scope="col" className="px-3 py-2 font-medium">
                  Vendor
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
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Invoiced (₹)
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Terms
                </th>
                <th scope="col" className="px-3 py-2">
                  <span className="sr-only">Edit</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {vendors.data.map((v) => (
                <tr key={v.id} className="border-b last:border-0" data-testid="vendor-row">
                  <td className="px-3 py-2">
                    <span className="font-medium">{v.name}</span>
                    {v.msmeUdyam && (
                      <Badge className="ml-2 border-transparent bg-primary/10 text-primary">MSME</Badge>
                    )}
                    {v.namesSeen.length > 1 && (
                      <div className="text-muted-foreground text-xs">
                        Also printed as {v.namesSeen.filter((n) => n !== v.name).join(', ')}
                      </div>
                    )}
                  </td>
                  <td className="px-3 py-2 font-mono text-xs">{v.gstin ?? '—'}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{v.documents}</td>
                  <td className="px-3 py-2 tabular-nums">
                    {v.lastDocumentDate ? (formatIndianDate(v.lastDocumentDate) ?? v.lastDocumentDate) : '—'}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{formatIndianNumber(v.invoicedTotal)}</td>
                  <td className="px-3 py-2">
                    {v.paymentTermsDays === null ? 'Not agreed' : `${v.paymentTermsDays} days`}
                  </td>
                  <td className="px-3 py-2 text-right">
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
    </section>
  );
}
