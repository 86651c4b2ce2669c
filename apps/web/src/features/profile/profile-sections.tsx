import { DEFAULT_TIME_ZONE } from '@bahi/contracts';
import { MailIcon, UserIcon } from 'lucide-react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { FormField } from '@/components/form-field.tsx';
import { OrgTypeSelect } from '@/components/org-type-select.tsx';
import { TimeZoneSelect } from '@/components/time-zone-select.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { registerClearing } from '@/lib/form.ts';
import type { ProfileValues } from './gstin-list.ts';

type ProfileForm = UseFormReturn<ProfileValues, unknown, ProfileValues>;

/** The account card: the name and address from the sign-in, shown, not edited here. */
export function AccountCard({ user }: { user: { name: string; email: string } }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account</CardTitle>
        <CardDescription>
          From your sign-in. Managed by your identity provider or account settings.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <FormField id="account-name" label="Full name">
          {(ids) => (
            <div className="relative">
              <UserIcon className="absolute top-2.5 left-3 size-4 text-muted-foreground" aria-hidden="true" />
              <Input {...ids} value={user.name} readOnly disabled className="pl-9" />
            </div>
          )}
        </FormField>
        <FormField id="account-email" label="Email">
          {(ids) => (
            <div className="relative">
              <MailIcon className="absolute top-2.5 left-3 size-4 text-muted-foreground" aria-hidden="true" />
              {/* Shown as wrapping text, not an input a long address would be cut off in on a phone. */}
              <output
                {...ids}
                className="flex min-h-9 w-full break-all rounded-md border border-input bg-muted/60 py-2 pr-3 pl-9 text-muted-foreground text-sm leading-5"
              >
                {user.email}
              </output>
            </div>
          )}
        </FormField>
      </CardContent>
    </Card>
  );
}

/** The organisation card: legal name, phone, type, time zone and address. */
export function OrganisationCard({ form }: { form: ProfileForm }) {
  const { errors } = form.formState;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Organisation</CardTitle>
        <CardDescription>Used on your documents and to match invoices to your business.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <FormField
          id="legalName"
          label="Legal name"
          required
          error={errors.legalName?.message}
          className="sm:col-span-2"
        >
          {(ids) => <Input {...ids} autoComplete="organization" {...registerClearing(form, 'legalName')} />}
        </FormField>
        <FormField id="phone" label="Contact phone" required error={errors.phone?.message}>
          {(ids) => (
            <Input
              {...ids}
              type="tel"
              autoComplete="tel"
              placeholder="+91 98450 12345"
              {...registerClearing(form, 'phone')}
            />
          )}
        </FormField>
        <FormField id="orgType" label="Organization type" required>
          {(ids) => (
            <Controller
              control={form.control}
              name="orgType"
              render={({ field }) => <OrgTypeSelect field={field} ids={ids} />}
            />
          )}
        </FormField>
        <FormField
          id="timeZone"
          label="Time zone"
          hint="Daily schedules of flows run, and are shown, at this zone's time."
          error={errors.timeZone?.message}
        >
          {(ids) => (
            <Controller
              control={form.control}
              name="timeZone"
              render={({ field }) => (
                <TimeZoneSelect field={{ ...field, value: field.value ?? DEFAULT_TIME_ZONE }} ids={ids} />
              )}
            />
          )}
        </FormField>
        <FormField
          id="address"
          label="Business address"
          required
          error={errors.address?.message}
          className="sm:col-span-2"
        >
          {(ids) => (
            <Textarea
              {...ids}
              rows={3}
              autoComplete="street-address"
              {...registerClearing(form, 'address')}
            />
          )}
        </FormField>
      </CardContent>
    </Card>
  );
}
