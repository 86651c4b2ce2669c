import { VENDOR_CONSTITUTIONS } from '@bahi/contracts';
import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import type { VendorFormModel } from './use-vendor-form.ts';
import { SelectField, TextField } from './vendor-form-fields.tsx';
import { Attachment } from './vendor-form-uploads.tsx';

/** One card of the vendor form: a heading, an optional line under it, and its boxes. */
export function FormSection({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>{title}</h2>
        </CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">{children}</CardContent>
    </Card>
  );
}

const constitutions = Object.entries(VENDOR_CONSTITUTIONS).map(([value, c]) => ({ value, label: c.label }));

/** Who the vendor is: legal and trade name, constitution. */
export function BusinessSection({ form }: { form: VendorFormModel }) {
  return (
    <FormSection title="Business">
      <TextField
        form={form}
        name="legalName"
        label="Legal name (as on the PAN)"
        required
        hint={form.locked('legalName') ? form.lockHint : undefined}
        input={{ autoComplete: 'organization', readOnly: form.locked('legalName') }}
      />
      <TextField
        form={form}
        name="tradeName"
        label="Trade name"
        input={{ readOnly: form.locked('tradeName') }}
      />
      <SelectField
        form={form}
        name="constitution"
        label="Constitution"
        required
        empty="Choose…"
        options={constitutions}
      />
    </FormSection>
  );
}

/** Where payments go; the number typed twice, the second box refusing a paste. */
export function BankSection({ form }: { form: VendorFormModel }) {
  return (
    <FormSection title="Bank account" description="Payments go only to this account. Type the number twice.">
      <TextField
        form={form}
        name="holderName"
        label="Account holder's name"
        required
        errorKey="bank.holderName"
      />
      <TextField
        form={form}
        name="accountNumber"
        label="Account number"
        required
        errorKey="bank.accountNumber"
        input={{ inputMode: 'numeric', autoComplete: 'off' }}
      />
      <TextField
        form={form}
        name="accountNumberConfirm"
        label="Account number again"
        required
        errorKey="bank.accountNumberConfirm"
        input={{ inputMode: 'numeric', autoComplete: 'off', onPaste: (e) => e.preventDefault() }}
      />
      <TextField
        form={form}
        name="ifsc"
        label="IFSC"
        required
        errorKey="bank.ifsc"
        hint="On the cheque, like HDFC0001234"
        upper
        input={{ autoCapitalize: 'characters' }}
      />
    </FormSection>
  );
}

/** The person the finance team calls about payments. */
export function ContactSection({ form }: { form: VendorFormModel }) {
  return (
    <FormSection title="Contact for payments">
      <TextField
        form={form}
        name="contactName"
        label="Name"
        required
        errorKey="contacts.0.name"
        input={{ autoComplete: 'name' }}
      />
      <TextField
        form={form}
        name="contactPhone"
        label="Phone"
        errorKey="contacts.0.phone"
        input={{ type: 'tel', autoComplete: 'tel' }}
      />
      <TextField
        form={form}
        name="contactEmail"
        label="E-mail"
        errorKey="contacts.0.email"
        input={{ type: 'email', autoComplete: 'email' }}
      />
    </FormSection>
  );
}

/** The cancelled cheque (required) and the certificates, each sent as soon as chosen. */
export function DocumentsSection({ token, form }: { token: string; form: VendorFormModel }) {
  const { errors } = form;
  return (
    <FormSection title="Documents">
      {(['cancelled_cheque', 'udyam_certificate', 'ldc_certificate'] as const).map((kind) => (
        <Attachment
          key={kind}
          token={token}
          kind={kind}
          attached={form.attached[kind]}
          error={
            kind === 'cancelled_cheque' ? (errors[`doc.${kind}`] ?? errors.documents) : errors[`doc.${kind}`]
          }
          onAttached={form.onAttached}
        />
      ))}
    </FormSection>
  );
}
