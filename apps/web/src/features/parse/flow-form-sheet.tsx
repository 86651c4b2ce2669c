import { useQueryClient } from '@tanstack/react-query';
import {
  CheckIcon,
  FileSpreadsheetIcon,
  FolderIcon,
  Link2Icon,
  Loader2Icon,
  type LucideIcon,
  MailIcon,
  SheetIcon,
  UploadIcon,
} from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { FormError } from '@/components/form-error.tsx';
import { FormField } from '@/components/form-field.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet.tsx';
import { LeaveWithoutSavingDialog, UnsavedChangesGuard } from '@/components/unsaved-changes.tsx';
import { ApiError } from '@/lib/api.ts';
import { registerClearing, setServerFieldErrors, useContractForm } from '@/lib/form.ts';
import { cn } from '@/lib/utils.ts';
import { flowKeys } from '@/shared/flows/queries.ts';
import { GoogleAuthDialog } from '@/shared/integrations/google-auth-dialog.tsx';
import { isGoogleAuthRequired } from '@/shared/integrations/google-oauth.ts';
import { type GoogleStatus, useGoogleStatus, useRefreshGoogleState } from '@/shared/integrations/queries.ts';
import { MailFields, TriggerFields } from './flow-automation-fields.tsx';
import {
  canSubmitFlow,
  createEmptyForm,
  decideGoogleStep,
  FlowFormSchema,
  type FlowFormValues,
  mapServerFieldErrors,
  needsSheetCreation,
  OUTPUT_KIND_LABELS,
  type OutputKind,
  offersSubfolders,
  SOURCE_KIND_LABELS,
  type SourceKind,
} from './flow-form.ts';
import { FLOW_TYPES, type FlowType, toggleFlowType } from './flow-format.ts';
import { createFlowSheet, type Flow, toFormValues } from './flows-api.ts';
import { useSaveFlow } from './queries.ts';

const TYPE_HINTS: Record<FlowType, string> = {
  PO: 'Purchase orders',
  GRN: 'Goods receipt notes',
  INVOICE: 'GST tax invoices',
};

const SOURCE_ICONS = { upload: UploadIcon, local: FolderIcon, drive: Link2Icon, email: MailIcon } as const;

/** Three checkbox-looking toggles holding a single document type. */
function TypeToggles({
  value,
  onChange,
  error,
}: {
  value: FlowType[];
  onChange: (next: FlowType[]) => void;
  error?: string | undefined;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 flex items-center gap-2 font-medium text-sm leading-none">
        Document type
        <span className="text-destructive" aria-hidden="true">
          *
        </span>
      </legend>
      <div className="grid grid-cols-3 gap-2">
        {FLOW_TYPES.map((type) => {
          const checked = value.includes(type);
          return (
            <label
              key={type}
              className={cn(
                'flex cursor-pointer flex-col items-start gap-1 rounded-lg border px-3 py-2.5 text-left transition-colors has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/40',
                checked ? 'border-primary bg-accent' : 'border-input bg-card hover:bg-muted/60',
              )}
            >
              <input
                type="checkbox"
                className="sr-only"
                checked={checked}
                data-testid={`type-${type}`}
                onChange={() => onChange(toggleFlowType(value, type))}
              />
              <span className="flex items-center gap-2 font-semibold text-sm">
                <span
                  aria-hidden="true"
                  className={cn(
                    'flex size-4 items-center justify-center rounded-[4px] border',
                    checked ? 'border-primary bg-primary text-primary-foreground' : 'border-input',
                  )}
                >
                  {checked && <CheckIcon className="size-3" />}
                </span>
                {type}
              </span>
              <span className="text-muted-foreground text-xs leading-tight">{TYPE_HINTS[type]}</span>
            </label>
          );
        })}
      </div>
      {error ? (
        <p role="alert" className="text-destructive text-xs">
          {error}
        </p>
      ) : (
        <p className="text-muted-foreground text-xs">A flow reads one kind of document.</p>
      )}
    </fieldset>
  );
}

