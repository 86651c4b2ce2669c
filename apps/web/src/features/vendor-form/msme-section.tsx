import { MSME_ACTIVITIES, MSME_CATEGORIES } from '@bahi/contracts';
import type { VendorFormModel } from './use-vendor-form.ts';
import { CheckField, capitalised, SelectField, TextField } from './vendor-form-fields.tsx';
import { FormSection } from './vendor-form-sections.tsx';

const categories = MSME_CATEGORIES.map((c) => ({ value: c, label: capitalised(c) }));
const activities = MSME_ACTIVITIES.map((c) => ({ value: c, label: capitalised(c) }));

/** Udyam registration: its number, category and activity, and any payment days agreed in writing. */
export function MsmeSection({ form }: { form: VendorFormModel }) {
  return (
    <FormSection
      title="MSME (Udyam)"
      description="Micro and small enterprises are paid within 45 days by law."
    >
      <CheckField form={form} name="msme">
        We are registered under Udyam
      </CheckField>
      {form.s.msme && (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField
            form={form}
            name="udyamNumber"
            label="Udyam number"
            required
            errorKey="udyam.number"
            hint="Like UDYAM-MH-01-0012345"
            className="sm:col-span-2"
            upper
            input={{ autoCapitalize: 'characters' }}
          />
          <SelectField
            form={form}
            name="udyamCategory"
            label="Category"
            required
            errorKey="udyam.category"
            empty="Choose…"
            options={categories}
          />
          <SelectField
            form={form}
            name="udyamActivity"
            label="Activity"
            required
            errorKey="udyam.activity"
            empty="Choose…"
            options={activities}
          />
          <TextField
            form={form}
            name="udyamYear"
            label="For the financial year"
            required
            errorKey="udyam.financialYear"
          />
          <CheckField form={form} name="writtenAgreement" className="sm:col-span-2">
            We have a written agreement on payment days with {form.view.organizationName}
          </CheckField>
          {form.s.writtenAgreement && (
            <TextField
              form={form}
              name="agreedDays"
              label="Days agreed in writing"
              required
              errorKey="udyam.agreedDays"
              input={{ inputMode: 'numeric' }}
            />
          )}
        </div>
      )}
    </FormSection>
  );
}
