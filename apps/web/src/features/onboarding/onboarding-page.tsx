import { type CreateOrganizationInput, CreateOrganizationInputSchema, defaultOrgType } from '@bahi/contracts';
import { Loader2Icon } from 'lucide-react';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { BrandLogo } from '@/components/brand-logo.tsx';
import { FormError } from '@/components/form-error.tsx';
import { FormField } from '@/components/form-field.tsx';
import { OrgTypeSelect } from '@/components/org-type-select.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { ApiError } from '@/lib/api.ts';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { registerClearing, setServerFieldErrors, useContractForm } from '@/lib/form.ts';
import { useCreateOrganization } from '@/lib/organization.ts';
import { useMe } from '@/lib/session.ts';
import { signOutAndLeave } from '@/lib/sign-out.ts';

/** `/onboarding`: a focused card that creates the user's organisation before the app opens. */
export function OnboardingPage() {
  useDocumentTitle('Set up your organisation');
  const navigate = useNavigate();
  const me = useMe();
  const createOrganization = useCreateOrganization();
  const form = useContractForm<CreateOrganizationInput, CreateOrganizationInput>(
    CreateOrganizationInputSchema,
    {
      orgName: '',
      phone: '',
      // The specification's default: most businesses with a finance team are private limited companies.
      orgType: defaultOrgType,
      address: '',
    },
  );
  const { errors } = form.formState;
  const [formError, setFormError] = useState<string | null>(null);
  // Each message disappears as soon as the user edits its field, and so does the form's.
  const field = (name: keyof CreateOrganizationInput) =>
    registerClearing(form, name, () => setFormError(null));

  /** Runs with the contract's output (trimmed values), which is the request body. */
  async function submit(input: CreateOrganizationInput) {
    setFormError(null);
    try {
      await createOrganization.mutateAsync(input);
      navigate('/', { replace: true });
    } catch (error) {
      // Already in an organisation (a second tab, a double submit): there is nothing left to set up.
      if (error instanceof ApiError && error.code === 'conflict') {
        await me.refetch();
        navigate('/', { replace: true });
        return;
      }
      if (error instanceof ApiError && setServerFieldErrors(form.setError, error.fields)) return;
      setFormError(
        error instanceof Error ? error.message : 'Could not create your organisation. Please try again.',
      );
    }
  }

  const firstName = me.data?.user.name.split(' ')[0];

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
          <form onSubmit={form.handleSubmit(submit)} noValidate className="flex flex-col gap-5">
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
                  <Input
                    {...ids}
                    type="tel"
                    autoComplete="tel"
                    placeholder="+91 98450 12345"
                    {...field('phone')}
                  />
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
                          setFormError(null);
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
            <FormError message={formError} />
            <div className="flex flex-col-reverse gap-3 pt-1 sm:flex-row sm:items-center sm:justify-between">
              <Button
                type="button"
                variant="ghost"
                className="text-muted-foreground"
                onClick={() => void signOutAndLeave()}
              >
                Sign out
              </Button>
              <Button type="submit" size="lg" disabled={createOrganization.isPending}>
                {createOrganization.isPending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
                Continue
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