/** One radio-like card of the source and output pickers: selected, available or greyed out. */
function ChoiceCard({
  name,
  value,
  label,
  icon: Icon,
  selected,
  disabled,
  testId,
  onSelect,
}: {
  name: string;
  value: string;
  label: string;
  icon: LucideIcon;
  selected: boolean;
  disabled: boolean;
  testId: string;
  onSelect: () => void;
}) {
  return (
    <label
      className={cn(
        'flex items-center gap-2 rounded-lg border px-3 py-2 text-left text-sm transition-colors has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/40',
        disabled
          ? 'cursor-not-allowed border-input bg-muted/40 text-muted-foreground'
          : selected
            ? 'cursor-pointer border-primary bg-accent font-medium text-accent-foreground'
            : 'cursor-pointer border-input bg-card hover:bg-muted/60',
      )}
    >
      <input
        type="radio"
        name={name}
        value={value}
        className="sr-only"
        checked={selected}
        disabled={disabled}
        data-testid={testId}
        onChange={onSelect}
      />
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      {label}
    </label>
  );
}

/** Why a Google choice is greyed out: the server has no Google client (the server refuses it in the same words). */
function GoogleUnavailableNote({ feature, testId }: { feature: string; testId: string }) {
  return (
    <p className="text-muted-foreground text-xs" data-testid={testId}>
      {feature} needs Google, which is not set up on this server; uploads, local folders and workbooks work
      without it.{' '}
      <Link to="/integrations" className="text-primary underline underline-offset-2">
        How to set up Google
      </Link>
    </p>
  );
}

/**
 * Radio-like choice of where documents come from. Google Drive is disabled (with the reason) when the
 * server has no Google client, as the Sheets output is, so nobody saves a flow that could never run.
 */
