import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';

/**
 * Back from a mailbox sign-in (Google / Microsoft 365) the server sends the browser to the flow's sheet
 * with `mailOAuth=connected`, or to `/parse` with `mailOAuthError=<why>`: say how it went once, then drop
 * the marker so a reload does not say it again.
 */
export function useMailOAuthNotice(enabled = true) {
  const [searchParams, setSearchParams] = useSearchParams();
  useEffect(() => {
    const connected = searchParams.get('mailOAuth') === 'connected';
    const failed = searchParams.get('mailOAuthError');
    if (!enabled || (!connected && failed === null)) return;
    if (connected)
      toast.success('Mailbox connected', { description: 'Bahi reads it from the next check on.' });
    else toast.error('The mailbox was not connected', { description: failed ?? undefined });
    const next = new URLSearchParams(searchParams);
    next.delete('mailOAuth');
    next.delete('mailOAuthError');
    setSearchParams(next, { replace: true });
  }, [enabled, searchParams, setSearchParams]);
}
