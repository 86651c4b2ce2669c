import { type CreateOrganizationInput, CreateOrganizationInputSchema, defaultOrgType } from '@bahi/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '@/lib/api.ts';
import { registerClearing, setServerFieldErrors, useContractForm } from '@/lib/form.ts';
import { useCreateOrganization } from '@/lib/organization.ts';
import { useMe } from '@/lib/session.ts';

/**
 * The organisation form: its fields, the form-wide error and the submit that creates the organisation
 * and opens the app.
 */
export function useOnboardingForm() {
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

  return {
    form,
    field,
    formError,
    clearFormError: () => setFormError(null),
    onSubmit: form.handleSubmit(submit),
    pending: createOrganization.isPending,
    firstName: me.data?.user.name.split(' ')[0],
  };
}

/** The organisation form, as the page's parts take it. */
export type OnboardingForm = ReturnType<typeof useOnboardingForm>;
