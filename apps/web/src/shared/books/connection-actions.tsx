import { PlugZapIcon } from 'lucide-react';
import { toast } from 'sonner';
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

/** A connection test's answer as TanStack's `mutate` hands it over. */
interface ConnectionTest {
  mutate: (
    input: undefined,
    handlers: { onSuccess: (r: { ok: boolean; message: string }) => void; onError: (e: Error) => void },
  ) => void;
}

/** "Test connection": its answer as a toast, in words ("Connection works", or `refused` and why). */
export function retestConnection(test: ConnectionTest, refused: string): void {
  test.mutate(undefined, {
    onSuccess: (r) =>
      r.ok
        ? toast.success('Connection works', { description: r.message })
        : toast.error(refused, { description: r.message }),
    onError: (e) => toast.error('Test failed', { description: e.message }),
  });
}
