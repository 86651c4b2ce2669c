import { FileSpreadsheetIcon, SheetIcon } from 'lucide-react';
import { FormField } from '@/components/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import type { GoogleStatus } from '@/shared/integrations/queries.ts';
import { GoogleChoicePicker } from './flow-choice-card.tsx';
import { OUTPUT_KIND_LABELS, type OutputKind } from './flow-form.ts';
import type { FlowFormSectionProps } from './use-flow-form.ts';

const OUTPUT_ICONS = { xlsx: FileSpreadsheetIcon, sheets: SheetIcon } as const;

/**
 * Radio-like choice of where rows go. Google Sheets is disabled (with a pointer to Integrations) when the
 * server has no Google client configured; otherwise the note says what happens on save.
 */
function OutputKindPicker({
  value,
  onChange,
  google,
  hasSpreadsheet,
}: {
  value: OutputKind;
  onChange: (kind: OutputKind) => void;
  google: GoogleStatus | undefined;
  /** The flow being edited already writes to a Google spreadsheet. */
  hasSpreadsheet: boolean;
}) {
  return (
    <GoogleChoicePicker
      legend="Output"
      name="outputKind"
      labels={OUTPUT_KIND_LABELS}
      icons={OUTPUT_ICONS}
      value={value}
      onChange={onChange}
      googleKind="sheets"
      google={google}
      googleFeature="Google Sheets"
      unavailableTestId="sheets-unavailable"
      testPrefix="output"
    >
      {value === 'sheets' ? (
        <p className="text-muted-foreground text-xs" data-testid="sheets-note">
          {hasSpreadsheet
            ? "New rows are appended to this flow's Google spreadsheet; a re-processed document's rows are replaced."
            : google?.connected && google.missingScopes.length === 0
              ? `Bahi creates a Google spreadsheet with Documents and Line Items tabs${google.email ? ` in ${google.email}'s Drive` : ''}.`
              : 'Saving asks you to authorise Google, then creates a spreadsheet with Documents and Line Items tabs.'}
        </p>
      ) : (
        <p className="text-muted-foreground text-xs">
          Bahi keeps an .xlsx workbook with a Documents and a Line Items tab, viewable and downloadable here.
        </p>
      )}
    </GoogleChoicePicker>
  );
}

/** The flow form's Output section: where rows go, and the sheet's name. */
export function FlowOutputSection({
  values,
  errors,
  google,
  setField,
  text,
  keepsSpreadsheet,
}: Omit<FlowFormSectionProps, 'form' | 'edited'> & {
  /** Editing a Google flow that already has its spreadsheet: saving keeps it. */
  keepsSpreadsheet: boolean;
}) {
  return (
    <>
      <div className="grid gap-3">
        <Label>
          Output
          <span className="text-destructive" aria-hidden="true">
            *
          </span>
        </Label>
        <OutputKindPicker
          value={values.outputKind}
          onChange={(kind) => setField('outputKind', kind)}
          google={google}
          hasSpreadsheet={keepsSpreadsheet}
        />
      </div>

      <FormField
        id="flow-sheet"
        label="Output sheet name"
        required
        error={errors.sheetName?.message}
        hint={
          values.outputKind === 'sheets'
            ? keepsSpreadsheet
              ? 'The name Bahi shows for the spreadsheet; its title on Google stays as it is.'
              : 'The title of the Google spreadsheet Bahi creates.'
            : 'The name Bahi shows for this workbook.'
        }
      >
        {(ids) => <Input {...ids} placeholder="Invoices FY 2025-26" {...text('sheetName')} />}
      </FormField>
    </>
  );
}
