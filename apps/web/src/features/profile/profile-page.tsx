import { DEFAULT_TIME_ZONE, type Organization, orgTypeLabels } from '@bahi/contracts';
import { Building2Icon, Loader2Icon, MailIcon, UserIcon } from 'lucide-react';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { toast } from 'sonner';
import { FormField } from '@/components/form-field.tsx';
import { OrgTypeSelect } from '@/components/org-type-select.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { TimeZoneSelect } from '@/components/time-zone-select.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Separator } from '@/components/ui/separator.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { UnsavedChangesGuard } from '@/components/unsaved-changes.tsx';
import { ApiError } from '@/lib/api.ts';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { registerClearing, setServerFieldErrors, useContractForm } from '@/lib/form.ts';
import { formatIndianPhone, getInitials } from '@/lib/format.ts';
import { useUpdateOrganization } from '@/lib/organization.ts';
import { useMe } from '@/lib/session.ts';
import {
  buildProfileUpdate,
  countStatesCovered,
  type GstinEntry,
  ProfileFormSchema,
  type ProfileValues,
} from './gstin-list.ts';
import { GstinManager } from './gstin-manager.tsx';

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
  const { errors } = form.formState;
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

  const statesCovered = countStatesCovered(gstins);
  // Anything typed or a GSTIN added but not saved yet: leaving asks first.
  const dirty = form.formState.isDirty || JSON.stringify(gstins) !== JSON.stringify(initial.gstins);

  return (
    <form onSubmit={form.handleSubmit(save)} noValidate className="grid grid-cols-1 gap-6 xl:grid-cols-3">
      <UnsavedChangesGuard dirty={dirty && !updateOrganization.isPending} what="your profile" />
      <div className="flex flex-col gap-6 xl:col-span-2">
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
                  <UserIcon
                    className="absolute top-2.5 left-3 size-4 text-muted-foreground"
                    aria-hidden="true"
                  />
                  <Input {...ids} value={user.name} readOnly disabled className="pl-9" />
                </div>
              )}
            </FormField>
            <FormField id="account-email" label="Email">
              {(ids) => (
                <div className="relative">
                  <MailIcon
                    className="absolute top-2.5 left-3 size-4 text-muted-foreground"
                    aria-hidden="true"
                  />
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
              {(ids) => (
                <Input {...ids} autoComplete="organization" {...registerClearing(form, 'legalName')} />
              )}
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

        <GstinManager entries={gstins} onChange={setGstins} />
      </div>

      <div className="flex flex-col gap-6">
        <Card className="xl:sticky xl:top-24">
          <CardHeader>
            <CardTitle>Summary</CardTitle>
            <CardDescription>How your organisation appears in Bahi</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <div className="flex items-center gap-3">
              <span
                className="flex size-11 shrink-0 items-center justify-center rounded-full bg-primary font-semibold text-primary-foreground"
                aria-hidden="true"
                data-testid="summary-initials"
              >
                {getInitials(user.name, user.email)}
              </span>
              <div className="min-w-0">
                <p className="break-words font-medium leading-snug" data-testid="summary-user-name">
                  {user.name}
                </p>
                {/* Addresses wrap at any character rather than being cut mid-address on a phone. */}
                <p className="break-all text-muted-foreground text-sm" data-testid="summary-email">
                  {user.email}
                </p>
              </div>
            </div>
            <Separator />
            <div className="flex items-center gap-3">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent text-accent-foreground">
                <Building2Icon className="size-5" aria-hidden="true" />
              </span>
              <div className="min-w-0">
                <p className="break-words font-medium leading-snug" data-testid="summary-org-name">
                  {values.legalName.trim() || 'Unnamed organisation'}
                </p>
                <p className="text-muted-foreground text-sm" data-testid="summary-org-type">
                  {orgTypeLabels[values.orgType]}
                </p>
              </div>
            </div>
            <Separator />
            <dl className="grid grid-cols-2 gap-4">
              <div>
                <dt className="text-muted-foreground text-xs">GSTINs</dt>
                <dd className="font-semibold text-2xl tabular-nums" data-testid="summary-gstin-count">
                  {gstins.length}
                </dd>
              </div>
              <div>
                <dt className="text-muted-foreground text-xs">States covered</dt>
                <dd className="font-semibold text-2xl tabular-nums" data-testid="summary-states">
                  {statesCovered}
                </dd>
              </div>
            </dl>
            <Separator />
            <Button type="submit" className="w-full" disabled={updateOrganization.isPending}>
              {updateOrganization.isPending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
              Save Changes
            </Button>
            <p className="text-center text-muted-foreground text-xs">
              GSTIN changes are saved with the rest of the profile.
            </p>
          </CardContent>
        </Card>
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
