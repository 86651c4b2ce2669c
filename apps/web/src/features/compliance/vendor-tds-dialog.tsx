import { TDS_SECTION_LABELS, TDS_SECTION_NAMES, type Vendor } from '@bahi/contracts';
import { CheckboxLabel } from '@/components/checkbox-label.tsx';
import { LabelledField, LabelledInput } from '@/components/labelled-input.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { useVendorTdsForm } from './use-vendor-tds-form.ts';
import type { Draft } from './vendor-tds-draft.ts';

/** The look of the TDS screens' native selects. */
export const SELECT = 'h-9 rounded-md border bg-card px-2 text-sm';

/** A TDS section picker; `withSac` adds the default, "by each line's SAC", first. */
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

type SetDraft = (patch: Partial<Draft>) => void;

/** Edit a vendor's TDS profile (`PATCH /api/vendors/:id` with `tds`). */
export function VendorTdsDialog({ vendor, onClose }: { vendor: Vendor; onClose: () => void }) {
  const { draft: d, set, error, submit, pending } = useVendorTdsForm(vendor, onClose);
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
          <LabelledField id="tds-section" label="Section">
            <SectionSelect
              id="tds-section"
              value={d.section}
              onChange={(section) => set({ section })}
              withSac
            />
          </LabelledField>
          <CheckboxLabel checked={d.panOperative} onChange={(panOperative) => set({ panOperative })}>
            PAN is operative (linked with Aadhaar); otherwise TDS is at least 20 %
          </CheckboxLabel>
          <CheckboxLabel checked={d.hasLdc} onChange={(hasLdc) => set({ hasLdc })}>
            Lower-deduction certificate (section 197)
          </CheckboxLabel>
          {d.hasLdc && <CertificateFields d={d} set={set} />}
          {error && (
            <p role="alert" className="text-destructive text-sm">
              {error}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              Save
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The lower-deduction certificate's text fields, each bound to its key of the draft. */
const CERTIFICATE_INPUTS: ReadonlyArray<{
  key: 'ldcRate' | 'ldcLimit' | 'ldcFrom' | 'ldcTo';
  id: string;
  label: string;
  date?: boolean;
}> = [
  { key: 'ldcRate', id: 'ldc-rate', label: 'Rate (%)' },
  { key: 'ldcLimit', id: 'ldc-limit', label: 'Limit (₹ this year)' },
  { key: 'ldcFrom', id: 'ldc-from', label: 'Valid from', date: true },
  { key: 'ldcTo', id: 'ldc-to', label: 'Valid to', date: true },
];

/** The certificate's number, section, rate, limit and validity, shown once the box is ticked. */
function CertificateFields({ d, set }: { d: Draft; set: SetDraft }) {
  return (
    <fieldset className="grid grid-cols-2 gap-2 rounded-md border p-2">
      <legend className="px-1 text-muted-foreground text-xs">Certificate</legend>
      <LabelledInput
        id="ldc-number"
        label="Number"
        fieldClassName="gap-1"
        value={d.ldcNumber}
        onChange={(e) => set({ ldcNumber: e.target.value })}
      />
      <LabelledField id="ldc-section" label="Section" className="gap-1">
        <SectionSelect id="ldc-section" value={d.ldcSection} onChange={(ldcSection) => set({ ldcSection })} />
      </LabelledField>
      {CERTIFICATE_INPUTS.map((f) => (
        <LabelledInput
          key={f.key}
          id={f.id}
          label={f.label}
          fieldClassName="gap-1"
          {...(f.date ? { type: 'date' } : { inputMode: 'decimal' })}
          value={d[f.key]}
          onChange={(e) => set({ [f.key]: e.target.value })}
        />
      ))}
    </fieldset>
  );
}
