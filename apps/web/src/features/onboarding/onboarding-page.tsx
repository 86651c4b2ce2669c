import { defaultOrgType, type OrgType, orgTypeLabels, orgTypes } from '@bahi/contracts';
import { Loader2Icon } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { BrandLogo } from '@/components/brand-logo.tsx';
import { FormField } from '@/components/form-field.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { FormError } from '@/features/auth/form-error.tsx';
import { useMe } from '@/features/auth/queries.ts';
import { useCreateOrganization } from '@/features/profile/queries.ts';
import { signOutAndLeave } from '@/features/shell/sign-out.ts';
import { ApiError } from '@/lib/api.ts';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { type FieldErrors, hasErrors, type OnboardingValues, validateOnboarding } from './validate.ts';

type Field = keyof OnboardingValues;

/** `/onboarding`: a focused card that creates the user's organisation before the app opens. */
export function OnboardingPage() {
  useDocumentTitle('Set up your organisation');
  const navigate = useNavigate();
  const me = useMe();
  const createOrganization = useCreateOrganization();
  const [values, setValues] = useState<OnboardingValues>({
    orgName: '',
    phone: '',
    // The specification's default: most businesses with a finance team are private limited companies.
    orgType: defaultOrgType,
    address: '',
  });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [formError, setFormError] = useState<string | null>(null);

  function update(field: Field, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    // Each message disappears as soon as the user edits its field.
    setErrors((current) => ({ ...current, [field]: undefined }));
    setFormError(null);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateOnboarding(values);
    setErrors(found);
    if (hasErrors(found)) return;
    setFormError(null);
    try {
      await createOrganization.mutateAsync({
        orgName: values.orgName.trim(),
        phone: values.phone.trim(),
        orgType: values.orgType as OrgType,
        address: values.address.trim(),
      });
      navigate('/', { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'organization_exists') {
        await me.refetch();
        navigate('/', { replace: true });
        return;
      }
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        setErrors(error.fields as FieldErrors<Field>);
        return;
      }
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
          <form onSubmit={handleSubmit} noValidate className="flex flex-col gap-5">
            <FormField id="orgName" label="Organization name" required error={errors.orgName}>
              {(ids) => (
                <Input
                  {...ids}
                  name="orgName"
                  autoComplete="organization"
                  placeholder="Acme Traders Private Limited"
                  value={values.orgName}
                  onChange={(e) => update('orgName', e.target.value)}
                />
              )}
            </FormField>
            <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
              <FormField id="phone" label="Contact phone" required error={errors.phone}>
                {(ids) => (
                  <Input
                    {...ids}
                    name="phone"
                    type="tel"
                    autoComplete="tel"
                    placeholder="+91 98450 12345"
                    value={values.phone}
                    onChange={(e) => update('phone', e.target.value)}
                  />
                )}
              </FormField>
              <FormField id="orgType" label="Organization type" required error={errors.orgType}>
                {(ids) => (
                  <Select
                    value={values.orgType}
                    onValueChange={(value) => update('orgType', value)}
                    name="orgType"
                  >
                    <SelectTrigger {...ids}>
                      <SelectValue placeholder="Select type" />
                    </SelectTrigger>
                    <SelectContent>
                      {orgTypes.map((type) => (
                        <SelectItem key={type} value={type}>
                          {orgTypeLabels[type]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              </FormField>
            </div>
            <FormField id="address" label="Business address" required error={errors.address}>
              {(ids) => (
                <Textarea
                  {...ids}
                  name="address"
                  autoComplete="street-address"
                  rows={3}
                  placeholder="Building, street, city, PIN code"
                  value={values.address}
                  onChange={(e) => update('address', e.target.value)}
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
