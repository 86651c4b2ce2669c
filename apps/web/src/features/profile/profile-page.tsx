import { DEFAULT_TIME_ZONE, type Organization } from '@bahi/contracts';
import { useState } from 'react';
import { toast } from 'sonner';
import { PageHeader } from '@/components/page-header.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { UnsavedChangesGuard } from '@/components/unsaved-changes.tsx';
import { ApiError } from '@/lib/api.ts';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { setServerFieldErrors, useContractForm } from '@/lib/form.ts';
import { formatIndianPhone } from '@/lib/format.ts';
import { useUpdateOrganization } from '@/lib/organization.ts';
import { useMe } from '@/lib/session.ts';
import { buildProfileUpdate, type GstinEntry, ProfileFormSchema, type ProfileValues } from './gstin-list.ts';
import { GstinManager } from './gstin-manager.tsx';

import { AccountCard, OrganisationCard } from './profile-sections.tsx';
import { ProfileSummary } from './profile-summary.tsx';

/** Form state seeded from the saved organisation. */
function toFormState(organization: Organization | null): { values: ProfileValues; gstins: GstinEntry[] } {
  return {
    values: {
      legalName: organization?.legalName ?? '',
      phone: formatIndianPhone(organization?.phone ?? ''),
      orgType: organization?.orgType ?? 'pvt_ltd',
      address: organization?.address ?? '',
      timeZone: organization?.timeZone ?? DEFAULT_TIME_ZONE,
    },
    gstins: (organization?.gstins ?? []).map(({ gstin, label, stateCode }) => ({ gstin, label, stateCode })),
  };
}

/** Editable profile once `/api/me` has loaded (kept separate so its state initialises from real data). */
function ProfileForm({
  organization,
  user,
}: {
  organization: Organization | null;
  user: { name: string; email: string };
}) {
  const initial = toFormState(organization);
  const form = useContractForm<ProfileValues, ProfileValues>(ProfileFormSchema, initial.values);
  // The summary card shows the values as they are typed.
  const values = form.watch();
  const [gstins, setGstins] = useState<GstinEntry[]>(initial.gstins);
  const updateOrganization = useUpdateOrganization();

  /** Runs with the contract's output (trimmed values); the GSTIN set goes with it. */
  async function save(checked: ProfileValues) {
    try {
      const saved = await updateOrganization.mutateAsync(buildProfileUpdate(checked, gstins));
      const next = toFormState(saved);
      form.reset(next.values);
      setGstins(next.gstins);
      toast.success('Profile updated', {
        description: 'Your profile information has been saved successfully.',
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'duplicate_gstin') {
        toast.error('Duplicate GSTIN', { description: 'This GSTIN is already added to your profile.' });
        return;
      }
      if (error instanceof ApiError) setServerFieldErrors(form.setError, error.fields);
      toast.error('Error', { description: 'Failed to update profile. Please try again.' });
    }
  }

  // Anything typed or a GSTIN added but not saved yet: leaving asks first.
  const dirty = form.formState.isDirty || JSON.stringify(gstins) !== JSON.stringify(initial.gstins);

  return (
    <form onSubmit={form.handleSubmit(save)} noValidate className="grid grid-cols-1 gap-6 xl:grid-cols-3">
      <UnsavedChangesGuard dirty={dirty && !updateOrganization.isPending} what="your profile" />
      <div className="flex flex-col gap-6 xl:col-span-2">
        <AccountCard user={user} />

        <OrganisationCard form={form} />

        <GstinManager entries={gstins} onChange={setGstins} />
      </div>

      <div className="flex flex-col gap-6">
        <ProfileSummary user={user} values={values} gstins={gstins} saving={updateOrganization.isPending} />
      </div>
    </form>
  );
}

/** `/profile`: account details, organisation profile and GSTINs. */
export function ProfilePage() {
  useDocumentTitle('Profile');
  const me = useMe();
  return (
    <div className="flex flex-col gap-8">
      <PageHeader title="Profile" description="Your account and your organisation's business details." />
      {me.data ? (
        <ProfileForm
          key={me.data.organization?.updatedAt ?? 'new'}
          organization={me.data.organization}
          user={me.data.user}
        />
      ) : (
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
          <Skeleton className="h-96 xl:col-span-2" />
          <Skeleton className="h-64" />
        </div>
      )}
    </div>
  );
}
