import { PlugZapIcon } from 'lucide-react';
import { Spinner } from '@/components/spinner.tsx';
import { Button } from '@/components/ui/button.tsx';

/**
 * The foot of a books connection form (Tally, Zoho Books): what went wrong in words, then "Save and test"
 * and, once a connection is saved, "Test connection" — for people who may manage integrations.
 */
export function ConnectionActions({
  error,
  canManage,
  configured,
  busy,
  onRetest,
}: {
  error: string | null;
  canManage: boolean;
  configured: boolean;
  busy: boolean;
  onRetest: () => void;
}) {
  return (
    <>
      {error && (
        <p role="alert" className="text-destructive text-sm">
          {error}
        </p>
      )}
      {canManage && (
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={busy}>
            {busy ? <Spinner /> : null}
            Save and test
          </Button>
          {configured && (
            <Button type="button" variant="outline" onClick={onRetest} disabled={busy}>
              <PlugZapIcon aria-hidden="true" />
              Test connection
            </Button>
          )}
        </div>
      )}
    </>
  );
}
