import { orgTypeLabels } from '@bahi/contracts';
import { Building2Icon, Loader2Icon } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Separator } from '@/components/ui/separator.tsx';
import { getInitials } from '@/lib/format.ts';
import { countStatesCovered, type GstinEntry, type ProfileValues } from './gstin-list.ts';

/** The summary beside the form: who is signed in, the organisation as typed, its GSTINs, and Save. */
export function ProfileSummary({
  user,
  values,
  gstins,
  saving,
}: {
  user: { name: string; email: string };
  values: ProfileValues;
  gstins: GstinEntry[];
  saving: boolean;
}) {
  const statesCovered = countStatesCovered(gstins);
  return (
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
        <Button type="submit" className="w-full" disabled={saving}>
          {saving && <Loader2Icon className="animate-spin" aria-hidden="true" />}
          Save Changes
        </Button>
        <p className="text-center text-muted-foreground text-xs">
          GSTIN changes are saved with the rest of the profile.
        </p>
      </CardContent>
    </Card>
  );
}
