import type { MsmeVendor } from '@bahi/contracts';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { usePermission } from '@/lib/permissions.ts';
import { errorsOf, Field, financialYearOf, fyLabel, selectClass } from './msme-forms.tsx';
import { useSaveRegistration } from './queries.ts';

/** The year shown, its draft registration, and saving it; picking another year loads that year's. */
function useCategoryEditor(vendor: MsmeVendor, today: string) {
  const save = useSaveRegistration();
  const [year, setYear] = useState(financialYearOf(today));
  const current = vendor.registrations.find((r) => r.financialYear === year);
  const [draft, setDraft] = useState(() => draftOf(current));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const pickYear = (y: number) => {
    setYear(y);
    setDraft(draftOf(vendor.registrations.find((r) => r.financialYear === y)));
    setErrors({});
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    try {
      await save.mutateAsync({
        vendorId: vendor.id,
        financialYear: year,
        udyam: draft.udyam.trim() || null,
        category: draft.category,
        activity: draft.activity,
        writtenAgreement: draft.writtenAgreement,
        agreedDays:
          draft.writtenAgreement && draft.agreedDays.trim() !== '' ? Number(draft.agreedDays) : null,
      });
      toast.success(`${vendor.name}: ${fyLabel(year)} saved`);
    } catch (err) {
      const { message, fields } = errorsOf(err);
      setErrors(Object.keys(fields).length > 0 ? fields : { form: message });
    }
  };
  const now = financialYearOf(today);
  // The last few years (a year's invoices are paid and filed long after it ends) and any already set.
  const years = [now - 3, now - 2, now - 1, now, ...vendor.registrations.map((r) => r.financialYear)];
  return { save, year, current, draft, setDraft, errors, pickYear, submit, years };
}

/** A vendor's Udyam category, activity and written agreement for a financial year. */
export function CategoryEditor({ vendor, today }: { vendor: MsmeVendor; today: string }) {
  const { save, year, current, draft, setDraft, errors, pickYear, submit, years } = useCategoryEditor(
    vendor,
    today,
  );
  const may = usePermission('vendors.edit');
  return (
    <form
      onSubmit={submit}
      className="grid grid-cols-2 gap-2 sm:grid-cols-4 2xl:grid-cols-7"
      aria-label={`MSME category of ${vendor.name}`}
    >
      <Field label="Year">
        <select className={selectClass} value={year} onChange={(e) => pickYear(Number(e.target.value))}>
          {[...new Set(years)].sort().map((y) => (
            <option key={y} value={y}>
              {fyLabel(y)}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Category" error={errors.category}>
        <select
          className={selectClass}
          value={draft.category}
          onChange={(e) => setDraft({ ...draft, category: e.target.value as Draft['category'] })}
          data-testid="category"
        >
          <option value="micro">Micro</option>
          <option value="small">Small</option>
          <option value="medium">Medium</option>
        </select>
      </Field>
      <Field label="Activity" error={errors.activity}>
        <select
          className={selectClass}
          value={draft.activity}
          onChange={(e) => setDraft({ ...draft, activity: e.target.value as Draft['activity'] })}
        >
          <option value="manufacturing">Manufacturing</option>
          <option value="services">Services</option>
          <option value="trading">Trading</option>
        </select>
      </Field>
      <Field label="Udyam number" error={errors.udyam}>
        <Input
          value={draft.udyam}
          placeholder="UDYAM-MH-26-0012345"
          onChange={(e) => setDraft({ ...draft, udyam: e.target.value })}
        />
      </Field>
      <label className="flex items-center gap-2 self-end pb-2 text-sm">
        <input
          type="checkbox"
          className="size-4"
          checked={draft.writtenAgreement}
          onChange={(e) => setDraft({ ...draft, writtenAgreement: e.target.checked })}
        />
        Written agreement
      </label>
      <Field label="Agreed days" error={errors.agreedDays}>
        <Input
          inputMode="numeric"
          value={draft.agreedDays}
          disabled={!draft.writtenAgreement}
          onChange={(e) => setDraft({ ...draft, agreedDays: e.target.value })}
        />
      </Field>
      <div className="flex items-end">
        <Button type="submit" size="sm" disabled={!may.allowed || save.isPending}>
          {current ? 'Save' : 'Set category'}
        </Button>
      </div>
      {errors.form && (
        <p role="alert" className="col-span-full text-destructive text-sm">
          {errors.form}
        </p>
      )}
    </form>
  );
}

interface Draft {
  category: 'micro' | 'small' | 'medium';
  activity: 'manufacturing' | 'services' | 'trading';
  udyam: string;
  writtenAgreement: boolean;
  agreedDays: string;
}

function draftOf(r: MsmeVendor['registrations'][number] | undefined): Draft {
  return {
    category: r?.category ?? 'micro',
    activity: r?.activity ?? 'manufacturing',
    udyam: r?.udyam ?? '',
    writtenAgreement: r?.writtenAgreement ?? false,
    agreedDays: r?.agreedDays === null || r?.agreedDays === undefined ? '' : String(r.agreedDays),
  };
}
