import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { FieldErrors, UseFormRegisterReturn, UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { ApiError } from '@/lib/api.ts';
import { registerClearing, setServerFieldErrors, useContractForm } from '@/lib/form.ts';
import { flowKeys } from '@/shared/flows/queries.ts';
import { isGoogleAuthRequired } from '@/shared/integrations/google-oauth.ts';
import { type GoogleStatus, useGoogleStatus, useRefreshGoogleState } from '@/shared/integrations/queries.ts';
import {
  canSubmitFlow,
  createEmptyForm,
  decideGoogleStep,
  FlowFormSchema,
  type FlowFormValues,
  mapServerFieldErrors,
  needsSheetCreation,
} from './flow-form.ts';
import { createFlowSheet, type Flow, toFormValues } from './flows-api.ts';
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

/**
 * The flow form's state and saving: each opening starts from the flow (or a blank form), closing with
 * unsaved changes asks first, and saving goes through Google's authorisation and the spreadsheet's
 * creation when the flow needs them (see `FlowFormSheet`).
 */
export function useFlowForm({ open, onOpenChange, flow, onSaved }: FlowFormProps) {
  const save = useSaveFlow();
  const queryClient = useQueryClient();
  const google = useGoogleStatus();
  const refreshGoogleState = useRefreshGoogleState();
  const form = useContractForm<FlowFormValues, FlowFormValues>(FlowFormSchema, createEmptyForm());
  // The pickers, the hints and Save follow the values as they change.
  const values = form.watch();
  const { errors } = form.formState;
  const [formError, setFormError] = useState<string | null>(null);
  // The flow as saved during this opening: a retry after authorising updates it instead of creating a twin.
  const [savedFlow, setSavedFlow] = useState<Flow | undefined>(undefined);
  const [creatingSheet, setCreatingSheet] = useState(false);
  const [authOpen, setAuthOpen] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  // What the form held when it opened: anything else is an unsaved change that closing would drop.
  const pristine = useMemo(() => (flow ? toFormValues(flow) : createEmptyForm()), [flow]);

  // Each opening starts from the flow's stored values (or a blank form), not from a half-edit.
  const { reset } = form;
  useEffect(() => {
    if (!open) return;
    reset(flow ? toFormValues(flow) : createEmptyForm());
    setFormError(null);
    setSavedFlow(undefined);
  }, [open, flow, reset]);

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

  const busy = save.isPending || creatingSheet;
  const dirty = open && !busy && JSON.stringify(values) !== JSON.stringify(pristine);

  /** Closing (Escape, the overlay, the close button) asks first when there are unsaved changes. */
  function requestOpenChange(next: boolean) {
    if (!next && dirty) setConfirmClose(true);
    else onOpenChange(next);
  }

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
      if (error instanceof ApiError) {
        const mapped = mapServerFieldErrors(error.fields);
        // A source error without a field path still belongs under the input.
        if (
          Object.keys(mapped).length === 0 &&
          /drive|google|folder|path|root/i.test(`${error.code} ${error.message}`)
        ) {
          mapped.sourceLocation = error.message;
        }
        if (setServerFieldErrors(form.setError, mapped)) return;
      }
      setFormError(error instanceof Error ? error.message : 'Could not save the flow. Please try again.');
      return;
    }
    if (needsSheetCreation(saved)) {
      setCreatingSheet(true);
      try {
        const sheet = await createFlowSheet(saved.id, checked.sheetName);
        setSavedFlow({
          ...saved,
          io: { ...saved.io, output: { ...saved.io.output, sheetId: sheet.sheetId } },
        });
        void queryClient.invalidateQueries({ queryKey: flowKeys.list() });
      } catch (error) {
        if (isGoogleAuthRequired(error)) {
          setFormError('The flow is saved. Authorise Google to create its Google sheet.');
          // The server has just forgotten a revoked grant: show the disconnected state behind the dialog.
          void refreshGoogleState();
          setAuthOpen(true);
        } else {
          const reason = error instanceof Error ? error.message : 'unknown error';
          setFormError(`The flow is saved, but its Google sheet could not be created: ${reason}`);
        }
        return;
      } finally {
        setCreatingSheet(false);
      }
    }
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
