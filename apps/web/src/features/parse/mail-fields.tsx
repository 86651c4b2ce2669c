import type { UseFormReturn } from 'react-hook-form';
import { FormField } from '@/components/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { registerClearing } from '@/lib/form.ts';
import { ConnectMailbox } from './connect-mailbox.tsx';
import type { FlowFormValues } from './flow-form.ts';

type Form = UseFormReturn<FlowFormValues, unknown, FlowFormValues>;

/** What each group of the mailbox fields is given: the form, its values and errors, and a text box's props. */
interface MailGroupProps {
  form: Form;
  values: FlowFormValues;
  errors: Form['formState']['errors'];
  text: (field: keyof FlowFormValues & `mail${string}`) => ReturnType<typeof registerClearing>;
}

const selectClass =
  'h-9 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/40';

/** Server, port, TLS and user name. */
function MailServerFields({ form, values, errors, text }: MailGroupProps) {
  return (
    <>
      <div className="grid grid-cols-[1fr_6rem] gap-2">
        <FormField id="mail-host" label="Mail server (IMAP)" error={errors.mailHost?.message}>
          {(ids) => <Input {...ids} placeholder="imap.gmail.com" {...text('mailHost')} />}
        </FormField>
        <FormField id="mail-port" label="Port" error={errors.mailPort?.message}>
          {(ids) => <Input {...ids} inputMode="numeric" {...text('mailPort')} />}
        </FormField>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="size-4 accent-primary"
          checked={values.mailTls}
          data-testid="mail-tls"
          onChange={(e) => form.setValue('mailTls', e.target.checked, { shouldDirty: true })}
        />
        Secure connection (TLS)
      </label>
      <FormField id="mail-user" label="User name" error={errors.mailUser?.message}>
        {(ids) => (
          <Input {...ids} autoComplete="off" placeholder="invoices@yourcompany.in" {...text('mailUser')} />
        )}
      </FormField>
    </>
  );
}

/** How the mailbox signs in: a password (kept on the server once saved) or a Google / Microsoft account. */
function MailSignInFields({
  form,
  values,
  errors,
  text,
  hasPassword,
  flowId,
  savedAuth,
}: MailGroupProps & { hasPassword: boolean; flowId: string | undefined; savedAuth: string | undefined }) {
  return (
    <>
      <FormField id="mail-auth" label="Sign in with">
        {(ids) => (
          <select
            {...ids}
            className={selectClass}
            value={values.mailAuth}
            data-testid="mail-auth"
            onChange={(e) =>
              form.setValue('mailAuth', e.target.value as FlowFormValues['mailAuth'], { shouldDirty: true })
            }
          >
            <option value="password">Password or app password</option>
            <option value="google">Google account (Gmail, Google Workspace)</option>
            <option value="microsoft">Microsoft 365 account</option>
          </select>
        )}
      </FormField>
      {values.mailAuth === 'password' ? (
        <FormField
          id="mail-password"
          label="Password or app password"
          error={errors.mailPassword?.message}
          hint={
            hasPassword
              ? 'A password is stored. Leave this empty to keep it.'
              : 'For Gmail and Microsoft 365, create an app password, or sign in with the account instead.'
          }
        >
          {(ids) => (
            <Input
              {...ids}
              type="password"
              autoComplete="new-password"
              placeholder={hasPassword ? '••••••••' : ''}
              {...text('mailPassword')}
            />
          )}
        </FormField>
      ) : (
        <ConnectMailbox provider={values.mailAuth} flowId={flowId} saved={savedAuth === values.mailAuth} />
      )}
    </>
  );
}

/** Which messages to take: the folder, senders, subject, age and attachment names. */
function MailFilterFields({ errors, text }: Pick<MailGroupProps, 'errors' | 'text'>) {
  return (
    <>
      <FormField id="mail-folder" label="Folder" error={errors.mailFolder?.message}>
        {(ids) => <Input {...ids} placeholder="INBOX" {...text('mailFolder')} />}
      </FormField>
      <FormField
        id="mail-senders"
        label="Only from these senders"
        hint="Addresses or @domains, separated by commas. Empty: anyone."
      >
        {(ids) => <Input {...ids} placeholder="@vendor.in, bills@supplier.in" {...text('mailSenders')} />}
      </FormField>
      <div className="grid grid-cols-[1fr_7rem] gap-2">
        <FormField id="mail-subject" label="Subject contains">
          {(ids) => <Input {...ids} placeholder="Invoice" {...text('mailSubject')} />}
        </FormField>
        <FormField id="mail-age" label="Max age (days)">
          {(ids) => <Input {...ids} inputMode="numeric" {...text('mailMaxAgeDays')} />}
        </FormField>
      </div>
      <div className="grid grid-cols-2 gap-2">
        <FormField id="mail-includes" label="Attachment name includes" hint="Comma-separated; empty: any.">
          {(ids) => <Input {...ids} placeholder="invoice, bill" {...text('mailIncludes')} />}
        </FormField>
        <FormField id="mail-excludes" label="Attachment name excludes">
          {(ids) => <Input {...ids} placeholder="statement" {...text('mailExcludes')} />}
        </FormField>
      </div>
    </>
  );
}

/** What happens to a message once taken: read, flagged or moved to a folder. */
function MailAfterFields({ form, values, errors, text }: MailGroupProps) {
  return (
    <>
      <div className="grid gap-1.5">
        <Label htmlFor="mail-after">After taking a message</Label>
        <select
          id="mail-after"
          className={selectClass}
          value={values.mailAfter}
          onChange={(e) =>
            form.setValue('mailAfter', e.target.value as FlowFormValues['mailAfter'], { shouldDirty: true })
          }
        >
          <option value="read">Mark it read</option>
          <option value="flag">Flag it</option>
          <option value="move">Move it to a folder</option>
        </select>
      </div>
      {values.mailAfter === 'move' && (
        <FormField id="mail-move-to" label="Move to folder" error={errors.mailMoveTo?.message}>
          {(ids) => <Input {...ids} placeholder="Processed" {...text('mailMoveTo')} />}
        </FormField>
      )}
    </>
  );
}

/** The mailbox of an e-mail source: server, login, folder, what to take and what to do after. */
export function MailFields({
  form,
  hasPassword,
  flowId,
  savedAuth,
}: {
  form: Form;
  hasPassword: boolean;
  /** The saved flow's id (absent while creating one). */
  flowId?: string | undefined;
  /** How the saved flow's mailbox signs in. */
  savedAuth?: string | undefined;
}) {
  const group: MailGroupProps = {
    form,
    values: form.watch(),
    errors: form.formState.errors,
    text: (field) => registerClearing(form, field),
  };
  return (
    <div className="grid gap-3 rounded-md border p-3" data-testid="mail-fields">
      <MailServerFields {...group} />
      <MailSignInFields {...group} hasPassword={hasPassword} flowId={flowId} savedAuth={savedAuth} />
      <MailFilterFields errors={group.errors} text={group.text} />
      <MailAfterFields {...group} />
      <p className="text-muted-foreground text-xs">
        PDFs, images and zips attached to each message become documents; small logos and terms-and-conditions
        files are skipped, and the flow lists every skip with its reason.
      </p>
    </div>
  );
}
