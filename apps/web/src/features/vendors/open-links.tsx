import type { VendorLink } from '@bahi/contracts';
import { formatIndianDate } from '@bahi/india';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.tsx';
import { usePermission } from '@/lib/permissions.ts';
import { useRevokeVendorLink } from './onboarding-queries.ts';

const STATE_WORDS: Record<VendorLink['state'], string> = {
  open: 'Waiting for the vendor',
  submitted: 'Sent: to review',
  changes_requested: 'Sent back for changes',
  approved: 'Approved',
  rejected: 'Rejected',
  revoked: 'Revoked',
  expired: 'Expired',
};

const MAIL_WORDS: Record<NonNullable<VendorLink['mail']>['state'], string> = {
  queued: 'E-mail waiting to go to',
  sending: 'E-mail going to',
  sent: 'E-mailed to',
  failed: 'E-mail not sent yet to',
};

/** Links sent and not yet answered, each with its e-mail's state and a way to revoke it. */
export function OpenLinks({ links }: { links: VendorLink[] }) {
  const canEdit = usePermission('vendors.edit');
  const revoke = useRevokeVendorLink();
  if (links.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <h3 className="font-medium">Links waiting for vendors</h3>
      <ul className="divide-y rounded-lg border bg-card text-sm">
        {links.map((l) => (
          <li
            key={l.id}
            className="flex flex-wrap items-center justify-between gap-2 px-4 py-2"
            data-testid="vendor-link"
          >
            <span>
              <span className="font-medium">{l.vendorName}</span>{' '}
              <span className="text-muted-foreground">
                {STATE_WORDS[l.state]} · until {formatIndianDate(l.expiresAt.slice(0, 10))}
              </span>
              {l.mail && (
                <span
                  className={`block text-xs ${l.mail.state === 'failed' ? 'text-destructive' : 'text-muted-foreground'}`}
                >
                  {MAIL_WORDS[l.mail.state]} {l.mail.to}
                  {l.mail.state === 'failed' && l.mail.error ? `: ${l.mail.error}` : ''}
                </span>
              )}
            </span>
            <Button
              size="sm"
              variant="ghost"
              disabled={!canEdit.allowed || revoke.isPending}
              onClick={() =>
                revoke.mutate(l.id, {
                  onSuccess: () => toast.success(`The link for ${l.vendorName} no longer works`),
                  onError: (e) => toast.error(e.message),
                })
              }
            >
              Revoke
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