function SourceKindPicker({
  value,
  onChange,
  google,
}: {
  value: SourceKind;
  onChange: (kind: SourceKind) => void;
  google: GoogleStatus | undefined;
}) {
  const unconfigured = google?.configured === false;
  return (
    <div className="grid gap-2">
      <fieldset className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <legend className="sr-only">Input source</legend>
        {(Object.keys(SOURCE_KIND_LABELS) as SourceKind[]).map((kind) => (
          <ChoiceCard
            key={kind}
            name="sourceKind"
            value={kind}
            label={SOURCE_KIND_LABELS[kind]}
            icon={SOURCE_ICONS[kind]}
            selected={value === kind}
            disabled={kind === 'drive' && unconfigured && value !== kind}
            testId={`source-${kind}`}
            onSelect={() => onChange(kind)}
          />
        ))}
      </fieldset>
      {unconfigured && <GoogleUnavailableNote feature="Google Drive" testId="drive-unavailable" />}
    </div>
  );
}

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
  const unconfigured = google?.configured === false;
  return (
    <div className="grid gap-2">
      <fieldset className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <legend className="sr-only">Output</legend>
        {(Object.keys(OUTPUT_KIND_LABELS) as OutputKind[]).map((kind) => (
          <ChoiceCard
            key={kind}
            name="outputKind"
            value={kind}
            label={OUTPUT_KIND_LABELS[kind]}
            icon={OUTPUT_ICONS[kind]}
            selected={value === kind}
            disabled={kind === 'sheets' && unconfigured && value !== kind}
            testId={`output-${kind}`}
            onSelect={() => onChange(kind)}
          />
        ))}
      </fieldset>
      {unconfigured ? (
        <GoogleUnavailableNote feature="Google Sheets" testId="sheets-unavailable" />
      ) : value === 'sheets' ? (
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
    </div>
  );
}

/**
 * Right-hand side sheet that creates a flow, or edits `flow` when given. Save stays disabled until
 * the form is complete; the server's validation messages (bad Drive link, folder outside the
 * allowed roots) appear under the field they concern. A flow that needs Google (Sheets output, Drive
 * input) while Google is not connected opens the authorisation dialog first, and saving continues once it
 * succeeds; a Sheets flow then gets its spreadsheet (`POST /api/workflow/sheets/create`), and a 401 there
 * (a revoked grant) opens the dialog again.
 */
export function FlowFormSheet({
  open,
  onOpenChange,
  flow,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  flow?: Flow | undefined;
  onSaved?: (flow: Flow, created: boolean) => void;
}) {
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
  const text = (field: 'name' | 'sourceLocation' | 'sheetName') =>
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

  return (
    <Sheet open={open} onOpenChange={requestOpenChange}>
      <SheetContent
        side="right"
        className="w-full overflow-y-auto sm:max-w-lg"
        aria-describedby="flow-form-description"
      >
        <SheetHeader className="border-b px-6 py-5">
          <SheetTitle className="text-lg">{editing ? 'Edit flow' : 'Create New Flow'}</SheetTitle>
          <SheetDescription id="flow-form-description">
            Pick the document type, where documents come from and the sheet Bahi writes rows to.
          </SheetDescription>
        </SheetHeader>
        <form onSubmit={saveWith(false)} noValidate className="flex flex-1 flex-col gap-6 px-6 pb-6">
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

          <div className="grid gap-3">
            <Label>
              Input
              <span className="text-destructive" aria-hidden="true">
                *
              </span>
            </Label>
            <SourceKindPicker
              google={google.data}
              value={values.sourceKind}
              onChange={(kind) => {
                setField('sourceKind', kind);
                edited('sourceLocation');
              }}
            />
            {values.sourceKind === 'email' ? (
              <MailFields
                form={form}
                hasPassword={Boolean((savedFlow ?? flow)?.io.input.mail?.hasPassword)}
                flowId={(savedFlow ?? flow)?.id}
                savedAuth={(savedFlow ?? flow)?.io.input.mail?.auth}
              />
            ) : values.sourceKind === 'upload' ? (
              <p className="rounded-md bg-muted/60 px-3 py-2 text-muted-foreground text-xs">
                After saving, drop PDFs, images or a .zip on the flow's upload panel. Bahi keeps them as this
                flow's inbox.
              </p>
            ) : (
              <FormField
                id="flow-source"
                label={
                  values.sourceKind === 'local'
                    ? 'Folder path on the server'
                    : 'Google Drive folder or file link'
                }
                error={errors.sourceLocation?.message}
                hint={
                  values.sourceKind === 'local'
                    ? 'An absolute path inside the folders your administrator allowed.'
                    : 'A link like https://drive.google.com/drive/folders/…'
                }
              >
                {(ids) => (
                  <Input
                    {...ids}
                    placeholder={
                      values.sourceKind === 'local'
                        ? '/srv/bahi/inbox/invoices'
                        : 'https://drive.google.com/drive/folders/…'
                    }
                    {...text('sourceLocation')}
                  />
                )}
              </FormField>
            )}
            {offersSubfolders(values) && (
              <div className="flex items-start gap-2.5">
                <input
                  id="flow-subfolders"
                  type="checkbox"
                  name="includeSubfolders"
                  className="mt-0.5 size-4 shrink-0 cursor-pointer rounded-[4px] border-input accent-primary focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/40"
                  checked={values.includeSubfolders}
                  aria-describedby="flow-subfolders-hint"
                  data-testid="include-subfolders"
                  onChange={(e) => setField('includeSubfolders', e.target.checked)}
                />
                <div className="grid gap-1">
                  <Label htmlFor="flow-subfolders" className="cursor-pointer font-normal">
                    Include sub-folders
                  </Label>
                  <p id="flow-subfolders-hint" className="text-muted-foreground text-xs">
                    Also read PDFs and images in folders inside this one, at any depth.
                  </p>
                </div>
              </div>
            )}
          </div>

          <TriggerFields form={form} />

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
              google={google.data}
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

          <FormError message={formError} />

          <div className="mt-auto flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={() => requestOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!submittable}>
              {busy && <Loader2Icon className="animate-spin" aria-hidden="true" />}
              {editing ? 'Update' : 'Save'}
            </Button>
          </div>
        </form>
      </SheetContent>
      <GoogleAuthDialog
        open={authOpen}
        onOpenChange={setAuthOpen}
        onConnected={() => void saveWith(true)()}
      />
      <UnsavedChangesGuard dirty={dirty} what={editing ? 'this flow' : 'the new flow'} />
      <LeaveWithoutSavingDialog
        open={confirmClose}
        what={editing ? 'this flow' : 'the new flow'}
        onStay={() => setConfirmClose(false)}
        onLeave={() => {
          setConfirmClose(false);
          onOpenChange(false);
        }}
      />
    </Sheet>
  );
}
