import { Loader2Icon } from 'lucide-react';
import { Controller } from 'react-hook-form';
import { BrandLogo } from '@/components/brand-logo.tsx';
import { FormError } from '@/components/form-error.tsx';
import { FormField } from '@/components/form-field.tsx';
import { OrgTypeSelect } from '@/components/org-type-select.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { signOutAndLeave } from '@/lib/sign-out.ts';
import { type OnboardingForm, useOnboardingForm } from './use-onboarding-form.ts';

/** `/onboarding`: a focused card that creates the user's organisation before the app opens. */
export function OnboardingPage() {
  useDocumentTitle('Set up your organisation');
  const onboarding = useOnboardingForm();
  const { firstName, pending } = onboarding;
  return (
    <div className="flex min-h-svh flex-col items-center bg-muted/40 px-4 py-10 sm:py-16">
      <BrandLogo className="mb-8" />
      <Card className="w-full max-w-xl">
        <CardHeader>
          <CardTitle className="text-xl">
            Set up your organisation{firstName ? `, ${firstName}` : ''}
          </CardTitle>
          <CardDescription>
            Tell us about your business. You can add GSTINs and change these details later in your profile.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onboarding.onSubmit} noValidate className="flex flex-col gap-5">
            <OrganisationFields onboarding={onboarding} />
            <FormError message={onboarding.formError} />
            <div className="flex flex-col-reverse gap-3 pt-1 sm:flex-row sm:items-center sm:justify-between">
              <Button
                type="button"
                variant="ghost"
                className="text-muted-foreground"
                onClick={() => void signOutAndLeave()}
              >
                Sign out
              </Button>
              <Button type="submit" size="lg" disabled={pending}>
                {pending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
                Continue
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}

/** Name, phone, type and address of the organisation, each with its message under it. */
function OrganisationFields({ onboarding }: { onboarding: OnboardingForm }) {
  const { form, field } = onboarding;
  const { errors } = form.formState;
  return (
    <>
      <FormField id="orgName" label="Organization name" required error={errors.orgName?.message}>
        {(ids) => (
          <Input
            {...ids}
            autoComplete="organization"
            placeholder="Acme Traders Private Limited"
            {...field('orgName')}
          />
        )}
      </FormField>
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <FormField id="phone" label="Contact phone" required error={errors.phone?.message}>
          {(ids) => (
            <Input {...ids} type="tel" autoComplete="tel" placeholder="+91 98450 12345" {...field('phone')} />
          )}
        </FormField>
        <FormField id="orgType" label="Organization type" required error={errors.orgType?.message}>
          {(ids) => (
            <Controller
              control={form.control}
              name="orgType"
              render={({ field: orgType }) => (
                <OrgTypeSelect
                  field={orgType}
                  ids={ids}
                  placeholder="Select type"
                  onPick={() => {
                    form.clearErrors('orgType');
                    onboarding.clearFormError();
                  }}
                />
              )}
            />
          )}
        </FormField>
      </div>
      <FormField id="address" label="Business address" required error={errors.address?.message}>
        {(ids) => (
          <Textarea
            {...ids}
            autoComplete="street-address"
            rows={3}
            placeholder="Building, street, city, PIN code"
            {...field('address')}
          />
        )}
      </FormField>
    </>
  );
}
