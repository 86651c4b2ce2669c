import type { ZohoConnection } from '@bahi/contracts';
import { BookOpenCheckIcon } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { usePermission } from '@/lib/permissions.ts';
import { useZohoConnection } from './books-api.ts';
import { BooksCardHeader } from './books-card-header.tsx';
import { BooksPushBadge } from './books-push-badge.tsx';
import { ZohoForm } from './zoho-form.tsx';
import { ZohoMappingForm } from './zoho-mapping.tsx';

// The Zoho Books card of the Integrations page: the connection form, the state of the last test and push,
// and the account and tax mapping.

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' });

function ZohoState({ zoho }: { zoho: ZohoConnection }) {
  return (
    <div className="flex flex-col gap-2 rounded-md border bg-muted/30 p-3 text-sm" data-testid="zoho-state">
      {zoho.lastTest ? (
        <p className={zoho.lastTest.ok ? 'break-words' : 'break-words text-destructive'}>
          Last test ({when(zoho.lastTest.at)}): {zoho.lastTest.message}
        </p>
      ) : (
        <p className="text-muted-foreground">Not tested yet.</p>
      )}
      <p className="text-muted-foreground">
        {zoho.counts.posted} posted · {zoho.counts.queued} on the way · {zoho.counts.failed} failed
      </p>
      {zoho.lastPush && (
        <div className="flex flex-wrap items-center gap-2">
          <span>Last push: {zoho.lastPush.fileName}</span>
          <BooksPushBadge push={zoho.lastPush} />
          {zoho.lastPush.error && <span className="text-destructive">{zoho.lastPush.error}</span>}
        </div>
      )}
    </div>
  );
}

/** The Zoho Books card of the Integrations page. */
export function ZohoCard() {
  const zoho = useZohoConnection();
  const canManage = usePermission('integrations.manage').allowed;
  if (zoho.isPending) return <Skeleton className="h-56" />;
  if (zoho.isError)
    return (
      <p role="alert" className="text-destructive text-sm">
        Couldn't load the Zoho Books connection: {zoho.error.message}
      </p>
    );
  const z = zoho.data;
  const connected = z.configured && z.lastTest?.ok;
  return (
    <Card data-testid="zoho-card">
      <BooksCardHeader
        icon={BookOpenCheckIcon}
        title="Zoho Books"
        configured={z.configured}
        connected={Boolean(connected)}
        badgeTestId="zoho-badge"
      >
        Post approved purchase invoices as bills with their PDF; Bahi looks for the vendor's bill number
        first, so a bill is never made twice.
      </BooksCardHeader>
      <CardContent className="flex flex-col gap-4">
        <ZohoForm zoho={z} canManage={canManage} />
        {z.configured && <ZohoState zoho={z} />}
        {z.configured && <ZohoMappingForm canManage={canManage} />}
      </CardContent>
    </Card>
  );
}
