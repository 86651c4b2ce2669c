import type { BooksPush } from '@bahi/contracts';
import { Badge } from '@/components/ui/badge.tsx';

const VARIANT: Record<BooksPush['label'], 'success' | 'destructive' | 'outline' | 'secondary'> = {
  Posted: 'success',
  Altered: 'success',
  Cancelled: 'secondary',
  Failed: 'destructive',
  Queued: 'outline',
  Posting: 'outline',
  'Changed since posted': 'secondary',
};

/** A document's state in Tally (or Zoho Books), with the books' refusal as the tooltip when it failed. */
export function BooksPushBadge({ push }: { push: BooksPush | undefined }) {
  if (!push) return null;
  return (
    <Badge variant={VARIANT[push.label]} title={push.error ?? undefined} data-testid={`${push.kind}-status`}>
      {push.label}
    </Badge>
  );
}
