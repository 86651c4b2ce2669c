import { LinkIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.tsx';
import { usePermission, useRole } from '@/lib/permissions.ts';
import { BankChanges } from './bank-changes.tsx';
import { CreateLinkDialog } from './create-link-dialog.tsx';
import { useVendorLinks, useVendorSubmissions } from './onboarding-queries.ts';
import { OpenLinks } from './open-links.tsx';
import { SubmissionCard } from './submission-card.tsx';

/** Vendor onboarding on the Vendor Management page: links, submissions to review, bank changes. */
export function OnboardingPanel() {
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const canEdit = usePermission('vendors.edit');
  const links = useVendorLinks();
  const submissions = useVendorSubmissions();
  const role = useRole();
  // Home's "Generate Vendor Form" opens the page with ?link=1: once the role is known, open the dialog (or
  // say why not) and drop the parameter, so a reload or Back does not open it again.
  useEffect(() => {
    if (params.get('link') !== '1' || !role) return;
    if (canEdit.allowed) setCreating(true);
    else if (canEdit.reason) toast.error(canEdit.reason);
    setParams({}, { replace: true });
  }, [params, setParams, role, canEdit.allowed, canEdit.reason]);
  const pending = (submissions.data ?? []).filter((s) => s.status === 'pending');
  const openLinks = (links.data ?? []).filter((l) => l.state === 'open' || l.state === 'changes_requested');
  return (
    <section aria-labelledby="onboarding-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="onboarding-title" className="font-semibold text-lg tracking-tight">
            Vendor onboarding
          </h2>
          <p className="text-muted-foreground text-sm">
            Send a vendor a link; they fill in their own PAN, GSTINs, bank account and Udyam details, and you
            approve what they send.
          </p>
        </div>
        <Button
          onClick={() => setCreating(true)}
          disabled={!canEdit.allowed}
          title={canEdit.reason ?? undefined}
        >
          <LinkIcon aria-hidden="true" />
          Create onboarding link
        </Button>
      </div>
      <BankChanges />
      <div className="flex flex-col gap-2">
        <h3 className="font-medium">To review ({pending.length})</h3>
        {pending.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-muted-foreground text-sm">
            Nothing to review. A vendor's form appears here once they send it.
          </p>
        ) : (
          <ul className="flex flex-col gap-3">
            {pending.map((s) => (
              <SubmissionCard key={s.id} item={s} />
            ))}
          </ul>
        )}
      </div>
      <OpenLinks links={openLinks} />
      {creating && <CreateLinkDialog onClose={() => setCreating(false)} />}
    </section>
  );
}
