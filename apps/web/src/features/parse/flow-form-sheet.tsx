import { Loader2Icon } from 'lucide-react';
import { FormError } from '@/components/form-error.tsx';
import { FormField } from '@/components/form-field.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet.tsx';
import { LeaveWithoutSavingDialog, UnsavedChangesGuard } from '@/components/unsaved-changes.tsx';
import { GoogleAuthDialog } from '@/shared/integrations/google-auth-dialog.tsx';
import { TriggerFields } from './flow-automation-fields.tsx';
import { FlowOutputSection } from './flow-output-section.tsx';
import { FlowSourceSection } from './flow-source-section.tsx';
import { TypeToggles } from './flow-type-toggles.tsx';
import { type FlowFormProps, useFlowForm } from './use-flow-form.ts';

/**
 * Right-hand side sheet that creates a flow, or edits `flow` when given. Save stays disabled until
 * the form is complete; the server's validation messages (bad Drive link, folder outside the
 * allowed roots) appear under the field they concern. A flow that needs Google (Sheets output, Drive
 * input) while Google is not connected opens the authorisation dialog first, and saving continues once it
 * succeeds; a Sheets flow then gets its spreadsheet (`POST /api/workflow/sheets/create`), and a 401 there
 * (a revoked grant) opens the dialog again.
 */
export function FlowFormSheet({ open, onOpenChange, flow, onSaved }: FlowFormProps) {
  const f = useFlowForm({ open, onOpenChange, flow, onSaved });
  const { values, errors, setField, text } = f.section;
  const what = f.editing ? 'this flow' : 'the new flow';

  return (
    <Sheet open={open} onOpenChange={f.requestOpenChange}>
      <SheetContent
        side="right"
        className="w-full overflow-y-auto sm:max-w-lg"
        aria-describedby="flow-form-description"
      >
        <SheetHeader className="border-b px-6 py-5">
          <SheetTitle className="text-lg">{f.editing ? 'Edit flow' : 'Create New Flow'}</SheetTitle>
          <SheetDescription id="flow-form-description">
            Pick the document type, where documents come from and the sheet Bahi writes rows to.
          </SheetDescription>
        </SheetHeader>
        <form onSubmit={f.saveWith(false)} noValidate className="flex flex-1 flex-col gap-6 px-6 pb-6">
          <FormField id="flow-name" label="Flow name" required error={errors.name?.message}>
            {(ids) => (
              <Input {...ids} placeholder="Vendor invoices — Bengaluru" {...text('name')} autoFocus />
            )}
          </FormField>

          <TypeToggles
            value={values.types}
            onChange={(next) => setField('types', next)}
            error={errors.types?.message}
          />

          <FlowSourceSection {...f.section} current={f.current} />

          <TriggerFields form={f.section.form} />

          <FlowOutputSection {...f.section} keepsSpreadsheet={f.keepsSpreadsheet} />

          <FormError message={f.formError} />

          <div className="mt-auto flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={() => f.requestOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!f.submittable}>
              {f.busy && <Loader2Icon className="animate-spin" aria-hidden="true" />}
              {f.editing ? 'Update' : 'Save'}
            </Button>
          </div>
        </form>
      </SheetContent>
      <GoogleAuthDialog
        open={f.authOpen}
        onOpenChange={f.setAuthOpen}
        onConnected={() => void f.saveWith(true)()}
      />
      <UnsavedChangesGuard dirty={f.dirty} what={what} />
      <LeaveWithoutSavingDialog
        open={f.confirmClose}
        what={what}
        onStay={() => f.setConfirmClose(false)}
        onLeave={() => {
          f.setConfirmClose(false);
          onOpenChange(false);
        }}
      />
    </Sheet>
  );
}
