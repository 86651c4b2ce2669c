import type { AuthProvider } from '@bahi/contracts';
import { KeyRoundIcon, Loader2Icon } from 'lucide-react';
import { GoogleIcon } from '@/components/google-icon.tsx';
import { Button } from '@/components/ui/button.tsx';
import { getProviderLabel } from './provider-label.ts';
import { usePopupSignIn } from './use-popup-sign-in.ts';

/** One button per configured identity provider; each opens the provider in a popup. */
export function ProviderButtons({
  providers,
  mode,
}: {
  providers: AuthProvider[];
  mode: 'signin' | 'signup';
}) {
  const { start, pendingProvider } = usePopupSignIn(mode);
  return (
    <div className="flex flex-col gap-3">
      {providers.map((provider) => (
        <Button
          key={provider.id}
          type="button"
          variant="outline"
          size="lg"
          className="w-full"
          disabled={pendingProvider !== null}
          onClick={() => start(provider.id)}
        >
          {pendingProvider === provider.id ? (
            <Loader2Icon className="animate-spin" aria-hidden="true" />
          ) : provider.id === 'google' ? (
            <GoogleIcon className="size-4" />
          ) : (
            <KeyRoundIcon aria-hidden="true" />
          )}
          {getProviderLabel(provider, mode)}
        </Button>
      ))}
    </div>
  );
}
