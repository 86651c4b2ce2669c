import { TDS_SECTION_LABELS, TDS_SECTION_NAMES } from '@bahi/contracts';
import { FormField } from '@/components/form-field.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import type { VendorFormModel } from './use-vendor-form.ts';
import { CheckField, SelectField, TextField } from './vendor-form-fields.tsx';
import { FormSection } from './vendor-form-sections.tsx';

const tdsChoices = TDS_SECTION_NAMES.map((n) => ({ value: n, label: `${n}: ${TDS_SECTION_LABELS[n]}` }));
const sectionChoices = TDS_SECTION_NAMES.map((n) => ({ value: n, label: n }));

/** One box per GSTIN under the PAN; more can be added unless the link fixed them. */
function GstinFields({ form }: { form: VendorFormModel }) {
  const { s, set, errors, locked } = form;
  return (
    <>
      {s.gstins.map((g, i) => (
        <FormField
          // biome-ignore lint/suspicious/noArrayIndexKey: the boxes are positions in a list the person edits
          key={i}
          id={`gstin-${i}`}
          label={s.gstins.length > 1 ? `GSTIN ${i + 1}` : 'GSTIN'}
          error={errors[`gstins.${i}`]}
          hint={locked('gstins') ? form.lockHint : 'Leave empty if you are not registered for GST'}
        >
          {(ids) => (
            <Input
              {...ids}
              autoCapitalize="characters"
              readOnly={locked('gstins')}
              value={g}
              onChange={(e) =>
                set(
                  'gstins',
                  s.gstins.map((x, j) => (j === i ? e.target.value.toUpperCase() : x)),
                )
              }
            />
          )}
        </FormField>
      ))}
      {!locked('gstins') && (
        <Button
          type="button"
          variant="outline"
          className="self-start"
          onClick={() => set('gstins', [...s.gstins, ''])}
        >
          Add another GSTIN
        </Button>
      )}
    </>
  );
}

/** The lower deduction certificate's details, shown once the vendor says they have one. */
function LdcFields({ form }: { form: VendorFormModel }) {
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <TextField form={form} name="ldcNumber" label="Certificate number" required errorKey="ldc.number" />
      <SelectField
        form={form}
        name="ldcSection"
        label="Section"
        required
        errorKey="ldc.section"
        empty="Choose…"
        options={sectionChoices}
      />
      <TextField
        form={form}
        name="ldcRate"
        label="Rate %"
        required
        errorKey="ldc.rate"
        input={{ inputMode: 'decimal' }}
      />
      <TextField
        form={form}
        name="ldcLimit"
        label="Amount covered (₹)"
        required
        errorKey="ldc.limitRupees"
        input={{ inputMode: 'decimal' }}
      />
      <TextField
        form={form}
        name="ldcFrom"
        label="Valid from"
        required
        errorKey="ldc.from"
        input={{ type: 'date' }}
      />
      <TextField
        form={form}
        name="ldcTo"
        label="Valid to"
        required
        errorKey="ldc.to"
        input={{ type: 'date' }}
      />
    </div>
  );
}

/** PAN, GSTINs, what the vendor supplies for TDS, and a lower deduction certificate if any. */
export function TaxSection({ form }: { form: VendorFormModel }) {
  return (
    <FormSection title="Tax registrations" description="Your PAN, and each GSTIN registered under it.">
      <TextField
        form={form}
        name="pan"
        label="PAN"
        required
        hint={form.locked('pan') ? form.lockHint : 'Like ABCPE1234F'}
        upper
        input={{ autoCapitalize: 'characters', readOnly: form.locked('pan') }}
      />
      <GstinFields form={form} />
      <SelectField
        form={form}
        name="tdsSection"
        label="What you supply, for TDS"
        empty="Not sure: the finance team decides per invoice"
        options={tdsChoices}
      />
      <CheckField form={form} name="hasLdc">
        I have a lower deduction certificate (section 197)
      </CheckField>
      {form.s.hasLdc && <LdcFields form={form} />}
    </FormSection>
  );
}
