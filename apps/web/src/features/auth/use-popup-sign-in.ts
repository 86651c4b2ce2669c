import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { authClient } from '@/lib/auth-client.ts';
import { buildPopupUrl, POPUP_FEATURES, POPUP_WINDOW_NAME, parsePopupMessage } from '@/lib/popup-message.ts';

/**
 * Signs in through an identity provider in a popup window. The server's `/auth/popup-done` page
 * posts `{ type: 'bahi-auth', ok }` to this window; we then refetch the session and go home (the
 * route guard sends users without an organisation on to onboarding).
 */
export function usePopupSignIn(mode: 'signin' | 'signup') {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = authClient.useSession();
  const [pendingProvider, setPendingProvider] = useState<string | null>(null);
  const cleanupRef = useRef<(() => void) | null>(null);

  useEffect(() => () => cleanupRef.current?.(), []);

  const start = useCallback(
    (providerId: string) => {
      cleanupRef.current?.();
      const popup = window.open(buildPopupUrl(providerId, mode), POPUP_WINDOW_NAME, POPUP_FEATURES);
      if (!popup) {
        toast.error('Popup blocked. Please allow popups for this site.');
        return;
      }
      setPendingProvider(providerId);

      const finish = () => {
        window.removeEventListener('message', onMessage);
        window.clearInterval(closedTimer);
        cleanupRef.current = null;
        setPendingProvider(null);
      };

      const onMessage = async (event: MessageEvent) => {
        const message = parsePopupMessage(event, window.location.origin);
        if (!message) return;
        finish();
        if (!message.ok) {
          toast.error('Sign-in failed', {
            description: message.error || 'The identity provider did not sign you in.',
          });
          return;
        }
        // Wait until the session store holds the new user, or the guard would see "signed out".
        await session.refetch({ query: { disableCookieCache: true } });
        await queryClient.invalidateQueries({ queryKey: ['me'] });
        navigate('/', { replace: true });
      };

      // If the popup closes without a message, stop showing the button as busy — but first ask the server:
      // on a busy machine the popup can close before its message is delivered, and the session decides.
      const closedTimer = window.setInterval(() => {
        if (!popup.closed) return;
        finish();
        void authClient.getSession({ query: { disableCookieCache: true } }).then(async ({ data }) => {
          if (!data?.user) return;
          await session.refetch({ query: { disableCookieCache: true } });
          await queryClient.invalidateQueries({ queryKey: ['me'] });
          navigate('/', { replace: true });
        });
      }, 600);

      window.addEventListener('message', onMessage);
      cleanupRef.current = finish;
    },
    [mode, navigate, queryClient, session.refetch],
  );

  return { start, pendingProvider };
}
