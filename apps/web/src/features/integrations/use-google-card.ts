import { useState } from 'react';
import { toast } from 'sonner';
import { connectGoogle } from '@/shared/integrations/google-oauth.ts';
import { useGoogleActions, useRefreshGoogleState } from '@/shared/integrations/queries.ts';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The Google card's actions with their toasts: connect (popup), disconnect, verify, and the folder and
 * sheet set-up. Kept apart from the markup so the card only shows state.
 */
export function useGoogleCard() {
  const actions = useGoogleActions();
  const refreshState = useRefreshGoogleState();
  const [connecting, setConnecting] = useState(false);

  const connect = async () => {
    setConnecting(true);
    try {
      await connectGoogle();
      toast.success('Google connected', {
        description: 'Flows can now read Drive folders and write Google Sheets.',
      });
    } catch (error) {
      toast.error('Connection failed', { description: errorText(error) });
    } finally {
      setConnecting(false);
      await refreshState();
    }
  };

  const disconnect = () =>
    actions.disconnect.mutate(undefined, {
      onSuccess: () =>
        toast.success('Google disconnected', {
          description: 'Access was revoked; the folder and sheet set-up was cleared.',
        }),
      onError: (error) => toast.error('Disconnect failed', { description: errorText(error) }),
    });

  const verify = () =>
    actions.verify.mutate(undefined, {
      onSuccess: (status) => toast.success('Connection verified', { description: status.email ?? undefined }),
      onError: (error) => toast.error('Connection check failed', { description: errorText(error) }),
    });

  /** Links the pasted item (or creates one) and says which happened; folder and sheet differ only in words. */
  const setup =
    (run: typeof actions.folder.mutateAsync, noun: 'Folder' | 'Sheet') => async (url: string | undefined) => {
      try {
        const item = await run(url ? { url } : {});
        toast.success(item.created ? `${noun} created` : `${noun} linked`, { description: item.name });
      } catch (error) {
        toast.error('Creation failed', { description: errorText(error) });
      }
    };

  return {
    actions,
    connecting,
    connect,
    disconnect,
    verify,
    setupFolder: setup(actions.folder.mutateAsync, 'Folder'),
    setupSheet: setup(actions.vendorSheet.mutateAsync, 'Sheet'),
  };
}
