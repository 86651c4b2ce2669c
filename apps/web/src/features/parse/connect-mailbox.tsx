import { useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ApiError } from '@/lib/api.ts';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

/**
 * "Connect with Google / Microsoft 365": sends the browser to the provider's sign-in page for this flow's
 * mailbox (it comes back to the flow). Only for a saved flow whose saved mailbox already signs in this way,
 * since the connection belongs to the saved flow.
 */
export function ConnectMailbox({
  provider,
  flowId,
  saved,
}: {
  provider: 'google' | 'microsoft';
  flowId: string | undefined;
  saved: boolean;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = provider === 'google' ? 'Google' : 'Microsoft 365';
  if (!flowId || !saved)
    return (
      <p
        className="rounded-md bg-muted/60 px-3 py-2 text-muted-foreground text-xs"
        data-testid="mail-connect-later"
      >
        Save the flow, then open it again and press "Connect with {name}" to sign in to the mailbox.
      </p>
    );
  async function connect() {
    setBusy(true);
    setError(null);
    try {
      const { url } = await callEndpoint(api.connectMailbox, {
        params: { id: flowId ?? '' },
        body: { provider },
      });
      window.location.assign(url);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Could not start signing in; try again');
      setBusy(false);
    }
  }
  return (
    <div className="grid gap-1.5">
      <Button type="button" variant="outline" onClick={connect} disabled={busy} data-testid="mail-connect">
        Connect with {name}
      </Button>
      <p className="text-muted-foreground text-xs">
        Opens {name}'s sign-in page; Bahi keeps only a renewable key to read this mailbox. Press it again to
        reconnect if the flow says so.
      </p>
      {error && (
        <p className="text-destructive text-xs" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
