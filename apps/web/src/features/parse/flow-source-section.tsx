import { FolderIcon, Link2Icon, MailIcon, UploadIcon } from 'lucide-react';
import { FormField } from '@/components/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import type { GoogleStatus } from '@/shared/integrations/queries.ts';
import { GoogleChoicePicker } from './flow-choice-card.tsx';
import { offersSubfolders, SOURCE_KIND_LABELS, type SourceKind } from './flow-form.ts';
import type { Flow } from './flows-api.ts';
import { MailFields } from './mail-fields.tsx';
import type { FlowFormSectionProps } from './use-flow-form.ts';

const SOURCE_ICONS = { upload: UploadIcon, local: FolderIcon, drive: Link2Icon, email: MailIcon } as const;

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
  return (
    <GoogleChoicePicker
      legend="Input source"
      name="sourceKind"
      labels={SOURCE_KIND_LABELS}
      icons={SOURCE_ICONS}
      value={value}
      onChange={onChange}
      googleKind="drive"
      google={google}
      googleFeature="Google Drive"
      unavailableTestId="drive-unavailable"
      testPrefix="source"
    />
  );
}

/** Where the local folder or the Drive link is typed, with what it must look like. */
function SourceLocationField({
  kind,
  error,
  text,
}: {
  kind: 'local' | 'drive';
  error?: string | undefined;
  text: FlowFormSectionProps['text'];
}) {
  return (
    <FormField
      id="flow-source"
      label={kind === 'local' ? 'Folder path on the server' : 'Google Drive folder or file link'}
      error={error}
      hint={
        kind === 'local'
          ? 'An absolute path inside the folders your administrator allowed.'
          : 'A link like https://drive.google.com/drive/folders/…'
      }
    >
      {(ids) => (
        <Input
          {...ids}
          placeholder={
            kind === 'local' ? '/srv/bahi/inbox/invoices' : 'https://drive.google.com/drive/folders/…'
          }
          {...text('sourceLocation')}
        />
      )}
    </FormField>
  );
}

/** The flow form's Input section: where documents come from, and what that source needs. */
export function FlowSourceSection({
  form,
  values,
  errors,
  google,
  setField,
  edited,
  text,
  current,
}: FlowFormSectionProps & {
  /** The flow as saved so far (its mailbox password and sign-in are kept on the server). */
  current: Flow | undefined;
}) {
  return (
    <div className="grid gap-3">
      <Label>
        Input
        <span className="text-destructive" aria-hidden="true">
          *
        </span>
      </Label>
      <SourceKindPicker
        google={google}
        value={values.sourceKind}
        onChange={(kind) => {
          setField('sourceKind', kind);
          edited('sourceLocation');
        }}
      />
      {values.sourceKind === 'email' ? (
        <MailFields
          form={form}
          hasPassword={Boolean(current?.io.input.mail?.hasPassword)}
          flowId={current?.id}
          savedAuth={current?.io.input.mail?.auth}
        />
      ) : values.sourceKind === 'upload' ? (
        <p className="rounded-md bg-muted/60 px-3 py-2 text-muted-foreground text-xs">
          After saving, drop PDFs, images or a .zip on the flow's upload panel. Bahi keeps them as this flow's
          inbox.
        </p>
      ) : (
        <SourceLocationField kind={values.sourceKind} error={errors.sourceLocation?.message} text={text} />
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
  );
}
