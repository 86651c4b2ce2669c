import { useEffect, useMemo, useState } from 'react';
import type { FieldErrors, UseFormRegisterReturn, UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { registerClearing, setServerFieldErrors, useContractForm } from '@/lib/form.ts';
import { isGoogleAuthRequired } from '@/shared/integrations/google-oauth.ts';
import { type GoogleStatus, useGoogleStatus } from '@/shared/integrations/queries.ts';
import {
  canSubmitFlow,
  createEmptyForm,
  decideGoogleStep,
  FlowFormSchema,
  type FlowFormValues,
  needsSheetCreation,
} from './flow-form.ts';
import { fieldErrorsOf, useSpreadsheetStep } from './flow-form-save.ts';
import { type Flow, toFormValues } from './flows-api.ts';
import { useSaveFlow } from './queries.ts';

/** The flow form's react-hook-form instance. */
export type FlowForm = UseFormReturn<FlowFormValues, unknown, FlowFormValues>;

/** What a section of the flow form edits with: the form, its values and errors, and the field setters. */
export interface FlowFormSectionProps {
  form: FlowForm;
  values: FlowFormValues;
  errors: FieldErrors<FlowFormValues>;
  google: GoogleStatus | undefined;
  setField: <K extends 'types' | 'sourceKind' | 'outputKind' | 'includeSubfolders'>(
    field: K,
    value: FlowFormValues[K],
  ) => void;
  edited: (field: keyof FlowFormValues) => void;
  text: (field: 'name' | 'sourceLocation' | 'sheetName') => UseFormRegisterReturn;
}

/** What opens the flow form: whether it is open, the flow to edit (none: a new one), and what follows a save. */
export interface FlowFormProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  flow?: Flow | undefined;
  onSaved?: ((flow: Flow, created: boolean) => void) | undefined;
}

/** The form's field setters: an edit clears the field's message and the form's, as the person answers them. */
function useFlowFields(form: FlowForm) {
  const [formError, setFormError] = useState<string | null>(null);
  /** An edit: the field's message and the form's go, as the person is answering them. */
  const edited = (field: keyof FlowFormValues) => {
    form.clearErrors(field);
    setFormError(null);
  };
  const setField = <K extends 'types' | 'sourceKind' | 'outputKind' | 'includeSubfolders'>(
    field: K,
    value: FlowFormValues[K],
  ) => {
    form.setValue(field, value as never, { shouldDirty: true });
    edited(field);
  };
  const text = (field: 'name' | 'sourceLocation' | 'sheetName'): UseFormRegisterReturn =>
    registerClearing(form, field, () => setFormError(null));
  return { formError, setFormError, edited, setField, text };
}

/** Closing with unsaved changes (Escape, the overlay, Cancel) asks first. */
function useCloseGuard({
  open,
  busy,
  values,
  flow,
  onOpenChange,
}: {
  open: boolean;
  busy: boolean;
  values: FlowFormValues;
  flow: Flow | undefined;
  onOpenChange: (open: boolean) => void;
}) {
  const [confirmClose, setConfirmClose] = useState(false);
  // What the form held when it opened: anything else is an unsaved change that closing would drop.
  const pristine = useMemo(() => (flow ? toFormValues(flow) : createEmptyForm()), [flow]);
  const dirty = open && !busy && JSON.stringify(values) !== JSON.stringify(pristine);

  function requestOpenChange(next: boolean) {
    if (!next && dirty) setConfirmClose(true);
    else onOpenChange(next);
  }
  return { dirty, requestOpenChange, confirmClose, setConfirmClose };
}

/**
 * The flow form's state and saving: each opening starts from the flow (or a blank form), closing with
 * unsaved changes asks first, and saving goes through Google's authorisation and the spreadsheet's
 * creation when the flow needs them (see `FlowFormSheet`).
 */
export function useFlowForm({ open, onOpenChange, flow, onSaved }: FlowFormProps) {
  const save = useSaveFlow();
  const google = useGoogleStatus();
  const form = useContractForm<FlowFormValues, FlowFormValues>(FlowFormSchema, createEmptyForm());
  // The pickers, the hints and Save follow the values as they change.
  const values = form.watch();
  const { errors } = form.formState;
  const { formError, setFormError, edited, setField, text } = useFlowFields(form);
  // The flow as saved during this opening: a retry after authorising updates it instead of creating a twin.
  const [savedFlow, setSavedFlow] = useState<Flow | undefined>(undefined);
  const [authOpen, setAuthOpen] = useState(false);
  const spreadsheet = useSpreadsheetStep({ setSavedFlow, setFormError, setAuthOpen });

  // Each opening starts from the flow's stored values (or a blank form), not from a half-edit.
  const { reset } = form;
  useEffect(() => {
    if (!open) return;
    reset(flow ? toFormValues(flow) : createEmptyForm());
    setFormError(null);
    setSavedFlow(undefined);
  }, [open, flow, reset, setFormError]);

  const busy = save.isPending || spreadsheet.creating;
  const { dirty, requestOpenChange, confirmClose, setConfirmClose } = useCloseGuard({
    open,
    busy,
    values,
    flow,
    onOpenChange,
  });

  /**
   * Saves the flow and, for a Google Sheets output without a spreadsheet, creates it. Runs with the
   * values `FlowFormSchema` accepted (name and sheet name trimmed).
   */
  async function submit(checked: FlowFormValues, afterAuthorizing: boolean) {
    if (busy) return;
    // Straight after a successful authorisation the status may not have refetched yet: trust the dialog.
    if (!afterAuthorizing && decideGoogleStep(checked, google.data) === 'authorize') {
      setAuthOpen(true);
      return;
    }
    let saved: Flow;
    try {
      saved = await save.mutateAsync({ flow: savedFlow ?? flow, values: checked });
      setSavedFlow(saved);
    } catch (error) {
      if (isGoogleAuthRequired(error)) {
        setAuthOpen(true);
        return;
      }
      if (setServerFieldErrors(form.setError, fieldErrorsOf(error))) return;
      setFormError(error instanceof Error ? error.message : 'Could not save the flow. Please try again.');
      return;
    }
    if (!(await spreadsheet.createIfNeeded(saved, checked.sheetName))) return;
    toast.success(flow ? 'Flow updated' : 'Flow created');
    onOpenChange(false);
    onSaved?.(saved, !flow);
  }

  /** Checks the form with the contract's rules, then saves (`afterAuthorizing`: Google was just connected). */
  const saveWith = (afterAuthorizing: boolean) =>
    form.handleSubmit((checked) => submit(checked, afterAuthorizing));

  const editing = Boolean(flow);
  const submittable = canSubmitFlow(values, busy);
  // Editing a Google flow that already has its spreadsheet: saving keeps it, nothing new is created.
  const current = savedFlow ?? flow;
  const keepsSpreadsheet =
    values.outputKind === 'sheets' && current?.io.output.kind === 'sheets' && !needsSheetCreation(current);

  const section: FlowFormSectionProps = {
    form,
    values,
    errors,
    google: google.data,
    setField,
    edited,
    text,
  };
  return {
    section,
    editing,
    current,
    keepsSpreadsheet,
    submittable,
    busy,
    dirty,
    formError,
    requestOpenChange,
    saveWith,
    authOpen,
    setAuthOpen,
    confirmClose,
    setConfirmClose,
  };
}
